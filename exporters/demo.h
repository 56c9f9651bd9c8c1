/* demo.h — a synthetic ride with known analytic poses, to exercise and test the exporter
 * without a simulator: a 12-body motorcycle and rider at 60 m/s whose wheels spin at
 * 200 rad/s, on a straight road. tests/blender/check_import.py re-implements the same table
 * independently as the oracle of the Blender import test. */
#ifndef EX_DEMO_H
#define EX_DEMO_H

#include "exporters/motion.h"

#define EX_DEMO_NBODY 12
#define EX_DEMO_SPEED 60.0    /* m/s, chassis along +x */
#define EX_DEMO_SPIN 200.0    /* rad/s, both wheels about their +y axle (0.3 m: rolling) */

typedef struct ex_demo {
  ex_motion m;
  ex_body body[EX_DEMO_NBODY];
  double* pose;
  double* vert;
  int* tri;
  int line_len[3];
  double* line_pts;
} ex_demo;

/* Analytic LOCAL pose (x y z qw qx qy qz, relative to the parent body; world for the root)
 * of demo body b at time t. */
void ex_demo_local(int b, double t, double local[7]);
/* Analytic WORLD pose of demo body b at time t. */
void ex_demo_world(int b, double t, double world[7]);
/* Build the demo motion: duration seconds sampled every dt (poses at i*dt, i = 0..round(duration/dt)). */
void ex_demo_build(ex_demo* d, double duration, double dt);
void ex_demo_free(ex_demo* d);

#endif
