/* test_export.c — the exporter: transforms, exact frame keys, spin sub-keys, the reduction
 * bound, tessellation, the FBX sentinel repair, input errors, and round trips of the written
 * files through Assimp's importers. The truth is the demo ride's closed-form poses
 * (exporters/demo.h) and analytic volumes. */
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exporters/demo.h"
#include "exporters/fbxfix.h"
#include "exporters/keys.h"
#include "exporters/motion.h"
#include "exporters/scene.h"
#include "scene/shapes.h"
#include "exporters/xform.h"
#include "base/outfile.h"
#include "tests/unit/test.h"

static double qdist(const double a[4], const double b[4]) { return ex_qangle(a, b); }

static ex_track demo_track(const ex_demo* d, int b) {
  return (ex_track){d->pose + 7 * b, 7L * EX_DEMO_NBODY, d->m.nsteps, d->m.dt};
}

static int demo_parent(int b) { return b == 0 ? -1 : b == 3 ? 1 : b == 2 ? 1 : b == 5 ? 4 : b >= 7 && b <= 9 ? 6 : 0; }

static long sample_demo(const ex_demo* d, int b, double fps, double limit, ex_keys* k) {
  ex_track tr = demo_track(d, b), pt;
  int p = d->body[b].parent;
  if (p >= 0) pt = demo_track(d, p);
  return ex_keys_sample(&tr, p >= 0 ? &pt : NULL, 0, (double)(d->m.nsteps - 1) * d->m.dt, fps, limit, k);
}

MT_TEST(export_pose_local_inverts_compose) {
  double parent[7] = {1, -2, 3, 0, 0, 0, 0}, local[7] = {0.3, 0.2, -0.1, 0, 0, 0, 0}, w[7], back[7];
  const double a1[3] = {1, 2, 3}, a2[3] = {-1, 0.5, 0.2};
  ex_qaxis(a1, 0.7, parent + 3);
  ex_qaxis(a2, 2.9, local + 3);
  ex_pose_compose(parent, local, w);
  ex_pose_local(parent, w, back);
  for (int i = 0; i < 3; i++) CHECK_NEAR(back[i], local[i], 1e-14);
  CHECK_NEAR(qdist(back + 3, local + 3), 0, 1e-7);
}

MT_TEST(export_yup_is_conjugation_by_rx_minus_90) {
  /* (x, y, z) → (x, z, -y) on vectors and quaternion vector parts must equal C q C* with
   * C = Rx(-90°): then a node tree converted per node is the same tree seen in y-up */
  const double ax[3] = {1, 0, 0}, axis[3] = {0.3, -0.8, 0.5};
  double c[4], cc[4], q[4], t[4], r[4];
  ex_qaxis(ax, -0.5 * MT_PI, c);
  ex_qconj(c, cc);
  ex_qaxis(axis, 1.234, q);
  ex_qmul(c, q, t);
  ex_qmul(t, cc, r);
  ex_yup_quat(q);
  CHECK_NEAR(qdist(q, r), 0, 1e-7);
  double v[3] = {0.1, 0.2, 0.3}, cv[3];
  ex_qrot(c, v, cv);
  ex_yup_vec(v);
  for (int i = 0; i < 3; i++) CHECK_NEAR(v[i], cv[i], 1e-15);
}

MT_TEST(export_keys_at_exact_frame_times_match_analytic_local_poses) {
  ex_demo d;
  ex_demo_build(&d, 2.0, 0.001);
  for (int b = 0; b < EX_DEMO_NBODY; b++) {
    CHECK(d.body[b].parent == demo_parent(b));
    ex_keys k;
    sample_demo(&d, b, 30, 0.5 * MT_PI, &k);
    CHECK(k.frames == 61);
    long f = 0;
    for (long i = 0; i < k.n; i++) {
      double want[7];
      ex_demo_local(b, k.t[i], want);
      for (int c = 0; c < 3; c++) CHECK_NEAR(k.p[3 * i + c], want[c], 2e-6);
      CHECK_MSG(qdist(k.q + 4 * i, want + 3) < 2e-5, "body %d key %ld: %.3g rad off", b, i, qdist(k.q + 4 * i, want + 3));
      if (fabs(k.t[i] * 30 - round(k.t[i] * 30)) < 1e-9) f++;
      if (i > 0) CHECK(k.t[i] > k.t[i - 1]);
    }
    CHECK_MSG(f == 61, "body %d: %ld keys on frame times", b, f);   /* every frame keyed exactly */
    ex_keys_free(&k);
  }
  ex_demo_free(&d);
}

