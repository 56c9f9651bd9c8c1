/* demo.c — the synthetic ride (see demo.h).
 *
 * Each child body sits at a fixed offset in its parent's frame and turns about a fixed local
 * axis by angle(t) = a0 + a1·sin(2π f t) + w·t; the chassis moves at x = v·t with a 2 cm,
 * 1 Hz bounce, leaning (about x) and pitching (about y). World poses are the composition
 * down the tree, so every exported local transform has a closed form to test against. Every
 * body carries at least one box: box corners are exact mesh vertices, and a box breaks the
 * symmetry of the wheel's torus so that its spin can be seen and checked. */
#include "exporters/demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/xform.h"
#include "base/mt.h"

typedef struct demo_joint {
  const char* name;
  int parent;
  double off[3], axis[3];
  double a0, a1, f, w;
} demo_joint;

static const demo_joint J[EX_DEMO_NBODY] = {
    {"chassis", -1, {0, 0, 0}, {1, 0, 0}, 0, 0, 0, 0},   /* special: see ex_demo_local */
    {"fork", 0, {0.62, 0, 0.12}, {-0.42261826174069944, 0, 0.90630778703665} /* 25° rake */, 0, 0.2, 0.7, 0},
    {"handlebar", 1, {-0.08, 0, 0.30}, {0, 0, 1}, 0, 0, 0, 0},
    {"wheel_front", 1, {0.12, 0, -0.42}, {0, 1, 0}, 0, 0, 0, EX_DEMO_SPIN},
    {"swingarm", 0, {-0.35, 0, -0.05}, {0, 1, 0}, -0.5, 0.05, 1.3, 0},
    {"wheel_rear", 4, {-0.5, 0, 0}, {0, 1, 0}, 0.5, 0, 0, EX_DEMO_SPIN},
    {"rider_torso", 0, {-0.25, 0, 0.25}, {0, 1, 0}, 0.5, 0.05, 0.9, 0},
    {"rider_head", 6, {0, 0, 0.55}, {0, 0, 1}, 0, 0.3, 0.4, 0},
    {"arm_left", 6, {0, 0.2, 0.45}, {0, 1, 0}, -1.1, 0.05, 1.1, 0},
    {"arm_right", 6, {0, -0.2, 0.45}, {0, 1, 0}, -1.1, 0.05, 1.1, 0},
    {"leg_left", 0, {-0.3, 0.17, 0.2}, {0, 1, 0}, 0.6, 0.03, 0.8, 0},
    {"leg_right", 0, {-0.3, -0.17, 0.2}, {0, 1, 0}, 0.6, 0.03, 0.8, 0},
};

#define RED {0.8, 0.08, 0.06, 1}
#define DARKRED {0.45, 0.03, 0.03, 1}
#define BLACK {0.03, 0.03, 0.03, 1}
#define SILVER {0.72, 0.72, 0.75, 1}
#define YELLOW {1.0, 0.78, 0.0, 1}
#define GREY {0.22, 0.22, 0.24, 1}
#define BLUE {0.08, 0.25, 0.75, 1}
#define NAVY {0.06, 0.08, 0.3, 1}
#define WHITE {0.95, 0.95, 0.95, 1}
#define VISOR {0.05, 0.05, 0.08, 0.85}

static const ex_shape S_CHASSIS[] = {
    {EX_BOX, {0, 0, 0.05}, {1.1, 0.28, 0.3}, {0}, 0, 0, RED},
    {EX_BOX, {0.25, 0, 0.28}, {0.45, 0.3, 0.16}, {0}, 0, 0, DARKRED},
    {EX_BOX, {-0.25, 0, 0.24}, {0.45, 0.26, 0.08}, {0}, 0, 0, BLACK},
};
static const ex_shape S_FORK[] = {
    {EX_CYLINDER, {0, 0.09, 0.25}, {0.12, 0.09, -0.42}, {0}, 0.025, 0, SILVER},
    {EX_CYLINDER, {0, -0.09, 0.25}, {0.12, -0.09, -0.42}, {0}, 0.025, 0, SILVER},
    {EX_BOX, {0, 0, 0.25}, {0.08, 0.25, 0.05}, {0}, 0, 0, SILVER},
};
static const ex_shape S_BAR[] = {
    {EX_CYLINDER, {0, -0.35, 0}, {0, 0.35, 0}, {0}, 0.016, 0, BLACK},
    {EX_BOX, {0, 0, 0}, {0.06, 0.08, 0.05}, {0}, 0, 0, SILVER},
};
static const ex_shape S_WHEEL[] = {
    {EX_TORUS, {0, 0, 0}, {0}, {0, 1, 0}, 0.24, 0.06, BLACK},
    {EX_CYLINDER, {0, -0.06, 0}, {0, 0.06, 0}, {0}, 0.05, 0, SILVER},
    {EX_BOX, {0, 0, 0.1}, {0.04, 0.03, 0.2}, {0}, 0, 0, SILVER},
    {EX_BOX, {0, 0, 0.16}, {0.05, 0.05, 0.03}, {0}, 0, 0, YELLOW},
};
static const ex_shape S_SWING[] = {{EX_BOX, {-0.25, 0, 0}, {0.5, 0.06, 0.05}, {0}, 0, 0, GREY}};
static const ex_shape S_TORSO[] = {
    {EX_CAPSULE, {0, 0, 0.12}, {0, 0, 0.4}, {0}, 0.16, 0, BLUE},
    {EX_BOX, {0, 0, 0.05}, {0.25, 0.34, 0.1}, {0}, 0, 0, NAVY},
};
static const ex_shape S_HEAD[] = {
    {EX_SPHERE, {0, 0, 0.12}, {0}, {0}, 0.13, 0, WHITE},
    {EX_BOX, {0.1, 0, 0.13}, {0.06, 0.18, 0.07}, {0}, 0, 0, VISOR},
};
static const ex_shape S_ARM[] = {
    {EX_CAPSULE, {0, 0, 0}, {0, 0, -0.45}, {0}, 0.05, 0, BLUE},
    {EX_BOX, {0, 0, -0.52}, {0.08, 0.06, 0.1}, {0}, 0, 0, BLACK},
};
static const ex_shape S_LEG[] = {
    {EX_CAPSULE, {0, 0, 0}, {0.42, 0, 0}, {0}, 0.07, 0, NAVY},
    {EX_BOX, {0.44, 0, -0.1}, {0.1, 0.1, 0.22}, {0}, 0, 0, BLACK},
};

