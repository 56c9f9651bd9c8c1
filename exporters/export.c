/* export.c — ex_export: a motion to a glTF 2.0 or FBX file through Assimp (see motion.h).
 *
 * The pipeline runs in a fixed order, one stage per function: check the input → sample
 * every node's keys (keys.c) → reduce them → convert axes → build the aiScene (scene.c) →
 * let Assimp write into memory → repair a defective FBX (fbxfix.c) → write the files
 * atomically. Writing through an in-memory file system rather than to disk does three jobs:
 * nothing half-written ever reaches the target folder; the FBX can be repaired before it is
 * written; and Assimp is handed the bare file name, because its glTF writer puts whatever
 * folder it is given into the .bin URI, which must be relative to the .gltf.
 *
 * Axis convention (docs/export.md): the motion is z-up. With up_y every local transform is
 * conjugated by C = Rx(-90°) and every vertex mapped by C, which is glTF's y-up; the aiScene
 * root stays identity and unanimated, because the glTF writer always writes the root as a
 * matrix (invalid on an animated node) and the FBX writer drops the root's transform. */
#include "exporters/motion.h"

#include <assimp/cexport.h>
#include <assimp/cfileio.h>
#include <assimp/scene.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/outfile.h"
#include <unistd.h>

#include "exporters/armature.h"
#include "exporters/fbxfix.h"
#include "exporters/keys.h"
#include "exporters/locators.h"
#include "exporters/meta.h"
#include "exporters/scene.h"
#include "scene/shapes.h"
#include "exporters/xform.h"

void ex_options_default(ex_options* o) {
  memset(o, 0, sizeof *o);
  o->fps = 30;
  o->from = 0;
  o->to = -1;
  o->up_y = -1;
  o->with_track = 1;
}

const char* ex_format_for_path(const char* path) {
  const char* dot = strrchr(path, '.');
  const char* slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return NULL;
  if (strcasecmp(dot, ".glb") == 0) return "glb2";
  if (strcasecmp(dot, ".gltf") == 0) return "gltf2";
  if (strcasecmp(dot, ".fbx") == 0) return "fbx";
  return NULL;
}

/*---- an in-memory file system for Assimp ----*/

#define MEMFS_MAX 8

typedef struct memfile { char name[1024]; unsigned char* data; size_t len, cap, pos; int used; } memfile;
typedef struct memfs { struct aiFileIO io; memfile f[MEMFS_MAX]; int n; } memfs;

static size_t mf_write(struct aiFile* af, const char* buf, size_t size, size_t count) {
  memfile* f = (memfile*)af->UserData;
  size_t n = size * count;
  if (f->pos + n > f->cap) {
    while (f->pos + n > f->cap) f->cap = f->cap ? 2 * f->cap : 65536;
    f->data = mt_realloc(f->data, f->cap);
  }
  if (f->pos > f->len) memset(f->data + f->len, 0, f->pos - f->len);
  memcpy(f->data + f->pos, buf, n);
  f->pos += n;
  if (f->pos > f->len) f->len = f->pos;
  return count;
}
static size_t mf_read(struct aiFile* af, char* buf, size_t size, size_t count) {
  (void)af, (void)buf, (void)size, (void)count;
  return 0;
}
static size_t mf_tell(struct aiFile* af) { return ((memfile*)af->UserData)->pos; }
static size_t mf_size(struct aiFile* af) { return ((memfile*)af->UserData)->len; }
static void mf_flush(struct aiFile* af) { (void)af; }
static enum aiReturn mf_seek(struct aiFile* af, size_t off, enum aiOrigin origin) {
  memfile* f = (memfile*)af->UserData;
  size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? f->pos : f->len;
  f->pos = base + off;
  return aiReturn_SUCCESS;
}

static struct aiFile* mfs_open(struct aiFileIO* io, const char* name, const char* mode) {
  memfs* fs = (memfs*)io->UserData;
  if (strchr(mode, 'r') || fs->n >= MEMFS_MAX) return NULL;   /* nothing to read: "does not exist" */
  memfile* f = &fs->f[fs->n++];
  snprintf(f->name, sizeof f->name, "%s", name);
  f->used = 1;
  struct aiFile* af = mt_alloc(sizeof *af);
  af->ReadProc = mf_read, af->WriteProc = mf_write, af->TellProc = mf_tell;
  af->FileSizeProc = mf_size, af->SeekProc = mf_seek, af->FlushProc = mf_flush;
  af->UserData = (aiUserData)f;
  return af;
}
static void mfs_close(struct aiFileIO* io, struct aiFile* af) {
  (void)io;
  free(af);
}

static void memfs_init(memfs* fs) {
  memset(fs, 0, sizeof *fs);
  fs->io.OpenProc = mfs_open;
  fs->io.CloseProc = mfs_close;
  fs->io.UserData = (aiUserData)fs;
}
static void memfs_free(memfs* fs) {
  for (int i = 0; i < fs->n; i++) free(fs->f[i].data);
}

/*---- checking the input ----*/

static const char* body_name(const ex_motion* m, int b, char* buf, size_t n) {
  if (m->body[b].name && m->body[b].name[0]) return m->body[b].name;
  snprintf(buf, n, "%d", b);
  return buf;
}