MT_TEST(export_spin_subkeys_keep_every_step_below_the_limit) {
  ex_demo d;
  ex_demo_build(&d, 2.0, 0.001);
  const double fps[] = {24, 30, 60, 120};
  for (size_t f = 0; f < MT_ARRAY_LEN(fps); f++) {
    ex_keys k;
    long sub = sample_demo(&d, 3, fps[f], 0.5 * MT_PI, &k);
    /* uniform spin relative to the fork: ω/fps per frame in ceil(ω/fps / (π/2)) equal parts */
    long pieces = (long)ceil(EX_DEMO_SPIN / fps[f] / (0.5 * MT_PI));
    CHECK_MSG(sub == (k.frames - 1) * (pieces - 1), "fps %g: %ld sub-keys, want %ld", fps[f], sub, (k.frames - 1) * (pieces - 1));
    for (long i = 1; i < k.n; i++) {
      CHECK(ex_qangle(k.q + 4 * (i - 1), k.q + 4 * i) <= 0.5 * MT_PI + 1e-9);
      /* sign continuity: what consumers that key components linearly need */
      double dot = 0;
      for (int c = 0; c < 4; c++) dot += k.q[4 * (i - 1) + c] * k.q[4 * i + c];
      CHECK(dot > 0);
      /* the short way between keys IS the real way: halfway, slerp matches the wheel */
      double tm = 0.5 * (k.t[i - 1] + k.t[i]), got[7], want[7];
      ex_keys_eval(&k, tm, got);
      ex_demo_local(3, tm, want);
      CHECK_MSG(qdist(got + 3, want + 3) < 1e-4, "fps %g t %.4f: %.3g rad off", fps[f], tm, qdist(got + 3, want + 3));
    }
    ex_keys_free(&k);
  }
  ex_demo_free(&d);
}

MT_TEST(export_frame_keys_alone_would_spin_the_wheel_backwards) {
  /* the failure the sub-keys prevent: with only frame keys, slerp between two frames turns
   * the wheel the short way, -(2π - ω/fps) instead of ω/fps */
  double a[4], b[4], mid[4], want[4];
  const double y[3] = {0, 1, 0};
  double step = EX_DEMO_SPIN / 30;
  ex_qaxis(y, 0, a);
  ex_qaxis(y, step, b);
  ex_qslerp(a, b, 0.5, mid);
  ex_qaxis(y, 0.5 * step, want);
  CHECK(qdist(mid, want) > 3.0);   /* about half a turn wrong */
}

/* every original key is reproduced by the reduced keys within the bounds */
static void check_bound(const ex_keys* full, const ex_keys* red, double tp, double ta, double limit) {
  for (long i = 0; i < full->n; i++) {
    long a = 0;
    while (a + 1 < red->n && red->t[a + 1] <= full->t[i]) a++;
    double pose[7];
    ex_keys_eval(red, full->t[i], pose);
    double d2 = 0;
    for (int c = 0; c < 3; c++) d2 += (pose[c] - full->p[3 * i + c]) * (pose[c] - full->p[3 * i + c]);
    CHECK_MSG(sqrt(d2) <= tp * (1 + 1e-9) + 1e-12, "key %ld: position error %.3g > %.3g", i, sqrt(d2), tp);
    CHECK_MSG(qdist(pose + 3, full->q + 4 * i) <= ta * (1 + 1e-6) + 1e-9, "key %ld: slerp angle error %.3g > %.3g", i,
              qdist(pose + 3, full->q + 4 * i), ta);
    if (a + 1 < red->n) {   /* and normalised lerp, what Blender shows */
      double u = (full->t[i] - red->t[a]) / (red->t[a + 1] - red->t[a]), qn[4];
      ex_qnlerp(red->q + 4 * a, red->q + 4 * a + 4, u, qn);
      CHECK_MSG(qdist(qn, full->q + 4 * i) <= ta * (1 + 1e-6) + 1e-9, "key %ld: nlerp angle error %.3g", i, qdist(qn, full->q + 4 * i));
    }
  }
  for (long i = 1; i < red->n; i++) CHECK(ex_qangle(red->q + 4 * (i - 1), red->q + 4 * i) <= limit + 1e-9);
}

static ex_keys copy_keys(const ex_keys* k) {
  ex_keys c = *k;
  c.t = malloc((size_t)k->n * sizeof(double));
  c.p = malloc((size_t)k->n * 3 * sizeof(double));
  c.q = malloc((size_t)k->n * 4 * sizeof(double));
  memcpy(c.t, k->t, (size_t)k->n * sizeof(double));
  memcpy(c.p, k->p, (size_t)k->n * 3 * sizeof(double));
  memcpy(c.q, k->q, (size_t)k->n * 4 * sizeof(double));
  return c;
}

MT_TEST(export_reduction_bound_holds_for_every_dropped_key) {
  ex_demo d;
  ex_demo_build(&d, 4.0, 0.001);
  const double tols[][2] = {{1e-3, 1e-3}, {1e-2, 2e-2}, {1e-4, 1e-2}, {5e-2, 1e-4}};
  long before = 0, after = 0;
  for (size_t t = 0; t < MT_ARRAY_LEN(tols); t++)
    for (int b = 0; b < EX_DEMO_NBODY; b++) {
      ex_keys full, red;
      sample_demo(&d, b, 60, 0.5 * MT_PI, &full);
      red = copy_keys(&full);
      double mp, ma;
      ex_keys_reduce(&red, tols[t][0], tols[t][1], 0.5 * MT_PI, &mp, &ma);
      CHECK(red.t[0] == full.t[0] && red.t[red.n - 1] == full.t[full.n - 1]);
      CHECK(mp <= tols[t][0] && ma <= tols[t][1]);
      check_bound(&full, &red, tols[t][0], tols[t][1], 0.5 * MT_PI);
      if (mt_test_failed) return;
      before += full.n, after += red.n;
      if (b == 2) CHECK(red.n == 2);   /* the handlebar is fixed to the fork: two keys suffice */
      ex_keys_free(&full);
      ex_keys_free(&red);
    }
  /* the spin keys must stay (90° apart at most), the rest thins out */
  CHECK_MSG(after < 0.7 * before, "reduction kept %ld of %ld keys", after, before);
  ex_demo_free(&d);
}

