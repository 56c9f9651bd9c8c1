/* rig_draw.c — the orthographic shape drawing (rd_, see rig_draw.h) and the side elevation of
 * `mototake rig draw` (the command itself: app/rig_draw_cmd.c), after the Slipstream manual's
 * Figure 3.2: every body, red crosses at centres of mass, orange circles at joints, green dashed
 * joint axes (those in the drawing plane), the shock linkage, and the main dimensions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "render/rig_draw.h"
#include "sim/rig.h"

typedef struct view { double s, ox, oy; } view;   /* pixel = (ox + s·x, oy − s·z) */
static double PX(const view* v, double x) { return v->ox + v->s * x; }
static double PY(const view* v, double z) { return v->oy - v->s * z; }

rd_view rd_side_view(double s, double ox, double oy) {
  rd_view v = {s, ox, oy, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  return v;
}

void rd_project(const rd_view* v, const double p[3], double* x, double* y) {
  double d[3] = {p[0] - v->c[0], p[1] - v->c[1], p[2] - v->c[2]};
  *x = v->ox + v->s * (d[0] * v->u[0] + d[1] * v->u[1] + d[2] * v->u[2]);
  *y = v->oy - v->s * (d[0] * v->v[0] + d[1] * v->v[1] + d[2] * v->v[2]);
}

static void posed(const double* pose, const double local[3], double out[3]) {
  if (!pose) {
    memcpy(out, local, 3 * sizeof(double));
    return;
  }
  const double* q = pose + 3;
  double w = q[0], x = q[1], y = q[2], z = q[3], *v = (double*)local;
  double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  out[0] = pose[0] + v[0] + w * tx + (y * tz - z * ty);
  out[1] = pose[1] + v[1] + w * ty + (z * tx - x * tz);
  out[2] = pose[2] + v[2] + w * tz + (x * ty - y * tx);
}

static void posed_dir(const double* pose, const double local[3], double out[3]) {
  double o[3] = {0, 0, 0}, z[3];
  if (!pose) {
    memcpy(out, local, 3 * sizeof(double));
    return;
  }
  double p0[7];
  memcpy(p0, pose, sizeof p0);
  p0[0] = p0[1] = p0[2] = 0;
  posed(p0, local, out);
  (void)o;
  (void)z;
}

/* Convex hull of n ≤ 8 screen points (gift wrapping), as a closed path. */
static void hull_path(cairo_t* cr, const double* px, const double* py, int n) {
  int start = 0;
  for (int i = 1; i < n; i++)
    if (px[i] < px[start] || (px[i] == px[start] && py[i] < py[start])) start = i;
  int cur = start, guard = 0;
  do {
    if (cur == start) cairo_move_to(cr, px[cur], py[cur]);
    else cairo_line_to(cr, px[cur], py[cur]);
    int nxt = (cur + 1) % n;
    for (int i = 0; i < n; i++) {
      double cross = (px[nxt] - px[cur]) * (py[i] - py[cur]) - (py[nxt] - py[cur]) * (px[i] - px[cur]);
      double d1 = hypot(px[i] - px[cur], py[i] - py[cur]), d2 = hypot(px[nxt] - px[cur], py[nxt] - py[cur]);
      if (cross < -1e-9 || (fabs(cross) <= 1e-9 && d1 > d2)) nxt = i;
    }
    cur = nxt;
  } while (cur != start && ++guard < 16);
  cairo_close_path(cr);
}

static void ellipse_path(cairo_t* cr, double cx, double cy, double ang, double a, double b, int neg) {
  cairo_save(cr);
  cairo_translate(cr, cx, cy);
  cairo_rotate(cr, ang);
  cairo_scale(cr, fmax(a, 1e-3), fmax(b, 1e-3));
  cairo_new_sub_path(cr);
  if (neg) cairo_arc_negative(cr, 0, 0, 1, 2 * MT_PI, 0);
  else cairo_arc(cr, 0, 0, 1, 0, 2 * MT_PI);
  cairo_restore(cr);
}

/* A shape's translucent fill, the path kept for its outline; aliased: without antialiasing
 * (rd_draw_shape_aliased). Cairo blends a translucent colour into the image row by row through
 * pixman, and antialiased that cost twice the aliased fill (a 250 px disc at 1280 × 720: 82–92
 * µs against 38); the stair-stepped edge lies under the outline drawn next along the same path
 * (1.2 px at 0.9 opacity), which hides it (docs/render.md "Speed"). */
static void shape_fill(cairo_t* cr, int aliased) {
  if (!aliased) {
    cairo_fill_preserve(cr);
    return;
  }
  cairo_save(cr);
  cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
  cairo_fill_preserve(cr);
  cairo_restore(cr);
}

/* The outline's colour, the shape's own darkened (× 0.6) at opacity 0.9; with bg (the view's
 * background), opaque instead: that colour already blended with what lies under most of an
 * outline, the shape's own fill over the background. Cairo composites an opaque colour's spans
 * by a plain lerp into the image, a translucent one row by row through pixman: an outline costs
 * about a third less (a 15 × 40 px capsule: 7.4 µs against 10.9), and the picture differs only
 * where an outline crosses another shape, by a tenth of the difference in what lies under it. */
static void outline_source(cairo_t* cr, const double rgb[3], double fill, const double* bg) {
  if (!bg) {
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.9);
    return;
  }
  double c[3];
  for (int i = 0; i < 3; i++) c[i] = 0.9 * rgb[i] + 0.1 * (fill * rgb[i] / 0.6 + (1 - fill) * bg[i]);
  cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

static void draw_shape(cairo_t* cr, const rd_view* v, const rig_shape* sh, const double* pose, double fill, int spokes, int aliased,
                       const double* bg) {
  cairo_set_source_rgba(cr, sh->rgba[0], sh->rgba[1], sh->rgba[2], fill);
  double w[3] = {v->u[1] * v->v[2] - v->u[2] * v->v[1], v->u[2] * v->v[0] - v->u[0] * v->v[2],
                 v->u[0] * v->v[1] - v->u[1] * v->v[0]};   /* toward the viewer */
  switch (sh->type) {
    case RIG_BOX: {
      double px[8], py[8];
      for (int k = 0; k < 8; k++) {
        double l[3], p[3];
        for (int i = 0; i < 3; i++) l[i] = sh->a[i] + ((k >> i) & 1 ? 0.5 : -0.5) * sh->b[i];
        posed(pose, l, p);
        rd_project(v, p, &px[k], &py[k]);
      }
      hull_path(cr, px, py, 8);
      shape_fill(cr, aliased);
      break;
    }
    case RIG_CYLINDER:
    case RIG_CAPSULE: {
      /* screen-space outline: A+n·r → B+n·r → (cap around B) → B−n·r → A−n·r → (cap around A) */
      double pa[3], pb[3], ax, ay, bx, by;
      posed(pose, sh->a, pa);
      posed(pose, sh->b, pb);
      rd_project(v, pa, &ax, &ay);
      rd_project(v, pb, &bx, &by);
      double ux = bx - ax, uy = by - ay, L = sqrt(ux * ux + uy * uy);
      ux = L > 0 ? ux / L : 1;
      uy = L > 0 ? uy / L : 0;
      double nx = -uy, ny = ux, r = v->s * sh->radius;
      double an = atan2(ny, nx);
      cairo_move_to(cr, ax + nx * r, ay + ny * r);
      cairo_line_to(cr, bx + nx * r, by + ny * r);
      /* from +n to −n through +u: +u is at an − π/2 (n = u rotated +90° in screen coordinates) */
      if (sh->type == RIG_CAPSULE) cairo_arc_negative(cr, bx, by, r, an, an - MT_PI);
      else cairo_line_to(cr, bx - nx * r, by - ny * r);
      cairo_line_to(cr, ax - nx * r, ay - ny * r);
      if (sh->type == RIG_CAPSULE) cairo_arc_negative(cr, ax, ay, r, an - MT_PI, an - 2 * MT_PI);
      cairo_close_path(cr);
      shape_fill(cr, aliased);
      break;
    }
    case RIG_SPHERE: {
      double p[3], x, y;
      posed(pose, sh->a, p);
      rd_project(v, p, &x, &y);
      cairo_new_sub_path(cr);
      cairo_arc(cr, x, y, v->s * sh->b[0], 0, 2 * MT_PI);
      shape_fill(cr, aliased);
      break;
    }
    case RIG_TORUS: {
      /* the tube's centre circle (radius R about the axis) projects to an ellipse: semi-major R
       * across the projected axis, semi-minor R·|axis·w|; the tube widens both by r */
      double R = sh->b[0], rr = sh->b[1], p[3], a[3], x, y;
      posed(pose, sh->a, p);
      posed_dir(pose, sh->axis, a);
      rd_project(v, p, &x, &y);
      double au = a[0] * v->u[0] + a[1] * v->u[1] + a[2] * v->u[2];
      double av = a[0] * v->v[0] + a[1] * v->v[1] + a[2] * v->v[2];
      double aw = fabs(a[0] * w[0] + a[1] * w[1] + a[2] * w[2]);
      double ang = (au * au + av * av > 1e-12) ? atan2(-av, au) + MT_PI / 2 : 0;   /* major axis ⟂ projected axis */
      double s = v->s;
      cairo_save(cr);
      cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
      ellipse_path(cr, x, y, ang, s * (R + rr), s * (R * aw + rr), 0);
      if (R * aw > rr) ellipse_path(cr, x, y, ang, s * (R - rr), s * (R * aw - rr), 0);
      shape_fill(cr, aliased);
      cairo_restore(cr);
      if (spokes > 0) {
        cairo_save(cr);
        double dark[3] = {sh->rgba[0] * 0.6, sh->rgba[1] * 0.6, sh->rgba[2] * 0.6};
        outline_source(cr, dark, fill, bg);
        cairo_stroke(cr);
        /* spokes: local directions ⟂ the local axis, turned with the body */
        double e1[3] = {1, 0, 0};
        if (fabs(sh->axis[0]) > 0.9) e1[0] = 0, e1[2] = 1;
        double d = e1[0] * sh->axis[0] + e1[1] * sh->axis[1] + e1[2] * sh->axis[2];
        for (int i = 0; i < 3; i++) e1[i] -= d * sh->axis[i];
        double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
        for (int i = 0; i < 3; i++) e1[i] /= n1;
        double e2[3] = {sh->axis[1] * e1[2] - sh->axis[2] * e1[1], sh->axis[2] * e1[0] - sh->axis[0] * e1[2],
                        sh->axis[0] * e1[1] - sh->axis[1] * e1[0]};
        cairo_set_line_width(cr, fmax(1.5, 0.012 * s));
        if (bg) {   /* opaque like the outline; under a spoke lies mostly the ring's hole: the background */
          const double sp[3] = {0.25, 0.25, 0.28};
          outline_source(cr, sp, 0, bg);
        } else {
          cairo_set_source_rgba(cr, 0.25, 0.25, 0.28, 0.9);
        }
        for (int k = 0; k < spokes; k++) {
          double th = MT_PI * k / spokes, l0[3], l1[3], p0[3], p1[3], x0, y0, x1, y1;
          for (int i = 0; i < 3; i++) {
            double dir = cos(th) * e1[i] + sin(th) * e2[i];
            l0[i] = sh->a[i] + (R - rr) * dir;
            l1[i] = sh->a[i] - (R - rr) * dir;
          }
          posed(pose, l0, p0);
          posed(pose, l1, p1);
          rd_project(v, p0, &x0, &y0);
          rd_project(v, p1, &x1, &y1);
          cairo_move_to(cr, x0, y0);
          cairo_line_to(cr, x1, y1);
        }
        cairo_stroke(cr);
        cairo_restore(cr);
        return;
      }
      break;
    }
  }
  double dark[3] = {sh->rgba[0] * 0.6, sh->rgba[1] * 0.6, sh->rgba[2] * 0.6};
  outline_source(cr, dark, fill, bg);
  cairo_set_line_width(cr, 1.2);
  /* aliased: the outlines of boxes, cylinders and capsules without antialiasing too, which cuts
   * the machine's drawing in the side and rear views by 29 % (9.35 to 6.68 M instructions a
   * grid frame); spheres and tori (the head, the wheels) keep theirs, where a circle's steps
   * would show most (docs/render.md "Speed", the seventh round) */
  if (aliased && sh->type != RIG_SPHERE && sh->type != RIG_TORUS) {
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    cairo_stroke(cr);
    cairo_restore(cr);
    return;
  }
  cairo_stroke(cr);
}

void rd_draw_shape(cairo_t* cr, const rd_view* v, const rig_shape* sh, const double* pose, double fill, int spokes) {
  draw_shape(cr, v, sh, pose, fill, spokes, 0, NULL);
}

void rd_draw_shape_aliased(cairo_t* cr, const rd_view* v, const rig_shape* sh, const double* pose, double fill, int spokes,
                           const double bg[3]) {
  draw_shape(cr, v, sh, pose, fill, spokes, 1, bg);
}

static void cross_mark(cairo_t* cr, const view* v, const double p[3], double size, double lw) {
  cairo_set_source_rgb(cr, 0.85, 0, 0);
  cairo_set_line_width(cr, lw);
  double x = PX(v, p[0]), y = PY(v, p[2]);
  cairo_move_to(cr, x - size, y - size);
  cairo_line_to(cr, x + size, y + size);
  cairo_move_to(cr, x - size, y + size);
  cairo_line_to(cr, x + size, y - size);
  cairo_stroke(cr);
}

static void joint_mark(cairo_t* cr, const view* v, const double p[3]) {
  double x = PX(v, p[0]), y = PY(v, p[2]);
  cairo_new_sub_path(cr);
  cairo_arc(cr, x, y, 5, 0, 2 * MT_PI);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 1.0, 0.55, 0.0);
  cairo_set_line_width(cr, 2.5);
  cairo_stroke(cr);
}