static int check_motion(const ex_motion* m, mt_err* e) {
  if (m->nbody < 1 || !m->body) return mt_fail(e, MT_EINPUT, "export: the motion has no bodies");
  if (!(m->dt > 0) || !mt_isfinite(m->dt)) return mt_fail(e, MT_EINPUT, "export: time step %g must be > 0", m->dt);
  if (m->nsteps < 2 || !m->pose) return mt_fail(e, MT_EINPUT, "export: the motion needs at least 2 poses per body, has %ld", m->nsteps);
  char nb[32];
  for (int b = 0; b < m->nbody; b++) {
    const ex_body* bd = &m->body[b];
    const char* nm = body_name(m, b, nb, sizeof nb);
    if (bd->parent < -1 || bd->parent >= m->nbody || bd->parent == b)
      return mt_fail(e, MT_EINPUT, "export: body '%s': parent %d is not another body's index", nm, bd->parent);
    int steps = 0;   /* walking up must reach the top within nbody steps, or there is a cycle */
    for (int p = bd->parent; p >= 0; p = m->body[p].parent)
      if (++steps > m->nbody) return mt_fail(e, MT_EINPUT, "export: body '%s': the parent chain has a cycle", nm);
    if (bd->nshape < 0 || (bd->nshape > 0 && !bd->shapes))
      return mt_fail(e, MT_EINPUT, "export: body '%s': field 'nshape': %d shapes without data", nm, bd->nshape);
    for (int s = 0; s < bd->nshape; s++) {
      const char* bad = ex_shape_check(&bd->shapes[s]);
      if (bad) return mt_fail(e, MT_EINPUT, "export: body '%s': shape %d: field '%s' is invalid", nm, s + 1, bad);
    }
  }
  for (long i = 0; i < m->nsteps; i++)
    for (int b = 0; b < m->nbody; b++) {
      const double* p = m->pose + 7 * ((size_t)i * (size_t)m->nbody + (size_t)b);
      for (int c = 0; c < 7; c++)
        if (!mt_isfinite(p[c]))
          return mt_fail(e, MT_EINPUT, "export: body '%s': pose at step %ld is not finite", body_name(m, b, nb, sizeof nb), i);
      double qn = sqrt(p[3] * p[3] + p[4] * p[4] + p[5] * p[5] + p[6] * p[6]);
      if (fabs(qn - 1) > 1e-3)
        return mt_fail(e, MT_EINPUT, "export: body '%s': quaternion at step %ld has norm %g, not 1",
                       body_name(m, b, nb, sizeof nb), i, qn);
    }
  if (m->nvert > 0 || m->ntri > 0) {
    if (m->nvert < 3 || m->ntri < 1 || !m->vert || !m->tri) return mt_fail(e, MT_EINPUT, "export: road: needs vertices and triangles");
    for (int i = 0; i < 3 * m->nvert; i++)
      if (!mt_isfinite(m->vert[i])) return mt_fail(e, MT_EINPUT, "export: road: vertex %d is not finite", i / 3);
    for (int i = 0; i < 3 * m->ntri; i++)
      if (m->tri[i] < 0 || m->tri[i] >= m->nvert)
        return mt_fail(e, MT_EINPUT, "export: road: triangle %d: vertex index %d out of range", i / 3, m->tri[i]);
  }
  for (int l = 0; l < m->nline; l++)
    if (m->line_len[l] < 0) return mt_fail(e, MT_EINPUT, "export: road line %d: negative length", l);
  if (m->character) {   /* the character's bones are the last bodies, in its own tree (motion.h) */
    const ex_character* c = m->character;
    const char* bad = ex_character_check(c, m->nbody);
    for (int k = 0; !bad && k < c->nbone; k++) {
      int p = m->body[c->first_body + k].parent;
      if (c->bone[k].parent >= 0 ? p != c->first_body + c->bone[k].parent : (p < 0 || p >= c->first_body)) bad = "parent";
    }
    if (bad) return mt_fail(e, MT_EINPUT, "export: character: field '%s' is invalid", bad);
  }
  if (m->nlocator < 0 || (m->nlocator > 0 && !m->locator)) return mt_fail(e, MT_EINPUT, "export: locators without data");
  for (int l = 0; l < m->nlocator; l++) {
    const ex_locator* lc = &m->locator[l];
    const char* bad = ex_locator_check(m, lc);
    if (bad) return mt_fail(e, MT_EINPUT, "export: locator %d (%s): field '%s' is invalid", l + 1, lc->name ? lc->name : "?", bad);
    for (int s = 0; s < lc->nshape; s++)
      if ((bad = ex_shape_check(&lc->shapes[s])))
        return mt_fail(e, MT_EINPUT, "export: locator '%s': shape %d: field '%s' is invalid", lc->name, s + 1, bad);
  }
  return MT_OK;
}

static int check_options(const ex_motion* m, const ex_options* o, double* to, mt_err* e) {
  double dur = (double)(m->nsteps - 1) * m->dt, slack = 1e-9 * (dur > 1 ? dur : 1);
  if (!mt_isfinite(o->fps) || !(o->fps > 0) || o->fps > 10000)
    return mt_fail(e, MT_EINPUT, "export: fps %g must be > 0 (and at most 10000)", o->fps);
  *to = o->to < 0 ? dur : o->to;
  if (!mt_isfinite(o->from) || o->from < 0 || o->from > dur)
    return mt_fail(e, MT_EINPUT, "export: from %g s is outside the motion [0, %g] s", o->from, dur);
  if (!mt_isfinite(*to) || *to > dur + slack)
    return mt_fail(e, MT_EINPUT, "export: to %g s is outside the motion [0, %g] s", *to, dur);
  if (*to > dur) *to = dur;
  if (!(*to > o->from)) return mt_fail(e, MT_EINPUT, "export: from %g s must be before to %g s", o->from, *to);
  if (!mt_isfinite(o->reduce_tol_pos) || !mt_isfinite(o->reduce_tol_ang) || o->reduce_tol_pos < 0 || o->reduce_tol_ang < 0)
    return mt_fail(e, MT_EINPUT, "export: reduction tolerances must be finite and >= 0");
  if (!mt_isfinite(o->spin_limit) || o->spin_limit < 0 || o->spin_limit >= MT_PI)
    return mt_fail(e, MT_EINPUT, "export: spin limit %g rad must be in [0, pi)", o->spin_limit);
  return MT_OK;
}

/*---- names ----*/

/* Readable, unique node names: letters, digits, '_', '.', '-' (others become '_'); a
 * repeated name gets _2, _3...; reserved names (the root, road, camera, and the glTF
 * writer's material ids "material_N", with which it would collide) are avoided the same way. */
typedef struct names { char** v; int n; const char* prefix; } names;

static int taken(const names* nm, const char* s) {
  for (int i = 0; i < nm->n; i++)
    if (strcmp(nm->v[i], s) == 0) return 1;
  if (strncmp(s, "material_", 9) == 0 && s[9] && strspn(s + 9, "0123456789") == strlen(s + 9)) return 1;
  return 0;
}

