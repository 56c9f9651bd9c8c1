/* motion.c — a take's bodies in motion (see motion.h). */
#include "scene/motion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scene/take_bodies.h"
#include "takes/replay.h"

static long g_decodes;   /* takes' poses read (sc_motion_decodes) */

long sc_motion_decodes(void) { return g_decodes; }

int sc_motion_begin(sc_motion* m, take_reader* r, mt_err* e) {
  const take_schema* sc = take_schema_of(r);
  long n = take_nsteps(r);
  memset(m, 0, sizeof *m);
  if (n < 2) return mt_fail(e, MT_EINPUT, "chase: the take has %ld steps (needs at least 2)", n);
  m->nb = sc->nbody;
  m->names = mt_alloc(sizeof(char*) * (size_t)m->nb);
  m->root = -1;
  for (int b = 0; b < m->nb; b++) {
    m->names[b] = mt_strdup(sc->body_names[b]);
    if (m->root < 0 && !sc->body_parents[b][0]) m->root = b;
  }
  if (m->root < 0) m->root = 0;
  m->nsteps = n;
  m->dt = sc->timestep;
  return MT_OK;
}

int sc_motion_rebuild(sc_motion* m, take_reader* r, rig** rg_out, mt_err* e) {
  rig* rg = NULL;
  if (replay_rebuild(r, 1, &rg, &m->tk, e)) return e->code ? e->code : MT_EINPUT;   /* with the overrides: as ridden */
  m->origin = mt_alloc(sizeof *m->origin * (size_t)m->nb);
  for (int b = 0; b < m->nb; b++) ex_take_body_origin(rg, m->names[b], m->origin[b]);
  if (m->tk) m->tlen = track_length(m->tk), m->closed = track_closed(m->tk);
  if (rg_out) *rg_out = rg;
  else rig_free(rg);
  return MT_OK;
}

int sc_motion_read_poses(sc_motion* m, take_reader* r, const double* poses, mt_err* e) {
  long n = m->nsteps, row = 7L * m->nb;
  m->pose = mt_alloc(sizeof(float) * (size_t)(row * n));
  if (poses) {   /* the caller's decoded poses: the same numbers take_read gives */
    for (long k = 0; k < row * n; k++) m->pose[k] = (float)poses[k];
    return MT_OK;
  }
  double* buf = mt_alloc(sizeof(double) * (size_t)row * TAKE_CHUNK_STEPS);
  for (long i = 0; i < n; i += TAKE_CHUNK_STEPS) {
    long c = n - i < TAKE_CHUNK_STEPS ? n - i : TAKE_CHUNK_STEPS;
    if (take_read(r, TAKE_POSE, i, c, buf, e)) {
      free(buf);
      return e->code ? e->code : MT_EINPUT;
    }
    for (long k = 0; k < row * c; k++) m->pose[row * i + k] = (float)buf[k];
  }
  free(buf);
  g_decodes++;
  return MT_OK;
}

void sc_motion_from_poses(sc_motion* m, int nb, const char* const* names, const double* poses, long nsteps, double dt) {
  memset(m, 0, sizeof *m);
  m->nb = nb;
  m->names = mt_alloc(sizeof(char*) * (size_t)nb);
  for (int b = 0; b < nb; b++) m->names[b] = mt_strdup(names[b] ? names[b] : "");
  m->nsteps = nsteps;
  m->dt = dt;
  m->pose = mt_alloc(sizeof(float) * 7 * (size_t)nb * (size_t)nsteps);
  for (long k = 0; k < 7 * nb * nsteps; k++) m->pose[k] = (float)poses[k];
}

void sc_motion_free(sc_motion* m) {
  for (int b = 0; m->names && b < m->nb; b++) free(m->names[b]);
  free(m->names);
  free(m->pose);
  free(m->origin);
  track_free(m->tk);
  memset(m, 0, sizeof *m);
}

double sc_motion_clamp(const sc_motion* m, double t) {
  double T = (m->nsteps - 1) * m->dt;
  return t < 0 ? 0 : t > T ? T : t;
}

void sc_quat_mat(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}

static void slerp(const double a[4], const double b0[4], double u, double out[4]) {
  double b[4] = {b0[0], b0[1], b0[2], b0[3]};
  double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (c < 0) c = -c, b[0] = -b[0], b[1] = -b[1], b[2] = -b[2], b[3] = -b[3];
  double ka = 1 - u, kb = u;
  if (c < 0.9995) {
    double th = acos(c), s = sin(th);
    ka = sin((1 - u) * th) / s;
    kb = sin(u * th) / s;
  }
  double n = 0;
  for (int k = 0; k < 4; k++) out[k] = ka * a[k] + kb * b[k], n += out[k] * out[k];
  n = sqrt(n);
  for (int k = 0; k < 4; k++) out[k] /= n;
}

void sc_motion_pose_at(const sc_motion* m, int b, double t, double p[3], double R[9]) {
  double tt = t / m->dt;
  if (!(tt > 0)) tt = 0;
  long i = (long)floor(tt);
  double u = tt - i;
  if (i >= m->nsteps - 1) i = m->nsteps - 1, u = 0;
  const float* A = m->pose + (i * m->nb + b) * 7;
  const float* B = i + 1 < m->nsteps ? A + m->nb * 7 : A;
  double qa[4] = {A[3], A[4], A[5], A[6]}, qb[4] = {B[3], B[4], B[5], B[6]}, q[4];
  for (int k = 0; k < 3; k++) p[k] = A[k] + u * ((double)B[k] - A[k]);
  slerp(qa, qb, u, q);
  sc_quat_mat(q, R);
}