static void axis_line(cairo_t* cr, const view* v, const double p[3], const double a[3], double len) {
  double d1[] = {9, 6};
  cairo_set_dash(cr, d1, 2, 0);
  cairo_set_source_rgb(cr, 0.0, 0.6, 0.15);
  cairo_set_line_width(cr, 1.6);
  cairo_move_to(cr, PX(v, p[0] - a[0] * len * 0.5), PY(v, p[2] - a[2] * len * 0.5));
  cairo_line_to(cr, PX(v, p[0] + a[0] * len), PY(v, p[2] + a[2] * len));
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
}

/* A horizontal dimension line between x0 and x1 at height z, with its label. */
static void dim_h(cairo_t* cr, const view* v, double x0, double x1, double z, const char* label) {
  cairo_set_source_rgb(cr, 0.15, 0.15, 0.35);
  cairo_set_line_width(cr, 1);
  double y = PY(v, z);
  cairo_move_to(cr, PX(v, x0), y);
  cairo_line_to(cr, PX(v, x1), y);
  for (int k = 0; k < 2; k++) {
    double xe = PX(v, k ? x1 : x0), dir = k ? -1 : 1;
    cairo_move_to(cr, xe, y);
    cairo_line_to(cr, xe + dir * 8, y - 4);
    cairo_move_to(cr, xe, y);
    cairo_line_to(cr, xe + dir * 8, y + 4);
    cairo_move_to(cr, xe, y - 7);
    cairo_line_to(cr, xe, y + 7);
  }
  cairo_stroke(cr);
  draw_text(cr, 0.5 * (PX(v, x0) + PX(v, x1)), y + 4, 13, 0.5, 0, label);
}

