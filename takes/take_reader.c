/* takefile.c — the SQLite take file (see takefile.h and docs/takefile.md). */
#include "takes/takefile.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <zlib.h>
#include <zstd.h>
#include <libavutil/mem.h>
#include <libavutil/sha.h>

#include "sim/outfile.h"
#include "sim/rig.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/takechan.h"
#include "takes/takejournal.h"
#include "takes/takepose.h"

static const char* const STREAM_NAME[TAKE_NSTREAM] = {"state", "input", "pose", "chan", "ctx"};

static const char* SCHEMA_SQL =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE TABLE columns(stream TEXT NOT NULL, idx INTEGER NOT NULL, name TEXT NOT NULL, units TEXT NOT NULL,"
    "  PRIMARY KEY(stream, idx));"
    "CREATE TABLE chunks(stream TEXT NOT NULL, chunk INTEGER NOT NULL, step0 INTEGER NOT NULL, nsteps INTEGER NOT NULL,"
    "  ncols INTEGER NOT NULL, codec INTEGER NOT NULL, raw_bytes INTEGER NOT NULL, crc32 INTEGER NOT NULL, data BLOB NOT NULL,"
    "  PRIMARY KEY(stream, chunk));"
    "CREATE TABLE events(id INTEGER PRIMARY KEY, step INTEGER NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL);"
    "CREATE TABLE status(id INTEGER PRIMARY KEY CHECK (id = 1), complete INTEGER NOT NULL, reason TEXT NOT NULL,"
    "  nsteps INTEGER NOT NULL);";

/*---- codecs ----
 * 0: plain little-endian float64, column-major, deflated.
 * 2: float64; per column, each value's 64-bit pattern minus twice the previous plus the one
 *    before (a second difference of the integers, wrapping) — smooth motion leaves small
 *    integers — then the bytes shuffled into 8 planes (byte b of every value together), deflated.
 * 3: the same on float32 values (4 planes): channels, where 7 significant digits are plenty.
 * 4, 5: codecs 2 and 3 compressed with Zstandard (level 1) instead of deflate: about a quarter
 *    of deflate's CPU time for a slightly smaller chunk (issue 18). Format 2 writes these; the
 *    deflated codecs of format 1 are still read.
 * 6 (format 5, the state stream only): codec 4 of the values the take's state_rates predict
 *    stored as their difference from the prediction (rate_residual; rate_undo reads them back).
 * The CRC-32 is of the raw column-major values in the stored precision (formats 1-3), of the
 * stored blob from format 4. */

static int codec_width(int codec) { return codec == 3 || codec == 5 ? 4 : 8; }
static int codec_zstd(int codec) { return codec == 4 || codec == 5 || codec == 6; }

/* Format 5's prediction of an integrated state value: MuJoCo 2.2.2's mj_integratePos sets a
 * hinge's, slide's or free joint position's qpos to qpos + h·qvel with the new qvel, in two
 * IEEE roundings. The writer and every reader must compute exactly this, so it must never be
 * contracted into a fused multiply-add (ISO C, -std=c11, does not contract; a build that did
 * would read takes wrongly: tests/unit/test_takefile.c holds it to two roundings on a case where
 * the fused result differs). */
double take_rate_predict(double prev, double h, double rate) { return prev + h * rate; }

/* The stored word of an integrated value: the bits in which it differs from the prediction
 * (0 when the step integrated it, as at every step of a ride but a chunk's first). */
static inline uint64_t rate_residual(double x, double prev, double h, double rate) {
  double p = take_rate_predict(prev, h, rate);
  uint64_t a, b;
  memcpy(&a, &x, 8);
  memcpy(&b, &p, 8);
  return a ^ b;
}

/* Zstandard's parameters for codecs 4 and 5, set once on the writer's context: its fastest
 * strategy with a hash table of 1 K entries (4 KiB: it stays in L1 and is cleared quickly at
 * every chunk), matches of at least 7 bytes (the planes' zero runs and repeated high bytes; the
 * low planes are noise) and a 128 KiB window. Any parameters decode with the same decoder
 * (ZSTD_decompress of one frame), so they are not part of the format. Issue 18 measured levels
 * 1, −1, −3, −5, −10 and then these parameters on the recorded Laguna lap (docs/speed.md,
 * "Recording (branch recB)"): against level −3 (strategy fast, 8 K entries, minimum match 6)
 * a fifth less of Zstandard's CPU for a take 1 % larger. */
#define TAKE_ZSTD_STRATEGY ZSTD_fast
#define TAKE_ZSTD_WINDOWLOG 17
#define TAKE_ZSTD_HASHLOG 10
#define TAKE_ZSTD_MINMATCH 7
#define TAKE_ZSTD_TARGETLENGTH 3   /* ZSTD_fast: the step's acceleration when no match is found, as level −3 */

/* Chunks the simulation's thread fills before it hands them to the writer thread, at most: the
 * writer wakes once for up to this many and commits them in one transaction. Issue 18: a writer
 * thread woken for every chunk spent about half as much again per step as one that stays busy
 * (cold between wakes: in `mt_bench writer` paced as a ride, MT_BENCH_PACE_US=6, 1.0–1.1 µs a
 * step woken every chunk, 0.68–0.79 every 4, 0.68–0.72 every 8, 0.61–0.62 every 16, against
 * 0.68–0.73 unpaced; docs/speed.md). A run hands over sooner when a second of its own time has
 * passed, so a killed run loses at most the last second it ran and at most this many chunks
 * (docs/takefile.md, "Crash safety"); 16 chunks of the lap's streams are 7.4 MB, twice that for
 * the two buffers. */
#define TAKE_WRITE_BATCH 16

/* Values per column that the encoder's transform takes at a time (planes64). */
#define PLANE_BLOCK 64

/* An encoder's scratch, reused chunk after chunk by the writer thread (no allocation per chunk):
 * the values in stored precision, their shuffled planes, the compressed output, and a Zstandard
 * context (ZSTD_compress would allocate and clear one per call). */
typedef struct enc_scratch {
  size_t cap;                  /* bytes of each buffer: the largest stream's chunk, 8 bytes a value */
  unsigned char *bytes, *sh, *out;
  size_t outcap;
  size_t ncols;                /* columns prev has room for */
  uint64_t* prev;              /* encode_rows: each column's last two values (uint32_t pairs for float32) */
  unsigned char* blk;          /* encode_rows: PLANE_BLOCK rows of up to ncols values */
  int* rated;                  /* encode_rows, codec 6: (column, rate) of each rated value */
  unsigned char* skip;         /* and which columns' block is all zero (no transform needed) */
  uint64_t* any;               /* and the OR of each one's residuals in the block */
  ZSTD_CCtx* cctx;
} enc_scratch;

static void enc_init(enc_scratch* z, size_t nvalues, size_t ncols) {
  z->cap = nvalues * 8 + 8;
  z->ncols = ncols;
  z->prev = mt_alloc(sizeof(uint64_t) * 2 * (ncols ? ncols : 1));
  z->blk = mt_alloc(8 * PLANE_BLOCK * (ncols ? ncols : 1));
  z->rated = mt_alloc(sizeof(int) * 2 * (ncols ? ncols : 1));
  z->skip = mt_alloc(ncols ? ncols : 1);
  z->any = mt_alloc(sizeof(uint64_t) * (ncols ? ncols : 1));
  z->bytes = mt_alloc(z->cap);
  z->sh = mt_alloc(z->cap);
  z->outcap = ZSTD_compressBound(z->cap) > compressBound(z->cap) ? ZSTD_compressBound(z->cap) : compressBound(z->cap);
  z->out = mt_alloc(z->outcap);
  z->cctx = ZSTD_createCCtx();
  if (z->cctx &&   /* sticky: every ZSTD_compress2 on this context uses them */
      (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_strategy, TAKE_ZSTD_STRATEGY)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_windowLog, TAKE_ZSTD_WINDOWLOG)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_hashLog, TAKE_ZSTD_HASHLOG)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_minMatch, TAKE_ZSTD_MINMATCH)) ||
       ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_targetLength, TAKE_ZSTD_TARGETLENGTH)))) {
    ZSTD_freeCCtx(z->cctx);   /* encoders check cctx: a chunk then "cannot be compressed" */
    z->cctx = NULL;
  }
}

static void enc_free(enc_scratch* z) {
  free(z->bytes);
  free(z->sh);
  free(z->out);
  free(z->prev);
  free(z->blk);
  free(z->rated);
  free(z->skip);
  free(z->any);
  ZSTD_freeCCtx(z->cctx);
  memset(z, 0, sizeof *z);
}

/* Byte planes of eight values at once: a<j> holds value j on entry; on return a<b> holds byte b
 * of the eight values, value j's in its byte j (little-endian, as the planes are stored) — the
 * 8×8 byte transpose in three rounds of swaps (bytes, 16-bit pairs, 32-bit halves), on eight
 * local variables so that it stays in registers (an array went through the stack). */
#define SWAP_BITS(T, x, y, sh, mask)      \
  do {                                    \
    T t_ = (((x) >> (sh)) ^ (y)) & (mask); \
    (y) ^= t_;                            \
    (x) ^= t_ << (sh);                    \
  } while (0)
#define TRANSPOSE8X8_T(T, a0, a1, a2, a3, a4, a5, a6, a7)              \
  do {                                                                  \
    const T m8_ = (T){0} + 0x00FF00FF00FF00FFull;                       \
    const T m16_ = (T){0} + 0x0000FFFF0000FFFFull;                      \
    const T m32_ = (T){0} + 0x00000000FFFFFFFFull;                      \
    SWAP_BITS(T, a0, a1, 8, m8_);                                       \
    SWAP_BITS(T, a2, a3, 8, m8_);                                       \
    SWAP_BITS(T, a4, a5, 8, m8_);                                       \
    SWAP_BITS(T, a6, a7, 8, m8_);                                       \
    SWAP_BITS(T, a0, a2, 16, m16_);                                     \
    SWAP_BITS(T, a1, a3, 16, m16_);                                     \
    SWAP_BITS(T, a4, a6, 16, m16_);                                     \
    SWAP_BITS(T, a5, a7, 16, m16_);                                     \
    SWAP_BITS(T, a0, a4, 32, m32_);                                     \
    SWAP_BITS(T, a1, a5, 32, m32_);                                     \
    SWAP_BITS(T, a2, a6, 32, m32_);                                     \
    SWAP_BITS(T, a3, a7, 32, m32_);                                     \
  } while (0)
#define TRANSPOSE8X8(a0, a1, a2, a3, a4, a5, a6, a7) TRANSPOSE8X8_T(uint64_t, a0, a1, a2, a3, a4, a5, a6, a7)
/* The same for four 32-bit values: a<b> gets byte b of the four, value j's in its byte j. */
#define TRANSPOSE4X4(a0, a1, a2, a3)                 \
  do {                                               \
    SWAP_BITS(uint32_t, a0, a1, 8, 0x00FF00FFu);     \
    SWAP_BITS(uint32_t, a2, a3, 8, 0x00FF00FFu);     \
    SWAP_BITS(uint32_t, a0, a2, 16, 0x0000FFFFu);    \
    SWAP_BITS(uint32_t, a1, a3, 16, 0x0000FFFFu);    \
  } while (0)

/* Values i0 … i0 + m − 1 (m <= PLANE_BLOCK) of one column — 64- or 32-bit patterns at
 * src + stride·(i − i0) — as their second differences (w[i] − 2·w[i−1] + w[i−2], wrapping,
 * w[−1] = w[−2] = 0) shuffled into the chunk's byte planes: byte b of value i goes to
 * d[b·nw + i] (d: the column's place in plane 0, nw: the chunk's values per plane). prev holds
 * w[i0−2], w[i0−1] on entry (0, 0 for i0 = 0) and the block's last two on return, so a column
 * done in blocks, in any order of columns and blocks that keeps each column's blocks in order,
 * gives exactly the bytes of one pass over it.
 *
 * Eight values (four for 32 bits) at a time: differenced and turned into their byte planes by a
 * byte transpose in registers, each plane's eight bytes stored at once. (Issue 18: with a byte
 * store per byte of every value, this function was about a quarter of the writer thread's CPU
 * samples; now about an eighth, docs/speed.md.) */
static void planes64(const unsigned char* src, size_t stride, long i0, long m, uint64_t prev[2], unsigned char* d, size_t nw) {
  uint64_t p2 = prev[0], p1 = prev[1];   /* w[i − 2], w[i − 1] */
  long j = 0;
  for (; j + 8 <= m; j += 8) {   /* eight values: differenced and transposed in registers */
    const unsigned char* p = src + stride * (size_t)j;
    uint64_t w0, w1, w2, w3, w4, w5, w6, w7;
    memcpy(&w0, p, 8), memcpy(&w1, p + stride, 8), memcpy(&w2, p + 2 * stride, 8), memcpy(&w3, p + 3 * stride, 8);
    memcpy(&w4, p + 4 * stride, 8), memcpy(&w5, p + 5 * stride, 8), memcpy(&w6, p + 6 * stride, 8), memcpy(&w7, p + 7 * stride, 8);
    uint64_t a0 = w0 - 2 * p1 + p2, a1 = w1 - 2 * w0 + p1, a2 = w2 - 2 * w1 + w0, a3 = w3 - 2 * w2 + w1;
    uint64_t a4 = w4 - 2 * w3 + w2, a5 = w5 - 2 * w4 + w3, a6 = w6 - 2 * w5 + w4, a7 = w7 - 2 * w6 + w5;
    p2 = w6;
    p1 = w7;
    TRANSPOSE8X8(a0, a1, a2, a3, a4, a5, a6, a7);   /* now a<b> holds byte b of the eight values */
    unsigned char* o = d + i0 + j;
    memcpy(o, &a0, 8), memcpy(o + nw, &a1, 8), memcpy(o + 2 * nw, &a2, 8), memcpy(o + 3 * nw, &a3, 8);
    memcpy(o + 4 * nw, &a4, 8), memcpy(o + 5 * nw, &a5, 8), memcpy(o + 6 * nw, &a6, 8), memcpy(o + 7 * nw, &a7, 8);
  }
  for (; j < m; j++) {
    uint64_t w;
    memcpy(&w, src + stride * (size_t)j, 8);
    uint64_t x = w - 2 * p1 + p2;
    p2 = p1;
    p1 = w;
    for (int b = 0; b < 8; b++) d[(size_t)b * nw + i0 + j] = (unsigned char)(x >> (8 * b));
  }
  prev[0] = p2;
  prev[1] = p1;
}
/* planes64 of two neighbouring columns at once, one in each lane of a 128-bit vector (GCC's
 * vector extensions: SSE2 on x86-64, lanes elsewhere): column c's values at src, c + 1's at
 * src + 8 (one load a row), its planes at d, the next column's at d + n (n: values per column in
 * the chunk); prev[0..3] the two columns' (w[i − 2], w[i − 1]) as planes64 keeps them. The same
 * bytes as two planes64 calls (take_wide = 0 takes those; the unit tests compare). */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
