/* test_bvh.c — the BVH writer (exporters/bvh.h), read back by a small parser here: the hierarchy
 * (joints, parents, offsets, End Sites), the channel count, Frames / Frame Time, and every joint's
 * world position rebuilt from the written offsets and Euler angles against the input poses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/bvh.h"
#include "exporters/xform.h"
#include "tests/unit/test.h"

/* A five-bone skeleton: Hips (root) → Spine → Head; Hips → LeftUpLeg → LeftLeg. Rest orientations
 * are deliberately not identity (a bone's local +y along head → tail, as the rider's are). */
#define NB 5
static const char* NAMES[NB] = {"Hips", "Spine", "Head", "LeftUpLeg", "LeftLeg"};
static const int PARENT[NB] = {-1, 0, 1, 0, 3};
static const double HEAD[NB][3] = {{0.3, 0, 0.9}, {0.32, 0, 1.0}, {0.4, 0.01, 1.45}, {0.3, 0.1, 0.88}, {0.7, 0.2, 0.6}};
static const double TAIL[NB][3] = {{0.32, 0, 1.0}, {0.4, 0.01, 1.45}, {0.45, 0.01, 1.7}, {0.7, 0.2, 0.6}, {0.5, 0.18, 0.35}};

static void rest_q_of(int b, double q[4]) {   /* +y along head → tail */
  double d[3], y[3] = {0, 1, 0};
  for (int k = 0; k < 3; k++) d[k] = TAIL[b][k] - HEAD[b][k];
  double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  double ax[3] = {y[1] * d[2] - y[2] * d[1], y[2] * d[0] - y[0] * d[2], y[0] * d[1] - y[1] * d[0]};
  ex_qaxis(ax, acos(d[1] / n), q);
}

/* Frame f's world poses by forward kinematics: each joint turns by its own angle about its own
 * axis (relative to its parent), the root also moves; heads follow their parents rigidly. */
static void make_frames(ex_bvh_bone* bone, double* pose, long nframe) {
  for (int b = 0; b < NB; b++) {
    bone[b].name = NAMES[b], bone[b].parent = PARENT[b];
    memcpy(bone[b].head, HEAD[b], sizeof HEAD[b]);
    memcpy(bone[b].tail, TAIL[b], sizeof TAIL[b]);
    rest_q_of(b, bone[b].rest_q);
  }
  for (long f = 0; f < nframe; f++) {
    double W[NB][4];
    double* p = pose + 7 * NB * f;
    for (int b = 0; b < NB; b++) {
      double ax[3] = {0.3 + b, 1 - 0.4 * b, 0.5 * b - 0.7}, L[4];
      ex_qaxis(ax, 0.9 * sin(0.37 * (double)f + b) + 0.2 * b, L);   /* up to ±1.1 rad a joint */
      if (PARENT[b] < 0) {
        memcpy(W[b], L, sizeof L);
        p[0] = HEAD[b][0] + 2.0 * (double)f, p[1] = HEAD[b][1] - 0.5 * (double)f, p[2] = HEAD[b][2] + 0.01 * (double)f;
      } else {
        int a = PARENT[b];
        ex_qmul(W[a], L, W[b]);
        double off[3] = {HEAD[b][0] - HEAD[a][0], HEAD[b][1] - HEAD[a][1], HEAD[b][2] - HEAD[a][2]};
        ex_qrot(W[a], off, off);
        for (int k = 0; k < 3; k++) p[7 * b + k] = p[7 * a + k] + off[k];
      }
      ex_qmul(W[b], bone[b].rest_q, p + 7 * b + 3);
    }
  }
}

/* ---- a small BVH reader: enough to check what the writer promises ---- */
typedef struct parsed {
  int n, parent[16], nchan[16], nend;
  char name[16][32];
  double off[16][3];
  long frames;
  double frame_time;
  int nvalues_bad;           /* motion lines with the wrong number of values */
  double* val;               /* frames × channels */
  int channels;
} parsed;

