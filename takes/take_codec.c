/* take_codec.c — the take file's format: its schema, its streams' codecs, and the chunk codec
 * (see take_codec.h and docs/takefile.md "Chunks"). */
#include "takes/take_codec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "base/mt.h"

const char* const take_stream_name[TAKE_NSTREAM] = {"state", "input", "pose", "chan", "ctx"};

const char* const take_schema_sql =
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

int take_codec_width(int codec) { return codec == 3 || codec == 5 ? 4 : 8; }
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

/* Values per column that the encoder's transform takes at a time (planes64). */
#define PLANE_BLOCK 64

void take_enc_init(take_enc* z, size_t nvalues, size_t ncols) {
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

void take_enc_free(take_enc* z) {
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
static int enc_compress(take_enc* z, const unsigned char* sh, size_t nb, size_t* outlen) {
  size_t zlen = ZSTD_compress2(z->cctx, z->out, z->outcap, sh, nb);
  if (ZSTD_isError(zlen)) return -1;
  *outlen = zlen;
  return 0;
}

/* The writer's path (format 4): n rows of ncols doubles straight into the shuffled planes of
 * the columns' second differences (codec 4: float64, codec 5: rounded to float32), with no
 * column-major copy of the chunk: its CRC is of the stored blob (crc_blob), not of the raw
 * values. The same planes encode_into makes from the same chunk in columns. */
int take_encode_rows(take_enc* z, const double* raw, int ncols, long n, int codec, const int* rate, double h,
                       size_t* outlen, unsigned long* crc_blob) {
  size_t nw = (size_t)ncols * n;
  if (!z->cctx || nw * 8 > z->cap || (size_t)ncols > z->ncols || !codec_zstd(codec) || (codec == 6) != (rate != NULL))
    return -1;
  int W = take_codec_width(codec);
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
static int encode_into(take_enc* z, const double* raw, int ncols, long n, int codec, size_t* outlen, uLong* crc) {
  size_t nw = (size_t)ncols * n;
  if (!z->cctx || nw * 8 > z->cap) return -1;
  int W = take_codec_width(codec);
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
  take_enc z;
  take_enc_init(&z, (size_t)ncols * n, (size_t)ncols);
  unsigned char* blob = NULL;
  if (z.cctx && encode_into(&z, raw, ncols, n, codec, outlen, crc) == 0) {
    blob = mt_alloc(*outlen + 1);
    memcpy(blob, z.out, *outlen);
  }
  take_enc_free(&z);
  return blob;
}

/* Decode into raw (doubles); *crc gets the CRC of the stored-precision values. */
int take_decode(const void* blob_, size_t len, int codec, int ncols, long n, double* raw, unsigned long* crc) {
  const unsigned char* blob = blob_;
  size_t nw = (size_t)ncols * n;
  int W = take_codec_width(codec);
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
  int rc = take_decode(blob, len, codec, ncols, n, out, &c);
  *crc = c;
  return rc;
}

/* state, input, pose: exact; channels and the context (channels too): float32 */
const int take_stream_codec[TAKE_NSTREAM] = {4, 4, 4, 5, 5};
const int take_format1_codec[TAKE_NSTREAM] = {2, 2, 2, 3, 3};  /* the same, deflated (format 1): still read */

const char* const take_pose_parts[7] = {"x", "y", "z", "qw", "qx", "qy", "qz"};

/* Codec 6's stored words back to values (column-major, n steps): each rated column's value at
 * step t > 0 is its word XOR the prediction from its value at t − 1 and its rate's at t. */
void take_rate_undo(const int* rate, double h, int ncols, long n, double* col) {
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
