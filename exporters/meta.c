/* meta.c — the take's metadata, channels, events and camera rigs as JSON for an exported file,
 * and its injection into glTF (see meta.h). JSON is built and rewritten with jansson only. */
#include "exporters/meta.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "exporters/xform.h"
#include "scene/cameras.h"
#include "scene/motion.h"
#include "base/jsonout.h"

/* CRC-32 (zlib's, the same as Python's zlib.crc32) of a file's bytes; -1 if unreadable. */
static long file_crc32(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char buf[1 << 16];
  unsigned long crc = crc32(0L, Z_NULL, 0);
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) crc = crc32(crc, buf, (uInt)k);
  int bad = ferror(f);
  fclose(f);
  return bad ? -1 : (long)(crc & 0xffffffffUL);
}

/* A JSON number (null if not finite); written with 9 significant digits (ex_meta_build). */
static json_t* num(double x) {
  if (!mt_isfinite(x)) return json_null();
  return json_real(x);
}

/* A marker's label: a mark's "label"; a setting's "key=value"; otherwise the kind. */
static void event_label(const take_event* ev, char* out, size_t n) {
  json_t* j = ev->json ? json_loads(ev->json, 0, NULL) : NULL;
  json_t* label = j ? json_object_get(j, "label") : NULL;
  json_t* key = j ? json_object_get(j, "key") : NULL;
  json_t* val = j ? json_object_get(j, "value") : NULL;
  if (json_is_string(label)) snprintf(out, n, "%s", json_string_value(label));
  else if (json_is_string(key) && val) {
    char* v = json_is_string(val) ? strdup(json_string_value(val)) : json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(out, n, "%s=%s", json_string_value(key), v ? v : "?");
    free(v);
  } else snprintf(out, n, "%s", ev->kind);
  json_decref(j);
}

static int add_channels(take_reader* r, const ex_meta_opts* o, long frames, json_t* root, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  const char* list = o->channels ? o->channels : EX_META_CHANNELS;
  int idx[64], nc = 0;
  char nm[64];
  for (const char* p = list; *p && nc < 64;) {
    size_t l = strcspn(p, ",");
    snprintf(nm, sizeof nm, "%.*s", (int)(l < sizeof nm ? l : sizeof nm - 1), p);
    int found = -1;
    for (int c = 0; c < s->nchan; c++)
      if (!strcmp(s->chan_names[c], nm)) found = c;
    if (found < 0) return mt_fail(e, MT_EINPUT, "export: --channels: the take has no channel '%s' (see mototake take info)", nm);
    idx[nc++] = found;
    p += l;
    if (*p == ',') p++;
  }
  double dt = s->timestep;
  long nsteps = take_nsteps(r);
  long s0 = (long)floor(o->from / dt);
  if (s0 < 0) s0 = 0;
  long s1 = (long)ceil(o->to / dt) + 1;
  if (s1 > nsteps - 1) s1 = nsteps - 1;
  int nall = take_ncols(r, TAKE_CHAN);
  /* frames in order through a window of W steps: memory stays W rows, whatever the take's length */
  enum { W = 4096 };
  double* v = mt_alloc(sizeof(double) * (size_t)nall * W);
  long w0 = -1, wn = 0;
  json_t *names = json_array(), *units = json_array(), *data = json_object(), *arr[64];
  for (int c = 0; c < nc; c++) {
    json_array_append_new(names, json_string(s->chan_names[idx[c]]));
    json_array_append_new(units, json_string(s->chan_units[idx[c]]));
    arr[c] = json_array();
    json_object_set_new(data, s->chan_names[idx[c]], arr[c]);
  }
  int rc = MT_OK;
  for (long k = 0; k < frames && !rc; k++) {
    double t = o->from + (double)k / o->fps, x = t / dt;
    long i = (long)floor(x + 1e-9);
    double u = x - (double)i;
    if (u < 0) u = 0;
    if (i < s0) i = s0, u = 0;
    if (i >= s1) i = s1, u = 0;
    long need = i < s1 ? i + 1 : i;   /* the last step this frame reads */
    if (w0 < 0 || i < w0 || need >= w0 + wn) {
      w0 = i;
      wn = s1 - i + 1 < W ? s1 - i + 1 : W;
      if ((rc = take_read(r, TAKE_CHAN, w0, wn, v, e))) break;
    }
    for (int c = 0; c < nc; c++) {
      int hold = !strcmp(s->chan_names[idx[c]], "gear");   /* a step signal: held, never blended */
      double a0 = v[(size_t)(i - w0) * (size_t)nall + (size_t)idx[c]], val = a0;
      if (!hold && u > 0 && i < s1) val = a0 + u * (v[(size_t)(i + 1 - w0) * (size_t)nall + (size_t)idx[c]] - a0);
      json_array_append_new(arr[c], num(val));
    }
  }
  free(v);
  if (rc) {
    json_decref(names), json_decref(units), json_decref(data);
    return rc;
  }
  json_object_set_new(root, "channels", names);
  json_object_set_new(root, "channel_units", units);
  json_object_set_new(root, "samples", data);
  return MT_OK;
}