MT_TEST(export_reduction_bound_on_a_random_walk) {
  /* a rough motion (no smoothness for the reduction to exploit by luck) */
  long n = 3001;
  double* pose = malloc((size_t)n * 7 * sizeof(double));
  unsigned s = 12345;
  double p[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0}, v[3] = {0, 0, 0}, w[3] = {0, 0, 0};
  for (long i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) {
      s = s * 1103515245u + 12345u;
      v[c] += ((double)(s >> 8) / 16777216.0 - 0.5) * 0.5;
      s = s * 1103515245u + 12345u;
      w[c] += ((double)(s >> 8) / 16777216.0 - 0.5) * 2.0;
      p[c] += v[c] * 0.001;
    }
    double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), dq[4];
    if (wn > 0) {
      ex_qaxis(w, wn * 0.001, dq);
      ex_qmul(dq, q, q);
      ex_qnorm(q);
    }
    memcpy(pose + 7 * i, p, sizeof p);
    memcpy(pose + 7 * i + 3, q, sizeof q);
  }
  ex_track tr = {pose, 7, n, 0.001};
  ex_keys full, red;
  ex_keys_sample(&tr, NULL, 0, 3.0, 100, 0.5 * MT_PI, &full);
  red = copy_keys(&full);
  ex_keys_reduce(&red, 2e-3, 5e-3, 0.5 * MT_PI, NULL, NULL);
  CHECK(red.n < full.n && red.n > 2);
  check_bound(&full, &red, 2e-3, 5e-3, 0.5 * MT_PI);
  ex_keys_free(&full);
  ex_keys_free(&red);
  free(pose);
}

/* Enclosed volume by the divergence theorem: positive only if every triangle faces out. */
static double volume(const ex_mesh* m) {
  double v = 0;
  for (int t = 0; t < m->ntri; t++) {
    const float *a = m->pos + 3 * m->idx[3 * t], *b = m->pos + 3 * m->idx[3 * t + 1], *c = m->pos + 3 * m->idx[3 * t + 2];
    v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
  }
  return v;
}

MT_TEST(export_shapes_are_closed_outward_and_the_right_size) {
  const ex_shape S[] = {
      {EX_BOX, {1, 2, 3}, {0.5, 0.2, 0.3}, {0}, 0, 0, {1, 0, 0, 1}},
      {EX_CYLINDER, {0.1, 0, 0}, {0.1, 0.5, 0.3}, {0}, 0.1, 0, {1, 0, 0, 1}},
      {EX_CAPSULE, {0, 0, 0}, {0, 0, -0.45}, {0}, 0.05, 0, {1, 0, 0, 1}},
      {EX_SPHERE, {0, 1, 0}, {0}, {0}, 0.13, 0, {1, 0, 0, 1}},
      {EX_TORUS, {0, 0, 0}, {0}, {0, 2, 0}, 0.24, 0.06, {1, 0, 0, 1}},
  };
  double L = sqrt(0.5 * 0.5 + 0.3 * 0.3);
  const double want[] = {0.5 * 0.2 * 0.3, 0.5 * EX_SEG_CYL * sin(2 * MT_PI / EX_SEG_CYL) * 0.01 * L,   /* inscribed prism */
                          MT_PI * 0.0025 * 0.45 + 4.0 / 3 * MT_PI * 0.05 * 0.05 * 0.05,
                         4.0 / 3 * MT_PI * 0.13 * 0.13 * 0.13,
                         /* Pappus on the polygons: the tube's inscribed EX_SEG_TUBE-gon swept about
                          * the inscribed EX_SEG_ROUND-gon */
                         0.5 * EX_SEG_TUBE * sin(2 * MT_PI / EX_SEG_TUBE) * 0.06 * 0.06 * 0.24 * EX_SEG_ROUND * sin(2 * MT_PI / EX_SEG_ROUND)};
  /* curved shapes: inscribed polygons lose 1 - sin(2π/n)/(2π/n) of the area, 0.6% at n = 32 */
  const double tol[] = {1e-5, 1e-5, 0.02, 0.02, 1e-5};
  for (size_t i = 0; i < MT_ARRAY_LEN(S); i++) {
    CHECK(ex_shape_check(&S[i]) == NULL);
    ex_mesh m = {0};
    ex_mesh_add_shape(&m, &S[i]);
    double v = volume(&m);
    CHECK_MSG(fabs(v / want[i] - 1) < tol[i], "shape %zu: volume %.6g, want %.6g", i, v, want[i]);
    for (int j = 0; j < m.nvert; j++) {
      const float* n = m.nrm + 3 * j;
      CHECK_NEAR(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1, 1e-6);
    }
    ex_mesh_to_yup(&m);   /* a rotation: the volume stays */
    CHECK_NEAR(volume(&m), v, 1e-9);
    ex_mesh_free(&m);
  }
  ex_shape bad = S[4];
  bad.minor = -1;
  CHECK(ex_shape_check(&bad) && strcmp(ex_shape_check(&bad), "minor") == 0);
}