int take_wide = 1;
static void planes64x2(const unsigned char* src, size_t stride, long i0, long m, uint64_t prev[4], unsigned char* d, long n,
                       size_t nw) {
  u64x2 p2 = {prev[0], prev[2]}, p1 = {prev[1], prev[3]};
  long j = 0;
  for (; j + 8 <= m; j += 8) {
    const unsigned char* p = src + stride * (size_t)j;
    u64x2 w0, w1, w2, w3, w4, w5, w6, w7;
    memcpy(&w0, p, 16), memcpy(&w1, p + stride, 16), memcpy(&w2, p + 2 * stride, 16), memcpy(&w3, p + 3 * stride, 16);
    memcpy(&w4, p + 4 * stride, 16), memcpy(&w5, p + 5 * stride, 16), memcpy(&w6, p + 6 * stride, 16), memcpy(&w7, p + 7 * stride, 16);
    u64x2 a0 = w0 - 2 * p1 + p2, a1 = w1 - 2 * w0 + p1, a2 = w2 - 2 * w1 + w0, a3 = w3 - 2 * w2 + w1;
    u64x2 a4 = w4 - 2 * w3 + w2, a5 = w5 - 2 * w4 + w3, a6 = w6 - 2 * w5 + w4, a7 = w7 - 2 * w6 + w5;
    p2 = w6;
    p1 = w7;
    TRANSPOSE8X8_T(u64x2, a0, a1, a2, a3, a4, a5, a6, a7);
    unsigned char* o = d + i0 + j;
    unsigned char* q = o + n;
    uint64_t x;
#define PLANE_OUT(b, a) (x = (a)[0], memcpy(o + (b) * nw, &x, 8), x = (a)[1], memcpy(q + (b) * nw, &x, 8))
    PLANE_OUT(0, a0), PLANE_OUT(1, a1), PLANE_OUT(2, a2), PLANE_OUT(3, a3);
    PLANE_OUT(4, a4), PLANE_OUT(5, a5), PLANE_OUT(6, a6), PLANE_OUT(7, a7);
#undef PLANE_OUT
  }
  prev[0] = p2[0], prev[1] = p1[0], prev[2] = p2[1], prev[3] = p1[1];
  if (j < m) {   /* the block's last values, one column at a time */
    planes64(src + stride * (size_t)j, stride, i0 + j, m - j, prev, d, nw);
    planes64(src + stride * (size_t)j + 8, stride, i0 + j, m - j, prev + 2, d + n, nw);
  }
}

static void planes32(const unsigned char* src, size_t stride, long i0, long m, uint32_t prev[2], unsigned char* d, size_t nw) {
  uint32_t p2 = prev[0], p1 = prev[1];
  long j = 0;
  for (; j + 4 <= m; j += 4) {
    const unsigned char* p = src + stride * (size_t)j;
    uint32_t w0, w1, w2, w3;
    memcpy(&w0, p, 4), memcpy(&w1, p + stride, 4), memcpy(&w2, p + 2 * stride, 4), memcpy(&w3, p + 3 * stride, 4);
    uint32_t a0 = w0 - 2 * p1 + p2, a1 = w1 - 2 * w0 + p1, a2 = w2 - 2 * w1 + w0, a3 = w3 - 2 * w2 + w1;
    p2 = w2;
    p1 = w3;
    TRANSPOSE4X4(a0, a1, a2, a3);
    unsigned char* o = d + i0 + j;
    memcpy(o, &a0, 4), memcpy(o + nw, &a1, 4), memcpy(o + 2 * nw, &a2, 4), memcpy(o + 3 * nw, &a3, 4);
  }
  for (; j < m; j++) {
    uint32_t w;
    memcpy(&w, src + stride * (size_t)j, 4);
    uint32_t x = w - 2 * p1 + p2;
    p2 = p1;
    p1 = w;
    for (int b = 0; b < 4; b++) d[(size_t)b * nw + i0 + j] = (unsigned char)(x >> (8 * b));
  }
  prev[0] = p2;
  prev[1] = p1;
}

/* 0: every block through planes64 (the unit tests compare the two ways' chunks) */
int take_zero_blocks = 1;

/* Zstandard of the shuffled planes into z->out: one frame, with the context's parameters. */
static int enc_compress(enc_scratch* z, const unsigned char* sh, size_t nb, size_t* outlen) {
  size_t zlen = ZSTD_compress2(z->cctx, z->out, z->outcap, sh, nb);
  if (ZSTD_isError(zlen)) return -1;
  *outlen = zlen;
  return 0;
}

/* The writer's path (format 4): n rows of ncols doubles straight into the shuffled planes of
 * the columns' second differences (codec 4: float64, codec 5: rounded to float32), with no
 * column-major copy of the chunk: its CRC is of the stored blob (crc_blob), not of the raw
 * values. The same planes encode_into makes from the same chunk in columns. */
static int encode_rows(enc_scratch* z, const double* raw, int ncols, long n, int codec, const int* rate, double h,
                       size_t* outlen, uLong* crc_blob) {
  size_t nw = (size_t)ncols * n;
  if (!z->cctx || nw * 8 > z->cap || (size_t)ncols > z->ncols || !codec_zstd(codec) || (codec == 6) != (rate != NULL))
    return -1;
  int W = codec_width(codec);
  const unsigned char* src = (const unsigned char*)raw;   /* row-major little-endian float64 */
  if (W == 4) {   /* codec 5: the rows rounded to float32, as stored */
    float* f = (float*)z->bytes;
    for (size_t k = 0; k < nw; k++) f[k] = (float)raw[k];
    src = z->bytes;
  }
  /* rows in blocks that stay in the cache while every column takes its values from them; each
   * column carries its last two values from block to block (planes64) */
  memset(z->prev, 0, sizeof(uint64_t) * 2 * (size_t)ncols);
  int nr = 0;   /* the rated values in column order, with their rates */
  for (int c = 0; rate && c < ncols; c++)
    if (rate[c] >= 0) z->rated[2 * nr] = c, z->rated[2 * nr + 1] = rate[c], nr++;
  uint32_t* prev32 = (uint32_t*)z->prev;
  size_t stride = (size_t)W * ncols;
  for (long i0 = 0; i0 < n; i0 += PLANE_BLOCK) {
    long m = n - i0 < PLANE_BLOCK ? n - i0 : PLANE_BLOCK;
    /* the block's rows copied in one sequential run first: the simulation's thread wrote them on
     * the other core, and a sequential read streams them in where the columns' strided reads
     * waited for each cache line */
    memcpy(z->blk, src + stride * (size_t)i0, stride * (size_t)m);
    if (nr) {   /* codec 6: each rated value's residual over the block's rows, from the chunk's values
                 * (a chunk's first value is stored as it is); any[k]: their bits ORed */
      double* b = (double*)z->blk;
      for (int k = 0; k < nr; k++) z->any[k] = 0;
      for (long r = i0 == 0 ? 1 : 0; r < m; r++) {
        const double* x = raw + (size_t)(i0 + r) * ncols;
        for (int k = 0; k < nr; k++) {
          int c = z->rated[2 * k], j = z->rated[2 * k + 1];
          uint64_t res = rate_residual(x[c], x[c - ncols], h, x[j]);
          z->any[k] |= res;
          memcpy(&b[(size_t)r * ncols + c], &res, 8);
        }
      }
      if (i0 == 0)   /* the chunk's first row holds values, not residuals */
        for (int k = 0; k < nr; k++) z->any[k] |= 1;
    }
    /* skip[c]: residuals of zero after two of zero, whose second differences are zero and leave
     * prev at (0, 0) — planes64's bytes without its work (most of a ride's rated blocks) */
    memset(z->skip, 0, (size_t)ncols);
    for (int k = 0; k < nr && take_zero_blocks; k++) {
      int c = z->rated[2 * k];
      z->skip[c] = !z->any[k] && !z->prev[2 * c] && !z->prev[2 * c + 1];
    }
    for (int c = 0; c < ncols; c++) {
      unsigned char* d = z->sh + (size_t)c * n;
      if (z->skip[c])
        for (int b = 0; b < 8; b++) memset(d + (size_t)b * nw + i0, 0, (size_t)m);
      else if (W == 8 && take_wide && c + 1 < ncols && !z->skip[c + 1]) {   /* two neighbours at once */
        planes64x2(z->blk + 8 * (size_t)c, stride, i0, m, z->prev + 2 * (size_t)c, d, n, nw);
        c++;
      } else if (W == 8) planes64(z->blk + 8 * (size_t)c, stride, i0, m, z->prev + 2 * (size_t)c, d, nw);
      else planes32(z->blk + 4 * (size_t)c, stride, i0, m, prev32 + 2 * (size_t)c, d, nw);
    }
  }
  if (enc_compress(z, z->sh, nw * W, outlen)) return -1;
  *crc_blob = crc32(0L, z->out, (uInt)*outlen);
  return 0;
}

/* raw: ncols columns of n values, doubles; converted to float for codecs 3 and 5. The encoded
 * chunk is left in z->out (*outlen bytes), *crc the CRC-32 of the raw values in stored precision
 * (formats 1-3); -1 when it cannot be compressed. */
static int encode_into(enc_scratch* z, const double* raw, int ncols, long n, int codec, size_t* outlen, uLong* crc) {
  size_t nw = (size_t)ncols * n;
  if (!z->cctx || nw * 8 > z->cap) return -1;
  int W = codec_width(codec);
  const unsigned char* bytes = (const unsigned char*)raw;   /* little-endian float64 as stored */
  if (W == 4) {
    float* f = (float*)z->bytes;
    for (size_t k = 0; k < nw; k++) f[k] = (float)raw[k];
    bytes = z->bytes;
  }
  *crc = crc32(0L, bytes, (uInt)(nw * W));
  unsigned char* sh = z->sh;
  if (codec == 0) memcpy(sh, bytes, nw * W);   /* plain: neither differenced nor shuffled */
  else
    for (int c = 0; c < ncols; c++) {   /* column-major: each column's blocks in order */
      uint64_t p64[2] = {0, 0};
      uint32_t p32[2] = {0, 0};
      for (long i0 = 0; i0 < n; i0 += PLANE_BLOCK) {
        long m = n - i0 < PLANE_BLOCK ? n - i0 : PLANE_BLOCK;
        const unsigned char* col = bytes + (size_t)c * n * W;
        if (W == 8) planes64(col + 8 * (size_t)i0, 8, i0, m, p64, sh + (size_t)c * n, nw);
        else planes32(col + 4 * (size_t)i0, 4, i0, m, p32, sh + (size_t)c * n, nw);
      }
    }
  if (codec_zstd(codec)) return enc_compress(z, sh, nw * W, outlen);
  uLongf cap = z->outcap;
  if (compress2(z->out, &cap, sh, nw * W, 1) != Z_OK) return -1;
  *outlen = cap;
  return 0;
}

/* One chunk on its own (tests, the fuzzer, the bench): a malloc'd blob, NULL on failure. */
static unsigned char* encode(const double* raw, int ncols, long n, int codec, size_t* outlen, uLong* crc) {
  enc_scratch z;
  enc_init(&z, (size_t)ncols * n, (size_t)ncols);
  unsigned char* blob = NULL;
  if (z.cctx && encode_into(&z, raw, ncols, n, codec, outlen, crc) == 0) {
    blob = mt_alloc(*outlen + 1);
    memcpy(blob, z.out, *outlen);
  }
  enc_free(&z);
  return blob;
}

/* Decode into raw (doubles); *crc gets the CRC of the stored-precision values. */
static int decode(const unsigned char* blob, size_t len, int codec, int ncols, long n, double* raw, uLong* crc) {
  size_t nw = (size_t)ncols * n;
  int W = codec_width(codec);
  size_t nb = nw * W;
  unsigned char* buf = mt_alloc(nb + 1);
  if (codec_zstd(codec)) {   /* bounded by nb: a frame that claims more is an error */
    size_t got = ZSTD_decompress(buf, nb, blob, len);
    if (ZSTD_isError(got) || got != nb) {
      free(buf);
      return -1;
    }
  } else {
    uLongf got = nb;
    if (uncompress(buf, &got, blob, len) != Z_OK || got != nb) {
      free(buf);
      return -1;
    }
  }
  unsigned char* bytes = mt_alloc(nb + 1);
  if (codec == 0) {
    memcpy(bytes, buf, nb);
  } else {
    for (int c = 0; c < ncols; c++) {
      uint64_t p1 = 0, p2 = 0;
      for (long i = 0; i < n; i++) {
        size_t k = (size_t)c * n + i;
        uint64_t x = 0;
        for (int b = 0; b < W; b++) x |= (uint64_t)buf[(size_t)b * nw + k] << (8 * b);
        uint64_t w = x + 2 * p1 - p2;
        if (W == 4) w &= 0xffffffffu;
        p2 = p1;
        p1 = w;
        memcpy(bytes + W * k, &w, W);
      }
    }
  }
  *crc = crc32(0L, bytes, (uInt)nb);
  if (W == 4)
    for (size_t k = 0; k < nw; k++) {
      float f;
      memcpy(&f, bytes + 4 * k, 4);
      raw[k] = f;
    }
  else
    memcpy(raw, bytes, nb);
  free(buf);
  free(bytes);
  return 0;
}