static const char* unique_name(names* nm, const char* want, const char* fallback) {
  char base[200], cand[220], pre[200];
  size_t j = 0;
  if (nm->prefix && nm->n > 0 && want) {   /* every name after the root's: PREFIX_want */
    snprintf(pre, sizeof pre, "%s_%s", nm->prefix, want);
    want = pre;
  }
  for (const char* p = want ? want : ""; *p && j < sizeof base - 1; p++)
    base[j++] = (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-') ? *p : '_';
  base[j] = 0;
  if (!j) snprintf(base, sizeof base, "%s", fallback);
  snprintf(cand, sizeof cand, "%s", base);
  for (int k = 2; taken(nm, cand); k++) snprintf(cand, sizeof cand, "%s_%d", base, k);
  nm->v = mt_realloc(nm->v, (size_t)(nm->n + 1) * sizeof *nm->v);
  nm->v[nm->n] = mt_strdup(cand);
  return nm->v[nm->n++];
}

static void names_free(names* nm) {
  for (int i = 0; i < nm->n; i++) free(nm->v[i]);
  free(nm->v);
}

/*---- the chase camera ----*/

/* A camera rig 6 m behind and 1.8 m above the first top-level body, following its heading
 * (not its lean or pitch: a level horizon) and looking at a point 0.5 m above its origin.
 * The pose is a Blender/glTF camera frame: looking down local -Z with +Y up. */
static double* chase_poses(const ex_motion* m, int target) {
  double* out = mt_alloc((size_t)m->nsteps * 7 * sizeof(double));
  for (long i = 0; i < m->nsteps; i++) {
    const double* p = m->pose + 7 * ((size_t)i * (size_t)m->nbody + (size_t)target);
    double fwd[3], ex[3] = {1, 0, 0};
    ex_qrot(p + 3, ex, fwd);
    double h = hypot(fwd[0], fwd[1]);
    double cx = h > 1e-9 ? fwd[0] / h : 1, cy = h > 1e-9 ? fwd[1] / h : 0;
    double* o = out + 7 * i;
    o[0] = p[0] - 6 * cx, o[1] = p[1] - 6 * cy, o[2] = p[2] + 1.8;
    double look[3] = {p[0] - o[0], p[1] - o[1], p[2] + 0.5 - o[2]};
    double ln = sqrt(look[0] * look[0] + look[1] * look[1] + look[2] * look[2]);
    double z[3] = {-look[0] / ln, -look[1] / ln, -look[2] / ln};    /* camera +Z: backwards */
    double x[3] = {cy, -cx, 0};                                     /* right: forward × up */
    double y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]};
    double q[4];
    ex_mat_quat(x, y, z, q);
    memcpy(o + 3, q, sizeof q);
  }
  return out;
}

/*---- the FBX frame rate ----*/

/* FBX GlobalSettings TimeMode for a frame rate (FBX SDK's EMode); 14 = custom, with
 * CustomFrameRate. Blender reads both. */
static int fbx_time_mode(double fps) {
  static const struct { double fps; int mode; } T[] = {
      {120, 1}, {100, 2}, {60, 3}, {50, 4}, {48, 5}, {30, 6}, {25, 10}, {24, 11}, {1000, 12}, {96, 15}, {72, 16}};
  for (size_t i = 0; i < MT_ARRAY_LEN(T); i++)
    if (fabs(fps - T[i].fps) < 1e-9) return T[i].mode;
  return 14;
}

/*---- writing ----*/

static void split_path(const char* path, char* dir, size_t nd, const char** base) {
  const char* slash = strrchr(path, '/');
  if (slash) {
    snprintf(dir, nd, "%.*s", (int)(slash - path + 1), path);
    *base = slash + 1;
  } else {
    dir[0] = 0;
    *base = path;
  }
}

/* A .gltf's buffer is renamed after its content, "STEM.XXXXXXXX.bin" (CRC-32 of the bytes, STEM
 * the .gltf's name without its extension), and the .gltf's URI rewritten to match: the new .bin
 * never replaces the old one, so the pair switches atomically with the rename of the .gltf, and a
 * kill at any moment leaves an old or a new pair, never a mix. Returns 1 when renamed. */
static int name_bin_by_content(memfs* fs, int main_file, char* stem, size_t nstem) {
  const char* mn = fs->f[main_file].name;
  size_t ml = strlen(mn);
  if (ml < 6 || strcasecmp(mn + ml - 5, ".gltf") != 0) return 0;
  int bin = -1, others = 0;
  for (int i = 0; i < fs->n; i++) {
    if (i == main_file) continue;
    size_t l = strlen(fs->f[i].name);
    if (l > 4 && strcasecmp(fs->f[i].name + l - 4, ".bin") == 0) bin = i;
    others++;
  }
  if (bin < 0 || others != 1) return 0;
  memfile *g = &fs->f[main_file], *bf = &fs->f[bin];
  char oldq[1100], newq[1100];
  snprintf(stem, nstem, "%.*s", (int)(ml - 5), mn);
  unsigned long crc = crc32(0L, bf->data, (uInt)bf->len);
  snprintf(oldq, sizeof oldq, "\"%s\"", bf->name);
  snprintf(newq, sizeof newq, "\"%s.%08lx.bin\"", stem, crc & 0xffffffffUL);
  /* exactly one occurrence of the quoted old name: the buffer's URI */
  size_t lo = strlen(oldq), ln = strlen(newq);
  unsigned char* at = NULL;
  int count = 0;
  for (size_t i = 0; i + lo <= g->len; i++)
    if (memcmp(g->data + i, oldq, lo) == 0) at = g->data + i, count++;
  if (count != 1) return 0;
  size_t off = (size_t)(at - g->data), n = g->len - lo + ln;
  unsigned char* d = mt_alloc(n + 1);
  memcpy(d, g->data, off);
  memcpy(d + off, newq, ln);
  memcpy(d + off + ln, g->data + off + lo, g->len - off - lo);
  free(g->data);
  g->data = d, g->len = g->cap = n;
  snprintf(bf->name, sizeof bf->name, "%.*s", (int)(ln - 2), newq + 1);
  return 1;
}