/*---- FBX framing ----*/

typedef struct buf { unsigned char d[4096]; size_t n; } buf;
static void put8(buf* b, uint64_t v) {
  for (int i = 0; i < 8; i++) b->d[b->n++] = (unsigned char)(v >> (8 * i));
}

/* An independent writer of a tiny FBX 7500 record tree: root "A" (1 property) holding "B"
 * (no children) and "C" (holding "D"), then "E" with no children. */
static size_t rec(buf* b, const char* name, int nchild, const char** child, int sentinels) {
  size_t start = b->n;
  put8(b, 0);
  put8(b, 1);
  put8(b, 5);
  b->d[b->n++] = (unsigned char)strlen(name);
  memcpy(b->d + b->n, name, strlen(name));
  b->n += strlen(name);
  b->d[b->n++] = 'I';
  memcpy(b->d + b->n, "\x2a\0\0\0", 4);
  b->n += 4;
  for (int i = 0; i < nchild; i++) rec(b, child[i], strcmp(child[i], "C") == 0 ? 1 : 0, (const char*[]){"D"}, sentinels);
  if (nchild && sentinels) memset(b->d + b->n, 0, 25), b->n += 25;
  size_t end = b->n;
  for (int i = 0; i < 8; i++) b->d[start + (size_t)i] = (unsigned char)(end >> (8 * i));
  return end;
}

static void tiny_fbx(buf* b, int sentinels) {
  memset(b, 0, sizeof *b);
  memcpy(b->d, "Kaydara FBX Binary  \0\x1a\0", 23);
  b->d[23] = 0x4c, b->d[24] = 0x1d;   /* 7500 */
  b->n = 27;
  rec(b, "A", 2, (const char*[]){"B", "C"}, sentinels);
  rec(b, "E", 0, NULL, sentinels);
  memset(b->d + b->n, 0, 25), b->n += 25;                          /* top-level NULL record */
  memset(b->d + b->n, 0xfa, 16), b->n += 16;                       /* footer id */
  size_t pad = 16 - b->n % 16;
  memset(b->d + b->n, 0, pad), b->n += pad;
  memset(b->d + b->n, 0, 4), b->n += 4;
  b->d[b->n] = 0x4c, b->d[b->n + 1] = 0x1d, b->n += 4;
  memset(b->d + b->n, 0, 120), b->n += 120;
  memset(b->d + b->n, 0xf8, 16), b->n += 16;                       /* foot magic */
}

MT_TEST(export_fbx_repair_inserts_exactly_the_missing_sentinels) {
  buf good, bare;
  tiny_fbx(&good, 1);
  tiny_fbx(&bare, 0);
  CHECK(ex_fbx_check(good.d, good.n) == EX_FBX_WELLFORMED);
  CHECK(ex_fbx_check(bare.d, bare.n) == EX_FBX_NO_SENTINELS);
  CHECK(ex_fbx_repair(good.d, good.n, &(size_t){0}) == NULL);   /* a fixed Assimp: hands off */
  size_t n;
  unsigned char* fixed = ex_fbx_repair(bare.d, bare.n, &n);
  CHECK(fixed != NULL);
  CHECK_MSG(n == good.n, "repaired %zu bytes, want %zu", n, good.n);
  CHECK(memcmp(fixed, good.d, n) == 0);   /* offsets, sentinels and footer padding all agree */
  free(fixed);
  bare.d[27] ^= 0x40;                       /* a broken end offset: neither reading works */
  CHECK(ex_fbx_check(bare.d, bare.n) == EX_FBX_BAD);
  CHECK(ex_fbx_check((const unsigned char*)"not an fbx", 10) == EX_FBX_BAD);
}