/* The codec for tests and fuzzing (takefile.h): arguments checked, nothing trusted. */
static int chunk_shape_ok(int codec, int ncols, long n) {
  return (codec == 0 || (codec >= 2 && codec <= 5)) && ncols >= 1 && ncols <= 4096 && n >= 1 && n <= TAKE_CHUNK_STEPS;
}

unsigned char* take_chunk_encode(const double* raw, int ncols, long n, int codec, size_t* len, unsigned long* crc) {
  if (!chunk_shape_ok(codec, ncols, n)) return NULL;
  uLong c = 0;
  unsigned char* out = encode(raw, ncols, n, codec, len, &c);
  *crc = c;
  return out;
}

int take_chunk_decode(const void* blob, size_t len, int codec, int ncols, long n, double* out, unsigned long* crc) {
  if (!blob || !chunk_shape_ok(codec, ncols, n)) return -1;
  uLong c = 0;
  int rc = decode(blob, len, codec, ncols, n, out, &c);
  *crc = c;
  return rc;
}

/* state, input, pose: exact; channels and the context (channels too): float32 */
static const int STREAM_CODEC[TAKE_NSTREAM] = {4, 4, 4, 5, 5};
static const int FORMAT1_CODEC[TAKE_NSTREAM] = {2, 2, 2, 3, 3};  /* the same, deflated (format 1): still read */

/*---- writer ----*/

typedef struct pending { char* a; char* b; long step; int kind; struct pending* next; } pending;   /* meta (kind 0) or event */

typedef struct chunk_buf {
  long step0, n;
  /* row-major, room for TAKE_WRITE_BATCH chunks' rows: the simulation appends each step's values in one
   * run of memory, and the writer thread turns them into columns (issue 18: storing straight
   * into columns scattered every step over a cache line and a page per column, a third of what
   * recording cost the simulation's thread) */
  double* row[TAKE_NSTREAM];
} chunk_buf;

struct take_writer {
  sqlite3* db;
  char* path;
  outfile of;                  /* the output rule: in place when new, else a temporary (sim/outfile.h) */
  int ncols[TAKE_NSTREAM];
  int row_stored[TAKE_NSTREAM];  /* the streams this take stores: state, input, ctx; chan on request */
  chunk_buf buf[2];            /* the one being filled and the one being written */
  int fill;                    /* index of the one being filled */
  long nsteps;
  long chunk_index;
  pthread_t thread;
  double* cpu_out;   /* take_writer_cpu_to: where the thread leaves its CPU time when it ends (under mu) */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int busy;                    /* the writer thread has buf[1 - fill] */
  double handed;               /* CLOCK_MONOTONIC of the last hand-over (or the open) */
  int quit;
  int error;
  char errmsg[512];
  pending* pend;
  int lock_fd;                 /* flock'd: the one writer of this file */
  enc_scratch enc;             /* the writer thread's encoder (buffers and Zstandard context) */
  int* rate;                   /* format 5: the state's rate table (take_schema.state_rate), NULL if none */
  double h;                    /* its time step */
  sqlite3_stmt* ins_chunk;     /* the writer thread's statements, prepared at its first chunk and */
  sqlite3_stmt* upd_status;    /* finalized by writer_finish after the join */
  char stamp[48];              /* "PRAGMA application_id=N": the first write of every transaction (take_stamp) */
};

/* The take's identity, written first in every transaction: SQLite journals a page before its
 * first change, so page 1 with this take's application_id is the first record of any journal
 * the writer leaves — what take_journal_judge checks before letting SQLite roll one back
 * (takes/takejournal.h). Random and non-zero (0 is "no identity": takes written before it). */
static void take_identity(char* stamp, size_t n) {
  int32_t id = 0;
  while (id == 0) sqlite3_randomness(sizeof id, &id);
  snprintf(stamp, n, "PRAGMA application_id=%ld", (long)id);
}

static double mono_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int exec(sqlite3* db, const char* sql, char* err, size_t n) {
  char* m = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &m) != SQLITE_OK) {
    snprintf(err, n, "%s", m ? m : "sqlite error");
    sqlite3_free(m);
    return -1;
  }
  return 0;
}

/* Write the buffer's chunks (all streams of each, TAKE_CHUNK_STEPS steps a chunk but a last
 * shorter one) plus the pending meta/events, and the step count, in one transaction. */
