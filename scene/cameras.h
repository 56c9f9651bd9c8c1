/* cameras.h — the camera rigs of rigs/cameras.lua and where they stand over a take's motion
 * (module prefix sc_camera_; scene layer, shared by the chase view, render/chase.h, and the
 * exported camera tracks, exporters/meta.h). docs/render.md, "Chase view and cameras", is the
 * user's guide to the file.
 *
 * Contents:
 *   - sc_view: a camera at one instant (eye, image axes, field of view);
 *   - reading the file: sc_camera_load (one camera, checked), sc_camera_list and
 *     sc_camera_names (the names in the file);
 *   - placement: sc_camera binds a loaded camera to a motion (scene/motion.h) and gives its
 *     view at any time: follow (behind the machine along its smoothed heading), trackside
 *     (the stand nearest the machine's station, panning and zooming), onboard (fixed to a
 *     body, leaning with it); sc_camera_road: the stretch of road the camera's view shows.
 * Errors: a camera file that cannot be read or is malformed, an unknown camera or an onboard
 * camera's unknown body is MT_EINPUT with one line naming the file(:line), the camera and the
 * field (lb_* of base/luabox.h). Placement cannot fail and allocates only in sc_camera_new and
 * sc_camera_switch; views are deterministic (same motion, same camera, same bits).
 * Ownership: a camera borrows its motion (which must outlive it and may change its poses in
 * place: sc_camera_set_live) and owns its smoothed samples. The name lists point into static
 * storage, rewritten whenever the file is read: call from one thread at a time. */
#ifndef SC_CAMERAS_H
#define SC_CAMERAS_H

#include "scene/motion.h"
#include "base/mt.h"

/* A camera at one instant: eye, unit right, down and forward axes (a right-handed image frame),
 * vertical field of view (rad). A point P is at camera coordinates c = (r·(P−eye), d·(P−eye),
 * f·(P−eye)) and lands on pixel (w/2 + F·c0/c2, h/2 + F·c1/c2), F = (h/2)/tan(fov/2). */
typedef struct sc_view {
  double eye[3], r[3], d[3], f[3];
  double fov;
} sc_view;

/*---- the camera file ----*/

enum { SC_CAM_FOLLOW, SC_CAM_TRACKSIDE, SC_CAM_ONBOARD };
#define SC_CAM_MAX_POINTS 256

/* One camera as the file defines it (angles in radians; each kind's fields, the others zero). */
typedef struct sc_cam_cfg {
  char name[32];
  int kind;                        /* SC_CAM_* */
  double fov;                      /* rad (follow, onboard) */
  double distance, height, target_height, smooth;   /* follow */
  double spacing, first, offset, cam_height, frame, size, fov_min, fov_max;   /* trackside */
  int side;                        /* trackside: 0 outside, 1 left, -1 right */
  int npoint;                      /* trackside: the stands' stations (0: every `spacing` m) */
  double station[SC_CAM_MAX_POINTS];
  char body[64];                   /* onboard: the body it rides on */
  double eye[3], look[3];          /*   eye in the rig's coordinates, look direction */
  double behind, ahead;            /* road drawn over [station − behind, station + ahead] */
} sc_cam_cfg;

/* Read camera `name` from the file at path (NULL: rigs/cameras.lua of the project) into c.
 * bodies/nb: the body names an onboard camera may ride on (NULL: not checked). */
int sc_camera_load(const char* path, const char* name, const char* const* bodies, int nb, sc_cam_cfg* c, mt_err* e);
/* The names of the cameras in rigs/cameras.lua, in order (at most max): their count, or −1
 * with e set when the file cannot be read or is malformed. */
int sc_camera_list(const char** names, int max, mt_err* e);
/* The same, with an unreadable file giving an empty list (for --help text). */
int sc_camera_names(const char** names, int max);

/*---- placement ----*/

typedef struct sc_camera sc_camera;

/* Camera c over motion m (borrowed; its poses read, its track may be NULL): the smoothed
 * heading and station every 10 ms, the trackside stands, an onboard eye moved into its body's
 * frame (when m has origins). */
sc_camera* sc_camera_new(const sc_cam_cfg* c, const sc_motion* m);
void sc_camera_free(sc_camera* cam);
/* Switch to camera `name` of rigs/cameras.lua over the same motion: the same views as a camera
 * made afresh. On error the camera is unchanged. */
int sc_camera_switch(sc_camera* cam, const char* name, mt_err* e);
/* The view at time t (clamped to the motion). */
void sc_camera_view_at(const sc_camera* cam, double t, sc_view* v);
/* The road the view at t shows: about station *at (the machine's, or a trackside stand's),
 * from *at − *behind to *at + *ahead (m along the track, unwrapped). */
void sc_camera_road(const sc_camera* cam, double t, double* at, double* behind, double* ahead);
/* Live drawing: the heading (hx, hy) and station at every time, until the next switch. */
void sc_camera_set_live(sc_camera* cam, double hx, double hy, double station);

#endif
