/* fbxfix.c — the Assimp 5.2 binary-FBX sentinel repair (see fbxfix.h and docs/export.md).
 *
 * A binary FBX is a 27-byte header, a list of records, a NULL record and a footer. A record
 * is: end offset (absolute), property count, property bytes, name length (u8), name, the
 * properties, then — if it has nested records — those records and a NULL record (all-zero
 * record header: 25 bytes from version 7500, 13 before). Assimp 5.2 writes the NULL record
 * with PutString(char[25]), which becomes an empty std::string, so nested lists lose their
 * sentinel while the end offsets it patches in stay consistent with what it wrote.
 *
 * That makes the defect decidable from the bytes alone: parse the tree the standard way
 * (children end one sentinel before the end offset, which is zeros) and, failing that, the
 * sentinel-less way (children end exactly at the end offset). A correct writer — Assimp ≥ 5.3
 * — passes the first, so the repair switches itself off; only a stream that passes the second
 * is rewritten. Property bytes are never interpreted, only copied: the repair knows the record
 * framing and nothing else. Assimp's footer pads to a 16-byte boundary from the absolute file
 * position, so that padding is recomputed for the longer file. */
#include "exporters/fbxfix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"

#define HEADER_LEN 27
#define FOOTER_TAIL 144   /* after Assimp's 16-byte footer id and padding: 4 + 4 + 120 + 16 */

typedef struct fbx {
  const unsigned char* d;
  size_t len;
  int wide;        /* version >= 7500: 64-bit record header fields */
  size_t hdr;      /* record header length before the name: 3 fields + name length byte */
  size_t sent;     /* NULL-record length */
  int bare;        /* parse mode: 1 = no sentinels (the defect) */
  int depth;
} fbx;

static uint64_t rd(const fbx* f, size_t pos, int wide) {
  uint64_t v = 0;
  int n = wide ? 8 : 4;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | f->d[pos + (size_t)i];
  return v;
}

static int zeros(const fbx* f, size_t pos, size_t n) {
  if (pos + n > f->len) return 0;
  for (size_t i = 0; i < n; i++)
    if (f->d[pos + i]) return 0;
  return 1;
}

/* A record at pos: its end offset and where its properties end; 0 if its header is broken. */
static int record_head(const fbx* f, size_t pos, size_t* end, size_t* props_end) {
  if (pos + f->hdr > f->len) return 0;
  int w = f->wide, fw = w ? 8 : 4;
  uint64_t e = rd(f, pos, w), plen = rd(f, pos + 2 * (size_t)fw, w);
  size_t name_len = f->d[pos + 3 * (size_t)fw];
  uint64_t pe = (uint64_t)pos + f->hdr + name_len + plen;
  if (e == 0 || e > f->len || pe > e) return 0;
  *end = (size_t)e;
  *props_end = (size_t)pe;
  return 1;
}

static int parse_list(fbx* f, size_t pos, size_t end, size_t* stop);

/* Parse the record at pos in the current mode; 1 if consistent. */
static int parse_record(fbx* f, size_t pos) {
  size_t e, pe;
  if (!record_head(f, pos, &e, &pe)) return 0;
  if (pe == e) return 1;                       /* no nested list */
  if (++f->depth > 64) return 0;
  size_t stop;
  int ok;
  if (f->bare) {
    ok = parse_list(f, pe, e, &stop) && stop == e;
  } else {
    ok = e - pe >= f->sent && parse_list(f, pe, e - f->sent, &stop) && stop == e - f->sent &&
         zeros(f, e - f->sent, f->sent);
  }
  f->depth--;
  return ok;
}

/* Records from pos up to end (nested list) or, with end = 0, up to the top-level NULL
 * record; *stop is where the list stopped (the NULL record's start at top level). */
static int parse_list(fbx* f, size_t pos, size_t end, size_t* stop) {
  for (;;) {
    if (end && pos == end) break;
    if (end && pos > end) return 0;
    if (!end && zeros(f, pos, f->sent)) break;   /* the top-level sentinel */
    size_t e, pe;
    if (!record_head(f, pos, &e, &pe) || !parse_record(f, pos)) return 0;
    pos = e;
  }
  *stop = pos;
  return 1;
}