/* Remove "STEM.XXXXXXXX.bin" buffers in dir other than keep (an earlier pair's, or one a killed
 * export left unreferenced). */
static void remove_old_bins(const char* dir, const char* stem, const char* keep) {
  DIR* d = opendir(dir[0] ? dir : ".");
  if (!d) return;
  size_t ns = strlen(stem);
  struct dirent* de;
  while ((de = readdir(d))) {
    const char* nm = de->d_name;
    if (strlen(nm) != ns + 13 || strncmp(nm, stem, ns) != 0 || nm[ns] != '.' || strcmp(nm + ns + 9, ".bin") != 0 ||
        strcmp(nm, keep) == 0)
      continue;
    int hex = 1;
    for (int k = 1; k <= 8; k++) hex &= isxdigit((unsigned char)nm[ns + k]) && !isupper((unsigned char)nm[ns + k]);
    if (!hex) continue;
    char full[8192];
    struct stat st;
    snprintf(full, sizeof full, "%s%s", dir, nm);
    if (lstat(full, &st) == 0 && S_ISREG(st.st_mode)) unlink(full);
  }
  closedir(d);
}

/* Write the in-memory files into dir under the output rule (base/outfile.h): every target is
 * checked and written to a temporary first; then the companions (.bin) are moved into place and
 * the main file last. On failure nothing new is left and the old files are kept. */
static int write_files(memfs* fs, const char* dir, const char* main_name, long* bytes, mt_err* e) {
  int main_file = -1;
  for (int i = 0; i < fs->n; i++)
    if (strcmp(fs->f[i].name, main_name) == 0) main_file = i;
  char stem[1024] = "";
  int tagged = main_file >= 0 && name_bin_by_content(fs, main_file, stem, sizeof stem);
  outfile* of = mt_alloc(sizeof(outfile) * (size_t)(fs->n + 1));
  int nopen = 0, rc = MT_OK;
  *bytes = 0;
  for (int i = 0; i < fs->n && !rc; i++) {
    char full[4096];
    snprintf(full, sizeof full, "%s%s", dir, fs->f[i].name);
    if (!(rc = outfile_open(&of[i], full, OUTFILE_TEMP, e))) {
      nopen++;
      rc = outfile_write(&of[i], fs->f[i].data ? (const void*)fs->f[i].data : "", fs->f[i].len, e);
      *bytes += (long)fs->f[i].len;
    }
  }
  int committed[MEMFS_MAX] = {0};
  for (int pass = 0; pass < 2 && !rc; pass++)
    for (int i = 0; i < fs->n && !rc; i++)
      if ((i == main_file) == (pass == 1)) committed[i] = !(rc = outfile_commit(&of[i], e));
  if (rc) {
    for (int i = 0; i < nopen; i++) outfile_abort(&of[i]);
    /* a tagged .bin has a new name: removing it restores exactly what was there */
    for (int i = 0; i < fs->n; i++)
      if (committed[i] && tagged && i != main_file) unlink(of[i].path);
  } else if (tagged) {
    for (int i = 0; i < fs->n; i++)
      if (i != main_file) remove_old_bins(dir, stem, fs->f[i].name);
  }
  free(of);
  return rc;
}

/*---- the pipeline ----*/

/* One mesh for a body's shapes, so that every body is one object in every format (Assimp's FBX
 * writer turns a node with several meshes into an empty with "-mesh" children). One colour: a
 * material of that colour. Several: the colours go in the vertices (glTF COLOR_0, FBX
 * LayerElementColor) and the material is white in glTF, which multiplies the two, and the first
 * shape's colour in FBX, whose importers show the material colour. */
/* Body b's pose at the motion's first step, relative to its parent body, in the file's axes. */
static void first_pose_local(const ex_motion* m, int b, int up_y, double out[7]) {
  int p = m->body[b].parent;
  if (p >= 0) ex_pose_local(m->pose + 7 * p, m->pose + 7 * b, out);
  else memcpy(out, m->pose + 7 * b, 7 * sizeof(double));
  if (up_y) ex_yup_vec(out), ex_yup_quat(out + 3);
}

/* Character bone b's rest pose in the file's axes: world (the mesh space) in rest_world, from its
 * parent's (parent_world) and the skeleton's rest relative to that parent. */
static void char_rest(const ex_motion* m, int b, int up_y, const double parent_world[7], double rest_world[7]) {
  double local[7];
  ex_character_rest_local(m->character, b - m->character->first_body, local);
  if (up_y) ex_yup_vec(local), ex_yup_quat(local + 3);
  ex_pose_compose(parent_world, local, rest_world);
}

/* The character's mesh (rig coordinates) into the mesh space, where its bones rest: the map that
 * takes bone 0's rest in the rig (head0, q0) to its rest in the file (bone0_world), applied to
 * every vertex and normal; then skinned by the character's weights. */
static void add_character(ex_skin* skin, const ex_character* c, const int* char_skin, int up_y,
                          const double bone0_world[7], const double q0[4], const double head0[3]) {
  ex_mesh mesh;
  ex_char_weights* w;
  ex_character_mesh(c, &mesh, &w);
  if (up_y) ex_mesh_to_yup(&mesh);
  double rig0[7] = {head0[0], head0[1], head0[2], q0[0], q0[1], q0[2], q0[3]}, inv[7], map[7];
  if (up_y) ex_yup_vec(rig0), ex_yup_quat(rig0 + 3);
  const double id[7] = {0, 0, 0, 1, 0, 0, 0};
  ex_pose_local(rig0, id, inv);   /* rig0⁻¹ */
  ex_pose_compose(bone0_world, inv, map);
  for (int v = 0; v < mesh.nvert; v++) {
    double p[3], n[3];
    for (int k = 0; k < 3; k++) p[k] = mesh.pos[3 * v + k], n[k] = mesh.nrm[3 * v + k];
    ex_qrot(map + 3, p, p);
    ex_qrot(map + 3, n, n);
    for (int k = 0; k < 3; k++) mesh.pos[3 * v + k] = (float)(p[k] + map[k]), mesh.nrm[3 * v + k] = (float)n[k];
  }
  ex_skin_add_weighted(skin, &mesh, char_skin, w);
  ex_mesh_free(&mesh);
  free(w);
}