/*---- the side elevation of `rig draw`, stage by stage (drawn in this order: later stages on top) ----*/

/* The view: x ∈ [−0.45, 1.85] m, z ∈ [−0.2, 1.6] m fitted into the canvas below the title. */
#define EL_XMIN (-0.45)
#define EL_XMAX 1.85
#define EL_ZMIN (-0.2)
#define EL_ZMAX 1.6

static view elevation_view(int W, int H) {
  double xmin = EL_XMIN, xmax = EL_XMAX, zmin = EL_ZMIN, zmax = EL_ZMAX;
  double s = fmin((W - 80) / (xmax - xmin), (H - 130) / (zmax - zmin));
  view v = {s, 40 - s * xmin + 0.5 * ((W - 80) - s * (xmax - xmin)), 70 + s * zmax};
  return v;
}

static void draw_ground(cairo_t* cr, const view* v) {
  cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, PX(v, EL_XMIN), PY(v, 0));
  cairo_line_to(cr, PX(v, EL_XMAX), PY(v, 0));
  cairo_stroke(cr);
}

static void draw_bodies(cairo_t* cr, const rig* r, const view* v) {
  rd_view rv = rd_side_view(v->s, v->ox, v->oy);
  for (int i = 0; i < r->nbody; i++)
    for (int k = 0; k < r->body[i].nshape; k++) rd_draw_shape(cr, &rv, &r->body[i].shape[k], NULL, 0.35, 0);
}