MT_TEST(export_fbx_defect_detected_in_assimps_own_output) {
  /* a minimal scene through this machine's Assimp: on 5.2 the blob lacks sentinels and its
   * own importer rejects it; repaired, it imports. On a fixed Assimp it is well-formed. */
  ex_scene* s = ex_scene_new("root", "anim");
  const double id[7] = {0, 0, 0, 1, 0, 0, 0}, red[4] = {1, 0, 0, 1};
  ex_mesh m = {0};
  ex_shape box = {EX_BOX, {0, 0, 0}, {1, 1, 1}, {0}, 0, 0, {1, 0, 0, 1}};
  ex_mesh_add_shape(&m, &box);
  int mi = ex_scene_mesh(s, &m, ex_scene_material(s, red, "red"), "box-mesh");
  ex_scene_node(s, "box", -1, id, &mi, 1);
  const struct aiExportDataBlob* blob = aiExportSceneToBlob(ex_scene_ai(s), "fbx", 0);
  CHECK(blob != NULL);
  int state = ex_fbx_check(blob->data, blob->size);
  CHECK(state == EX_FBX_NO_SENTINELS || state == EX_FBX_WELLFORMED);
  const struct aiScene* raw = aiImportFileFromMemory(blob->data, (unsigned)blob->size, 0, "fbx");
  if (state == EX_FBX_NO_SENTINELS) {
    CHECK(raw == NULL);
    size_t n;
    unsigned char* fixed = ex_fbx_repair(blob->data, blob->size, &n);
    CHECK(ex_fbx_check(fixed, n) == EX_FBX_WELLFORMED);
    const struct aiScene* back = aiImportFileFromMemory((const char*)fixed, (unsigned)n, 0, "fbx");
    CHECK_MSG(back != NULL, "Assimp cannot read the repaired FBX: %s", aiGetErrorString());
    CHECK(back->mNumMeshes == 1 && back->mMeshes[0]->mNumFaces == 12);
    aiReleaseImport(back);
    free(fixed);
  } else {
    CHECK(raw != NULL);
  }
  if (raw) aiReleaseImport(raw);
  aiReleaseExportBlob(blob);
  ex_mesh_free(&m);
  ex_scene_free(s);
}

/*---- whole exports ----*/

static char* tmp_path(const char* name) {
  static char p[8][512];
  static int i;
  char* r = p[i++ % 8];
  snprintf(r, 512, "%s/%s", mt_test_tmpdir(), name);
  return r;
}

static const struct aiNode* find_node(const struct aiNode* n, const char* name) {
  if (strcmp(n->mName.data, name) == 0) return n;
  for (unsigned i = 0; i < n->mNumChildren; i++) {
    const struct aiNode* f = find_node(n->mChildren[i], name);
    if (f) return f;
  }
  return NULL;
}

MT_TEST(export_glb_reimports_with_channels_keys_and_duration) {
  ex_demo d;
  ex_demo_build(&d, 2.0, 0.001);
  ex_options o;
  ex_options_default(&o);
  ex_report r;
  mt_err e = {0};
  const char* path = tmp_path("ride.glb");
  CHECK(ex_export(&d.m, &o, path, &r, &e) == MT_OK);
  CHECK(r.frames == 61 && r.channels == 12 && r.nodes == 15 && r.fbx_repaired == 0);
  CHECK_NEAR(r.duration, 2.0, 1e-12);
  const struct aiScene* s = aiImportFile(path, 0);
  CHECK_MSG(s != NULL, "Assimp cannot read %s: %s", path, aiGetErrorString());
  CHECK(s->mNumAnimations == 1);
  const struct aiAnimation* a = s->mAnimations[0];
  CHECK(a->mNumChannels == 12);
  CHECK_NEAR(a->mDuration / a->mTicksPerSecond, 2.0, 1e-5);
  for (unsigned c = 0; c < a->mNumChannels; c++) {
    const struct aiNodeAnim* ch = a->mChannels[c];
    int wheel = strncmp(ch->mNodeName.data, "wheel_", 6) == 0;
    CHECK_MSG(ch->mNumPositionKeys == (wheel ? 301u : 61u), "%s: %u keys", ch->mNodeName.data, ch->mNumPositionKeys);
    CHECK(ch->mNumRotationKeys == ch->mNumPositionKeys);
    if (strcmp(ch->mNodeName.data, "chassis") == 0) {
      /* key 30 is t = 1 s: x = 60, z = 0.6 (the bounce is at a node), in y-up (x, z, -y) */
      const struct aiVectorKey* k = &ch->mPositionKeys[30];
      CHECK_NEAR(k->mTime / a->mTicksPerSecond, 1.0, 1e-5);
      CHECK_NEAR(k->mValue.x, 60.0, 1e-4);
      CHECK_NEAR(k->mValue.y, 0.6, 1e-6);
      CHECK_NEAR(k->mValue.z, 0.0, 1e-6);
    }
  }
  const struct aiNode* fork = find_node(s->mRootNode, "fork");
  CHECK(fork && fork->mParent && strcmp(fork->mParent->mName.data, "chassis") == 0);
  const struct aiNode* wheel = find_node(s->mRootNode, "wheel_front");
  CHECK(wheel && strcmp(wheel->mParent->mName.data, "fork") == 0);
  CHECK(find_node(s->mRootNode, "road") && find_node(s->mRootNode, "road_lines"));
  aiReleaseImport(s);
  ex_demo_free(&d);
}

