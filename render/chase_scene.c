/* chase_scene.c — building a chase view's scene (see chase.h; the layout in chase_scene.h).
 *
 * By stage: a take's motion begins (the body tree), its camera is read from the camera file
 * (so a bad camera fails before the take is decoded), the rig and track are rebuilt, the
 * bodies' shapes are tessellated coarsely into flat faces, the poses are read, the camera is
 * placed over them and the per-frame work space is allocated. */
#include "render/chase_scene.h"

#include <stdlib.h>
#include <string.h>

#include "scene/rider_points.h"
#include "scene/shapes.h"
#include "scene/take_bodies.h"

/*---- the bodies' faces ----*/

/* The levels of detail (chase_scene.h): wheels round × tube, cylinders and capsules around,
 * rings per cap. The finest is the view's look; the others halve the faces and more. */
static const ex_tess LOD_TESS[CHASE_NLOD] = {{24, 8, 12, 3}, {16, 6, 8, 2}, {12, 5, 6, 2}};

/* Largest distance between a circle of radius r and its n-gon. */
static double sagitta(double r, int n) { return r * (1 - cos(MT_PI / n)); }

/* The largest facet error of shape sh tessellated by T (boxes are exact). A cap of c rings
 * spans a quarter turn: its ring steps are π/(2c). */
static double shape_sag(const ex_shape* sh, const ex_tess* T) {
  switch (sh->type) {
    case EX_BOX: return 0;
    case EX_TORUS: return fmax(sagitta(sh->radius + sh->minor, T->round), sagitta(sh->minor, T->tube));
    case EX_CYLINDER: return sagitta(sh->radius, T->cyl);
    default: return fmax(sagitta(sh->radius, T->cyl), sagitta(sh->radius, 4 * T->cap));
  }
}

/* Faces of shape sh of body b in mesh m tessellated by T: its triangles, with each pair that
 * shares an edge (as the sweep and the boxes emit them) merged into one quad — half the fills
 * for the same picture. */