/* The shock linkage in its design pose: rocker triangle, pull rod, shock. */
static void draw_linkage(cairo_t* cr, const rig* r, const view* v) {
  rig_link_pose lp;
  rig_linkage_solve(r, 0, &lp);
  const rig_linkage* lk = &r->linkage;
  cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.9);
  cairo_set_line_width(cr, 5);
  cairo_move_to(cr, PX(v, lk->pivot[0]), PY(v, lk->pivot[2]));
  cairo_line_to(cr, PX(v, lk->crank_rod[0]), PY(v, lk->crank_rod[2]));
  cairo_line_to(cr, PX(v, lk->crank_shock[0]), PY(v, lk->crank_shock[2]));
  cairo_close_path(cr);
  cairo_stroke(cr);
  cairo_set_line_width(cr, 4);
  cairo_move_to(cr, PX(v, lk->crank_rod[0]), PY(v, lk->crank_rod[2]));
  cairo_line_to(cr, PX(v, lk->arm_rod[0]), PY(v, lk->arm_rod[2]));
  cairo_stroke(cr);
  cairo_set_source_rgba(cr, 0.85, 0.65, 0.1, 0.95);   /* shock: spring colour */
  cairo_set_line_width(cr, 9);
  cairo_move_to(cr, PX(v, lk->frame_shock[0]), PY(v, lk->frame_shock[2]));
  cairo_line_to(cr, PX(v, lk->crank_shock[0]), PY(v, lk->crank_shock[2]));
  cairo_stroke(cr);
}