static int fill_mesh(ex_mesh* mesh, const ex_shape* sh, int n, int up_y, int colours) {
  int multi = 0;
  for (int s = 1; s < n; s++) multi |= memcmp(sh[s].rgba, sh[0].rgba, sizeof sh[0].rgba) != 0;
  for (int s = 0; s < n; s++) {
    int from = mesh->nvert;
    ex_mesh_add_shape(mesh, &sh[s]);
    if (multi || colours) ex_mesh_paint(mesh, from, sh[s].rgba);
  }
  if (up_y) ex_mesh_to_yup(mesh);
  return multi;
}

static int body_mesh(ex_scene* sc, const ex_shape* sh, int n, const char* node, int up_y, int fbx) {
  ex_mesh mesh = {0};
  int multi = fill_mesh(&mesh, sh, n, up_y, 0);
  static const double white[4] = {1, 1, 1, 1};
  const double* c = multi && !fbx ? white : sh[0].rgba;
  char mname[64], meshname[256];
  if (multi) snprintf(mname, sizeof mname, "paint_vertex%s", fbx ? "_fbx" : "");
  else snprintf(mname, sizeof mname, "paint_%02x%02x%02x%s", (int)lround(c[0] * 255), (int)lround(c[1] * 255),
                (int)lround(c[2] * 255), c[3] < 1 ? "_clear" : "");
  snprintf(meshname, sizeof meshname, "%s-mesh", node);
  int mi = ex_scene_mesh(sc, &mesh, ex_scene_material(sc, c, mname), meshname);
  ex_mesh_free(&mesh);
  return mi;
}

typedef struct node_in {
  const char* name;
  int body;         /* body index, -1 for the camera */
  int parent_node;  /* index into the node list, -1 for the root */
  ex_keys keys;
  int scene_index;
  int loc1;         /* 1 + index of the locator this node is, 0 for bodies and the camera */
} node_in;

/* What the stages share: the file's names (unique, taken in the order below, so the same motion
 * always gets the same names) and the node list, parents before children. */
typedef struct ex_plan {
  const char* fmt;   /* Assimp's format id */
  int fbx, up_y;
  double to, spin;   /* the range's end (s), the spin limit for sub-frame keys (rad) */
  names nm;
  const char *root_name, *anim_name, *road_name, *lines_name;
  const char** part_name;   /* the set's parts (m->npart) */
  node_in* nodes;
  int nn;
  int* node_of;      /* body → node index */
} ex_plan;

/* Is body b one of the character's bones (motion.h)? */
static int is_char_bone(const ex_motion* m, int b) { return m->character && b >= m->character->first_body; }

/* The names and the node list in topological order (parents first), then the camera, then the
 * locators (children of their bodies). *cam: the chase camera's poses with --camera, else NULL. */
static void plan_nodes(const ex_motion* m, const ex_options* o, ex_plan* P, double** cam) {
  const char* scene_name = m->name && m->name[0] ? m->name : "ride";
  names* nm = &P->nm;
  unique_name(nm, scene_name, "ride");
  P->root_name = nm->v[0];
  nm->prefix = o->prefix;
  /* the animation's glTF id must differ from every other id (the writer throws otherwise) */
  char anim_want[256];
  if (o->prefix) snprintf(anim_want, sizeof anim_want, "take");   /* → PREFIX_take */
  else snprintf(anim_want, sizeof anim_want, "%s_take", P->root_name);
  P->anim_name = unique_name(nm, anim_want, "take");
  /* the set's parts first, so that its road keeps the name "road" (exporters/set.h) */
  P->part_name = mt_alloc((size_t)(m->npart > 0 ? m->npart : 1) * sizeof *P->part_name);
  for (int i = 0; i < m->npart; i++) P->part_name[i] = unique_name(nm, m->part[i].name, "part");
  P->road_name = unique_name(nm, "road", "road");
  P->lines_name = unique_name(nm, "road_lines", "road_lines");
  int nn = P->nn = m->nbody + (o->with_camera ? 1 : 0) + m->nlocator;
  node_in* nodes = P->nodes = mt_alloc((size_t)nn * sizeof *nodes);
  int* node_of = P->node_of = mt_alloc((size_t)m->nbody * sizeof *node_of);
  for (int b = 0; b < m->nbody; b++) node_of[b] = -1;
  int k = 0;
  while (k < m->nbody)
    for (int b = 0; b < m->nbody; b++) {
      int p = m->body[b].parent;
      if (node_of[b] >= 0 || (p >= 0 && node_of[p] < 0)) continue;
      char fb[32];
      snprintf(fb, sizeof fb, "body%d", b);
      const char* pre = nm->prefix;
      if (is_char_bone(m, b)) nm->prefix = NULL;   /* "Hips", "LeftForeArm": the names retargeting maps */
      nodes[k] = (node_in){unique_name(nm, m->body[b].name, fb), b, p >= 0 ? node_of[p] : -1, {0}, 0, 0};
      nm->prefix = pre;
      node_of[b] = k++;
    }
  *cam = NULL;
  if (o->with_camera) {
    int target = 0;
    while (m->body[target].parent >= 0) target++;
    *cam = chase_poses(m, target);
    nodes[k++] = (node_in){unique_name(nm, "chase_camera", "chase_camera"), -1, -1, {0}, 0, 0};
  }
  for (int l = 0; l < m->nlocator; l++)   /* locators and parts: children of their bodies */
    nodes[k++] = (node_in){unique_name(nm, m->locator[l].name, "locator"), -1, node_of[m->locator[l].body], {0}, 0, l + 1};
}

/* Every animated node's keys, relative to its parent, reduced within the tolerances, in the file's
 * axes and time base; the report's key counts, errors, frames and duration. */