MT_TEST(export_gltf_writes_bin_beside_and_fbx_is_repaired) {
  ex_demo d;
  ex_demo_build(&d, 0.5, 0.001);
  ex_options o;
  ex_options_default(&o);
  ex_report r;
  mt_err e = {0};
  const char* g = tmp_path("sub.gltf");
  CHECK(ex_export(&d.m, &o, g, &r, &e) == MT_OK);
  char* json = mt_read_file(g, NULL, &e);
  /* relative to the .gltf, no folder; named by its content: sub.<8 hex digits>.bin (base/outfile.h) */
  const char* u = json ? strstr(json, "\"uri\": \"sub.") : NULL;
  CHECK(u && strlen(u) > 26 && strncmp(u + 20, ".bin\"", 5) == 0);
  char bin[32];
  snprintf(bin, sizeof bin, "%.16s", u ? u + 8 : "");
  CHECK(access(tmp_path(bin), R_OK) == 0);
  free(json);
  const struct aiScene* s = aiImportFile(g, 0);
  CHECK(s && s->mNumAnimations == 1 && s->mAnimations[0]->mNumChannels == 12);
  aiReleaseImport(s);
  const char* f = tmp_path("ride.fbx");
  CHECK(ex_export(&d.m, &o, f, &r, &e) == MT_OK);
  size_t n;
  char* data = mt_read_file(f, &n, &e);
  CHECK(ex_fbx_check((unsigned char*)data, n) == EX_FBX_WELLFORMED);
  free(data);
  s = aiImportFile(f, 0);
  CHECK_MSG(s != NULL, "Assimp cannot read the FBX: %s", aiGetErrorString());
  CHECK(find_node(s->mRootNode, "wheel_rear") != NULL);
  aiReleaseImport(s);
  ex_demo_free(&d);
}

MT_TEST(export_bad_input_is_einput_and_leaves_no_file) {
  ex_demo d;
  ex_demo_build(&d, 0.2, 0.001);
  ex_options o;
  ex_options_default(&o);
  mt_err e = {0};
  CHECK(ex_export(&d.m, &o, tmp_path("x.obj"), NULL, &e) == MT_EINPUT && strstr(e.msg, "unknown export format '.obj'"));
  mt_err_clear(&e);
  o.fps = 0;
  CHECK(ex_export(&d.m, &o, tmp_path("x.glb"), NULL, &e) == MT_EINPUT && strstr(e.msg, "fps"));
  mt_err_clear(&e);
  ex_options_default(&o);
  o.to = 0.5;
  CHECK(ex_export(&d.m, &o, tmp_path("x.glb"), NULL, &e) == MT_EINPUT && strstr(e.msg, "outside the motion"));
  mt_err_clear(&e);
  o.to = -1, o.from = 0.3;
  CHECK(ex_export(&d.m, &o, tmp_path("x.glb"), NULL, &e) == MT_EINPUT && strstr(e.msg, "from"));
  mt_err_clear(&e);
  ex_options_default(&o);
  CHECK(ex_export(&d.m, &o, tmp_path("no/such/dir/x.glb"), NULL, &e) == MT_EINPUT);
  mt_err_clear(&e);
  d.body[2].parent = 3, d.body[3].parent = 2;   /* handlebar ↔ wheel: a cycle */
  CHECK(ex_export(&d.m, &o, tmp_path("x.glb"), NULL, &e) == MT_EINPUT && strstr(e.msg, "cycle"));
  mt_err_clear(&e);
  d.body[2].parent = 1, d.body[3].parent = 1;
  d.pose[7 * 4 + 3] = 0.5;                        /* a non-unit quaternion (swingarm) */
  CHECK(ex_export(&d.m, &o, tmp_path("x.glb"), NULL, &e) == MT_EINPUT && strstr(e.msg, "swingarm"));
  CHECK(access(tmp_path("x.glb"), F_OK) != 0);   /* nothing written by any of these */
  ex_demo_free(&d);
}

MT_TEST(export_names_are_unique_and_readable) {
  /* two bodies named alike, one with a space, one that would collide with a glTF material id,
   * listed child-first: the tree and the names must still come out right */
  static const ex_shape box[] = {{EX_BOX, {0, 0, 0}, {0.1, 0.1, 0.1}, {0}, 0, 0, {0, 1, 0, 1}}};
  ex_body body[4] = {{"arm", 3, box, 1}, {"arm", 3, box, 1}, {"material_0", 3, box, 1}, {"my body", -1, box, 1}};
  double pose[2 * 4 * 7];
  for (int i = 0; i < 8; i++) {
    double* p = pose + 7 * i;
    p[0] = 0.1 * i, p[1] = p[2] = 0, p[3] = 1, p[4] = p[5] = p[6] = 0;
  }
  ex_motion m = {"t e s t", 4, body, 0.1, 2, pose, 0, NULL, 0, NULL, 0, NULL, NULL, 0, NULL, 0, NULL};
  ex_options o;
  ex_options_default(&o);
  o.fps = 10;
  mt_err e = {0};
  const char* path = tmp_path("names.glb");
  CHECK(ex_export(&m, &o, path, NULL, &e) == MT_OK);
  const struct aiScene* s = aiImportFile(path, 0);
  CHECK(s != NULL);
  CHECK(strcmp(s->mRootNode->mName.data, "t_e_s_t") == 0);
  const struct aiNode* top = find_node(s->mRootNode, "my_body");
  CHECK(top && top->mNumChildren == 3);
  CHECK(find_node(top, "arm") && find_node(top, "arm_2") && find_node(top, "material_0_2"));
  CHECK(s->mAnimations[0]->mNumChannels == 4);
  aiReleaseImport(s);
}