static int write_chunk(take_writer* w, chunk_buf* c, pending* pend) {
  sqlite3* db = w->db;
  if (exec(db, "BEGIN", w->errmsg, sizeof w->errmsg)) return -1;
  sqlite3_stmt* st = NULL;
  int rc = exec(db, w->stamp, w->errmsg, sizeof w->errmsg);   /* page 1 journaled first (take_identity) */
  /* the statement is prepared once per take and reset after each row (issue 18: preparing it
   * again every second was SQLite's parser on the writer thread) */
  if (c && c->n > 0 && !w->ins_chunk)
    rc = sqlite3_prepare_v3(db, "INSERT INTO chunks VALUES(?,?,?,?,?,?,?,?,?)", -1, SQLITE_PREPARE_PERSISTENT, &w->ins_chunk, NULL) != SQLITE_OK;
  for (long k0 = 0; c && k0 < c->n && !rc; k0 += TAKE_CHUNK_STEPS) {
    long kn = c->n - k0 < TAKE_CHUNK_STEPS ? c->n - k0 : TAKE_CHUNK_STEPS;
    st = w->ins_chunk;
    for (int s = 0; s < TAKE_NSTREAM && !rc; s++) {
      if (!w->row_stored[s]) continue;   /* poses (format 3) and, unless asked for, channels (format 4): rebuilt by readers */
      int nc = w->ncols[s];
      const double* raw = c->row[s] + (size_t)k0 * nc;   /* row-major: encode_rows turns it into columns */
      size_t len;
      uLong crc;
      int codec = s == TAKE_STATE && w->rate ? 6 : STREAM_CODEC[s];
      if (encode_rows(&w->enc, raw, nc, kn, codec, codec == 6 ? w->rate : NULL, w->h, &len, &crc)) {
        snprintf(w->errmsg, sizeof w->errmsg, "stream '%s': chunk %ld cannot be compressed", STREAM_NAME[s], w->chunk_index);
        rc = 1;
        break;
      }
      sqlite3_bind_text(st, 1, STREAM_NAME[s], -1, SQLITE_STATIC);
      sqlite3_bind_int64(st, 2, w->chunk_index);
      sqlite3_bind_int64(st, 3, c->step0 + k0);
      sqlite3_bind_int64(st, 4, kn);
      sqlite3_bind_int(st, 5, nc);
      sqlite3_bind_int(st, 6, codec);
      sqlite3_bind_int64(st, 7, (sqlite3_int64)codec_width(codec) * nc * kn);
      sqlite3_bind_int64(st, 8, (sqlite3_int64)crc);
      sqlite3_bind_blob(st, 9, w->enc.out, (int)len, SQLITE_STATIC);   /* copied into the pages by the step */
      rc = sqlite3_step(st) != SQLITE_DONE;
      sqlite3_reset(st);
      sqlite3_clear_bindings(st);
    }
    if (!rc) w->chunk_index++;
  }
  for (pending* p = pend; p && !rc; p = p->next) {
    if (p->kind == 0) rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
    else rc = sqlite3_prepare_v2(db, "INSERT INTO events(step, kind, json) VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK;
    if (rc) break;
    if (p->kind == 0) {
      sqlite3_bind_text(st, 1, p->a, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 2, p->b, -1, SQLITE_STATIC);
    } else {
      sqlite3_bind_int64(st, 1, p->step);
      sqlite3_bind_text(st, 2, p->a, -1, SQLITE_STATIC);
      sqlite3_bind_text(st, 3, p->b, -1, SQLITE_STATIC);
    }
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_finalize(st);
  }
  if (!rc && c) {
    if (!w->upd_status) rc = sqlite3_prepare_v3(db, "UPDATE status SET nsteps = ? WHERE id = 1", -1, SQLITE_PREPARE_PERSISTENT, &w->upd_status, NULL) != SQLITE_OK;
    if (!rc) {
      sqlite3_bind_int64(w->upd_status, 1, c->step0 + c->n);
      rc = sqlite3_step(w->upd_status) != SQLITE_DONE;
      sqlite3_reset(w->upd_status);
    }
  }
  if (rc) {
    if (!w->errmsg[0]) snprintf(w->errmsg, sizeof w->errmsg, "%s", sqlite3_errmsg(db));
    exec(db, "ROLLBACK", w->errmsg + strlen(w->errmsg), 1);
    return -1;
  }
  return exec(db, "COMMIT", w->errmsg, sizeof w->errmsg);
}

static void free_pending(pending* p) {
  while (p) {
    pending* n = p->next;
    free(p->a);
    free(p->b);
    free(p);
    p = n;
  }
}

static void* writer_main(void* arg) {
  take_writer* w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->busy && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (!w->busy && w->quit) break;
    chunk_buf* c = &w->buf[1 - w->fill];
    pending* p = w->pend;
    w->pend = NULL;
    pthread_mutex_unlock(&w->mu);
    int rc = write_chunk(w, c, p);
    free_pending(p);
    pthread_mutex_lock(&w->mu);
    if (rc && !w->error) w->error = 1;
    w->busy = 0;
    pthread_cond_broadcast(&w->cv);
  }
  if (w->cpu_out) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    *w->cpu_out = t.tv_sec + t.tv_nsec * 1e-9;
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

void take_writer_cpu_to(take_writer* w, double* out) {
  pthread_mutex_lock(&w->mu);
  w->cpu_out = out;
  pthread_mutex_unlock(&w->mu);
}

static int insert_columns(sqlite3* db, const char* stream, int n, const char** names, const char** units) {
  sqlite3_stmt* st;
  if (sqlite3_prepare_v2(db, "INSERT INTO columns VALUES(?,?,?,?)", -1, &st, NULL) != SQLITE_OK) return -1;
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    sqlite3_bind_text(st, 1, stream, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_text(st, 3, names ? names[i] : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, units ? units[i] : "", -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc;
}

static const char* POSE_PARTS[7] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
static const char* POSE_UNITS[7] = {"m", "m", "m", "1", "1", "1", "1"};

take_writer* take_writer_open(const char* path, const take_schema* s, const take_source* src, int nsrc,
                              const char* overrides_json, mt_err* e) {
  /* One writer per take (docs/takefile.md, "One writer"). A take is written fresh: at the path
   * when nothing is there (a killed run leaves a readable incomplete take), else under a
   * temporary renamed over the old take by take_writer_close, so the old take stays whole and
   * readable until the new one is complete. The writer holds an flock on the file it writes
   * (readers see it: take_live); a second writer is refused when the path is such a file being
   * written in place, or when another live process has a temporary of the path open. */
  char busy[4400];
  snprintf(busy, sizeof busy, "%s: another mototake run is writing this take; left alone", path);
  int pfd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (pfd >= 0) {
    int held = flock(pfd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(pfd);
    if (held) {
      mt_fail(e, MT_EINPUT, "%s", busy);
      return NULL;
    }
  }
  if (outfile_other_writers(path, 0)) {
    mt_fail(e, MT_EINPUT, "%s", busy);
    return NULL;
  }
  /* the rate table: each rated value's rate an unrated value of the state (take_open refuses others) */
  int nrated = 0;
  for (int i = 0; s->state_rate && i < s->nstate; i++) {
    int j = s->state_rate[i];
    if (j < 0) continue;
    if (j >= s->nstate || j == i || s->state_rate[j] >= 0)
      return mt_fail(e, MT_EINTERNAL, "%s: state value %d: rate %d is not an unrated state value", path, i, j), NULL;
    nrated++;
  }
  outfile of;
  if (outfile_open(&of, path, OUTFILE_INPLACE_IF_ABSENT, e)) return NULL;
  int lock_fd = of.fd;   /* stays open: its flock follows the file when it is published */
  of.fd = -1;
  if (flock(lock_fd, LOCK_EX | LOCK_NB) != 0 || outfile_other_writers(path, (long)getpid())) {
    close(lock_fd);   /* two started together: the lower process id goes on */
    outfile_abort(&of);
    mt_fail(e, MT_EINPUT, "%s", busy);
    return NULL;
  }
  int absent = access(path, F_OK) != 0;
  char jpath[4300];
  snprintf(jpath, sizeof jpath, "%s-journal", of.tmp);
  remove(jpath);   /* a journal beside a file we just created is stale: never let SQLite replay it */
  sqlite3* db = NULL;
  if (sqlite3_open_v2(of.tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    outfile_abort(&of);
    close(lock_fd);
    return NULL;
  }
  /* readers (take info, verify, channels on a take being recorded) hold short read locks:
   * wait for them rather than fail the recording with "database is locked" */
  sqlite3_busy_timeout(db, 10000);
  char err[512] = "";
  char sql[320], stamp[48];
  take_identity(stamp, sizeof stamp);
  /* 8 KiB pages: fewer page writes per chunk than SQLite's 4 KiB default (any page size reads) */
  snprintf(sql, sizeof sql, "PRAGMA page_size=8192; PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL; PRAGMA user_version=%d; %s;",
           TAKE_FORMAT_VERSION, stamp);
  if (exec(db, sql, err, sizeof err) || exec(db, "BEGIN", err, sizeof err) || exec(db, SCHEMA_SQL, err, sizeof err)) {
    mt_fail(e, MT_EINPUT, "%s: cannot create the take: %s", path, err);
    sqlite3_close(db);
    outfile_abort(&of);
    close(lock_fd);
    return NULL;
  }
  int rc = 0;
  sqlite3_stmt* st;
  /* metadata that describes the format and the schema */
  rc |= sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
  char v[8][64];
  snprintf(v[0], 64, "%d", TAKE_FORMAT_VERSION);
  snprintf(v[1], 64, "%.17g", s->timestep);
  snprintf(v[2], 64, "%d", s->nstate);
  snprintf(v[3], 64, "%d", TAKE_CHUNK_STEPS);
  const char* kv[][2] = {{"format", "mototake take"}, {"format_version", v[0]}, {"timestep", v[1]}, {"nstate", v[2]},
                         {"chunk_steps", v[3]}, {"overrides", overrides_json ? overrides_json : "[]"}};
  for (size_t i = 0; i < MT_ARRAY_LEN(kv) && !rc; i++) {
    sqlite3_bind_text(st, 1, kv[i][0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, kv[i][1], -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  if (nrated && !rc) {   /* format 5: "i:j,…", state value i integrates value j (takefile.h) */
    size_t cap = 24 * (size_t)nrated + 1, used = 0;
    char* rates = mt_alloc(cap);
    for (int i = 0; i < s->nstate; i++)
      if (s->state_rate[i] >= 0) used += (size_t)snprintf(rates + used, cap - used, "%s%d:%d", used ? "," : "", i, s->state_rate[i]);
    sqlite3_bind_text(st, 1, "state_rates", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rates, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
    free(rates);
  }
  sqlite3_finalize(st);
  rc |= sqlite3_prepare_v2(db, "INSERT INTO sources(kind, name, text) VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int i = 0; i < nsrc && !rc; i++) {
    sqlite3_bind_text(st, 1, src[i].kind, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, src[i].name ? src[i].name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, src[i].text ? src[i].text : "", -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  /* columns: the state's are numbered, the poses' are body.part */
  char** sn = mt_alloc(sizeof(char*) * (s->nstate + 1));
  for (int i = 0; i < s->nstate; i++) {
    sn[i] = mt_alloc(16);
    snprintf(sn[i], 16, "x%d", i);
  }
  rc |= insert_columns(db, "state", s->nstate, (const char**)sn, NULL);
  for (int i = 0; i < s->nstate; i++) free(sn[i]);
  free(sn);
  rc |= insert_columns(db, "input", s->ninput, s->input_names, s->input_units);
  rc |= insert_columns(db, "chan", s->nchan, s->chan_names, s->chan_units);
  {
    const char *cn[REC_NCTX], *cu[REC_NCTX];
    for (int k = 0; k < REC_NCTX; k++) {
      int j = rec_ctx_channel(k);
      cn[k] = rec_channels()[j].name;
      cu[k] = rec_channels()[j].units;
    }
    rc |= insert_columns(db, "ctx", REC_NCTX, cn, cu);
  }
  int np = 7 * s->nbody;
  char** pn = mt_alloc(sizeof(char*) * (np + 1));
  const char** pu = mt_alloc(sizeof(char*) * (np + 1));
  for (int b = 0; b < s->nbody; b++)
    for (int k = 0; k < 7; k++) {
      pn[7 * b + k] = mt_alloc(128);
      snprintf(pn[7 * b + k], 128, "%s.%s", s->body_names[b], POSE_PARTS[k]);
      pu[7 * b + k] = POSE_UNITS[k];
    }
  rc |= insert_columns(db, "pose", np, (const char**)pn, pu);
  for (int i = 0; i < np; i++) free(pn[i]);
  free(pn);
  free(pu);
  /* body tree, for exporters */
  rc |= sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?,?)", -1, &st, NULL) != SQLITE_OK;
  for (int b = 0; b < s->nbody && !rc; b++) {
    char key[160];
    snprintf(key, sizeof key, "parent.%s", s->body_names[b]);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, s->body_parents[b], -1, SQLITE_STATIC);
    rc = sqlite3_step(st) != SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  rc |= exec(db, "INSERT INTO status VALUES(1, 0, 'recording', 0)", err, sizeof err);
  rc |= exec(db, "COMMIT", err, sizeof err);
  /* With the header committed, a new take moves to its path (nothing there: link(2), never a
   * replace) and is written there on, so a killed run leaves a readable take and never an empty
   * file; the connection is reopened under that name so SQLite's journal follows it. */
  if (!rc && of.mode == OUTFILE_INPLACE_IF_ABSENT) {
    sqlite3_close(db);
    db = NULL;
    if (!outfile_publish(&of) && absent) {   /* another writer took the path meanwhile */
      mt_fail(e, MT_EINPUT, "%s", busy);
      outfile_abort(&of);
      close(lock_fd);
      return NULL;
    }
    /* a journal already at the path of a file we just created there belongs to another file
     * (one removed after a killed run): SQLite must never roll it back into this one */
    if (of.inplace) {
      snprintf(jpath, sizeof jpath, "%s-journal", path);
      remove(jpath);
    }
    if (sqlite3_open_v2(of.tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
        exec(db, "PRAGMA synchronous=NORMAL", err, sizeof err))
      rc = 1;
    else
      sqlite3_busy_timeout(db, 10000);   /* the new connection waits for readers too (see above) */
  }
  if (rc) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot write the take header: %s", path, err[0] ? err : db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    outfile_abort(&of);
    close(lock_fd);
    return NULL;
  }
  /* While recording, commits do not wait for the disk (no fsync): a killed run still leaves every
   * committed second readable (the journal protects against a crash of the process); only an
   * operating-system crash or power loss during the recording can damage the take. The last
   * commit (writer_finish) syncs everything. fdatasync was a sixth of the writer's CPU (issue 18). */
  if (!rc && exec(db, "PRAGMA synchronous=OFF", err, sizeof err)) rc = 1;
  /* The rollback journal stays between the commits, its header zeroed at each (PERSIST), instead
   * of being created and deleted (DELETE) or cut to nothing and grown again (TRUNCATE) every
   * second: its blocks stay allocated and in the page cache (issue 18: the ftruncate and the
   * journal blocks' allocation were 2–4 % of the writer thread's CPU with TRUNCATE). Still a
   * rollback journal: a run killed inside a commit leaves a hot journal that readers roll back,
   * one killed between commits a journal with a zeroed header (not hot) that they remove
   * (take_journal_recover); writer_finish goes back to DELETE for the last commit. */
  if (!rc && exec(db, "PRAGMA journal_mode=PERSIST", err, sizeof err)) rc = 1;
  if (rc) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot write the take header: %s", path, err);
    sqlite3_close(db);
    outfile_abort(&of);
    close(lock_fd);
    return NULL;
  }
  take_writer* w = mt_alloc(sizeof *w);
  w->db = db;
  w->lock_fd = lock_fd;
  w->path = mt_strdup(path);
  w->of = of;
  snprintf(w->stamp, sizeof w->stamp, "%s", stamp);
  w->ncols[TAKE_STATE] = s->nstate;
  w->ncols[TAKE_INPUT] = s->ninput;
  w->ncols[TAKE_POSE] = np;
  w->ncols[TAKE_CHAN] = s->nchan;
  w->ncols[TAKE_CTX] = REC_NCTX;
  w->row_stored[TAKE_STATE] = w->row_stored[TAKE_INPUT] = w->row_stored[TAKE_CTX] = 1;
  w->row_stored[TAKE_CHAN] = s->store_chan != 0;
  w->h = s->timestep;
  if (nrated) {
    w->rate = mt_alloc(sizeof(int) * (size_t)s->nstate);
    memcpy(w->rate, s->state_rate, sizeof(int) * (size_t)s->nstate);
  }
  for (int k = 0; k < 2; k++)
    for (int st2 = 0; st2 < TAKE_NSTREAM; st2++)
      w->buf[k].row[st2] = !w->row_stored[st2] ? NULL : mt_alloc(sizeof(double) * TAKE_CHUNK_STEPS * TAKE_WRITE_BATCH * (w->ncols[st2] ? w->ncols[st2] : 1));
  int widest = 1;
  for (int st2 = 0; st2 < TAKE_NSTREAM; st2++)
    if (w->ncols[st2] > widest) widest = w->ncols[st2];
  enc_init(&w->enc, (size_t)widest * TAKE_CHUNK_STEPS, (size_t)widest);
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  w->handed = mono_now();
  pthread_create(&w->thread, NULL, writer_main, w);
  return w;
}

static void queue(take_writer* w, int kind, const char* a, const char* b, long step) {
  pending* p = mt_alloc(sizeof *p);
  p->kind = kind;
  p->a = mt_strdup(a);
  p->b = mt_strdup(b);
  p->step = step;
  pthread_mutex_lock(&w->mu);
  pending** q = &w->pend;
  while (*q) q = &(*q)->next;
  *q = p;
  pthread_mutex_unlock(&w->mu);
}

int take_writer_meta(take_writer* w, const char* key, const char* value, mt_err* e) {
  (void)e;
  queue(w, 0, key, value, 0);
  return MT_OK;
}

int take_writer_event(take_writer* w, long step, const char* kind, const char* json, mt_err* e) {
  (void)e;
  queue(w, 1, kind, json, step);
  return MT_OK;
}

/* Hand the filled buffer to the thread (waiting for the previous one to be written). */
static int hand_over(take_writer* w, mt_err* e) {
  pthread_mutex_lock(&w->mu);
  while (w->busy) pthread_cond_wait(&w->cv, &w->mu);
  int err = w->error;
  if (!err) {
    w->fill = 1 - w->fill;
    w->busy = 1;
    pthread_cond_broadcast(&w->cv);
  }
  pthread_mutex_unlock(&w->mu);
  if (err) return mt_fail(e, MT_EINTERNAL, "%s: writing the take failed: %s", w->path, w->errmsg);
  chunk_buf* c = &w->buf[w->fill];
  c->step0 = w->nsteps;
  c->n = 0;
  w->handed = mono_now();
  return MT_OK;
}

int take_writer_step(take_writer* w, const double* state, const double* input, const double* ctx, const double* chans,
                     mt_err* e) {
  chunk_buf* c = &w->buf[w->fill];
  const double* src[TAKE_NSTREAM] = {state, input, NULL, chans, ctx};
  if (w->row_stored[TAKE_CHAN] && !chans) return mt_fail(e, MT_EINTERNAL, "take_writer_step: channels to store, none given");
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    if (!w->row_stored[s]) continue;   /* poses (format 3), channels (format 4): rebuilt by readers */
    if (w->ncols[s]) memcpy(c->row[s] + (size_t)c->n * w->ncols[s], src[s], sizeof(double) * w->ncols[s]);
  }
  c->n++;
  w->nsteps++;
  /* at a chunk's end: hand over after TAKE_WRITE_BATCH chunks, or sooner when a second of the
   * run's time has passed since the last hand-over (a ride in real time hands over every chunk) */
  if (c->n % TAKE_CHUNK_STEPS == 0 && (c->n == (long)TAKE_CHUNK_STEPS * TAKE_WRITE_BATCH || mono_now() - w->handed >= 1.0))
    return hand_over(w, e);
  return MT_OK;
}

static int writer_finish(take_writer* w, int complete, const char* reason, int keep, mt_err* e);
static int take_journal_recover(const char* path, mt_err* e);

/* Before a new take is renamed over an old one (issue 29): the old take's `-journal` would be
 * the new take's after the rename, and a reader would roll it back into a file it does not
 * belong to. So it goes first: rolled back into the old take when it is provably that take's
 * own (a kill before the rename then leaves the old take whole), and removed in any case. */
static void settle_old_journal(const char* path) {
  char j[4300];
  snprintf(j, sizeof j, "%s-journal", path);
  if (access(j, F_OK) != 0) return;
  mt_err ignored = {0};
  take_journal_recover(path, &ignored);   /* the old take's own: applied to it; foreign: refused */
  remove(j);
}

int take_writer_close(take_writer* w, int complete, const char* reason, mt_err* e) {
  return writer_finish(w, complete, reason, 1, e);
}

void take_writer_discard(take_writer* w) {
  mt_err e = {0};
  writer_finish(w, 0, "discarded", 0, &e);
}

int take_writer_in_place(const take_writer* w) { return w->of.inplace; }

static int writer_finish(take_writer* w, int complete, const char* reason, int keep, mt_err* e) {
  int rc = MT_OK;
  if (w->buf[w->fill].n > 0 || w->pend) rc = hand_over(w, e);
  pthread_mutex_lock(&w->mu);
  while (w->busy) pthread_cond_wait(&w->cv, &w->mu);
  w->quit = 1;
  pthread_cond_broadcast(&w->cv);
  int err = w->error;
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  if (err && rc == MT_OK) rc = mt_fail(e, MT_EINTERNAL, "%s: writing the take failed: %s", w->path, w->errmsg);
  sqlite3_finalize(w->ins_chunk);   /* the thread is joined: its statements are ours */
  sqlite3_finalize(w->upd_status);
  w->ins_chunk = w->upd_status = NULL;
  sqlite3_exec(w->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);   /* the end status commits to the disk */
  sqlite3_exec(w->db, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL);   /* deletes the kept journal: none stays beside the take */
  sqlite3_stmt* st;
  sqlite3_exec(w->db, "BEGIN", NULL, NULL, NULL);
  sqlite3_exec(w->db, w->stamp, NULL, NULL, NULL);   /* page 1 journaled first (take_identity) */
  if (sqlite3_prepare_v2(w->db, "UPDATE status SET complete = ?, reason = ?, nsteps = ? WHERE id = 1", -1, &st, NULL) ==
      SQLITE_OK) {
    sqlite3_bind_int(st, 1, complete && rc == MT_OK);
    sqlite3_bind_text(st, 2, reason ? reason : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, w->nsteps);
    if (sqlite3_step(st) != SQLITE_DONE && rc == MT_OK)
      rc = mt_fail(e, MT_EINTERNAL, "%s: cannot record the end: %s", w->path, sqlite3_errmsg(w->db));
    sqlite3_finalize(st);
  }
  if (sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK && rc == MT_OK)
    rc = mt_fail(e, MT_EINTERNAL, "%s: cannot record the end: %s", w->path, sqlite3_errmsg(w->db));
  if (sqlite3_close(w->db) != SQLITE_OK && rc == MT_OK) rc = mt_fail(e, MT_EINTERNAL, "%s: cannot close the take", w->path);
  if (keep && rc == MT_OK && !w->of.inplace) settle_old_journal(w->path);
  if (keep && rc == MT_OK) rc = outfile_commit(&w->of, e);   /* replaces an old take only now */
  else outfile_abort(&w->of);
  close(w->lock_fd);   /* after SQLite's close and the rename: it held the writer's flock */
  for (int k = 0; k < 2; k++)
    for (int s = 0; s < TAKE_NSTREAM; s++) free(w->buf[k].row[s]);
  free_pending(w->pend);
  enc_free(&w->enc);
  free(w->rate);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->cv);
  free(w->path);
  free(w);
  return rc;
}

/*---- reader ----
 * A take is untrusted input (docs/takefile.md, "Reading an untrusted take"). take_open opens it
 * with SQLite's defensive settings (no views, no triggers, untrusted schema, a length limit, a
 * budget of virtual-machine operations per statement, a heap limit), checks the schema against
 * the one this file writes, and cross-checks every count before anything is allocated from it:
 * the metadata, the columns of each stream (numbered 0…n−1, poses in groups of seven), the chunk
 * index of every stream (chunk k starts at step 1000·k, every chunk but the last is full, each
 * has the stream's column count, a known codec and the matching raw size), the step count of
 * every stream and the status row. Whatever passes, take_read can rely on. */

#define TAKE_MAX_COLS 4096          /* per stream; sport1000 has 84 channels and 84 pose columns */
#define TAKE_MAX_ROWS 1000000       /* meta, sources, events */
#define TAKE_MAX_TEXT (64 << 20)    /* any one value: the largest legitimate ones are source texts */
#define TAKE_OPS_PER_TICK 1000      /* progress handler period, in SQLite VM operations */
#define TAKE_MAX_TICKS 200000       /* 2e8 operations per statement: about a second of work */
#define TAKE_HEAP_LIMIT (512LL << 20)

#define TAKE_BUSY_MS 10000

/* Defensive settings for a connection to an untrusted take: no views, no triggers, no
 * extensions, schema functions untrusted, writes to the schema refused, values of at most
 * TAKE_MAX_TEXT bytes, and a busy timeout so that a reader and a writer wait for each other's
 * (short) transactions instead of failing with "database is locked". */
static void take_harden(sqlite3* db) {
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int*)NULL);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int*)NULL);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, TAKE_MAX_TEXT);
  sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 64);
  sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 8);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_busy_timeout(db, TAKE_BUSY_MS);
}