static int parse_bvh(char* t, parsed* P) {
  memset(P, 0, sizeof *P);
  int stack[32], depth = 0, in_end = 0;
  char* save = NULL;
  for (char* tok = strtok_r(t, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
    if (!strcmp(tok, "ROOT") || !strcmp(tok, "JOINT")) {
      snprintf(P->name[P->n], sizeof P->name[0], "%s", strtok_r(NULL, " \t\r\n", &save));
      P->parent[P->n] = depth > 0 ? stack[depth - 1] : -1;
      stack[depth] = P->n++;
    } else if (!strcmp(tok, "End")) {
      strtok_r(NULL, " \t\r\n", &save);   /* Site */
      in_end = 1, P->nend++;
    } else if (!strcmp(tok, "{")) {
      if (!in_end) depth++;
    } else if (!strcmp(tok, "}")) {
      if (in_end) in_end = 0;
      else depth--;
    } else if (!strcmp(tok, "OFFSET")) {
      double v[3];
      for (int k = 0; k < 3; k++) v[k] = strtod(strtok_r(NULL, " \t\r\n", &save), NULL);
      if (!in_end) memcpy(P->off[P->n - 1], v, sizeof v);
    } else if (!strcmp(tok, "CHANNELS")) {
      int c = atoi(strtok_r(NULL, " \t\r\n", &save));
      P->nchan[P->n - 1] = c, P->channels += c;
      for (int k = 0; k < c; k++) strtok_r(NULL, " \t\r\n", &save);
    } else if (!strcmp(tok, "MOTION")) {
      break;
    }
  }
  char* m = strstr(save ? save : "", "Frames:");
  if (!m || sscanf(m, "Frames: %ld", &P->frames) != 1) return 0;
  char* ft = strstr(m, "Frame Time:");
  if (!ft || sscanf(ft, "Frame Time: %lf", &P->frame_time) != 1) return 0;
  char* line = strchr(ft, '\n') + 1;
  P->val = calloc((size_t)(P->frames * P->channels + 1), sizeof(double));
  for (long f = 0; f < P->frames; f++) {
    char* end = strchr(line, '\n');
    if (!end) return 0;
    *end = 0;
    int k = 0;
    char* s2 = NULL;
    for (char* v = strtok_r(line, " ", &s2); v; v = strtok_r(NULL, " ", &s2), k++)
      if (k < P->channels) P->val[f * P->channels + k] = strtod(v, NULL);
    if (k != P->channels) P->nvalues_bad++;
    line = end + 1;
  }
  return depth == 0;
}

/* World positions (y up, as written) of every joint at frame f: offsets carried by Rz Rx Ry. */
static void joint_positions(const parsed* P, long f, double pos[][3]) {
  double W[16][4];
  const double* v = P->val + f * P->channels;
  int c = 0;
  for (int j = 0; j < P->n; j++) {   /* file order is depth first: a parent before its children */
    double p[3] = {0, 0, 0};
    if (P->nchan[j] == 6) p[0] = v[c], p[1] = v[c + 1], p[2] = v[c + 2], c += 3;
    double d2r = MT_PI / 180, qz[4], qx[4], qy[4], t[4], L[4];
    ex_qaxis((const double[3]){0, 0, 1}, v[c] * d2r, qz);
    ex_qaxis((const double[3]){1, 0, 0}, v[c + 1] * d2r, qx);
    ex_qaxis((const double[3]){0, 1, 0}, v[c + 2] * d2r, qy);
    c += 3;
    ex_qmul(qz, qx, t);
    ex_qmul(t, qy, L);
    int a = P->parent[j];
    if (a < 0) {
      memcpy(W[j], L, sizeof L);
      memcpy(pos[j], p, sizeof p);
    } else {
      ex_qmul(W[a], L, W[j]);
      double off[3];
      ex_qrot(W[a], P->off[j], off);
      for (int k = 0; k < 3; k++) pos[j][k] = pos[a][k] + off[k];
    }
  }
}

MT_TEST(bvh_writes_hierarchy_channels_and_frames_that_read_back) {
  enum { NF = 40 };
  ex_bvh_bone bone[NB];
  double* pose = malloc(sizeof(double) * 7 * NB * NF);
  make_frames(bone, pose, NF);
  ex_bvh_motion m = {NB, bone, NF, 25, pose};
  mt_err e = {0};
  size_t len;
  char* t = ex_bvh_text(&m, &len, &e);
  CHECK(t && len == strlen(t));
  CHECK(!strncmp(t, "HIERARCHY\nROOT Hips\n", 20));
  parsed P;
  int good = parse_bvh(t, &P);
  CHECK(good);
  CHECK(P.n == NB);
  for (int b = 0; b < NB; b++) {
    CHECK_MSG(!strcmp(P.name[b], NAMES[b]), "joint %d is %s, want %s", b, P.name[b], NAMES[b]);
    CHECK(P.parent[b] == PARENT[b]);
    CHECK(P.nchan[b] == (b == 0 ? 6 : 3));
  }
  CHECK(P.nend == 2);   /* Head and LeftLeg are leaves */
  CHECK(P.channels == 6 + 3 * (NB - 1));
  CHECK(P.frames == NF);
  CHECK_NEAR(P.frame_time, 0.04, 1e-9);
  CHECK(P.nvalues_bad == 0);
  /* the spine's offset: its rest head from the root's, y up (x, z, -y) */
  CHECK_NEAR(P.off[1][0], 0.02, 1e-6);
  CHECK_NEAR(P.off[1][1], 0.10, 1e-6);
  CHECK_NEAR(P.off[1][2], -0.0, 1e-6);
  double worst = 0;
  for (long f = 0; f < NF; f++) {
    double pos[16][3];
    joint_positions(&P, f, pos);
    for (int b = 0; b < NB; b++) {
      double want[3];
      memcpy(want, pose + 7 * (NB * f + b), sizeof want);
      ex_yup_vec(want);
      worst = fmax(worst, sqrt(pow(pos[b][0] - want[0], 2) + pow(pos[b][1] - want[1], 2) + pow(pos[b][2] - want[2], 2)));
    }
  }
  CHECK_MSG(worst < 1e-5, "a joint rebuilt from the file is %.3g m from its input position", worst);
  free(P.val);
  free(t);
  free(pose);
}

MT_TEST(bvh_euler_zxy_rebuilds_the_rotation_even_at_gimbal_lock) {
  for (int i = 0; i < 200; i++) {
    double ax[3] = {sin(i * 1.3), cos(i * 0.7), sin(i * 0.31 + 1)}, q[4], e3[3], qz[4], qx[4], qy[4], t[4], r[4];
    ex_qaxis(ax, 0.05 * i - 3, q);
    if (i == 199) ex_qaxis((const double[3]){1, 0, 0}, MT_PI / 2, q);   /* x = 90°: z and y degenerate */
    ex_bvh_euler_zxy(q, e3);
    ex_qaxis((const double[3]){0, 0, 1}, e3[0], qz);
    ex_qaxis((const double[3]){1, 0, 0}, e3[1], qx);
    ex_qaxis((const double[3]){0, 1, 0}, e3[2], qy);
    ex_qmul(qz, qx, t);
    ex_qmul(t, qy, r);
    CHECK_MSG(ex_qangle(q, r) < 1e-7, "case %d: rebuilt rotation %.3g rad off", i, ex_qangle(q, r));
  }
}

MT_TEST(bvh_refuses_a_bad_skeleton_and_writes_nothing) {
  ex_bvh_bone bone[NB];
  double pose[7 * NB * 2];
  make_frames(bone, pose, 2);
  bone[3].parent = 4;   /* a parent after its child */
  ex_bvh_motion m = {NB, bone, 2, 30, pose};
  char path[4096];
  snprintf(path, sizeof path, "%s/bad.bvh", mt_test_tmpdir());
  mt_err e = {0};
  CHECK(ex_bvh_write(&m, path, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "LeftUpLeg") && strstr(e.msg, "parent"), "message: %s", e.msg);
  FILE* f = fopen(path, "r");
  CHECK(!f);
  make_frames(bone, pose, 2);
  pose[7 * 2 + 1] = NAN;
  memset(&e, 0, sizeof e);
  CHECK(ex_bvh_write(&m, path, &e) == MT_EINPUT);
  CHECK_MSG(strstr(e.msg, "Head") && strstr(e.msg, "frame 0"), "message: %s", e.msg);
  pose[7 * 2 + 1] = 0;
  memset(&e, 0, sizeof e);
  CHECK(ex_bvh_write(&m, path, &e) == MT_OK);
  f = fopen(path, "r");
  CHECK(f);
  fclose(f);
}