static void sample_keys(const ex_motion* m, const ex_options* o, ex_plan* P, const double* cam, ex_report* rep) {
  for (int i = 0; i < P->nn; i++) {
    node_in* nd = &P->nodes[i];
    ex_track tr, ptr;
    int b = nd->body;
    const ex_locator* lc = nd->loc1 ? &m->locator[nd->loc1 - 1] : NULL;
    if (lc && lc->wheel < 0) continue;   /* fixed to its body: no keys */
    double* contact = lc ? ex_locator_contact_track(m, lc) : NULL;
    if (b >= 0) tr = (ex_track){m->pose + 7 * b, 7L * m->nbody, m->nsteps, m->dt};
    else tr = (ex_track){contact ? contact : cam, 7, m->nsteps, m->dt};
    int pb = b >= 0 ? m->body[b].parent : lc ? lc->body : -1;
    if (pb >= 0) ptr = (ex_track){m->pose + 7 * pb, 7L * m->nbody, m->nsteps, m->dt};
    rep->subkeys += ex_keys_sample(&tr, pb >= 0 ? &ptr : NULL, o->from, P->to, o->fps, P->spin, &nd->keys);
    free(contact);
    rep->keys_before += nd->keys.n;
    rep->frames = nd->keys.frames;
    if (o->reduce_tol_pos > 0 || o->reduce_tol_ang > 0) {
      double ep, ea;
      ex_keys_reduce(&nd->keys, o->reduce_tol_pos, o->reduce_tol_ang, P->spin, &ep, &ea);
      rep->max_err_pos = fmax(rep->max_err_pos, ep);
      rep->max_err_ang = fmax(rep->max_err_ang, ea);
    }
    rep->keys_after += nd->keys.n;
    if (o->frame1 && !P->fbx)
      for (long j = 0; j < nd->keys.n; j++) nd->keys.t[j] += 1 / o->fps;
    if (P->up_y)
      for (long j = 0; j < nd->keys.n; j++) {
        ex_yup_vec(nd->keys.p + 3 * j);
        ex_yup_quat(nd->keys.q + 4 * j);
      }
  }
  rep->duration = (double)(rep->frames - 1) / o->fps;
}

static const double ROAD_GREY[4] = {0.32, 0.32, 0.34, 1};

/* The set's parts (exporters/set.h): static nodes under top at their poses, each mesh with its
 * own material. */
static void add_parts(ex_scene* sc, const ex_motion* m, const ex_plan* P, int top) {
  for (int i = 0; i < m->npart; i++) {
    const ex_part* pt = &m->part[i];
    int mi[2], nm = 0;
    for (int k = 0; k < pt->nmesh && k < 2; k++) {
      if (pt->mesh[k].ntri == 0) continue;
      ex_mesh mesh = {0};
      ex_mesh_append(&mesh, &pt->mesh[k]);
      if (P->up_y) ex_mesh_to_yup(&mesh);
      char mname[240];
      snprintf(mname, sizeof mname, "%s-mesh%s", P->part_name[i], k ? "-2" : "");
      mi[nm++] = ex_scene_mesh(sc, &mesh, ex_scene_material(sc, pt->rgba[k], pt->material[k]), mname);
      ex_mesh_free(&mesh);
    }
    double pose[7];
    memcpy(pose, pt->pose, sizeof pose);
    if (P->up_y) {
      ex_yup_vec(pose);
      ex_yup_quat(pose + 3);
    }
    if (nm) ex_scene_node(sc, P->part_name[i], top, pose, mi, nm);
  }
}

/* The road surface and its painted lines (--no-track: neither), static nodes under top. */
static void add_road(ex_scene* sc, const ex_motion* m, const ex_options* o, const ex_plan* P, int top) {
  static const double white[4] = {0.92, 0.92, 0.9, 1};
  const double ident[7] = {0, 0, 0, 1, 0, 0, 0};
  if (o->with_track) add_parts(sc, m, P, top);
  if (o->with_track && m->ntri > 0) {
    ex_mesh mesh = {0};
    ex_mesh_add_trimesh(&mesh, m->vert, m->nvert, m->tri, m->ntri);
    if (P->up_y) ex_mesh_to_yup(&mesh);
    int mi = ex_scene_mesh(sc, &mesh, ex_scene_material(sc, ROAD_GREY, "asphalt"), "road-mesh");
    ex_scene_node(sc, P->road_name, top, ident, &mi, 1);
    ex_mesh_free(&mesh);
  }
  if (o->with_track && m->nline > 0) {
    ex_mesh mesh = {0};
    const double* pts = m->line_pts;
    for (int l = 0; l < m->nline; l++) {
      ex_mesh_add_ribbon(&mesh, pts, m->line_len[l], EX_LINE_WIDTH, EX_LINE_LIFT);
      pts += 3 * m->line_len[l];
    }
    if (mesh.ntri > 0) {
      if (P->up_y) ex_mesh_to_yup(&mesh);
      int mi = ex_scene_mesh(sc, &mesh, ex_scene_material(sc, white, "road_paint"), "road_lines-mesh");
      ex_scene_node(sc, P->lines_name, top, ident, &mi, 1);
    }
    ex_mesh_free(&mesh);
  }
}

/* The nodes with their meshes, rest poses and channels, in list order (parents first). With
 * --armature the bodies' geometry goes into one skinned mesh instead (its bones: the body nodes,
 * bound at the motion's first pose), finished here. */