/* A `-journal` next to the take. One that is not provably the take's own (takejournal.h: a
 * journal left beside a file that was replaced since) is refused with one line and left alone.
 * The take's own hot one (left by a run killed inside a transaction) is
 * rolled back by SQLite itself when a read-write connection first reads the file; one that is
 * still there after that is not hot (SQLite decided so: its header is zeroed or it is empty,
 * e.g. a run killed while starting a transaction) and is removed — but only while we hold an
 * exclusive lock, so never from under a live writer. Best effort: without write access the
 * journal stays and the reader opens read-only. */
static int take_journal_recover(const char* path, mt_err* e) {
  char j[4200], why[200];
  snprintf(j, sizeof j, "%s-journal", path);
  int whose = take_journal_judge(path, j, why, sizeof why);
  if (whose == TJ_NONE) return MT_OK;
  if (whose == TJ_FOREIGN)   /* never applied, never removed: it may be someone's only copy */
    return mt_fail(e, MT_EINPUT, "%s: %s is not this take's journal (%s); not applied, left in place: move it away to read the take",
                   path, j, why);
  sqlite3* db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(db);
    return MT_OK;
  }
  take_harden(db);
  sqlite3_busy_timeout(db, 0);   /* someone holds a lock: a live writer, leave its journal alone */
  if (sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK) {
    if (access(j, F_OK) == 0 && remove(j) != 0) {
      sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
      sqlite3_close(db);
      return mt_fail(e, MT_EINPUT, "%s: cannot remove the stale %s", path, j);
    }
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  sqlite3_close(db);
  return MT_OK;
}

struct take_reader {
  sqlite3* db;
  char* path;
  take_schema schema;
  char** names[TAKE_NSTREAM];
  char** units[TAKE_NSTREAM];
  int ncols[TAKE_NSTREAM];
  char** parents;
  long nsteps;
  long nchunks;                     /* of every stream (all hold the same steps) */
  int complete;
  char* reason;
  char** mkey;
  char** mval;
  int nmeta;
  char **skind, **sname, **stext;
  int nsrc;
  take_event* ev;
  int nev;
  long ticks;                       /* progress handler calls in the current statement */
  int live;                         /* a run was recording it when opened */
  /* one decoded chunk per stream, for sequential reads */
  long cached_chunk[TAKE_NSTREAM];
  long cached_step0[TAKE_NSTREAM], cached_n[TAKE_NSTREAM];
  double* cache[TAKE_NSTREAM];
  long version;                     /* format_version */
  takepose* tp;                     /* format 3: poses rebuilt from the state (built on first read) */
  double* tp_state;                 /* one state row for it */
  int chan_stored;                  /* channel chunks in the file (formats 1-3; format 4 on request) */
  int ctx_from_chan[REC_NCTX];      /* formats 1-3: each context value's stored channel, -1 none */
  takechan* tc;                     /* format 4: channels rebuilt (built on first read) */
  double* tc_row;                   /* state, input and context rows for it */
  int* rate;                        /* format 5: meta state_rates, −1 for a value without (NULL: none) */
  char** sets;                      /* meta overrides, parsed: nset "key=value" strings */
  int nset;
};

static char* col_text(sqlite3_stmt* st, int i) {
  const unsigned char* t = sqlite3_column_text(st, i);
  return mt_strdup(t ? (const char*)t : "");
}

void take_close(take_reader* r) {
  if (!r) return;
  sqlite3_close(r->db);
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    for (int i = 0; i < r->ncols[s]; i++) {
      free(r->names[s][i]);
      free(r->units[s][i]);
    }
    free(r->names[s]);
    free(r->units[s]);
    free(r->cache[s]);
  }
  takepose_free(r->tp);
  free(r->tp_state);
  takechan_free(r->tc);
  free(r->tc_row);
  for (int i = 0; i < r->schema.nbody; i++) {
    if (r->parents) free(r->parents[i]);
    if (r->schema.body_names) free((void*)r->schema.body_names[i]);
  }
  free(r->parents);
  free((void*)r->schema.body_names);
  for (int i = 0; i < r->nmeta; i++) {
    free(r->mkey[i]);
    free(r->mval[i]);
  }
  free(r->mkey);
  free(r->mval);
  for (int i = 0; i < r->nsrc; i++) {
    free(r->skind[i]);
    free(r->sname[i]);
    free(r->stext[i]);
  }
  free(r->skind);
  free(r->sname);
  free(r->stext);
  for (int i = 0; i < r->nev; i++) free(r->ev[i].json);
  free(r->ev);
  free(r->reason);
  free(r->rate);
  for (int i = 0; i < r->nset; i++) free(r->sets[i]);
  free(r->sets);
  free(r->path);
  free(r);
}

static int progress(void* arg) {
  take_reader* r = arg;
  return ++r->ticks > TAKE_MAX_TICKS;   /* non-zero interrupts the statement */
}

/* Prepare a statement with a fresh operation budget; errors name the take. */
static int q_prepare(take_reader* r, const char* sql, sqlite3_stmt** st, mt_err* e) {
  r->ticks = 0;
  if (sqlite3_prepare_v2(r->db, sql, -1, st, NULL) != SQLITE_OK) {
    *st = NULL;
    return mt_fail(e, MT_EINPUT, "%s: not a take (%s)", r->path, sqlite3_errmsg(r->db));
  }
  return MT_OK;
}

/* After a loop over sqlite3_step: rc is its last result. */
static int q_done(take_reader* r, int rc, const char* what, mt_err* e) {
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return MT_OK;
  if (rc == SQLITE_INTERRUPT)
    return mt_fail(e, MT_EINPUT, "%s: reading %s took more than %d million SQLite operations: refused", r->path, what,
                   TAKE_MAX_TICKS * TAKE_OPS_PER_TICK / 1000000);
  if (rc == SQLITE_BUSY) return mt_fail(e, MT_EINPUT, "%s: reading %s: the take is locked by another program", r->path, what);
  return mt_fail(e, MT_EINPUT, "%s: reading %s: %s", r->path, what, sqlite3_errmsg(r->db));
}

/* A whole-string decimal integer within [lo, hi]. */
static int parse_long(const char* t, long lo, long hi, long* out) {
  if (!t || !*t) return -1;
  char* end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (*end || errno || v < lo || v > hi || !(*t >= '0' && *t <= '9') || (t[0] == '0' && t[1])) return -1;
  *out = v;
  return 0;
}

/* The schema: exactly the tables SCHEMA_SQL creates, with the same text, and their automatic
 * indexes; no views, no triggers, no other tables (ANALYZE's sqlite_stat tables aside). */
static int check_schema(take_reader* r, mt_err* e) {
  static const char* const TABLES[] = {"meta", "sources", "columns", "chunks", "events", "status"};
  enum { NT = 6 };
  int seen[NT] = {0};
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT type, name, tbl_name, sql FROM sqlite_schema", &st, e)) return MT_EINPUT;
  int rc, bad = 0;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char* type = (const char*)sqlite3_column_text(st, 0);
    const char* name = (const char*)sqlite3_column_text(st, 1);
    const char* tbl = (const char*)sqlite3_column_text(st, 2);
    const char* sql = (const char*)sqlite3_column_text(st, 3);
    if (!type || !name || !tbl) {
      bad = mt_fail(e, MT_EINPUT, "%s: not a take: damaged schema", r->path);
      break;
    }
    int k = -1;
    for (int i = 0; i < NT; i++)
      if (strcmp(tbl, TABLES[i]) == 0) k = i;
    if (!strcmp(type, "table") && k >= 0 && !strcmp(name, tbl)) {
      /* the statement as written by take_writer_open */
      char want[1024];
      const char* p = strstr(SCHEMA_SQL, "CREATE TABLE ");
      want[0] = 0;
      while (p) {
        const char* q = strchr(p, ';');
        size_t n = (size_t)(q - p);
        size_t tl = strlen(tbl);
        if (!strncmp(p + 13, tbl, tl) && p[13 + tl] == '(' && n < sizeof want) {
          memcpy(want, p, n);
          want[n] = 0;
          break;
        }
        p = strstr(q, "CREATE TABLE ");
      }
      if (!sql || strcmp(sql, want) != 0)
        bad = mt_fail(e, MT_EINPUT, "%s: not a take: table '%s' differs from the documented schema", r->path, tbl);
      else
        seen[k]++;
    } else if (!strcmp(type, "index") && k >= 0 && !sql && !strncmp(name, "sqlite_autoindex_", 17)) {
      /* the primary keys of meta, columns and chunks */
    } else if (!strcmp(type, "table") && !strncmp(name, "sqlite_stat", 11)) {
    } else {
      bad = mt_fail(e, MT_EINPUT, "%s: not a take: unexpected %s '%s' in the schema", r->path, type, name);
    }
  }
  if (!bad) bad = q_done(r, rc, "the schema", e);
  sqlite3_finalize(st);
  if (bad) return MT_EINPUT;
  for (int i = 0; i < NT; i++)
    if (seen[i] != 1) return mt_fail(e, MT_EINPUT, "%s: not a take: no table '%s'", r->path, TABLES[i]);
  return MT_OK;
}

/* The codecs a stream's chunks may have: 0, the stream's of format 1 or of formats 2 on, and for
 * the state of a take with state_rates (format 5) codec 6. */
static int codec_ok(const take_reader* r, int s, long codec) {
  return codec == 0 || codec == STREAM_CODEC[s] || codec == FORMAT1_CODEC[s] || (codec == 6 && s == TAKE_STATE && r->rate);
}