static int open_fbx(fbx* f, const unsigned char* d, size_t len) {
  static const char magic[] = "Kaydara FBX Binary  ";
  memset(f, 0, sizeof *f);
  if (len < HEADER_LEN || memcmp(d, magic, sizeof magic - 1) != 0) return 0;
  f->d = d, f->len = len;
  uint32_t version = (uint32_t)d[23] | (uint32_t)d[24] << 8 | (uint32_t)d[25] << 16 | (uint32_t)d[26] << 24;
  f->wide = version >= 7500;
  f->hdr = f->wide ? 25 : 13;
  f->sent = f->wide ? 25 : 13;
  return 1;
}

int ex_fbx_check(const unsigned char* data, size_t len) {
  fbx f;
  size_t stop;
  if (!open_fbx(&f, data, len)) return EX_FBX_BAD;
  if (parse_list(&f, HEADER_LEN, 0, &stop)) return EX_FBX_WELLFORMED;
  f.bare = 1;
  f.depth = 0;
  if (parse_list(&f, HEADER_LEN, 0, &stop)) return EX_FBX_NO_SENTINELS;
  return EX_FBX_BAD;
}

typedef struct out { unsigned char* d; size_t len, cap; } out;

static void put(out* o, const void* p, size_t n) {
  if (o->len + n > o->cap) {
    while (o->len + n > o->cap) o->cap = o->cap ? 2 * o->cap : 4096;
    o->d = mt_realloc(o->d, o->cap);
  }
  if (p) memcpy(o->d + o->len, p, n);
  else memset(o->d + o->len, 0, n);
  o->len += n;
}