static const struct { const ex_shape* s; int n; } SHAPES[EX_DEMO_NBODY] = {
    {S_CHASSIS, 3}, {S_FORK, 3}, {S_BAR, 2}, {S_WHEEL, 4}, {S_SWING, 1}, {S_WHEEL, 4},
    {S_TORSO, 2}, {S_HEAD, 2}, {S_ARM, 2}, {S_ARM, 2}, {S_LEG, 2}, {S_LEG, 2},
};

void ex_demo_local(int b, double t, double out[7]) {
  const demo_joint* j = &J[b];
  if (b == 0) {
    const double ax[3] = {1, 0, 0}, ay[3] = {0, 1, 0};
    double lean[4], pitch[4];
    ex_qaxis(ax, 0.3 * sin(0.5 * MT_PI * t), lean);
    ex_qaxis(ay, 0.03 * sin(2 * MT_PI * t), pitch);
    out[0] = EX_DEMO_SPEED * t, out[1] = 0, out[2] = 0.6 + 0.02 * sin(2 * MT_PI * t);
    ex_qmul(lean, pitch, out + 3);
    return;
  }
  memcpy(out, j->off, 3 * sizeof(double));
  ex_qaxis(j->axis, j->a0 + j->a1 * sin(2 * MT_PI * j->f * t) + j->w * t, out + 3);
}

void ex_demo_world(int b, double t, double out[7]) {
  double local[7];
  ex_demo_local(b, t, local);
  if (J[b].parent < 0) {
    memcpy(out, local, sizeof local);
    return;
  }
  double parent[7];
  ex_demo_world(J[b].parent, t, parent);
  ex_pose_compose(parent, local, out);
}

void ex_demo_build(ex_demo* d, double duration, double dt) {
  memset(d, 0, sizeof *d);
  long n = lround(duration / dt) + 1;
  d->pose = mt_alloc((size_t)n * EX_DEMO_NBODY * 7 * sizeof(double));
  for (long i = 0; i < n; i++) {
    double t = (double)i * dt;
    double* row = d->pose + (size_t)i * EX_DEMO_NBODY * 7;
    /* parents come first in J, so compose from the row instead of recursing */
    for (int b = 0; b < EX_DEMO_NBODY; b++) {
      double local[7];
      ex_demo_local(b, t, local);
      if (J[b].parent < 0) memcpy(row + 7 * b, local, sizeof local);
      else ex_pose_compose(row + 7 * J[b].parent, local, row + 7 * b);
    }
  }
  for (int b = 0; b < EX_DEMO_NBODY; b++)
    d->body[b] = (ex_body){J[b].name, J[b].parent, SHAPES[b].s, SHAPES[b].n};
  /* a straight road, 10 m wide, from 20 m behind the start to 20 m past the end */
  double x0 = -20, x1 = EX_DEMO_SPEED * duration + 20;
  int ns = (int)ceil((x1 - x0) / 10) + 1;
  d->vert = mt_alloc((size_t)ns * 2 * 3 * sizeof(double));
  d->tri = mt_alloc((size_t)(ns - 1) * 2 * 3 * sizeof(int));
  d->line_pts = mt_alloc((size_t)ns * 3 * 3 * sizeof(double));
  for (int i = 0; i < ns; i++) {
    double x = x0 + (x1 - x0) * i / (ns - 1);
    double* v = d->vert + 6 * i;
    v[0] = x, v[1] = -5, v[2] = 0, v[3] = x, v[4] = 5, v[5] = 0;
    for (int l = 0; l < 3; l++) {
      double* p = d->line_pts + 3 * ((size_t)l * ns + i);
      p[0] = x, p[1] = (l - 1) * 4.6, p[2] = 0;
    }
    if (i + 1 < ns) {
      int* t = d->tri + 6 * i;
      t[0] = 2 * i, t[1] = 2 * i + 2, t[2] = 2 * i + 3;
      t[3] = 2 * i, t[4] = 2 * i + 3, t[5] = 2 * i + 1;
    }
  }
  for (int l = 0; l < 3; l++) d->line_len[l] = ns;
  d->m = (ex_motion){"ride", EX_DEMO_NBODY, d->body, dt, n, d->pose, 2 * ns, d->vert, 2 * (ns - 1), d->tri,
                     3, d->line_len, d->line_pts, 0, NULL, 0, NULL};
}

void ex_demo_free(ex_demo* d) {
  free(d->pose);
  free(d->vert);
  free(d->tri);
  free(d->line_pts);
  memset(d, 0, sizeof *d);
}