static void add_shape_tess(chase_mesh* s, int b, const ex_shape* sh, const ex_tess* T) {
  ex_mesh m = {0};
  ex_mesh_add_shape_tess(&m, sh, T);
  s->sag = fmax(s->sag, shape_sag(sh, T));
  if (s->nvert + m.nvert > s->vcap) {
    while (s->nvert + m.nvert > s->vcap) s->vcap = s->vcap ? 2 * s->vcap : 1024;
    s->vert = mt_realloc(s->vert, sizeof(double) * 3 * s->vcap);
    s->vbody = mt_realloc(s->vbody, sizeof(int) * s->vcap);
  }
  if (s->nface + m.ntri > s->fcap) {
    while (s->nface + m.ntri > s->fcap) s->fcap = s->fcap ? 2 * s->fcap : 1024;
    s->face = mt_realloc(s->face, sizeof(chase_face) * s->fcap);
  }
  int base = s->nvert;
  for (int i = 0; i < m.nvert; i++) {
    for (int k = 0; k < 3; k++) s->vert[3 * (base + i) + k] = m.pos[3 * i + k];
    s->vbody[base + i] = b;
  }
  s->nvert += m.nvert;
  for (int t = 0; t < m.ntri; t++) {
    const unsigned* A = m.idx + 3 * t;
    chase_face f = {.nv = 3, .v = {base + (int)A[0], base + (int)A[1], base + (int)A[2], 0}};
    if (t + 1 < m.ntri) {
      const unsigned* B = m.idx + 3 * t + 3;
      /* A = (a, b, c) and B = (a, c, d): the quad a b c d */
      for (int r = 0; r < 3 && f.nv == 3; r++) {
        unsigned a = A[r], bb = A[(r + 1) % 3], c = A[(r + 2) % 3];
        for (int q = 0; q < 3; q++)
          if (B[q] == a && B[(q + 1) % 3] == c && B[(q + 2) % 3] != bb) {
            f.nv = 4;
            f.v[0] = base + (int)a, f.v[1] = base + (int)bb, f.v[2] = base + (int)c, f.v[3] = base + (int)B[(q + 2) % 3];
            t++;
            break;
          }
      }
    }
    /* Newell's normal: robust for slightly non-planar quads */
    double n[3] = {0, 0, 0};
    for (int i = 0; i < f.nv; i++) {
      const double *p = s->vert + 3 * f.v[i], *q = s->vert + 3 * f.v[(i + 1) % f.nv];
      n[0] += (p[1] - q[1]) * (p[2] + q[2]);
      n[1] += (p[2] - q[2]) * (p[0] + q[0]);
      n[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    if (!(norm3(n) > 1e-18)) continue;   /* degenerate */
    unit3(n);
    memcpy(f.n, n, sizeof n);
    for (int k = 0; k < 4; k++) f.rgba[k] = (float)sh->rgba[k];
    s->face[s->nface++] = f;
  }
  ex_mesh_free(&m);
}

/* Shape sh of body b at every level of detail. */
static void add_shape(chase_scene* s, int b, const ex_shape* sh) {
  for (int l = 0; l < CHASE_NLOD; l++) add_shape_tess(&s->lod[l], b, sh, &LOD_TESS[l]);
}

static void build_geometry(chase_scene* s, const ex_body* bodies, int nb) {
  for (int b = 0; b < nb; b++)
    for (int k = 0; k < bodies[b].nshape; k++) add_shape(s, b, &bodies[b].shapes[k]);
}

/*---- the scene ----*/

/* The per-frame work space (chase_scene.h) and the default settings. */
static void alloc_work(chase_scene* s) {
  int nbb = s->mo.nb + RK_MAX_LIMB;
  s->wpose = mt_alloc(sizeof(double) * 12 * nbb);
  s->brad = mt_alloc(sizeof(double) * nbb);   /* zeroed: a body without shapes has radius 0 */
  const chase_mesh* m = &s->lod[0];   /* the finest: the others lie within it, up to their sagitta */
  for (int i = 0; i < m->nvert; i++) s->brad[m->vbody[i]] = fmax(s->brad[m->vbody[i]], norm3(m->vert + 3 * i));
  int nv = 0;
  for (int l = 0; l < CHASE_NLOD; l++) nv = s->lod[l].nvert > nv ? s->lod[l].nvert : nv;
  s->cvert = mt_alloc(sizeof(double) * 3 * (nv + 1));
  s->sec = mt_alloc(sizeof(double) * CHASE_MAX_SECTIONS * (1 + 3 * CHASE_SEC_OFFS));
  s->layers = CHASE_ALL;
  s->only = -1;
  s->lod_force = -1;
}

/* The rider's skeleton for take r's rig, when it builds and the take has its bodies. */
static void rider_skeleton(chase_scene* s, const rig* rg) {
  if (sk_build(rg, &s->sk) || sk_motion_bind(&s->skm, &s->mo)) return;
  s->nlimb = rk_limbs(rg, &s->sk, s->limb);
}

/* An ex_shape (body-frame faces) from a limb's rig-typed shape in its bone's frame. */
static ex_shape limb_shape(const rk_limb* l) {
  ex_shape x;
  memset(&x, 0, sizeof x);
  x.type = l->shape.type == RIG_SPHERE ? EX_SPHERE : EX_CAPSULE;
  memcpy(x.a, l->shape.a, sizeof x.a);
  memcpy(x.b, l->shape.b, sizeof x.b);
  x.radius = l->shape.type == RIG_SPHERE ? l->shape.b[0] : l->shape.radius;
  memcpy(x.rgba, l->shape.rgba, sizeof x.rgba);
  return x;
}

/* The bodies of take r (rig rg) as faces: with a skeleton, its limbs instead of the rider's
 * primitives (scene/rider_points.h sc_rider_shape). */
static void build_take_geometry(chase_scene* s, take_reader* r, const rig* rg) {
  ex_take_bodies tb;
  ex_take_bodies_build(take_schema_of(r), rg, &tb);
  rider_skeleton(s, rg);
  for (int b = 0; b < tb.nbody; b++) {
    int rb = rig_body_index(rg, tb.body[b].name);
    for (int k = 0; k < tb.body[b].nshape; k++)
      if (!s->nlimb || !sc_rider_shape(rg, rb, k)) add_shape(s, b, &tb.body[b].shapes[k]);
  }
  for (int i = 0; i < s->nlimb; i++) {
    ex_shape x = limb_shape(&s->limb[i]);
    add_shape(s, s->mo.nb + i, &x);
  }
  ex_take_bodies_free(&tb);
}

static chase_scene* scene_from_take(take_reader* r, const double* poses, const char* cameras_file, const char* camera,
                                    mt_err* e) {
  if (!camera) camera = "chase";
  chase_scene* s = mt_alloc(sizeof *s);
  sc_cam_cfg cfg;
  rig* rg = NULL;
  if (sc_motion_begin(&s->mo, r, e) ||
      sc_camera_load(cameras_file, camera, (const char* const*)s->mo.names, s->mo.nb, &cfg, e) ||
      sc_motion_rebuild(&s->mo, r, &rg, e))
    goto fail;
  build_take_geometry(s, r, rg);
  rig_free(rg);
  if (sc_motion_read_poses(&s->mo, r, poses, e)) goto fail;
  s->cam = sc_camera_new(&cfg, &s->mo);
  alloc_work(s);
  return s;
fail:
  chase_scene_free(s);
  return NULL;
}

chase_scene* chase_scene_new_from(take_reader* r, const char* cameras_file, const char* camera, mt_err* e) {
  return scene_from_take(r, NULL, cameras_file, camera, e);
}

chase_scene* chase_scene_new(take_reader* r, const char* camera, mt_err* e) { return scene_from_take(r, NULL, NULL, camera, e); }

chase_scene* chase_scene_new_poses(take_reader* r, const double* poses, const char* camera, mt_err* e) {
  return scene_from_take(r, poses, NULL, camera, e);
}

chase_scene* chase_scene_new_bodies(const ex_body* bodies, int nbody, const double* poses, long nsteps, double dt, mt_err* e) {
  if (nbody < 1 || nsteps < 1 || !(dt > 0)) {
    mt_fail(e, MT_EINPUT, "chase: a scene needs bodies, poses and dt > 0");
    return NULL;
  }
  chase_scene* s = mt_alloc(sizeof *s);
  const char** names = mt_alloc(sizeof(char*) * (size_t)nbody);
  for (int b = 0; b < nbody; b++) names[b] = bodies[b].name;
  sc_motion_from_poses(&s->mo, nbody, names, poses, nsteps, dt);
  free(names);
  build_geometry(s, bodies, nbody);
  sc_cam_cfg c;   /* a fixed follow camera, not from the file */
  memset(&c, 0, sizeof c);
  c.kind = SC_CAM_FOLLOW;
  c.distance = 4.5, c.height = 1.6, c.fov = 50 * MT_PI / 180, c.ahead = 300, c.behind = 20;
  s->cam = sc_camera_new(&c, &s->mo);
  alloc_work(s);
  return s;
}

void chase_scene_free(chase_scene* s) {
  if (!s) return;
  sc_camera_free(s->cam);
  sc_motion_free(&s->mo);
  for (int l = 0; l < CHASE_NLOD; l++) {
    free(s->lod[l].vert);
    free(s->lod[l].vbody);
    free(s->lod[l].face);
  }
  free(s->brad);
  free(s->wpose);
  free(s->cvert);
  free(s->dl);
  free(s->pts);
  free(s->order);
  free(s->sec);
  free(s);
}

/*---- settings and queries ----*/

int chase_scene_set_camera(chase_scene* s, const char* camera, mt_err* e) {
  if (!s->mo.origin) return mt_fail(e, MT_EINPUT, "chase: only a take's scene can change its camera");
  return sc_camera_switch(s->cam, camera ? camera : "chase", e);
}

void chase_set_layers(chase_scene* s, int layers) { s->layers = layers; }

void chase_set_lod(chase_scene* s, int level) { s->lod_force = level; }

void chase_set_merge(chase_scene* s, int on) { s->nomerge = !on; }
void chase_set_road_scaled(chase_scene* s, int on) { s->road_fixed = !on; }
void chase_set_specks(chase_scene* s, int keep) { s->keep_specks = keep; }
void chase_set_road_grouped(chase_scene* s, int on) { s->road_by_depth = !on; }
int chase_last_road_grouped(const chase_scene* s) { return s->road_grouped; }

int chase_last_lod(const chase_scene* s) { return s->lod_last; }

int chase_last_fills(const chase_scene* s) { return s->nfill; }
int chase_last_specks(const chase_scene* s) { return s->nspeck; }

void chase_scene_set_live(chase_scene* s, const double* pose, double hx, double hy, double station) {
  for (long i = 0; i < s->mo.nsteps; i++)
    for (int k = 0; k < 7 * s->mo.nb; k++) s->mo.pose[7 * s->mo.nb * i + k] = (float)pose[k];
  sc_camera_set_live(s->cam, hx, hy, station);
  s->live = 1, s->live_heading[0] = hx, s->live_heading[1] = hy;
}

int chase_set_only_body(chase_scene* s, const char* name) {
  s->only = -1;
  if (!name) return 0;
  for (int b = 0; b < s->mo.nb; b++)
    if (!strcmp(s->mo.names[b], name)) s->only = b;
  return s->only >= 0 ? 0 : -1;
}

void chase_view_at(const chase_scene* s, double t, chase_view* v) { sc_camera_view_at(s->cam, t, v); }

void chase_root_at(const chase_scene* s, double t, double p[3]) {
  double R[9];
  sc_motion_pose_at(&s->mo, s->mo.root, sc_motion_clamp(&s->mo, t), p, R);
}