MT_TEST(export_reduce_and_camera_through_the_whole_pipeline) {
  ex_demo d;
  ex_demo_build(&d, 2.0, 0.001);
  ex_options o;
  ex_options_default(&o);
  o.reduce_tol_pos = 1e-3, o.reduce_tol_ang = 1e-3, o.with_camera = 1;
  ex_report r;
  mt_err e = {0};
  CHECK(ex_export(&d.m, &o, tmp_path("reduced.glb"), &r, &e) == MT_OK);
  CHECK(r.channels == 13 && r.nodes == 16);
  CHECK(r.keys_after < r.keys_before && r.max_err_pos <= 1e-3 && r.max_err_ang <= 1e-3);
  CHECK(r.keys_before == 13 * 61 + r.subkeys);
  ex_demo_free(&d);
}

/*---- locators, one object per body, FBX layer names (exporters/locators.c, dress.c, fbxfix.c) ----*/

#include "exporters/locators.h"

MT_TEST(export_contact_patch_is_the_tyre_torus_lowest_point) {
  ex_locator l = {"loc_contact", 0, {0, 0, 0, 1, 0, 0, 0}, 0, {0, 0, 0}, {0, 1, 0}, 0.3, 0.06, NULL, 0, 0, NULL};
  for (int k = 0; k < 5; k++) {   /* leaned by phi about x: contact (1, 2 + R sin phi, 0.5 - R cos phi - crown) */
    double phi = -0.9 + 0.45 * k, R = 0.3 - 0.06, w[7] = {1, 2, 0.5, cos(phi / 2), sin(phi / 2), 0, 0}, c[7];
    ex_locator_contact(&l, w, c);
    CHECK_NEAR(c[0], 1, 1e-12);
    CHECK_NEAR(c[1], 2 + R * sin(phi), 1e-12);
    CHECK_NEAR(c[2], 0.5 - R * cos(phi) - 0.06, 1e-12);
    CHECK_NEAR(fabs(c[3]), 1, 1e-12);   /* level, heading +x: the identity */
  }
  /* yawed 90 degrees and spun: the patch frame's x is the heading (+y), z stays up */
  double q1[4], q2[4], q[4], c[7];
  ex_qaxis((const double[3]){0, 0, 1}, MT_PI / 2, q1);
  ex_qaxis((const double[3]){0, 1, 0}, 2.1, q2);   /* the wheel's spin about its axle */
  ex_qmul(q1, q2, q);
  double w[7] = {0, 0, 0.3, q[0], q[1], q[2], q[3]};
  ex_locator_contact(&l, w, c);
  double x[3], z[3];
  ex_qrot(c + 3, (const double[3]){1, 0, 0}, x);
  ex_qrot(c + 3, (const double[3]){0, 0, 1}, z);
  CHECK_NEAR(c[0], 0, 1e-12);
  CHECK_NEAR(c[1], 0, 1e-12);
  CHECK_NEAR(c[2], 0, 1e-12);
  CHECK_NEAR(x[1], 1, 1e-12);
  CHECK_NEAR(z[2], 1, 1e-12);
}

MT_TEST(export_locators_and_one_mesh_per_body_through_assimp) {
  ex_demo d;
  ex_demo_build(&d, 1.0, 0.001);
  static const ex_shape part = {EX_SPHERE, {0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}, 0.1, 0, {0.1, 0.2, 0.3, 1}};
  ex_locator loc[2] = {
      {"loc_fixed", 1, {0.1, 0.2, 0.3, 1, 0, 0, 0}, -1, {0}, {0}, 0, 0, &part, 1, 0, NULL},
      {"loc_patch", 1, {0, 0, 0, 1, 0, 0, 0}, 3, {0, 0, 0}, {0, 1, 0}, 0.3, 0.06, NULL, 0, 0, NULL},
  };
  d.m.nlocator = 2, d.m.locator = loc;
  ex_options o;
  ex_options_default(&o);
  ex_report r;
  mt_err e = {0};
  for (int f = 0; f < 2; f++) {
    const char* path = tmp_path(f ? "loc.fbx" : "loc.glb");
    CHECK(ex_export(&d.m, &o, path, &r, &e) == MT_OK);
    CHECK(r.channels == 12 + 1);   /* the patch is animated, the fixed locator is not */
    if (f) continue;               /* Assimp 5.2 cannot read FBX animations back; Blender checks FBX */
    const struct aiScene* s = aiImportFile(path, 0);
    CHECK(s != NULL);
    if (!s) continue;
    const struct aiNode* fixed = find_node(s->mRootNode, "loc_fixed");
    CHECK(fixed && fixed->mParent && strcmp(fixed->mParent->mName.data, d.body[1].name) == 0);
    CHECK(fixed && fixed->mNumMeshes == 1);
    /* y-up file: body-frame (0.1, 0.2, 0.3) is stored as (0.1, 0.3, -0.2) */
    CHECK(fixed && fabs(fixed->mTransformation.a4 - 0.1) < 1e-6 && fabs(fixed->mTransformation.b4 - 0.3) < 1e-6 &&
          fabs(fixed->mTransformation.c4 + 0.2) < 1e-6);
    /* every body is one mesh: no node carries two */
    for (int b = 0; b < EX_DEMO_NBODY; b++) {
      const struct aiNode* n = find_node(s->mRootNode, d.body[b].name);
      CHECK(n && n->mNumMeshes <= 1);
    }
    aiReleaseImport(s);
  }
  ex_demo_free(&d);
}