/* Joint axes in the plane, then the joint circles (the rig's joints and the linkage's). */
static void draw_joints(cairo_t* cr, const rig* r, const view* v) {
  for (int j = 0; j < r->njoint; j++) {
    const rig_joint* jt = &r->joint[j];
    if (jt->type == RIG_FREE) continue;
    if (fabs(jt->axis[1]) < 0.99) axis_line(cr, v, jt->anchor, jt->axis, jt->type == RIG_SLIDE ? 0.35 : 0.5);
  }
  for (int j = 0; j < r->njoint; j++)
    if (r->joint[j].type != RIG_FREE) joint_mark(cr, v, r->joint[j].anchor);
  const rig_linkage* lk = &r->linkage;
  const double* lpts[5] = {lk->pivot, lk->crank_rod, lk->crank_shock, lk->arm_rod, lk->frame_shock};
  for (int k = 0; k < 5; k++) joint_mark(cr, v, lpts[k]);
}

/* Contact spheres (sim/contact.h): blue circles, left and right ones drawn over each other. */
static void draw_contacts(cairo_t* cr, const rig* r, const view* v) {
  cairo_set_source_rgba(cr, 0.1, 0.35, 0.9, 0.9);
  cairo_set_line_width(cr, 2);
  for (int i = 0; i < r->contacts.n; i++) {
    const contact_point* cp = &r->contacts.p[i];
    cairo_new_sub_path(cr);
    cairo_arc(cr, PX(v, cp->point[0]), PY(v, cp->point[2]), fmax(3, v->s * cp->radius), 0, 2 * MT_PI);
  }
  cairo_stroke(cr);
}

/* Centres of mass (the whole machine's large, labelled), body names beside theirs; returns the
 * total mass and its centre in com. */
static double draw_masses(cairo_t* cr, const rig* r, const view* v, double com[3]) {
  for (int i = 0; i < r->nbody; i++) cross_mark(cr, v, r->body[i].com, 6, 2);
  double mass = rig_total_mass(r, com);
  cross_mark(cr, v, com, 11, 3.5);
  cairo_set_source_rgb(cr, 0.7, 0, 0);
  draw_textf(cr, PX(v, com[0]) + 14, PY(v, com[2]) - 4, 13, 0, 1, "CG (%.3f, %.3f) m", com[0], com[2]);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  for (int i = 0; i < r->nbody; i++)
    draw_text(cr, PX(v, r->body[i].com[0]) + 8, PY(v, r->body[i].com[2]) + 4, 11, 0, 0, r->body[i].name);
  return mass;
}