static void add_nodes(ex_scene* sc, const ex_motion* m, const ex_options* o, ex_plan* P, int top) {
  const int up_y = P->up_y, fbx = P->fbx, nn = P->nn;
  node_in* nodes = P->nodes;
  ex_skin skin = {0};   /* --armature: the bodies' geometry, one mesh skinned to the body nodes */
  int char_skin[EX_CHAR_MAX_BONE];   /* the character's bones' indices in the skin */
  double (*rest_w)[7] = mt_alloc((size_t)(nn > 0 ? nn : 1) * sizeof *rest_w);
  for (int i = 0; i < nn; i++) {
    int meshes[64], nmesh = 0;
    int b = nodes[i].body;
    if (b >= 0 && o->armature && is_char_bone(m, b)) {   /* its rest: the skeleton's; mesh: the character's */
      char_rest(m, b, up_y, rest_w[nodes[i].parent_node], rest_w[i]);
      char_skin[b - m->character->first_body] = ex_skin_bone(&skin, nodes[i].name, rest_w[i]);
    } else if (b >= 0 && o->armature) {
      const ex_body* bd = &m->body[b];
      ex_mesh mesh = {0};
      fill_mesh(&mesh, bd->shapes, bd->nshape, up_y, 1);
      /* the bone's bind pose: its rest pose (the motion's first pose, whatever --from: a take
       * starts from its trim) composed up to the root, file axes */
      double rest[7];
      first_pose_local(m, b, up_y, rest);
      const double id[7] = {0, 0, 0, 1, 0, 0, 0};
      ex_pose_compose(nodes[i].parent_node >= 0 ? rest_w[nodes[i].parent_node] : id, rest, rest_w[i]);
      ex_skin_add(&skin, &mesh, nodes[i].name, rest_w[i]);
      ex_mesh_free(&mesh);
    } else if (b >= 0) {
      const ex_body* bd = &m->body[b];
      if (bd->nshape > 0) {
        meshes[nmesh++] = body_mesh(sc, bd->shapes, bd->nshape, nodes[i].name, up_y, fbx);
      }
    }
    const ex_locator* lc = nodes[i].loc1 ? &m->locator[nodes[i].loc1 - 1] : NULL;
    if (lc && lc->nshape > 0) meshes[nmesh++] = body_mesh(sc, lc->shapes, lc->nshape, nodes[i].name, up_y, fbx);
    const ex_keys* kk = &nodes[i].keys;
    double rest[7];
    if (b >= 0 && o->armature && is_char_bone(m, b)) {
      ex_pose_local(rest_w[nodes[i].parent_node], rest_w[i], rest);
    } else if (b >= 0 && o->armature) {   /* a bone rests where the motion starts (its bind pose) */
      first_pose_local(m, b, up_y, rest);
    } else if (lc && lc->wheel < 0) {   /* fixed: its pose in the body's frame, never animated */
      memcpy(rest, lc->local, sizeof rest);
      if (up_y) ex_yup_vec(rest), ex_yup_quat(rest + 3);
    } else {
      memcpy(rest, kk->p, 3 * sizeof(double));
      memcpy(rest + 3, kk->q, 4 * sizeof(double));
    }
    int parent = nodes[i].parent_node >= 0 ? nodes[nodes[i].parent_node].scene_index : top;
    nodes[i].scene_index = ex_scene_node(sc, nodes[i].name, parent, rest, meshes, nmesh);
    if (!(b >= 0 && o->armature)) {
      const double id[7] = {0, 0, 0, 1, 0, 0, 0};
      ex_pose_compose(nodes[i].parent_node >= 0 ? rest_w[nodes[i].parent_node] : id, rest, rest_w[i]);
    }
    if (!(lc && lc->wheel < 0)) ex_scene_channel(sc, nodes[i].scene_index, kk, 0);   /* no scale keys: every scale is 1 */
  }
  if (o->armature) {
    static const double white[4] = {1, 1, 1, 1};
    const double* c = white;
    for (int b = 0; b < m->nbody && fbx; b++)
      if (m->body[b].nshape > 0) {
        c = m->body[b].shapes[0].rgba;
        break;
      }
    if (m->character) add_character(&skin, m->character, char_skin, up_y, rest_w[P->node_of[m->character->first_body]],
                                    m->character->bone[0].q, m->character->bone[0].head);
    char skin_want[256];
    snprintf(skin_want, sizeof skin_want, "%s_skin", P->root_name);
    ex_skin_finish(&skin, sc, top, unique_name(&P->nm, skin_want, "skin"),
                   ex_scene_material(sc, c, fbx ? "paint_vertex_fbx" : "paint_vertex"));
  }
  ex_skin_free(&skin);
  free(rest_w);
}

/* Assimp 5.2 writes FBX GlobalSettings with centimetres and 24 fps: override both (Blender then
 * imports at scale 1 and sets the scene to our rate), and declare z-up unless asked for y-up. */
static void fbx_settings(ex_scene* sc, const ex_options* o, int up_y) {
  ex_scene_meta_double(sc, "UnitScaleFactor", 100.0);
  ex_scene_meta_double(sc, "OriginalUnitScaleFactor", 100.0);
  ex_scene_meta_int(sc, "TimeMode", fbx_time_mode(o->fps));
  ex_scene_meta_double(sc, "CustomFrameRate", o->fps);
  if (!up_y) {   /* declare z-up, as 3ds Max and Blender's own exporter do */
    ex_scene_meta_int(sc, "UpAxis", 2);
    ex_scene_meta_int(sc, "UpAxisSign", 1);
    ex_scene_meta_int(sc, "FrontAxis", 1);
    ex_scene_meta_int(sc, "FrontAxisSign", -1);
    ex_scene_meta_int(sc, "CoordAxis", 0);
    ex_scene_meta_int(sc, "CoordAxisSign", 1);
    ex_scene_meta_int(sc, "OriginalUpAxis", 2);
    ex_scene_meta_int(sc, "OriginalUpAxisSign", 1);
  }
}

/* The whole scene: the road, the nodes, a material if there is none, FBX's settings; the
 * report's counts. The FBX writer drops the aiScene root (it becomes the file's scene root): FBX
 * gets a bare scene root and the named root under it, so both formats keep the root object. */