/* One camera's track: location, rotation (a Blender camera's) and field of view at every frame. */
static json_t* camera_track(const sc_camera* cam, const char* name, const ex_meta_opts* o, long frames) {
  json_t *loc = json_array(), *rot = json_array(), *fov = json_array();
  for (long k = 0; k < frames; k++) {
    sc_view v;
    sc_camera_view_at(cam, o->from + (double)k / o->fps, &v);
    /* Blender camera axes: +X right, +Y up (= −down), +Z backwards (= −forward) */
    double y[3] = {-v.d[0], -v.d[1], -v.d[2]}, z[3] = {-v.f[0], -v.f[1], -v.f[2]}, q[4];
    ex_mat_quat(v.r, y, z, q);
    for (int i = 0; i < 3; i++) json_array_append_new(loc, num(v.eye[i]));
    for (int i = 0; i < 4; i++) json_array_append_new(rot, num(q[i]));
    json_array_append_new(fov, num(v.fov * 180 / MT_PI));
  }
  return json_pack("{s:s, s:o, s:o, s:o}", "name", name, "location", loc, "rotation", rot, "fov_deg", fov);
}

static int add_cameras(take_reader* r, const ex_meta_opts* o, long frames, json_t* root, mt_err* e) {
  const char* cams[16];
  int ncam = sc_camera_list(cams, 16, e);
  if (ncam < 0) return e->code;
  json_t* arr = json_array();
  json_object_set_new(root, "cameras", arr);
  if (ncam < 1) return MT_OK;
  /* the take's motion is decoded once (poses and road; no shapes) and each camera placed on it */
  sc_motion m;
  sc_cam_cfg cfg;
  sc_camera* cam = NULL;
  int rc = sc_motion_begin(&m, r, e) ||
           sc_camera_load(NULL, cams[0], (const char* const*)m.names, m.nb, &cfg, e) ||
           sc_motion_rebuild(&m, r, NULL, e) || sc_motion_read_poses(&m, r, o->poses, e);
  if (!rc) cam = sc_camera_new(&cfg, &m);
  for (int c = 0; c < ncam && !rc; c++) {
    if (c > 0 && (rc = sc_camera_switch(cam, cams[c], e))) break;
    json_array_append_new(arr, camera_track(cam, cams[c], o, frames));
  }
  sc_camera_free(cam);
  sc_motion_free(&m);
  return rc ? e->code : MT_OK;
}

char* ex_meta_build(take_reader* r, const ex_meta_opts* o, mt_err* e) {
  const take_schema* s = take_schema_of(r);
  long frames = (long)floor((o->to - o->from) * o->fps + 1e-9) + 1;
  long crc = file_crc32(o->take_path);
  char id[16];
  snprintf(id, sizeof id, "%08lx", crc < 0 ? 0L : crc);
  json_t* root = json_object();
  const char* keys[] = {"program_version", "git_revision", "rig", "track", "created"};
  json_object_set_new(root, "name", json_string(o->name));
  json_object_set_new(root, "take_id", json_string(id));
  for (size_t i = 0; i < MT_ARRAY_LEN(keys); i++) {
    const char* v = take_meta(r, keys[i]);
    json_object_set_new(root, keys[i], json_string(v ? v : ""));
  }
  json_object_set_new(root, "exported_by", json_string(mt_version()));
  json_object_set_new(root, "fps", json_integer((json_int_t)llround(o->fps)));
  json_object_set_new(root, "first_frame", json_integer(o->first_frame));
  json_object_set_new(root, "frames", json_integer(frames));
  json_object_set_new(root, "last_frame", json_integer(o->first_frame + frames - 1));
  json_object_set_new(root, "from", num(o->from));
  json_object_set_new(root, "to", num(o->from + (double)(frames - 1) / o->fps));
  json_object_set_new(root, "duration", num((double)(frames - 1) / o->fps));
  json_object_set_new(root, "timestep", num(s->timestep));
  json_t* evs = json_array();
  for (int i = 0; i < take_nevents(r); i++) {
    const take_event* ev = take_event_at(r, i);
    double t = (double)ev->step * s->timestep;
    if (t < o->from - 1e-9 || t > o->to + 1e-9) continue;
    char label[256];
    event_label(ev, label, sizeof label);
    long frame = o->first_frame + lround((t - o->from) * o->fps);
    json_array_append_new(evs, json_pack("{s:o, s:I, s:s, s:s}", "time", num(t), "frame", (json_int_t)frame, "kind",
                                         ev->kind, "label", label));
  }
  json_object_set_new(root, "events", evs);
  if (add_channels(r, o, frames, root, e) || (o->cameras && add_cameras(r, o, frames, root, e))) {
    json_decref(root);
    return NULL;
  }
  char* txt = mt_json_text(root, JSON_COMPACT | JSON_REAL_PRECISION(9), "export: the metadata", e);
  json_decref(root);
  return txt;
}