/* Wheelbase, a and b, the steering axis down to the ground with the trail and rake, CG height. */
static void draw_dimensions(cairo_t* cr, const rig* r, const view* v, const double com[3]) {
  const double* fw = r->wheel[RIG_FRONT].centre;
  const double* rw = r->wheel[RIG_REAR].centre;
  char buf[128];
  snprintf(buf, sizeof buf, "wheelbase %.0f mm", 1000 * (fw[0] - rw[0]));
  dim_h(cr, v, rw[0], fw[0], -0.08, buf);
  snprintf(buf, sizeof buf, "b %.0f mm", 1000 * (com[0] - rw[0]));
  dim_h(cr, v, rw[0], com[0], -0.16, buf);
  snprintf(buf, sizeof buf, "a %.0f mm", 1000 * (fw[0] - com[0]));
  dim_h(cr, v, com[0], fw[0], -0.16, buf);
  const rig_joint* st = &r->joint[r->j_steer];
  double zg = fw[2] - r->wheel[RIG_FRONT].tyre.r0;
  double t = (zg - st->anchor[2]) / st->axis[2];
  double xa = st->anchor[0] + t * st->axis[0];
  /* steering axis down to the ground, and the trail */
  double d1[] = {9, 6};
  cairo_set_dash(cr, d1, 2, 0);
  cairo_set_source_rgb(cr, 0.0, 0.6, 0.15);
  cairo_set_line_width(cr, 1.2);
  cairo_move_to(cr, PX(v, st->anchor[0]), PY(v, st->anchor[2]));
  cairo_line_to(cr, PX(v, xa), PY(v, zg));
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  snprintf(buf, sizeof buf, "trail %.0f mm", 1000 * (xa - fw[0]));
  dim_h(cr, v, fw[0], xa, zg + 0.03, buf);
  double rake = atan2(-st->axis[0], st->axis[2]) * 180 / MT_PI;
  cairo_set_source_rgb(cr, 0.0, 0.45, 0.1);
  draw_textf(cr, PX(v, st->anchor[0]) + 12, PY(v, st->anchor[2]) - 16, 13, 0, 1, "steering axis, rake %.1f°", rake);
  /* CG height */
  cairo_set_source_rgb(cr, 0.15, 0.15, 0.35);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, PX(v, com[0]), PY(v, 0));
  cairo_line_to(cr, PX(v, com[0]), PY(v, com[2]));
  cairo_stroke(cr);
  draw_textf(cr, PX(v, com[0]) - 6, PY(v, com[2] / 2), 12, 1, 0.5, "h %.0f mm", 1000 * com[2]);
}

/* A 0.5 m scale bar in the bottom right corner; the title; the key in the bottom left corner. */
static void draw_scale_title_key(cairo_t* cr, const rig* r, const view* v, int W, int H, double mass) {
  double s = v->s;
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 3);
  cairo_move_to(cr, W - 60 - s * 0.5, H - 30);
  cairo_line_to(cr, W - 60, H - 30);
  cairo_stroke(cr);
  draw_text(cr, W - 60 - s * 0.25, H - 36, 12, 0.5, 1, "0.5 m");
  /* title and legend */
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_textf(cr, W / 2.0, 14, 20, 0.5, 0, "%s — side elevation (reference pose), %.1f kg", r->name, mass);
  double lx = 30, ly = H - 80;
  cross_mark(cr, &(view){1, 0, 0}, (double[3]){lx + 6, 0, -(ly)}, 6, 2);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, lx + 20, ly, 12, 0, 0.5, "centre of mass (large: whole machine)");
  joint_mark(cr, &(view){1, 0, 0}, (double[3]){lx + 6, 0, -(ly + 20)});
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, lx + 20, ly + 20, 12, 0, 0.5, "joint (hinge axis normal to the page unless drawn)");
  axis_line(cr, &(view){1, 0, 0}, (double[3]){lx, 0, -(ly + 40)}, (double[3]){1, 0, 0}, 16);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(cr, lx + 20, ly + 40, 12, 0, 0.5, "joint axis in the plane (steer, twist, fork slide)");
  if (r->contacts.n > 0) {
    cairo_set_source_rgba(cr, 0.1, 0.35, 0.9, 0.9);
    cairo_set_line_width(cr, 2);
    cairo_new_sub_path(cr);
    cairo_arc(cr, lx + 6, ly + 60, 6, 0, 2 * MT_PI);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    draw_textf(cr, lx + 20, ly + 60, 12, 0, 0.5, "contact sphere that can touch the road (%d)", r->contacts.n);
  }
}

void rd_draw_elevation(cairo_t* cr, const rig* r, int W, int H) {
  view v = elevation_view(W, H);
  draw_ground(cr, &v);
  draw_bodies(cr, r, &v);
  draw_linkage(cr, r, &v);
  draw_joints(cr, r, &v);
  draw_contacts(cr, r, &v);
  double com[3];
  double mass = draw_masses(cr, r, &v, com);
  draw_dimensions(cr, r, &v, com);
  draw_scale_title_key(cr, r, &v, W, H, mass);
}
