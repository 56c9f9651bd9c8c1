/* chase_scene.h — inside the chase view (render/chase.h): the scene's layout, shared by its two
 * stages and by nothing else.
 *
 *   render/chase_scene.c  builds a scene: a take's (or given) bodies tessellated coarsely into
 *                         flat faces, its motion (scene/motion.h) and camera (scene/cameras.h),
 *                         and the per-frame work space;
 *   render/chase.c        paints a frame of it: sky, road, bodies, depth-sorted and clipped.
 *
 * Invariants: in each level of detail (lod[]) faces index vertices of that level, of one body each (vbody of their first vertex is the
 * body's; indices from mo.nb on are the rider's limbs, render/rider_draw.h, posed on the
 * skeleton's bones instead of a body); vert holds body-frame positions and never changes after building; the camera
 * borrows `mo`, so a scene is never copied or moved (it lives on the heap); the work space is
 * sized at building for the finest level's vertices (cvert), the bodies (wpose) and the road's sections (sec),
 * and the draw list (dl, pts, order) grows on demand and is reused frame after frame. */
#ifndef CHASE_SCENE_H
#define CHASE_SCENE_H

#include <math.h>

#include "render/chase.h"
#include "render/rider_draw.h"
#include "scene/skel_take.h"
#include "scene/cameras.h"
#include "scene/motion.h"
#include "base/vec3.h"

typedef struct chase_face {
  int nv, v[4];     /* a triangle or a quad: vertex indices */
  double n[3];      /* body-frame unit normal */
  float rgba[4];
} chase_face;

/* One tessellation of the scene's bodies (chase_scene.c builds CHASE_NLOD of them, finest first). */
typedef struct chase_mesh {
  int nvert, nface, vcap, fcap;
  double* vert;              /* body-frame vertices */
  int* vbody;
  chase_face* face;
  double sag;                /* m: the largest gap between a round shape and its facets (chord sagitta) */
} chase_mesh;

/* Levels of detail: the finest is the view's look at any size; a coarser one is drawn when
 * its sagitta, seen at the machine's nearest point, is at most CHASE_LOD_PX pixels (chase.c):
 * the silhouette moves by less than that, and the faces it saves were a few pixels each. */
#define CHASE_NLOD 3
#define CHASE_ROAD_REF_H 569.0   /* px: the view's height in a 1280 × 720 frame (720 less the 151 px timeline; chase.c draw_road) */
#define CHASE_LOD_PX 1.6
/* px²: a face (road or machine) smaller than this on screen is not filled. Such a speck is an
 * edge-on facet or a far strip; its neighbours, grown GROW px outward (chase.c), cover its
 * pixels, and Cairo's fixed cost of a fill is most of what a speck costs (issue 36 item 4:
 * a 1280 × 720 grid's chase cell fills 362 times instead of 578; test_chase.c
 * chase_specks_left_out_look_the_same). */
#define CHASE_SPECK_PX2 1.0

typedef struct chase_dface {   /* a polygon ready to fill (chase.c) */
  double depth;
  int seq, np, p0;
  float rgba[4];
  int grow;
  int rank;   /* a road strip's place in its section's order: verge 0, kerb 1, asphalt 2, line 3 */
} chase_dface;

#define CHASE_MAX_SECTIONS 1024   /* road cross-sections per frame */
#define CHASE_SEC_OFFS 12         /* points across one section */

struct chase_scene {
  sc_motion mo;              /* body names, root, poses, track, origins */
  sc_camera* cam;            /* over mo */
  chase_mesh lod[CHASE_NLOD];   /* the bodies, finest first (the same shapes, fewer facets) */
  double* brad;              /* (nb + RK_MAX_LIMB): each body's bounding radius about its origin (m) */
  int layers;
  int only;                  /* draw only this body (−1: all) */
  /* the rider's skeleton (a take whose rig has one; else nlimb = 0 and the rig's rider
   * primitives are drawn): its limbs are pseudo-bodies mo.nb + i */
  sk_skeleton sk;
  sk_motion skm;             /* over mo */
  rk_limb limb[RK_MAX_LIMB];
  int nlimb;
  int live;                  /* chase_scene_set_live: every step is the one live pose */
  double live_heading[2];    /* its unit heading (the look point, with no future to read) */
  int lod_force;             /* chase_set_lod: −1 (the default) picks per frame */
  int lod_last;              /* the level the last frame drew */
  int nomerge;               /* chase_set_merge(s, 0): every face its own fill */
  int road_fixed;            /* chase_set_road_scaled(s, 0): the road's sections whatever the view's size */
  int keep_specks;           /* chase_set_specks(s, 1): every face filled, however small */
  int road_by_depth;         /* chase_set_road_grouped(s, 0): a plane's road filled far to near too */
  int road_grouped;          /* the last frame's road was filled a colour at a time (tests) */
  int nfill;                 /* cairo_fill calls of the last frame's road and bodies */
  int nspeck;                /* faces of the last frame left out as specks */
  /* per-frame work space */
  double* wpose;             /* (nb + RK_MAX_LIMB) × 12: position and rotation matrix */
  double* cvert;             /* camera coordinates per vertex */
  chase_dface* dl;
  int ndl, dcap;
  double* pts;               /* projected points, 2 each */
  int npts, pcap;
  int* order;
  double* sec;               /* CHASE_MAX_SECTIONS × (1 + 3·CHASE_SEC_OFFS) */
};

/* small vectors: base/vec3.h */

#endif