/* The root node's extras: the scalar fields, and the channel list and event labels as text
 * (a custom property of Blender's stock importer holds strings and numbers). */
static json_t* node_extras(json_t* meta) {
  json_t* x = json_object();
  const char* key;
  json_t* v;
  json_object_foreach(meta, key, v) {
    if (json_is_string(v) || json_is_number(v)) json_object_set(x, key, v);
  }
  json_t* ch = json_object_get(meta, "channels");
  if (json_is_array(ch)) {
    size_t i;
    json_t* c;
    char buf[4096] = "";
    json_array_foreach(ch, i, c) {
      size_t l = strlen(buf);
      snprintf(buf + l, sizeof buf - l, "%s%s", i ? "," : "", json_string_value(c));
    }
    json_object_set_new(x, "channel_list", json_string(buf));
  }
  json_t* ev = json_object_get(meta, "events");
  if (json_is_array(ev)) {
    size_t i;
    json_t* c;
    char buf[8192] = "";
    json_array_foreach(ev, i, c) {
      size_t l = strlen(buf);
      snprintf(buf + l, sizeof buf - l, "%s%lld %s", i ? "; " : "", (long long)json_integer_value(json_object_get(c, "frame")),
               json_string_value(json_object_get(c, "label")));
    }
    json_object_set_new(x, "event_list", json_string(buf));
  }
  return x;
}

static int inject(json_t* doc, const char* meta_json) {
  json_t* meta = json_loads(meta_json, 0, NULL);
  if (!json_is_object(meta)) {
    json_decref(meta);
    return -1;
  }
  json_t* scenes = json_object_get(doc, "scenes");
  json_t* nodes = json_object_get(doc, "nodes");
  json_t* sc0 = json_array_get(scenes, 0);
  json_t* rootidx = json_array_get(json_object_get(sc0, "nodes"), 0);
  json_t* rootnode = json_is_integer(rootidx) ? json_array_get(nodes, (size_t)json_integer_value(rootidx)) : NULL;
  if (!json_is_object(rootnode)) {
    json_decref(meta);
    return -1;
  }
  json_object_set_new(rootnode, "extras", node_extras(meta));
  json_t* extras = json_object_get(doc, "extras");
  if (!json_is_object(extras)) {
    extras = json_object();
    json_object_set_new(doc, "extras", extras);
  }
  json_object_set_new(extras, "mototake", meta);
  return 0;
}