/* The chunk index of every stream, without the data: contiguous, consistent, all streams alike. */
static int check_chunks(take_reader* r, mt_err* e) {
  long total[TAKE_NSTREAM] = {0}, count[TAKE_NSTREAM] = {0};
  int last_full[TAKE_NSTREAM];
  for (int s = 0; s < TAKE_NSTREAM; s++) last_full[s] = 1;
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT stream, chunk, step0, nsteps, ncols, codec, raw_bytes, typeof(data), length(data) FROM chunks "
                   "ORDER BY stream, chunk", &st, e))
    return MT_EINPUT;
  int rc, bad = 0;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char* sn = (const char*)sqlite3_column_text(st, 0);
    int s = -1;
    for (int k = 0; k < TAKE_NSTREAM && sn; k++)
      if (!strcmp(sn, STREAM_NAME[k])) s = k;
    if (s < 0) {
      bad = mt_fail(e, MT_EINPUT, "%s: chunks: unknown stream '%.40s'", r->path, sn ? sn : "");
      break;
    }
    if (s == TAKE_POSE && r->version >= 3) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream 'pose': a take of format %ld stores no pose chunks (they are rebuilt from the state)",
                    r->path, r->version);
      break;
    }
    if (s == TAKE_CTX && r->version < 4) {
      bad = mt_fail(e, MT_EINPUT, "%s: stream 'ctx': a take of format %ld has no context stream (its channels hold it)", r->path,
                    r->version);
      break;
    }
    for (int c = 1; c <= 6; c++)
      if (sqlite3_column_type(st, c) != SQLITE_INTEGER) {
        bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: %s is not an integer", r->path, sn, count[s],
                      sqlite3_column_name(st, c));
        break;
      }
    if (bad) break;
    long chunk = sqlite3_column_int64(st, 1), step0 = sqlite3_column_int64(st, 2), n = sqlite3_column_int64(st, 3);
    long nc = sqlite3_column_int64(st, 4), codec = sqlite3_column_int64(st, 5), raw = sqlite3_column_int64(st, 6);
    const char* ty = (const char*)sqlite3_column_text(st, 7);
    if (chunk != count[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is missing (the next is %ld)", r->path, sn, count[s], chunk);
    else if (!last_full[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld follows a short chunk", r->path, sn, chunk);
    else if (step0 != chunk * TAKE_CHUNK_STEPS)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld starts at step %ld, not %ld", r->path, sn, chunk, step0,
                    chunk * TAKE_CHUNK_STEPS);
    else if (n < 1 || n > TAKE_CHUNK_STEPS)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has %ld steps (1..%d)", r->path, sn, chunk, n, TAKE_CHUNK_STEPS);
    else if (nc != r->ncols[s])
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has %ld columns, the schema says %d", r->path, sn, chunk, nc,
                    r->ncols[s]);
    else if (!codec_ok(r, s, codec))
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld has codec %ld (this stream uses 0, %d or %d%s)", r->path, sn,
                    chunk, codec, FORMAT1_CODEC[s], STREAM_CODEC[s], s == TAKE_STATE && r->rate ? ", or 6 with its state_rates" : "");
    else if (raw != (long)codec_width((int)codec) * nc * n)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: raw_bytes %ld, its header means %ld", r->path, sn, chunk, raw,
                    (long)codec_width((int)codec) * nc * n);
    else if (!ty || strcmp(ty, "blob") != 0)
      bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: data is not a blob", r->path, sn, chunk);
    if (bad) break;
    last_full[s] = n == TAKE_CHUNK_STEPS;
    total[s] += n;
    count[s]++;
  }
  if (!bad) bad = q_done(r, rc, "the chunk index", e);
  sqlite3_finalize(st);
  if (bad) return MT_EINPUT;
  if (r->version >= 3) total[TAKE_POSE] = total[TAKE_STATE];   /* a function of the state stream */
  if (r->version < 4) total[TAKE_CTX] = total[TAKE_STATE];     /* in the stored channels */
  r->chan_stored = r->version < 4 || count[TAKE_CHAN] > 0;
  if (!r->chan_stored) total[TAKE_CHAN] = total[TAKE_STATE];   /* rebuilt from state, inputs and context */
  for (int s = 1; s < TAKE_NSTREAM; s++)
    if (total[s] != total[0])
      return mt_fail(e, MT_EINPUT, "%s: stream '%s' holds %ld steps, stream 'state' %ld", r->path, STREAM_NAME[s], total[s],
                     total[0]);
  r->nsteps = total[0];
  r->nchunks = count[0];
  return MT_OK;
}

/* Format 5's meta state_rates, "i:j,i:j,…" (decimal, no spaces): state value i is stored as its
 * residual from x_i + timestep·x_j (codec 6). Each i once, i ≠ j, both state values, and no j
 * rated itself (every rate is a stored value, so one pass undoes the chunk). Absent: none. */
static int parse_rates(take_reader* r, mt_err* e) {
  const char* v = take_meta(r, "state_rates");
  if (!v) return MT_OK;
  int n = r->ncols[TAKE_STATE];
  if (r->version < 5)
    return mt_fail(e, MT_EINPUT, "%s: meta state_rates: a take of format %ld has none", r->path, r->version);
  r->rate = mt_alloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) r->rate[i] = -1;
  const char* p = v;
  for (;;) {
    long ij[2];
    for (int k = 0; k < 2; k++) {
      const char* q = p;
      long x = 0;
      while (*q >= '0' && *q <= '9' && q - p < 6) x = 10 * x + (*q++ - '0');
      if (q == p || (*q >= '0' && *q <= '9') || x >= n || (k == 0 && *q != ':'))
        return mt_fail(e, MT_EINPUT, "%s: meta state_rates: '%.40s' at character %ld is not i:j with i and j below %d (the state's values)",
                       r->path, v, (long)(p - v) + 1, n);
      ij[k] = x;
      p = k == 0 ? q + 1 : q;
    }
    if (ij[0] == ij[1] || r->rate[ij[0]] >= 0)
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: value %ld is given %s", r->path, ij[0],
                     ij[0] == ij[1] ? "itself as its rate" : "two rates");
    r->rate[ij[0]] = (int)ij[1];
    if (*p == 0) break;
    if (*p++ != ',')
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: '%.40s' at character %ld: expected ',' between pairs", r->path, v,
                     (long)(p - v));
  }
  for (int i = 0; i < n; i++)
    if (r->rate[i] >= 0 && r->rate[r->rate[i]] >= 0)
      return mt_fail(e, MT_EINPUT, "%s: meta state_rates: value %d's rate, value %d, has a rate itself", r->path, i, r->rate[i]);
  r->schema.state_rate = r->rate;
  return MT_OK;
}

/* meta timestep: a number a rig may have as its step (sim/rig.h RIG_TIMESTEP_MIN..MAX), since a
 * take is replayed, its poses and channels rebuilt and its rated state values decoded with exactly
 * this step; anything else (1e-300 was read by every command but verify, and overflowed the
 * chase view's sample index, render/chase.c build_samples) is refused here. That it is the take's own rig's step is checked once the sources are
 * read (check_rig_step). */
static int parse_timestep(take_reader* r, mt_err* e) {
  const char* ts = take_meta(r, "timestep");
  char* end = NULL;
  double dt = ts ? strtod(ts, &end) : NAN;
  if (!ts || end == ts || *end || !isfinite(dt) || !(dt >= RIG_TIMESTEP_MIN && dt <= RIG_TIMESTEP_MAX))
    return mt_fail(e, MT_EINPUT, "%s: meta timestep '%.40s' is not a time step a rig can have (%g to %g s)", r->path,
                   ts ? ts : "(absent)", RIG_TIMESTEP_MIN, RIG_TIMESTEP_MAX);
  r->schema.timestep = dt;
  return MT_OK;
}

/* meta overrides: the rig's --set overrides as the run applied them, a JSON list of "key=value"
 * strings (absent: none, as "[]"). Parsed here once, by jansson, for every reader that rebuilds
 * the machine (replay_rig); a value that is not such a list is refused, never read as no
 * overrides. */
static int parse_overrides(take_reader* r, mt_err* e) {
  const char* v = take_meta(r, "overrides");
  if (!v) return MT_OK;
  json_error_t je;
  json_t* a = json_loads(v, JSON_REJECT_DUPLICATES, &je);
  size_t n = json_is_array(a) ? json_array_size(a) : 0;
  int bad = !json_is_array(a);
  for (size_t i = 0; i < n && !bad; i++) {
    const char* kv = json_string_value(json_array_get(a, i));
    bad = !kv || !strchr(kv, '=') || kv[0] == '=' || strlen(kv) != json_string_length(json_array_get(a, i));
  }
  if (bad) {
    json_decref(a);
    return mt_fail(e, MT_EINPUT, "%s: meta overrides '%.60s' is not a JSON list of \"key=value\" strings", r->path, v);
  }
  r->sets = mt_alloc(sizeof(char*) * (n + 1));
  for (size_t i = 0; i < n; i++) r->sets[r->nset++] = mt_strdup(json_string_value(json_array_get(a, i)));
  json_decref(a);
  return MT_OK;
}

/* The take's machine, rebuilt from its embedded rig and modules with its overrides, must load and
 * step with exactly meta timestep: the run wrote its rig's step there (%.17g, which reads back
 * exactly), and every reader replays the take with the take's step, its rebuilt machine with the
 * rig's. A take whose two differ (0.002 in a take recorded at 0.001: every time read doubled)
 * cannot be replayed as recorded by any command, so every command refuses it, here. */
static int check_rig_step(take_reader* r, mt_err* e) {
  mt_err re = {0};
  rig* rg = replay_rig(r, 1, &re);
  if (!rg) return mt_fail(e, MT_EINPUT, "%s: sources: the embedded rig does not load: %s", r->path, re.msg);
  double h = rg->timestep;
  rig_free(rg);
  if (h != r->schema.timestep)
    return mt_fail(e, MT_EINPUT, "%s: meta timestep '%.40s' is not the take's rig's step (%.17g s, from its embedded sources and overrides)",
                   r->path, take_meta(r, "timestep"), h);
  return MT_OK;
}

static take_reader* open_fail(take_reader* r) {
  take_close(r);
  return NULL;
}