MT_TEST(export_fbx_animation_layer_named_after_the_stack) {
  ex_demo d;
  ex_demo_build(&d, 0.5, 0.001);
  ex_options o;
  ex_options_default(&o);
  mt_err e = {0};
  const char* path = tmp_path("layer.fbx");
  CHECK(ex_export(&d.m, &o, path, NULL, &e) == MT_OK);
  FILE* f = fopen(path, "rb");
  CHECK(f != NULL);
  if (!f) return;
  static unsigned char buf[1 << 22];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  CHECK(ex_fbx_check(buf, n) == EX_FBX_WELLFORMED);
  static const char want[] = "ride_take\0\1AnimLayer", empty[] = "S\x0b\0\0\0\0\1AnimLayer";
  int named = 0, unnamed = 0;
  for (size_t i = 0; i + sizeof want - 1 <= n; i++) named += memcmp(buf + i, want, sizeof want - 1) == 0;
  for (size_t i = 0; i + sizeof empty - 1 <= n; i++) unnamed += memcmp(buf + i, empty, sizeof empty - 1) == 0;
  CHECK(named == 1 && unnamed == 0);
  ex_demo_free(&d);
}

static void global_of(const struct aiNode* n, double g[16]) {
  /* row-major 4x4 product root → n */
  double acc[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const struct aiNode* chain[64];
  int k = 0;
  for (const struct aiNode* p = n; p && k < 64; p = p->mParent) chain[k++] = p;
  while (k-- > 0) {
    const struct aiMatrix4x4* m = &chain[k]->mTransformation;
    const double t[16] = {m->a1, m->a2, m->a3, m->a4, m->b1, m->b2, m->b3, m->b4,
                          m->c1, m->c2, m->c3, m->c4, m->d1, m->d2, m->d3, m->d4};
    double r[16];
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        r[4 * i + j] = 0;
        for (int q = 0; q < 4; q++) r[4 * i + j] += acc[4 * i + q] * t[4 * q + j];
      }
    memcpy(acc, r, sizeof acc);
  }
  memcpy(g, acc, sizeof acc);
}

MT_TEST(export_armature_skins_every_vertex_rigidly_at_the_rest_pose) {
  ex_demo d;
  ex_demo_build(&d, 1.0, 0.001);
  ex_options o;
  ex_options_default(&o);
  o.armature = 1, o.with_track = 0, o.from = 0.5;   /* the rest pose is still the first pose */
  ex_report r;
  mt_err e = {0};
  const char* path = tmp_path("arm.glb");
  CHECK(ex_export(&d.m, &o, path, &r, &e) == MT_OK);
  const struct aiScene* s = aiImportFile(path, 0);
  CHECK(s != NULL);
  if (!s) return;
  const struct aiMesh* skin = NULL;
  for (unsigned i = 0; i < s->mNumMeshes; i++)
    if (s->mMeshes[i]->mNumBones > 0) skin = s->mMeshes[i];
  CHECK(skin && skin->mNumBones == EX_DEMO_NBODY);
  if (skin) {
    double* wsum = calloc(skin->mNumVertices, sizeof(double));
    double worst = 0;
    for (unsigned b = 0; b < skin->mNumBones; b++) {
      const struct aiBone* bn = skin->mBones[b];
      for (unsigned w = 0; w < bn->mNumWeights; w++) wsum[bn->mWeights[w].mVertexId] += bn->mWeights[w].mWeight;
      const struct aiNode* node = find_node(s->mRootNode, bn->mName.data);
      CHECK(node != NULL);
      if (!node) continue;
      /* the node's rest global transform times the offset (inverse bind) is the identity, and
       * the rest pose is the motion's first pose (t = 0), not --from's */
      double g[16];
      global_of(node, g);
      const struct aiMatrix4x4* m = &bn->mOffsetMatrix;
      const double off[16] = {m->a1, m->a2, m->a3, m->a4, m->b1, m->b2, m->b3, m->b4,
                              m->c1, m->c2, m->c3, m->c4, m->d1, m->d2, m->d3, m->d4};
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
          double v = 0;
          for (int q = 0; q < 4; q++) v += g[4 * i + q] * off[4 * q + j];
          worst = fmax(worst, fabs(v - (i == j)));
        }
      if (!strcmp(bn->mName.data, "chassis")) CHECK_NEAR(g[3], 0.0, 1e-5);   /* x = 60 t at t = 0, not 30 m */
    }
    CHECK(worst < 1e-5);
    int rigid = 1;
    for (unsigned v = 0; v < skin->mNumVertices; v++) rigid &= fabs(wsum[v] - 1) < 1e-6;
    CHECK(rigid);
    free(wsum);
  }
  aiReleaseImport(s);
  ex_demo_free(&d);
}
