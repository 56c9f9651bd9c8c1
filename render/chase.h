/* chase.h — the renderer's chase view: a perspective camera over the road, drawn with Cairo.
 *
 * A scene holds a take's bodies (the rig's visual shapes, scene/take_bodies.h, tessellated
 * coarsely into flat faces), its motion (scene/motion.h: poses at every step, interpolated at
 * the drawn time), its track (rebuilt from the embedded source) and one camera rig of
 * rigs/cameras.lua (scene/cameras.h). A frame is: ground and a sky gradient cut by the true
 * horizon; the road near the camera (asphalt, white edge lines, red and white kerbs on the
 * insides of curves, grass verges, centre-line dashes) drawn far to near; then the machine's
 * faces, back faces culled, flat Lambert shading under a fixed sun, depth-sorted (painter's
 * algorithm) and clipped to the near plane and a guard band before projection.
 *
 * Contents: building a scene (from a take, or from given bodies for tests) and its settings
 * (camera, layers, one body, live poses) — render/chase_scene.c; painting a frame, projection
 * and clipping — render/chase.c. Errors: one line in e naming the camera/field or the take's
 * fault (MT_EINPUT), NULL or the code returned. The scene owns all it holds; drawing is
 * deterministic (same inputs, same pixels) and allocates nothing once the draw list has
 * grown. The camera file's names: sc_camera_names / sc_camera_list (scene/cameras.h).
 * docs/render.md, "Chase view and cameras", is the user's guide. */
#ifndef CHASE_H
#define CHASE_H

#include <cairo.h>
#include "scene/cameras.h"
#include "scene/shapes.h"
#include "base/mt.h"
#include "takes/takefile.h"

typedef struct chase_scene chase_scene;      /* a take's bodies, shapes and road, ready to draw in 3-D */
/* Build from an open take (embedded rig shapes, embedded track). camera: a name from rigs/cameras.lua
 * ("chase", "trackside", "onboard"; NULL = "chase"). One line naming the camera/field on error. */
chase_scene* chase_scene_new(take_reader* r, const char* camera, mt_err* e);
/* The same, with the take's poses already decoded by the caller (poses: every step's TAKE_POSE row,
 * take_nsteps × nbody × 7, as take_read gives them; copied): the take's poses are not read again. */
chase_scene* chase_scene_new_poses(take_reader* r, const double* poses, const char* camera, mt_err* e);
void chase_scene_free(chase_scene* s);
/* Draw the take at time t (s from the take's start) into a w×h area of cr (origin at 0,0; the view paints
 * its own sky/ground). ghost (may be NULL) is a second take's scene drawn translucent with the same camera
 * (--compare). Deterministic: same inputs, same pixels. */
int chase_draw(chase_scene* s, cairo_t* cr, double w, double h, double t, chase_scene* ghost, mt_err* e);
/* Switch a take's scene (chase_scene_new) to another camera of rigs/cameras.lua, keeping its
 * decoded poses, shapes and road: the same views and pixels as chase_scene_new(r, camera) of the
 * same take, without reading the take again. One line naming the camera/field on error (the
 * scene keeps its camera then). */
int chase_scene_set_camera(chase_scene* s, const char* camera, mt_err* e);

/* Live drawing (the ride window, app/ride_win.c): every recorded pose of the scene becomes
 * `pose` (nb × 7, world) and its camera track the unit heading (hx, hy) at `station`, so the next
 * chase_draw shows that one instant whatever t. No allocation. */
void chase_scene_set_live(chase_scene* s, const double* pose, double hx, double hy, double station);

/*---- for tests and tools ----*/
/* The same as chase_scene_new with another camera file (cameras_path NULL: rigs/cameras.lua). */
chase_scene* chase_scene_new_from(take_reader* r, const char* cameras_path, const char* camera, mt_err* e);

/* A camera at one instant (scene/cameras.h: eye, unit right, down and forward axes, vertical
 * field of view). */
typedef sc_view chase_view;

/* The scene's camera at time t (clamped to the take). */
void chase_view_at(const chase_scene* s, double t, chase_view* v);
/* World point → pixel in a w×h image; returns 0 (and leaves px) when p is behind the near plane. */
int chase_project(const chase_view* v, double w, double h, const double p[3], double px[2]);
/* The world position of the root body's frame (the machine's frame origin) at time t. */
void chase_root_at(const chase_scene* s, double t, double p[3]);
/* Draw with a given camera instead of the scene's (tests). */
int chase_draw_view(chase_scene* s, cairo_t* cr, double w, double h, double t, chase_scene* ghost,
                    const chase_view* v, mt_err* e);
/* What chase_draw paints (tests isolate the machine's pixels): CHASE_ALL by default. */
enum { CHASE_SKY = 1, CHASE_ROAD = 2, CHASE_BODIES = 4, CHASE_ALL = 7 };
void chase_set_layers(chase_scene* s, int layers);
/* The machine's level of detail: −1 (the default) picks it per frame from the camera (the
 * coarsest whose facets stray at most CHASE_LOD_PX pixels from the round shapes, at the bodies'
 * nearest point); 0 is the finest, up to CHASE_NLOD − 1 the coarsest. chase_last_lod: the level
 * the last frame drew (tests). */
void chase_set_lod(chase_scene* s, int level);
int chase_last_lod(const chase_scene* s);
/* on (the default): each run of consecutive faces (far to near) of one opaque colour is one
 * fill; off: every face its own fill, as before the merge (tests compare the pictures). */
void chase_set_merge(chase_scene* s, int on);
/* on (the default): a view under CHASE_ROAD_REF_H px tall (a grid's cell) draws the road in
 * sections longer in proportion, as many pixels apart as in a 1280 × 720 frame's view, each
 * centre-line dash cut to its own stations; off: the sections of a view that tall whatever the
 * size (tests compare the pictures). */
void chase_set_road_scaled(chase_scene* s, int on);
/* off (the default): a face under CHASE_SPECK_PX2 px² on screen is left out; on: every face
 * is filled (tests compare the pictures). */
void chase_set_specks(chase_scene* s, int keep);
/* on (the default): where every point of the road in view lies in one plane, the road is filled
 * a colour at a time (its lines and dashes last) instead of far to near: a plane's faces never
 * hide one another on screen (a perspective projection of a plane is one to one), so only the
 * lines over the asphalt need an order. Off: far to near always (tests compare the pictures).
 * chase_last_road_grouped: whether the last frame's road was so filled. */
void chase_set_road_grouped(chase_scene* s, int on);
int chase_last_road_grouped(const chase_scene* s);
/* The number of fills the last frame's road and machine took, and the specks it left out (tests). */
int chase_last_fills(const chase_scene* s);
int chase_last_specks(const chase_scene* s);
/* Draw only the body of that name (NULL: all bodies); 0, or −1 if the take has no such body. */
int chase_set_only_body(chase_scene* s, const char* name);
/* A scene of given bodies (shapes in their frames) and poses (nsteps × nbody × 7, world, z up,
 * x y z qw qx qy qz at t = i·dt), without a road; drawn with chase_draw_view. Tests. */
chase_scene* chase_scene_new_bodies(const ex_body* bodies, int nbody, const double* poses, long nsteps,
                                    double dt, mt_err* e);
/* Clip a polygon in camera coordinates (n ≤ 8 points, xyz) to the near plane z ≥ CHASE_NEAR and to
 * a guard band |x|, |y| ≤ gx·z, gy·z; out holds up to n + 5 points; returns their count (0: all
 * clipped). */
#define CHASE_NEAR 0.05
int chase_clip(const double* in, int n, double gx, double gy, double* out);

#endif