static void put_u32(unsigned char* p, unsigned long v) {
  p[0] = (unsigned char)(v & 255), p[1] = (unsigned char)((v >> 8) & 255);
  p[2] = (unsigned char)((v >> 16) & 255), p[3] = (unsigned char)((v >> 24) & 255);
}
static unsigned long get_u32(const unsigned char* p) {
  return (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 | (unsigned long)p[3] << 24;
}

unsigned char* ex_meta_inject_gltf(const unsigned char* d, size_t n, int glb, const char* meta_json, size_t* nout) {
  const unsigned char* js = d;
  size_t jn = n, rest_off = n;
  if (glb) {   /* header: magic "glTF", version 2, length; then the JSON chunk, then the BIN chunk */
    if (n < 20 || memcmp(d, "glTF", 4) || get_u32(d + 4) != 2 || get_u32(d + 8) != n || memcmp(d + 16, "JSON", 4)) return NULL;
    jn = get_u32(d + 12);
    if (jn > n - 20) return NULL;
    js = d + 20;
    rest_off = 20 + jn;
  }
  json_t* doc = json_loadb((const char*)js, jn, 0, NULL);
  if (!json_is_object(doc) || inject(doc, meta_json)) {
    json_decref(doc);
    return NULL;
  }
  /* glTF's own numbers are float32: 9 significant digits keep every one exactly. Not compact:
   * `"key": value`, as Assimp writes it, for the tools that grep a .gltf (its "uri") */
  char* txt = json_dumps(doc, JSON_REAL_PRECISION(9));
  json_decref(doc);
  if (!txt) return NULL;
  size_t tl = strlen(txt);
  unsigned char* out;
  if (!glb) {
    out = mt_alloc(tl);
    memcpy(out, txt, tl);
    *nout = tl;
  } else {
    size_t padded = (tl + 3) & ~(size_t)3, rest = n - rest_off, total = 20 + padded + rest;
    out = mt_alloc(total);
    memcpy(out, "glTF", 4);
    put_u32(out + 4, 2);
    put_u32(out + 8, (unsigned long)total);
    put_u32(out + 12, (unsigned long)padded);
    memcpy(out + 16, "JSON", 4);
    memcpy(out + 20, txt, tl);
    memset(out + 20 + tl, ' ', padded - tl);   /* the spec pads the JSON chunk with spaces */
    memcpy(out + 20 + padded, d + rest_off, rest);
    *nout = total;
  }
  free(txt);
  return out;
}

/*---- FBX: user properties on the take's Model ----*/

/* A well-formed binary FBX 7500 (after ex_fbx_repair): 27-byte header, records (end offset,
 * property count, property bytes: u64 each; name length u8; name; properties; nested records
 * and a 25-byte NULL record when there are any), a top-level NULL record, a footer. */
#define FBXH 27
#define FBXS 25

static uint64_t rd64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static void wr64(unsigned char* p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static int fbx_zero(const unsigned char* d, size_t n, size_t pos) {
  if (pos + FBXS > n) return 0;
  for (int i = 0; i < FBXS; i++)
    if (d[pos + (size_t)i]) return 0;
  return 1;
}
/* Record at pos: end, end of the properties, name (length nl); 0 if out of bounds. */
static int fbx_rec(const unsigned char* d, size_t n, size_t pos, size_t* end, size_t* pe, const char** name, size_t* nl) {
  if (pos + FBXS > n) return 0;
  uint64_t e = rd64(d + pos), plen = rd64(d + pos + 16);
  *nl = d[pos + 24];
  *name = (const char*)d + pos + 25;
  uint64_t p = (uint64_t)pos + 25 + *nl + plen;
  if (e > n || p > e || e <= pos) return 0;
  *end = (size_t)e, *pe = (size_t)p;
  return 1;
}
static int is(const char* name, size_t nl, const char* want) { return nl == strlen(want) && !memcmp(name, want, nl); }

/* The Model's name (its second property, "NAME\0\1Model"): length up to the \0, or 0. */
static size_t model_name(const unsigned char* d, size_t pos, size_t pe, const char** s) {
  size_t p = pos + 25 + d[pos + 24];
  if (p + 9 + 5 > pe || d[p] != 'L' || d[p + 9] != 'S') return 0;
  size_t len = (size_t)d[p + 10] | (size_t)d[p + 11] << 8 | (size_t)d[p + 12] << 16 | (size_t)d[p + 13] << 24;
  if (p + 14 + len > pe) return 0;
  *s = (const char*)d + p + 14;
  size_t k = 0;
  while (k < len && (*s)[k]) k++;
  return k;
}

/* Shift every record end offset beyond ins by delta, walking the old stream's tree. */
static void fbx_shift(const unsigned char* d, size_t n, size_t pos, size_t stop, size_t ins, size_t delta, unsigned char* out) {
  while (pos < stop && !fbx_zero(d, n, pos)) {
    size_t e, pe, nl;
    const char* nm;
    if (!fbx_rec(d, n, pos, &e, &pe, &nm, &nl)) return;
    size_t at = pos < ins ? pos : pos + delta;
    if (e > ins) wr64(out + at, (uint64_t)(e + delta));
    if (pe < e) fbx_shift(d, n, pe, e - FBXS, ins, delta, out);
    pos = e;
  }
}

typedef struct fbuf { unsigned char* p; size_t n, cap; } fbuf;
static void fput(fbuf* b, const void* d, size_t n) {
  if (b->n + n > b->cap) {
    while (b->n + n > b->cap) b->cap = b->cap ? 2 * b->cap : 1024;
    b->p = mt_realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
}
static void fput_s(fbuf* b, const char* s) {
  unsigned char h[5] = {'S'};
  size_t l = strlen(s);
  for (int i = 0; i < 4; i++) h[1 + i] = (unsigned char)(l >> (8 * i));
  fput(b, h, 5);
  fput(b, s, l);
}
/* One "P" record: name, type, subtype, flags "U" (a user property), value (string or double). */
static void fbx_p(fbuf* b, size_t base, const char* name, const char* str, double num) {
  size_t start = b->n;
  unsigned char head[25] = {0};
  fput(b, head, 25);
  b->p[start + 24] = 1;
  fput(b, "P", 1);
  size_t p0 = b->n;
  fput_s(b, name);
  fput_s(b, str ? "KString" : "double");
  fput_s(b, str ? "" : "Number");
  fput_s(b, "U");
  if (str) fput_s(b, str);
  else {
    unsigned char v[9] = {'D'};
    uint64_t bits;
    memcpy(&bits, &num, 8);
    wr64(v + 1, bits);
    fput(b, v, 9);
  }
  wr64(b->p + start, (uint64_t)(base + b->n));
  wr64(b->p + start + 8, 5);
  wr64(b->p + start + 16, (uint64_t)(b->n - p0));
}

unsigned char* ex_meta_inject_fbx(const unsigned char* d, size_t n, const char* model, const char* model2, const char* meta_json,
                                  size_t* nout) {
  if (n < FBXH || memcmp(d, "Kaydara FBX Binary  ", 20) ||
      ((uint32_t)d[23] | (uint32_t)d[24] << 8 | (uint32_t)d[25] << 16 | (uint32_t)d[26] << 24) < 7500)
    return NULL;
  /* the Model named `model`, else `model2`, else the first Model; its Properties70's sentinel
   * is where to insert */
  size_t pos = FBXH, ins = 0, first = 0, chosen = 0, second = 0;
  while (!fbx_zero(d, n, pos)) {
    size_t e, pe, nl;
    const char* nm;
    if (!fbx_rec(d, n, pos, &e, &pe, &nm, &nl)) return NULL;
    if (is(nm, nl, "Objects"))
      for (size_t c = pe; pe < e && c < e - FBXS;) {
        size_t ce, cpe, cnl;
        const char* cn;
        if (!fbx_rec(d, n, c, &ce, &cpe, &cn, &cnl)) return NULL;
        if (is(cn, cnl, "Model")) {
          const char* s = NULL;
          size_t sl = model_name(d, c, cpe, &s);
          if (!first) first = c;
          if (!chosen && sl == strlen(model) && !memcmp(s, model, sl)) chosen = c;
          if (!second && model2 && sl == strlen(model2) && !memcmp(s, model2, sl)) second = c;
        }
        c = ce;
      }
    pos = e;
  }
  size_t m = chosen ? chosen : second ? second : first, top_end = pos;
  if (!m) return NULL;
  size_t e, pe, nl;
  const char* nm;
  fbx_rec(d, n, m, &e, &pe, &nm, &nl);
  for (size_t c = pe; pe < e && c < e - FBXS;) {
    size_t ce, cpe, cnl;
    const char* cn;
    if (!fbx_rec(d, n, c, &ce, &cpe, &cn, &cnl)) return NULL;
    if (is(cn, cnl, "Properties70") && cpe < ce) ins = ce - FBXS;
    c = ce;
  }
  if (!ins) return NULL;
  json_t* meta = json_loads(meta_json, 0, NULL);
  if (!json_is_object(meta)) {
    json_decref(meta);
    return NULL;
  }
  json_t* x = node_extras(meta);
  json_decref(meta);
  fbuf b = {0};
  const char* key;
  json_t* v;
  json_object_foreach(x, key, v) {
    char pname[128];
    snprintf(pname, sizeof pname, "mototake_%s", key);
    fbx_p(&b, ins, pname, json_is_string(v) ? json_string_value(v) : NULL, json_number_value(v));
  }
  json_decref(x);
  size_t delta = b.n;
  /* footer: the top-level NULL record, a 16-byte id, zeros to a 16-byte boundary, a fixed tail */
  size_t tail = 144, old_pad = 16 - (top_end + FBXS + 16) % 16;
  int std_footer = n - top_end == FBXS + 16 + old_pad + tail;
  size_t new_pad = 16 - (top_end + delta + FBXS + 16) % 16;
  size_t total = n + delta + (std_footer ? new_pad - old_pad : 0);
  unsigned char* out = mt_alloc(total);
  memcpy(out, d, ins);
  memcpy(out + ins, b.p, delta);
  if (std_footer) {
    memcpy(out + ins + delta, d + ins, top_end + FBXS + 16 - ins);
    memset(out + top_end + delta + FBXS + 16, 0, new_pad);
    memcpy(out + total - tail, d + n - tail, tail);
  } else {
    memcpy(out + ins + delta, d + ins, n - ins);
  }
  fbx_shift(d, n, FBXH, top_end, ins, delta, out);
  free(b.p);
  *nout = total;
  return out;
}
