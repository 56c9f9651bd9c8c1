/* rig_draw.c — `mototake rig draw`: the side elevation of a rig, after the Slipstream manual's
 * Figure 3.2: every body, red crosses at centres of mass, orange circles at joints, green dashed
 * joint axes (those in the drawing plane), the shock linkage, and the main dimensions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"
#include "sim/cli.h"
#include "sim/rig.h"

typedef struct view { double s, ox, oy; } view;   /* pixel = (ox + s·x, oy − s·z) */
static double PX(const view* v, double x) { return v->ox + v->s * x; }
static double PY(const view* v, double z) { return v->oy - v->s * z; }

static void shape_side(cairo_t* cr, const view* v, const rig_shape* sh) {
  cairo_set_source_rgba(cr, sh->rgba[0], sh->rgba[1], sh->rgba[2], 0.35);
  switch (sh->type) {
    case RIG_BOX:
      cairo_rectangle(cr, PX(v, sh->a[0] - sh->b[0] / 2), PY(v, sh->a[2] + sh->b[2] / 2), v->s * sh->b[0], v->s * sh->b[2]);
      cairo_fill_preserve(cr);
      break;
    case RIG_CYLINDER:
    case RIG_CAPSULE: {
      /* screen-space outline: A+n·r → B+n·r → (cap around B) → B−n·r → A−n·r → (cap around A) */
      double ax = PX(v, sh->a[0]), ay = PY(v, sh->a[2]), bx = PX(v, sh->b[0]), by = PY(v, sh->b[2]);
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
      cairo_fill_preserve(cr);
      break;
    }
    case RIG_SPHERE:
      cairo_new_sub_path(cr);
      cairo_arc(cr, PX(v, sh->a[0]), PY(v, sh->a[2]), v->s * sh->b[0], 0, 2 * MT_PI);
      cairo_fill_preserve(cr);
      break;
    case RIG_TORUS: {
      /* seen along its axis (wheels): an annulus */
      double R = sh->b[0], rr = sh->b[1];
      cairo_new_sub_path(cr);
      cairo_arc(cr, PX(v, sh->a[0]), PY(v, sh->a[2]), v->s * (R + rr), 0, 2 * MT_PI);
      cairo_new_sub_path(cr);
      cairo_arc_negative(cr, PX(v, sh->a[0]), PY(v, sh->a[2]), v->s * (R - rr), 2 * MT_PI, 0);
      cairo_fill_preserve(cr);
      break;
    }
  }
  cairo_set_source_rgba(cr, sh->rgba[0] * 0.6, sh->rgba[1] * 0.6, sh->rgba[2] * 0.6, 0.9);
  cairo_set_line_width(cr, 1.2);
  cairo_stroke(cr);
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

int cmd_rig_draw(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "rig draw");
  cli_arg(&c, "o");
  cli_arg(&c, "size");
  cli_multi(&c, "set");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "rig draw: -o FILE.png is required");
    return cli_report(&e);
  }
  int W = 1600, H = 1000;
  if (cli_set(&c, "size") && draw_parse_size(cli_str(&c, "size", ""), &W, &H)) {
    mt_fail(&e, MT_EINPUT, "rig draw: --size: expected WxH within 64..8192, got '%s'", cli_str(&c, "size", ""));
    return cli_report(&e);
  }
  char path[4096];
  rig_resolve(c.pos[0], path, sizeof path);
  const cli_opt* so = cli_get(&c, "set");
  rig* r = rig_load(path, so->values, so->nvalues, &e);
  if (!r) return cli_report(&e);
  draw_fig f;
  if (draw_fig_new(&f, W, H, &e)) {
    rig_free(r);
    return cli_report(&e);
  }
  cairo_t* cr = f.cr;
  /* fit x ∈ [−0.45, 1.85], z ∈ [−0.15, 1.6] into the image */
  double xmin = -0.45, xmax = 1.85, zmin = -0.2, zmax = 1.6;
  double s = fmin((W - 80) / (xmax - xmin), (H - 130) / (zmax - zmin));
  view v = {s, 40 - s * xmin + 0.5 * ((W - 80) - s * (xmax - xmin)), 70 + s * zmax};
  /* ground */
  cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, PX(&v, xmin), PY(&v, 0));
  cairo_line_to(cr, PX(&v, xmax), PY(&v, 0));
  cairo_stroke(cr);
  /* bodies */
  for (int i = 0; i < r->nbody; i++)
    for (int k = 0; k < r->body[i].nshape; k++) shape_side(cr, &v, &r->body[i].shape[k]);
  /* the shock linkage */
  rig_link_pose lp;
  rig_linkage_solve(r, 0, &lp);
  const rig_linkage* lk = &r->linkage;
  cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.9);
  cairo_set_line_width(cr, 5);
  cairo_move_to(cr, PX(&v, lk->pivot[0]), PY(&v, lk->pivot[2]));
  cairo_line_to(cr, PX(&v, lk->crank_rod[0]), PY(&v, lk->crank_rod[2]));
  cairo_line_to(cr, PX(&v, lk->crank_shock[0]), PY(&v, lk->crank_shock[2]));
  cairo_close_path(cr);
  cairo_stroke(cr);
  cairo_set_line_width(cr, 4);
  cairo_move_to(cr, PX(&v, lk->crank_rod[0]), PY(&v, lk->crank_rod[2]));
  cairo_line_to(cr, PX(&v, lk->arm_rod[0]), PY(&v, lk->arm_rod[2]));
  cairo_stroke(cr);
  cairo_set_source_rgba(cr, 0.85, 0.65, 0.1, 0.95);   /* shock: spring colour */
  cairo_set_line_width(cr, 9);
  cairo_move_to(cr, PX(&v, lk->frame_shock[0]), PY(&v, lk->frame_shock[2]));
  cairo_line_to(cr, PX(&v, lk->crank_shock[0]), PY(&v, lk->crank_shock[2]));
  cairo_stroke(cr);
  /* joint axes in the plane, then joint circles */
  for (int j = 0; j < r->njoint; j++) {
    const rig_joint* jt = &r->joint[j];
    if (jt->type == RIG_FREE) continue;
    if (fabs(jt->axis[1]) < 0.99) axis_line(cr, &v, jt->anchor, jt->axis, jt->type == RIG_SLIDE ? 0.35 : 0.5);
  }
  for (int j = 0; j < r->njoint; j++)
    if (r->joint[j].type != RIG_FREE) joint_mark(cr, &v, r->joint[j].anchor);
  const double* lpts[5] = {lk->pivot, lk->crank_rod, lk->crank_shock, lk->arm_rod, lk->frame_shock};
  for (int k = 0; k < 5; k++) joint_mark(cr, &v, lpts[k]);
  /* contact spheres (sim/contact.h): blue circles, left and right ones drawn over each other */
  cairo_set_source_rgba(cr, 0.1, 0.35, 0.9, 0.9);
  cairo_set_line_width(cr, 2);
  for (int i = 0; i < r->contacts.n; i++) {
    const contact_point* cp = &r->contacts.p[i];
    cairo_new_sub_path(cr);
    cairo_arc(cr, PX(&v, cp->point[0]), PY(&v, cp->point[2]), fmax(3, v.s * cp->radius), 0, 2 * MT_PI);
  }
  cairo_stroke(cr);
  /* centres of mass */
  for (int i = 0; i < r->nbody; i++) cross_mark(cr, &v, r->body[i].com, 6, 2);
  double com[3];
  double mass = rig_total_mass(r, com);
  cross_mark(cr, &v, com, 11, 3.5);
  cairo_set_source_rgb(cr, 0.7, 0, 0);
  draw_textf(cr, PX(&v, com[0]) + 14, PY(&v, com[2]) - 4, 13, 0, 1, "CG (%.3f, %.3f) m", com[0], com[2]);
  /* body names near their centres of mass */
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  for (int i = 0; i < r->nbody; i++)
    draw_text(cr, PX(&v, r->body[i].com[0]) + 8, PY(&v, r->body[i].com[2]) + 4, 11, 0, 0, r->body[i].name);
  /* dimensions */
  const double* fw = r->wheel[RIG_FRONT].centre;
  const double* rw = r->wheel[RIG_REAR].centre;
  char buf[128];
  snprintf(buf, sizeof buf, "wheelbase %.0f mm", 1000 * (fw[0] - rw[0]));
  dim_h(cr, &v, rw[0], fw[0], -0.08, buf);
  snprintf(buf, sizeof buf, "b %.0f mm", 1000 * (com[0] - rw[0]));
  dim_h(cr, &v, rw[0], com[0], -0.16, buf);
  snprintf(buf, sizeof buf, "a %.0f mm", 1000 * (fw[0] - com[0]));
  dim_h(cr, &v, com[0], fw[0], -0.16, buf);
  const rig_joint* st = &r->joint[r->j_steer];
  double zg = fw[2] - r->wheel[RIG_FRONT].tyre.r0;
  double t = (zg - st->anchor[2]) / st->axis[2];
  double xa = st->anchor[0] + t * st->axis[0];
  /* steering axis down to the ground, and the trail */
  double d1[] = {9, 6};
  cairo_set_dash(cr, d1, 2, 0);
  cairo_set_source_rgb(cr, 0.0, 0.6, 0.15);
  cairo_set_line_width(cr, 1.2);
  cairo_move_to(cr, PX(&v, st->anchor[0]), PY(&v, st->anchor[2]));
  cairo_line_to(cr, PX(&v, xa), PY(&v, zg));
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  snprintf(buf, sizeof buf, "trail %.0f mm", 1000 * (xa - fw[0]));
  dim_h(cr, &v, fw[0], xa, zg + 0.03, buf);
  double rake = atan2(-st->axis[0], st->axis[2]) * 180 / MT_PI;
  cairo_set_source_rgb(cr, 0.0, 0.45, 0.1);
  draw_textf(cr, PX(&v, st->anchor[0]) + 12, PY(&v, st->anchor[2]) - 16, 13, 0, 1, "steering axis, rake %.1f°", rake);
  /* CG height */
  cairo_set_source_rgb(cr, 0.15, 0.15, 0.35);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, PX(&v, com[0]), PY(&v, 0));
  cairo_line_to(cr, PX(&v, com[0]), PY(&v, com[2]));
  cairo_stroke(cr);
  draw_textf(cr, PX(&v, com[0]) - 6, PY(&v, com[2] / 2), 12, 1, 0.5, "h %.0f mm", 1000 * com[2]);
  /* scale bar */
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
  int rc = draw_fig_save_png(&f, out, &e);
  draw_fig_free(&f);
  rig_free(r);
  return rc ? cli_report(&e) : 0;
}