take_reader* take_open(const char* path, mt_err* e) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, MT_EINPUT, "%s: cannot open", path);
    return NULL;
  }
  outfile_note_input(path);   /* an input is never an output (sim/outfile.h) */
  char magic[16] = {0};
  size_t got = fread(magic, 1, 16, f);
  fclose(f);
  if (got < 16 || memcmp(magic, "SQLite format 3", 16) != 0) {
    mt_fail(e, MT_EINPUT, "%s: not a take (not an SQLite database)", path);
    return NULL;
  }
  /* SQLite's own allocations, process-wide: a hostile file must not exhaust the machine */
  if (sqlite3_hard_heap_limit64(-1) == 0) sqlite3_hard_heap_limit64(TAKE_HEAP_LIMIT);
  take_reader* r = mt_alloc(sizeof *r);
  r->path = mt_strdup(path);
  for (int s = 0; s < TAKE_NSTREAM; s++) r->cached_chunk[s] = -1;
  /* a run still recording it holds an flock (take_writer_open); probe before SQLite has a lock
   * of ours on the file: closing a descriptor drops the process's fcntl locks on it */
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) r->live = 1;
    close(fd);
  }
  /* Read-write when allowed: a take left by a killed run has a hot journal, which SQLite must
   * roll back before anyone can read it — when it is provably the take's own (takejournal.h).
   * We never write to it. A take being recorded is not judged: its writer's journal is in flux,
   * and SQLite never treats it as hot while the writer holds its lock. */
  if (!r->live && take_journal_recover(path, e)) return open_fail(r);
  if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    sqlite3_close(r->db);
    r->db = NULL;
    if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
      mt_fail(e, MT_EINPUT, "%s: cannot open the take: %s", path, r->db ? sqlite3_errmsg(r->db) : "out of memory");
      return open_fail(r);
    }
  }
  take_harden(r->db);
  sqlite3_progress_handler(r->db, TAKE_OPS_PER_TICK, progress, r);
  if (check_schema(r, e)) return open_fail(r);
  sqlite3_stmt* st;
  int rc;
  /* metadata */
  if (q_prepare(r, "SELECT key, value FROM meta", &st, e)) return open_fail(r);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nmeta < TAKE_MAX_ROWS) {
    r->mkey = mt_realloc(r->mkey, sizeof(char*) * (r->nmeta + 1));
    r->mval = mt_realloc(r->mval, sizeof(char*) * (r->nmeta + 1));
    r->mkey[r->nmeta] = col_text(st, 0);
    r->mval[r->nmeta] = col_text(st, 1);
    r->nmeta++;
  }
  sqlite3_finalize(st);
  if (r->nmeta >= TAKE_MAX_ROWS) {
    mt_fail(e, MT_EINPUT, "%s: meta: more than %d rows", path, TAKE_MAX_ROWS);
    return open_fail(r);
  }
  if (q_done(r, rc, "the metadata", e)) return open_fail(r);
  const char* fmt = take_meta(r, "format");
  const char* ver = take_meta(r, "format_version");
  if (!fmt || strcmp(fmt, "mototake take") != 0 || !ver) {
    mt_fail(e, MT_EINPUT, "%s: not a take (an SQLite database without mototake's metadata)", path);
    return open_fail(r);
  }
  long version, lv;
  if (parse_long(ver, 1, 1000000, &version)) {
    mt_fail(e, MT_EINPUT, "%s: meta format_version '%.40s' is not a format version (a small positive integer)", path, ver);
    return open_fail(r);
  }
  if (version > TAKE_FORMAT_VERSION) {
    mt_fail(e, MT_EINPUT, "%s: written by a newer mototake (format %ld); this one reads format %d", path, version,
            TAKE_FORMAT_VERSION);
    return open_fail(r);
  }
  if (q_prepare(r, "PRAGMA user_version", &st, e)) return open_fail(r);
  rc = sqlite3_step(st);
  long uv = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  if (uv != version) {
    mt_fail(e, MT_EINPUT, "%s: PRAGMA user_version %ld disagrees with meta format_version %ld", path, uv, version);
    return open_fail(r);
  }
  r->version = version;
  if (parse_timestep(r, e) || parse_overrides(r, e)) return open_fail(r);
  if (parse_long(take_meta(r, "chunk_steps"), TAKE_CHUNK_STEPS, TAKE_CHUNK_STEPS, &lv)) {
    mt_fail(e, MT_EINPUT, "%s: meta chunk_steps '%.40s' is not %d", path,
            take_meta(r, "chunk_steps") ? take_meta(r, "chunk_steps") : "(absent)", TAKE_CHUNK_STEPS);
    return open_fail(r);
  }
  /* columns: numbered 0…n−1 in every stream */
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    if (q_prepare(r, "SELECT idx, name, units, typeof(idx) FROM columns WHERE stream = ? ORDER BY idx", &st, e))
      return open_fail(r);
    sqlite3_bind_text(st, 1, STREAM_NAME[s], -1, SQLITE_STATIC);
    int bad = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      int n = r->ncols[s];
      const char* ty = (const char*)sqlite3_column_text(st, 3);
      if (!ty || strcmp(ty, "integer") || sqlite3_column_int64(st, 0) != n) {
        bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': column %d is numbered '%.20s'", path, STREAM_NAME[s], n,
                      sqlite3_column_text(st, 0) ? (const char*)sqlite3_column_text(st, 0) : "NULL");
        break;
      }
      if (n >= TAKE_MAX_COLS) {
        bad = mt_fail(e, MT_EINPUT, "%s: stream '%s': more than %d columns", path, STREAM_NAME[s], TAKE_MAX_COLS);
        break;
      }
      r->names[s] = mt_realloc(r->names[s], sizeof(char*) * (n + 1));
      r->units[s] = mt_realloc(r->units[s], sizeof(char*) * (n + 1));
      r->names[s][n] = col_text(st, 1);
      r->units[s][n] = col_text(st, 2);
      r->ncols[s]++;
    }
    sqlite3_finalize(st);
    if (bad || q_done(r, rc, "the columns", e)) return open_fail(r);
  }
  if (parse_long(take_meta(r, "nstate"), 0, TAKE_MAX_COLS, &lv) || lv != r->ncols[TAKE_STATE]) {
    mt_fail(e, MT_EINPUT, "%s: meta nstate '%.40s' disagrees with the %d state columns", path,
            take_meta(r, "nstate") ? take_meta(r, "nstate") : "(absent)", r->ncols[TAKE_STATE]);
    return open_fail(r);
  }
  if (parse_rates(r, e)) return open_fail(r);
  if (r->ncols[TAKE_POSE] % 7) {
    mt_fail(e, MT_EINPUT, "%s: stream 'pose': %d columns, not seven per body", path, r->ncols[TAKE_POSE]);
    return open_fail(r);
  }
  /* the context stream: from format 4 exactly the recorder's context channels, in order; before
   * it none (take_read takes them from the stored channels, by name) */
  if (r->version < 4 && r->ncols[TAKE_CTX]) {
    mt_fail(e, MT_EINPUT, "%s: stream 'ctx': a take of format %ld has no context stream (its channels hold it)", path, r->version);
    return open_fail(r);
  }
  if (r->version >= 4 && r->ncols[TAKE_CTX] != REC_NCTX) {
    mt_fail(e, MT_EINPUT, "%s: stream 'ctx': %d columns, the context has %d", path, r->ncols[TAKE_CTX], REC_NCTX);
    return open_fail(r);
  }
  for (int k = 0; k < REC_NCTX; k++) {
    const rec_channel* rc0 = &rec_channels()[rec_ctx_channel(k)];
    if (r->version >= 4 && strcmp(r->names[TAKE_CTX][k], rc0->name)) {
      mt_fail(e, MT_EINPUT, "%s: stream 'ctx': column %d is '%.60s', not '%s'", path, k, r->names[TAKE_CTX][k], rc0->name);
      return open_fail(r);
    }
    r->ctx_from_chan[k] = -1;
    for (int j = 0; j < r->ncols[TAKE_CHAN]; j++)
      if (!strcmp(r->names[TAKE_CHAN][j], rc0->name)) r->ctx_from_chan[k] = j;
  }
  if (r->version < 4) {   /* named as format 4 names them, read from the channels */
    r->names[TAKE_CTX] = mt_alloc(sizeof(char*) * REC_NCTX);
    r->units[TAKE_CTX] = mt_alloc(sizeof(char*) * REC_NCTX);
    for (int k = 0; k < REC_NCTX; k++) {
      r->names[TAKE_CTX][k] = mt_strdup(rec_channels()[rec_ctx_channel(k)].name);
      r->units[TAKE_CTX][k] = mt_strdup(rec_channels()[rec_ctx_channel(k)].units);
    }
    r->ncols[TAKE_CTX] = REC_NCTX;
  }
  r->schema.nstate = r->ncols[TAKE_STATE];
  r->schema.ninput = r->ncols[TAKE_INPUT];
  r->schema.input_names = (const char**)r->names[TAKE_INPUT];
  r->schema.input_units = (const char**)r->units[TAKE_INPUT];
  r->schema.nchan = r->ncols[TAKE_CHAN];
  r->schema.chan_names = (const char**)r->names[TAKE_CHAN];
  r->schema.chan_units = (const char**)r->units[TAKE_CHAN];
  r->schema.nbody = r->ncols[TAKE_POSE] / 7;
  r->schema.body_names = mt_alloc(sizeof(char*) * (r->schema.nbody + 1));
  r->parents = mt_alloc(sizeof(char*) * (r->schema.nbody + 1));
  for (int b = 0; b < r->schema.nbody; b++) {
    /* the pose columns of body b are "<body>.x", ".y", ".z", ".qw", ".qx", ".qy", ".qz" */
    const char* nm = r->names[TAKE_POSE][7 * b];
    const char* dot = strrchr(nm, '.');
    size_t n = dot ? (size_t)(dot - nm) : strlen(nm);
    char* bn = mt_alloc(n + 1);
    memcpy(bn, nm, n);
    ((char**)r->schema.body_names)[b] = bn;
    char key[300];
    snprintf(key, sizeof key, "parent.%.250s", bn);
    r->parents[b] = mt_strdup(take_meta(r, key) ? take_meta(r, key) : "");
  }
  for (int b = 0; b < r->schema.nbody; b++)
    for (int k = 0; k < 7; k++) {
      const char* nm = r->names[TAKE_POSE][7 * b + k];
      size_t n = strlen(r->schema.body_names[b]);
      if (n == 0 || n > 250 || strncmp(nm, r->schema.body_names[b], n) || nm[n] != '.' || strcmp(nm + n + 1, POSE_PARTS[k])) {
        mt_fail(e, MT_EINPUT, "%s: stream 'pose': column %d is '%.60s', not '%.60s.%s'", path, 7 * b + k, nm,
                r->schema.body_names[b], POSE_PARTS[k]);
        return open_fail(r);
      }
    }
  r->schema.body_parents = (const char**)r->parents;
  /* the chunk index, then the status row against it */
  if (check_chunks(r, e)) return open_fail(r);
  if (q_prepare(r, "SELECT complete, reason, nsteps, typeof(complete), typeof(nsteps) FROM status WHERE id = 1", &st, e))
    return open_fail(r);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *tc = (const char*)sqlite3_column_text(st, 3), *tn = (const char*)sqlite3_column_text(st, 4);
    long c = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 2);
    r->reason = col_text(st, 1);
    if (!tc || !tn || strcmp(tc, "integer") || strcmp(tn, "integer") || (c != 0 && c != 1) || n < 0) {
      mt_fail(e, MT_EINPUT, "%s: status: complete %.20s, nsteps %.20s: not a status", path,
              sqlite3_column_text(st, 0) ? (const char*)sqlite3_column_text(st, 0) : "NULL",
              sqlite3_column_text(st, 2) ? (const char*)sqlite3_column_text(st, 2) : "NULL");
      sqlite3_finalize(st);
      return open_fail(r);
    }
    r->complete = (int)c;
    /* a complete take holds exactly the steps its status names; a killed run may have
     * committed chunks past its last status update: then the chunks count */
    if (r->complete && n != r->nsteps) {
      mt_fail(e, MT_EINPUT, "%s: status: nsteps %ld, the chunks hold %ld steps", path, n, r->nsteps);
      sqlite3_finalize(st);
      return open_fail(r);
    }
  } else if (rc == SQLITE_DONE) {
    r->reason = mt_strdup("no status");
  } else {
    q_done(r, rc, "the status", e);
    sqlite3_finalize(st);
    return open_fail(r);
  }
  sqlite3_finalize(st);
  /* sources and events */
  if (q_prepare(r, "SELECT kind, name, text FROM sources ORDER BY id", &st, e)) return open_fail(r);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nsrc < TAKE_MAX_ROWS) {
    r->skind = mt_realloc(r->skind, sizeof(char*) * (r->nsrc + 1));
    r->sname = mt_realloc(r->sname, sizeof(char*) * (r->nsrc + 1));
    r->stext = mt_realloc(r->stext, sizeof(char*) * (r->nsrc + 1));
    r->skind[r->nsrc] = col_text(st, 0);
    r->sname[r->nsrc] = col_text(st, 1);
    r->stext[r->nsrc] = col_text(st, 2);
    r->nsrc++;
  }
  sqlite3_finalize(st);
  if (q_done(r, rc, "the sources", e)) return open_fail(r);
  for (int i = 0; i < r->nsrc; i++) {
    const char* k = r->skind[i];
    if (strcmp(k, "script") && strcmp(k, "rig") && strcmp(k, "module") && strcmp(k, "track") && strcmp(k, "ride")) {
      mt_fail(e, MT_EINPUT, "%s: source %d: kind '%.40s' is not script, ride, rig, module or track", path, i + 1, k);
      return open_fail(r);
    }
  }
  if (q_prepare(r, "SELECT step, kind, json, typeof(step) FROM events ORDER BY id", &st, e)) return open_fail(r);
  int bad = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nev < TAKE_MAX_ROWS) {
    r->ev = mt_realloc(r->ev, sizeof(take_event) * (r->nev + 1));
    take_event* ev = &r->ev[r->nev++];
    memset(ev, 0, sizeof *ev);
    ev->step = sqlite3_column_int64(st, 0);
    snprintf(ev->kind, sizeof ev->kind, "%s", sqlite3_column_text(st, 1) ? (const char*)sqlite3_column_text(st, 1) : "");
    ev->json = col_text(st, 2);
    const char* ty = (const char*)sqlite3_column_text(st, 3);
    if (ty && !strcmp(ty, "integer") && ev->step > r->nsteps && !r->complete) {
      /* a killed run commits an event before the chunk that holds its step: an incomplete take
       * keeps only the events of the steps it holds */
      free(ev->json);
      r->nev--;
      continue;
    }
    if (!ty || strcmp(ty, "integer") || ev->step < 0 || ev->step > r->nsteps) {
      bad = mt_fail(e, MT_EINPUT, "%s: event %d: step %ld is outside the take (0..%ld)", path, r->nev, ev->step, r->nsteps);
      break;
    }
  }
  sqlite3_finalize(st);
  if (bad || q_done(r, rc, "the events", e)) return open_fail(r);
  if (check_rig_step(r, e)) return open_fail(r);   /* last: it needs the sources */
  return r;
}

const take_schema* take_schema_of(const take_reader* r) { return &r->schema; }
long take_nsteps(const take_reader* r) { return r->nsteps; }
int take_complete(const take_reader* r, const char** reason) {
  if (reason) *reason = r->reason;
  return r->complete;
}
const char* take_meta(const take_reader* r, const char* key) {
  for (int i = 0; i < r->nmeta; i++)
    if (strcmp(r->mkey[i], key) == 0) return r->mval[i];
  return NULL;
}
int take_nsources(const take_reader* r) { return r->nsrc; }
void take_source_at(const take_reader* r, int i, const char** kind, const char** name, const char** text) {
  *kind = r->skind[i];
  *name = r->sname[i];
  *text = r->stext[i];
}
const char* take_overrides(const take_reader* r) { return take_meta(r, "overrides"); }
int take_override_sets(const take_reader* r, const char* const** sets) {
  *sets = (const char* const*)r->sets;
  return r->nset;
}
int take_nevents(const take_reader* r) { return r->nev; }
const take_event* take_event_at(const take_reader* r, int i) { return &r->ev[i]; }
int take_ncols(const take_reader* r, int stream) { return r->ncols[stream]; }
int take_stored(const take_reader* r, int s) {
  if (s == TAKE_POSE) return r->version < 3;
  if (s == TAKE_CHAN) return r->chan_stored;
  if (s == TAKE_CTX) return r->version >= 4;
  return s >= 0 && s < TAKE_NSTREAM;
}
long take_nchunks(const take_reader* r) { return r->nchunks; }
int take_live(const take_reader* r) { return r->live; }

/* Codec 6's stored words back to values (column-major, n steps): each rated column's value at
 * step t > 0 is its word XOR the prediction from its value at t − 1 and its rate's at t. */
static void rate_undo(const int* rate, double h, int ncols, long n, double* col) {
  for (int c = 0; c < ncols; c++) {
    if (rate[c] < 0) continue;
    double* x = col + (size_t)c * n;
    const double* v = col + (size_t)rate[c] * n;
    for (long t = 1; t < n; t++) {
      double p = take_rate_predict(x[t - 1], h, v[t]);
      uint64_t a, b;
      memcpy(&a, &x[t], 8);
      memcpy(&b, &p, 8);
      a ^= b;
      memcpy(&x[t], &a, 8);
    }
  }
}

/* Load chunk `chunk` of stream s into the cache; its header was checked by take_open, and is
 * checked again here (the file may have changed since). */