static void patch(out* o, size_t at, uint64_t v, int wide) {
  for (int i = 0; i < (wide ? 8 : 4); i++) o->d[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Lists Assimp declares even when empty (force_has_children in its FBXExporter.cpp): a fixed
 * writer closes them with a sentinel too, so the repaired file matches what it would write. */
static int always_nested(const fbx* f, size_t pos) {
  size_t fw = f->wide ? 8 : 4, n = f->d[pos + 3 * fw];
  const char* name = (const char*)f->d + pos + 3 * fw + 1;
  return (n == 10 && memcmp(name, "References", 10) == 0) || (n == 14 && memcmp(name, "AnimationLayer", 14) == 0);
}

static void emit_record(const fbx* f, size_t pos, out* o) {
  size_t e, pe;
  record_head(f, pos, &e, &pe);   /* validated by ex_fbx_check */
  size_t start = o->len;
  put(o, f->d + pos, pe - pos);   /* header (end offset patched below), name, properties */
  for (size_t c = pe; c < e;) {
    size_t ce, cpe;
    record_head(f, c, &ce, &cpe);
    emit_record(f, c, o);
    c = ce;
  }
  if (pe < e || always_nested(f, pos)) put(o, NULL, f->sent);
  patch(o, start, o->len, f->wide);
}

unsigned char* ex_fbx_repair(const unsigned char* data, size_t len, size_t* out_len) {
  if (ex_fbx_check(data, len) != EX_FBX_NO_SENTINELS) return NULL;
  fbx f;
  open_fbx(&f, data, len);
  out o = {0};
  put(&o, data, HEADER_LEN);
  size_t pos = HEADER_LEN;
  while (!zeros(&f, pos, f.sent)) {
    size_t e, pe;
    record_head(&f, pos, &e, &pe);
    emit_record(&f, pos, &o);
    pos = e;
  }
  put(&o, NULL, f.sent);            /* the top-level sentinel Assimp did write */
  pos += f.sent;
  /* footer: 16-byte id, zero padding to a 16-byte boundary (absolute), then a fixed tail */
  size_t old_pad = 16 - (pos + 16) % 16;
  if (len - pos == 16 + old_pad + FOOTER_TAIL && zeros(&f, pos + 16, old_pad)) {
    put(&o, data + pos, 16);
    put(&o, NULL, 16 - o.len % 16);
    put(&o, data + len - FOOTER_TAIL, FOOTER_TAIL);
  } else {
    put(&o, data + pos, len - pos);  /* a footer of another shape: keep it as it is */
  }
  *out_len = o.len;
  return o.d;
}

/*---- naming the animation layer ----*/

static const char LAYER_CLASS[] = "\0\1AnimLayer";   /* name, then "\0\1" and the class */
static const char STACK_CLASS[] = "\0\1AnimStack";

/* The AnimationStack's name: the first 'S' property ending in "\0\1AnimStack". */
static int stack_name(const fbx* f, char* out, size_t n) {
  const size_t cl = sizeof STACK_CLASS - 1;
  for (size_t m = HEADER_LEN; m + cl <= f->len; m++) {
    if (memcmp(f->d + m, STACK_CLASS, cl) != 0) continue;
    for (size_t p = m; p >= 5 && m - p < 256; p--) {   /* the string starts at p: 'S', u32 length */
      if (f->d[p - 5] != 'S') continue;
      uint64_t sl = rd(f, p - 4, 0);
      if (sl != m + cl - p || m - p >= n || m == p) continue;
      memcpy(out, f->d + p, m - p);
      out[m - p] = 0;
      return 1;
    }
  }
  return 0;
}

typedef struct renamer { const char* name; int renamed; } renamer;

static void emit_named(const fbx* f, size_t pos, out* o, renamer* rn) {
  size_t e, pe, fw = f->wide ? 8 : 4;
  record_head(f, pos, &e, &pe);
  size_t start = o->len, nl = f->d[pos + 3 * fw], props = pos + f->hdr + nl;
  const size_t cl = sizeof LAYER_CLASS - 1;
  /* AnimationLayer: L id, then S "\0\1AnimLayer" (empty name) */
  if (nl == 14 && memcmp(f->d + pos + f->hdr, "AnimationLayer", 14) == 0 && props + 9 + 5 + cl <= pe &&
      f->d[props] == 'L' && f->d[props + 9] == 'S' && rd(f, props + 10, 0) == cl &&
      memcmp(f->d + props + 14, LAYER_CLASS, cl) == 0) {
    size_t add = strlen(rn->name);
    put(o, f->d + pos, props + 10 - pos);
    unsigned char len4[4];
    for (int i = 0; i < 4; i++) len4[i] = (unsigned char)((cl + add) >> (8 * i));
    put(o, len4, 4);
    put(o, rn->name, add);
    put(o, f->d + props + 14, pe - (props + 14));
    patch(o, start + 2 * fw, rd(f, pos + 2 * fw, f->wide) + add, f->wide);   /* property bytes */
    rn->renamed++;
  } else {
    put(o, f->d + pos, pe - pos);
  }
  size_t kids_end = pe < e ? e - f->sent : pe;
  for (size_t c = pe; c < kids_end;) {
    size_t ce, cpe;
    record_head(f, c, &ce, &cpe);
    emit_named(f, c, o, rn);
    c = ce;
  }
  if (pe < e) put(o, NULL, f->sent);
  patch(o, start, o->len, f->wide);
}

unsigned char* ex_fbx_name_layers(const unsigned char* data, size_t len, size_t* out_len) {
  if (ex_fbx_check(data, len) != EX_FBX_WELLFORMED) return NULL;
  fbx f;
  open_fbx(&f, data, len);
  char name[256];
  if (!stack_name(&f, name, sizeof name)) return NULL;
  renamer rn = {name, 0};
  out o = {0};
  put(&o, data, HEADER_LEN);
  size_t pos = HEADER_LEN;
  while (!zeros(&f, pos, f.sent)) {
    size_t e, pe;
    record_head(&f, pos, &e, &pe);
    emit_named(&f, pos, &o, &rn);
    pos = e;
  }
  put(&o, NULL, f.sent);
  pos += f.sent;
  size_t old_pad = 16 - (pos + 16) % 16;
  if (len - pos == 16 + old_pad + FOOTER_TAIL && zeros(&f, pos + 16, old_pad)) {
    put(&o, data + pos, 16);
    put(&o, NULL, 16 - o.len % 16);
    put(&o, data + len - FOOTER_TAIL, FOOTER_TAIL);
  } else {
    put(&o, data + pos, len - pos);
  }
  if (!rn.renamed) {
    free(o.d);
    return NULL;
  }
  *out_len = o.len;
  return o.d;
}