static ex_scene* build_scene(const ex_motion* m, const ex_options* o, ex_plan* P, ex_report* rep) {
  const int fbx = P->fbx;
  ex_scene* sc = ex_scene_new(fbx ? "fbx_scene_root" : P->root_name, P->anim_name);
  const int top = fbx ? ex_scene_node(sc, P->root_name, -1, (const double[7]){0, 0, 0, 1, 0, 0, 0}, NULL, 0) : -1;
  add_road(sc, m, o, P, top);
  add_nodes(sc, m, o, P, top);
  /* The FBX writer segfaults on a mesh-less, material-less scene: always one material. */
  int nmat;
  ex_scene_count(sc, NULL, NULL, &nmat, NULL);
  if (nmat == 0) ex_scene_material(sc, ROAD_GREY, "default");
  if (fbx) fbx_settings(sc, o, P->up_y);
  ex_scene_count(sc, &rep->nodes, &rep->meshes, &rep->materials, &rep->channels);
  if (fbx) rep->nodes--;   /* the bare scene root the FBX writer drops: count what the file shows */
  return sc;
}

/* Assimp's FBX in memory made well-formed (its missing sentinels added) and its actions named
 * "body|take", not "body|take|". */
static void fbx_repair(memfile* f, const char* path, ex_report* rep, mt_err* e) {
  int state = ex_fbx_check(f->data, f->len);
  if (state == EX_FBX_NO_SENTINELS) {
    size_t n;
    unsigned char* fixed = ex_fbx_repair(f->data, f->len, &n);
    free(f->data);
    f->data = fixed, f->len = f->cap = n;
    rep->fbx_repaired = 1;
    if (ex_fbx_check(f->data, f->len) != EX_FBX_WELLFORMED)
      mt_fail(e, MT_EINTERNAL, "%s: the FBX repair did not produce a well-formed file", path);
  } else if (state != EX_FBX_WELLFORMED) {
    mt_fail(e, MT_EINTERNAL, "%s: Assimp wrote an FBX whose record structure is not understood", path);
  }
  size_t n;
  unsigned char* named = e->code ? NULL : ex_fbx_name_layers(f->data, f->len, &n);
  if (named) {   /* actions "body|take", not "body|take|" */
    free(f->data);
    f->data = named, f->len = f->cap = n;
  }
}

/* Assimp → memory → (repair, the take's metadata) → disk, all files or none (write_files). */
static int encode_and_write(ex_scene* sc, const ex_options* o, const ex_plan* P, const char* path, ex_report* rep,
                            mt_err* e) {
  const char* fmt = P->fmt;
  char dir[4096];
  const char* base;
  split_path(path, dir, sizeof dir, &base);
  memfs fs;
  memfs_init(&fs);
  enum aiReturn r = aiExportSceneEx(ex_scene_ai(sc), fmt, base, &fs.io, 0);
  int main_file = -1;
  for (int i = 0; i < fs.n; i++)
    if (strcmp(fs.f[i].name, base) == 0) main_file = i;
  if (r != aiReturn_SUCCESS || main_file < 0) {
    /* Assimp's C export API loses the exporter's message with its temporary Exporter */
    mt_fail(e, MT_EINTERNAL, "%s: Assimp could not write the %s file", path, fmt);
  } else if (P->fbx) {
    fbx_repair(&fs.f[main_file], path, rep, e);
  }
  if (e->code == MT_OK && o->extras_json) {
    memfile* f = &fs.f[main_file];
    size_t n;
    unsigned char* d = P->fbx ? ex_meta_inject_fbx(f->data, f->len, P->root_name, P->nodes[0].name, o->extras_json, &n)
                              : ex_meta_inject_gltf(f->data, f->len, !strcmp(fmt, "glb2"), o->extras_json, &n);
    if (!d) mt_fail(e, MT_EINTERNAL, "%s: could not add the take's metadata to Assimp's %s file", path, fmt);
    else free(f->data), f->data = d, f->len = f->cap = n;
    if (d && P->fbx && ex_fbx_check(f->data, f->len) != EX_FBX_WELLFORMED)
      mt_fail(e, MT_EINTERNAL, "%s: the FBX with the take's properties is not well-formed", path);
  }
  if (e->code == MT_OK) write_files(&fs, dir, base, &rep->bytes, e);
  memfs_free(&fs);
  return e->code;
}

/* Stage k of EX_STAGES begins: its name on the bar, the stages before it done. */
static void stage(const ex_options* o, int k, const char* what) {
  if (!o->prog) return;
  o->prog->label = what;
  fprog_show(o->prog, o->prog_base + k);
}

int ex_export(const ex_motion* m, const ex_options* o, const char* path, ex_report* rep, mt_err* e) {
  ex_report scratch;
  if (!rep) rep = &scratch;
  memset(rep, 0, sizeof *rep);
  const char* fmt = ex_format_for_path(path);
  if (!fmt) {
    const char* dot = strrchr(path, '.');
    return mt_fail(e, MT_EINPUT, "%s: unknown export format '%s' (use .glb, .gltf or .fbx)", path,
                   dot && !strchr(dot, '/') ? dot : "(no extension)");
  }
  rep->format = fmt;
  ex_plan P;
  memset(&P, 0, sizeof P);
  P.fmt = fmt;
  if (check_motion(m, e) != MT_OK || check_options(m, o, &P.to, e) != MT_OK) return e->code;
  P.fbx = strcmp(fmt, "fbx") == 0;
  /* up_y < 0 (the default): each format's own convention — y-up glTF, z-up FBX (declared in its
   * GlobalSettings). Blender then shows both with the same object matrices: its glTF importer
   * undoes the per-node conversion, its FBX importer needs none. */
  P.up_y = o->up_y < 0 ? !P.fbx : o->up_y;
  P.spin = o->spin_limit > 0 ? o->spin_limit : 0.5 * MT_PI;
  double* cam;
  stage(o, 0, "export: sampling the keys");
  plan_nodes(m, o, &P, &cam);
  sample_keys(m, o, &P, cam, rep);
  free(cam);
  stage(o, 1, "export: building the scene");
  ex_scene* sc = build_scene(m, o, &P, rep);
  stage(o, 2, P.fbx ? "export: encoding the FBX" : "export: encoding the glTF");
  encode_and_write(sc, o, &P, path, rep, e);
  ex_scene_free(sc);
  for (int i = 0; i < P.nn; i++) ex_keys_free(&P.nodes[i].keys);
  free(P.nodes);
  free(P.node_of);
  free(P.part_name);
  names_free(&P.nm);
  return e->code;
}