static int load_chunk(take_reader* r, int s, long chunk, mt_err* e) {
  if (r->cached_chunk[s] == chunk) return MT_OK;
  const char* sn = STREAM_NAME[s];
  if (chunk < 0 || chunk >= r->nchunks)
    return mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is outside the take (%ld chunks)", r->path, sn, chunk, r->nchunks);
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT step0, nsteps, ncols, codec, raw_bytes, crc32, data FROM chunks WHERE stream = ? AND chunk = ?", &st, e))
    return MT_EINPUT;
  sqlite3_bind_text(st, 1, sn, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, chunk);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    if (rc == SQLITE_DONE) mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld is missing", r->path, sn, chunk);
    else q_done(r, rc, "a chunk", e);
    sqlite3_finalize(st);
    return MT_EINPUT;
  }
  long step0 = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1);
  long nc = sqlite3_column_int64(st, 2), codec = sqlite3_column_int64(st, 3);
  long raw = sqlite3_column_int64(st, 4);
  sqlite3_int64 crc_stored = sqlite3_column_int64(st, 5);
  const void* blob = sqlite3_column_blob(st, 6);
  int len = sqlite3_column_bytes(st, 6);
  long want_n = chunk + 1 < r->nchunks ? TAKE_CHUNK_STEPS : r->nsteps - chunk * TAKE_CHUNK_STEPS;
  if (step0 != chunk * TAKE_CHUNK_STEPS || n != want_n || nc != r->ncols[s] || !codec_ok(r, s, codec) ||
      raw != (long)codec_width((int)codec) * nc * n || crc_stored < 0 || crc_stored > 0xffffffffLL) {
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: stream '%s': chunk %ld: inconsistent header", r->path, sn, chunk);
  }
  uLong crc_want = (uLong)crc_stored;
  /* format 4: the CRC is of the blob as stored, checked before it reaches the decompressor;
   * formats 1-3: of the raw values, checked after decoding */
  if (r->version >= 4 && blob) {
    uLong cb = crc32(0L, blob, (uInt)len);
    if (cb != crc_want) {
      sqlite3_finalize(st);
      return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: checksum mismatch (crc 0x%08lx != 0x%08lx)", r->path, chunk, sn,
                     cb, crc_want);
    }
  }
  double* col = mt_alloc(sizeof(double) * (size_t)(nc * n) + 8);
  uLong crc;
  if (!blob || decode(blob, (size_t)len, (int)codec, (int)nc, n, col, &crc) != 0) {
    free(col);
    sqlite3_finalize(st);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: cannot be decompressed (damaged)", r->path, chunk, sn);
  }
  sqlite3_finalize(st);
  if (codec == 6) rate_undo(r->rate, r->schema.timestep, (int)nc, n, col);
  if (r->version < 4 && crc != crc_want) {
    free(col);
    return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: checksum mismatch (crc 0x%08lx != 0x%08lx)", r->path, chunk, sn,
                   crc, crc_want);
  }
  free(r->cache[s]);
  r->cache[s] = col;
  r->cached_chunk[s] = chunk;
  r->cached_step0[s] = step0;
  r->cached_n[s] = n;
  return MT_OK;
}

/* Format 3: the poses of steps [step0, step0 + n) from the state stream (takes/takepose.h); the
 * machine is rebuilt from the embedded sources on the first call. */
static int read_poses(take_reader* r, long step0, long n, double* out, mt_err* e) {
  if (!r->tp) {
    mt_err pe = {0};
    r->tp = takepose_new(r, &pe);
    if (!r->tp)
      return mt_fail(e, MT_EINPUT, "%s: stream 'pose': rebuilding the machine from the embedded sources: %s", r->path, pe.msg);
    r->tp_state = mt_alloc(sizeof(double) * (r->ncols[TAKE_STATE] + 1));
  }
  int np = r->ncols[TAKE_POSE];
  for (long i = 0; i < n; i++) {
    if (take_read(r, TAKE_STATE, step0 + i, 1, r->tp_state, e)) return MT_EINPUT;
    takepose_fill(r->tp, r->tp_state, out + i * np);
  }
  return MT_OK;
}

/* Format 4: the channels of steps [step0, step0 + n) from the state, input and context streams
 * (takes/takechan.h); the machine and its road are rebuilt from the embedded sources on the
 * first call. */
static int read_chans(take_reader* r, long step0, long n, double* out, mt_err* e) {
  int nx = r->ncols[TAKE_STATE], ni = r->ncols[TAKE_INPUT], nc = r->ncols[TAKE_CHAN];
  if (!r->tc) {
    mt_err ce = {0};
    r->tc = takechan_new(r, &ce);
    if (!r->tc)
      return mt_fail(e, MT_EINPUT, "%s: stream 'chan': rebuilding the machine from the embedded sources: %s", r->path, ce.msg);
    r->tc_row = mt_alloc(sizeof(double) * (nx + ni + REC_NCTX + 1));
  }
  for (long i = 0; i < n; i++) {
    double *x = r->tc_row, *u = x + nx, *c = u + ni;
    if (take_read(r, TAKE_STATE, step0 + i, 1, x, e) || take_read(r, TAKE_INPUT, step0 + i, 1, u, e) ||
        take_read(r, TAKE_CTX, step0 + i, 1, c, e))
      return MT_EINPUT;
    mt_err ce = {0};
    if (takechan_fill(r->tc, step0 + i, x, u, c, out + i * nc, &ce))
      return mt_fail(e, MT_EINPUT, "%s: stream 'chan': %s", r->path, ce.msg);
  }
  return MT_OK;
}

/* Formats 1-3: the context row from the stored channels (a channel the take lacks reads 0). */
static int read_ctx_from_chans(take_reader* r, long step0, long n, double* out, mt_err* e) {
  int nc = r->ncols[TAKE_CHAN];
  double* row = mt_alloc(sizeof(double) * (nc + 1));
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i++) {
    rc = take_read(r, TAKE_CHAN, step0 + i, 1, row, e);
    for (int k = 0; k < REC_NCTX && !rc; k++) out[i * REC_NCTX + k] = r->ctx_from_chan[k] >= 0 ? row[r->ctx_from_chan[k]] : 0;
  }
  free(row);
  return rc;
}

int take_read(take_reader* r, int s, long step0, long n, double* out, mt_err* e) {
  if (s < 0 || s >= TAKE_NSTREAM) return mt_fail(e, MT_EINTERNAL, "take_read: no stream %d", s);
  if (step0 < 0 || n < 0 || step0 > r->nsteps || n > r->nsteps - step0)
    return mt_fail(e, MT_EINPUT, "%s: steps %ld..%ld are outside the take (0..%ld)", r->path, step0, step0 + n, r->nsteps);
  if (s == TAKE_POSE && r->version >= 3) return read_poses(r, step0, n, out, e);
  if (s == TAKE_CHAN && !r->chan_stored) return read_chans(r, step0, n, out, e);
  if (s == TAKE_CTX && r->version < 4) return read_ctx_from_chans(r, step0, n, out, e);
  int nc = r->ncols[s];
  long i = 0;
  while (i < n) {
    long step = step0 + i, chunk = step / TAKE_CHUNK_STEPS;
    if (load_chunk(r, s, chunk, e)) return MT_EINPUT;
    long off = step - r->cached_step0[s], cn = r->cached_n[s];
    if (off < 0 || off >= cn) return mt_fail(e, MT_EINPUT, "%s: chunk %ld of stream %s: wrong steps", r->path, chunk, STREAM_NAME[s]);
    long take = cn - off < n - i ? cn - off : n - i;
    for (long k = 0; k < take; k++)
      for (int j = 0; j < nc; j++) out[(i + k) * nc + j] = r->cache[s][(size_t)j * cn + off + k];
    i += take;
  }
  return MT_OK;
}

int take_check_all(take_reader* r, mt_err* e) {
  for (int s = 0; s < TAKE_NSTREAM; s++)
    for (long c = 0; c < r->nchunks && take_stored(r, s); c++)
      if (load_chunk(r, s, c, e)) return MT_EINPUT;
  sqlite3_stmt* st;
  if (q_prepare(r, "PRAGMA quick_check", &st, e)) return MT_EINPUT;
  int rc = sqlite3_step(st);
  const char* res = rc == SQLITE_ROW ? (const char*)sqlite3_column_text(st, 0) : NULL;
  int bad = 0;
  if (rc != SQLITE_ROW) bad = q_done(r, rc, "PRAGMA quick_check", e);
  else if (!res || strcmp(res, "ok")) bad = mt_fail(e, MT_EINPUT, "%s: PRAGMA quick_check: %.200s", r->path, res ? res : "NULL");
  sqlite3_finalize(st);
  return bad ? MT_EINPUT : MT_OK;
}

int take_write_cut(take_reader* r, long step0, long n, const char* path, const char* note, mt_err* e) {
  take_schema s = r->schema;
  s.store_chan = 0;   /* a cut stores the context; its readers rebuild the channels */
  take_source* src = mt_alloc(sizeof(take_source) * (r->nsrc + 1));
  for (int i = 0; i < r->nsrc; i++) src[i] = (take_source){r->skind[i], r->sname[i], r->stext[i]};
  take_writer* w = take_writer_open(path, &s, src, r->nsrc, take_overrides(r), e);   /* the output rule */
  free(src);
  if (!w) return e->code ? e->code : MT_EINTERNAL;
  static const char* skip[] = {"format", "format_version", "timestep", "nstate", "chunk_steps", "overrides", "state_rates", NULL};
  for (int i = 0; i < r->nmeta; i++) {
    int k = 0;
    for (const char** q = skip; *q; q++) k |= strcmp(*q, r->mkey[i]) == 0;
    if (!k) take_writer_meta(w, r->mkey[i], r->mval[i], e);
  }
  take_writer_meta(w, "cut_from", note, e);
  int nst = s.nstate, ni = s.ninput;
  double* buf = mt_alloc(sizeof(double) * (nst + ni + REC_NCTX + 4));
  int rc = MT_OK;
  for (long i = 0; i < n && !rc; i++) {
    /* the cut (format 4) stores the state, the inputs and the context (older takes: from their
     * channels); its readers rebuild the poses and the other channels */
    rc = take_read(r, TAKE_STATE, step0 + i, 1, buf, e) || take_read(r, TAKE_INPUT, step0 + i, 1, buf + nst, e) ||
         take_read(r, TAKE_CTX, step0 + i, 1, buf + nst + ni, e);
    if (!rc) rc = take_writer_step(w, buf, buf + nst, buf + nst + ni, NULL, e);
  }
  for (int i = 0; i < r->nev && !rc; i++)
    if (r->ev[i].step >= step0 && r->ev[i].step < step0 + n) take_writer_event(w, r->ev[i].step - step0, r->ev[i].kind, r->ev[i].json, e);
  free(buf);
  if (rc) {
    take_writer_discard(w);   /* nothing half-cut is left; an old file at path is kept */
    return rc;
  }
  return take_writer_close(w, r->complete, r->reason, e);
}

/*---- the content key (takefile.h take_content_key) ----*/

/* Every value goes in with its length first, so no two different record lists feed the same
 * bytes ("ab" + "c" and "a" + "bc" differ). */
static void key_bytes(struct AVSHA* h, const void* p, size_t n) {
  uint64_t len = n;
  av_sha_update(h, (const uint8_t*)&len, sizeof len);
  if (n) av_sha_update(h, p, n);
}
static void key_str(struct AVSHA* h, const char* s) { key_bytes(h, s ? s : "", s ? strlen(s) : 0); }
static void key_i64(struct AVSHA* h, int64_t v) { key_bytes(h, &v, sizeof v); }

/* The chunk index with the stored CRCs, in order (the data is not read). */
static int key_chunks(take_reader* r, struct AVSHA* h, mt_err* e) {
  sqlite3_stmt* st;
  if (q_prepare(r, "SELECT stream, chunk, step0, nsteps, ncols, codec, raw_bytes, crc32, length(data) FROM chunks "
                   "ORDER BY stream, chunk", &st, e))
    return MT_EINPUT;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    key_str(h, (const char*)sqlite3_column_text(st, 0));
    for (int c = 1; c <= 8; c++) key_i64(h, sqlite3_column_int64(st, c));
  }
  int bad = q_done(r, rc, "the chunk checksums", e);
  sqlite3_finalize(st);
  return bad ? MT_EINPUT : MT_OK;
}

/* What take_open read, from the reader's own copies. */
static void key_records(const take_reader* r, struct AVSHA* h) {
  key_i64(h, r->nmeta);
  for (int i = 0; i < r->nmeta; i++) key_str(h, r->mkey[i]), key_str(h, r->mval[i]);
  for (int s = 0; s < TAKE_NSTREAM; s++) {
    key_i64(h, r->ncols[s]);
    for (int i = 0; i < r->ncols[s]; i++) key_str(h, r->names[s][i]), key_str(h, r->units[s][i]);
  }
  key_i64(h, r->complete), key_i64(h, r->nsteps), key_str(h, r->reason);
  key_i64(h, r->nsrc);
  for (int i = 0; i < r->nsrc; i++) key_str(h, r->skind[i]), key_str(h, r->sname[i]), key_str(h, r->stext[i]);
  key_i64(h, r->nev);
  for (int i = 0; i < r->nev; i++) key_i64(h, r->ev[i].step), key_str(h, r->ev[i].kind), key_str(h, r->ev[i].json);
}

int take_content_key(take_reader* r, char hex[65], mt_err* e) {
  struct AVSHA* h = av_sha_alloc();
  if (!h || av_sha_init(h, 256)) {
    av_free(h);
    return mt_fail(e, MT_EINTERNAL, "%s: content key: out of memory", r->path);
  }
  int bad = key_chunks(r, h, e);
  uint8_t d[32];
  if (!bad) {
    key_records(r, h);
    av_sha_final(h, d);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  }
  av_free(h);
  return bad;
}
