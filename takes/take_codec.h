/* take_codec.h — the take file's format (docs/takefile.md): the schema every take has, the names
 * of its streams, the codecs each stream may use, and the chunk codec that turns one chunk of a
 * stream into the compressed blob stored in its row of `chunks`, and back.
 *
 * The codecs (take_codec.c says how each transforms the values):
 *   0      plain float64, deflated (formats 1 and on, never written now);
 *   2, 3   second differences of the float64 (2) or float32 (3) bit patterns shuffled into byte
 *          planes, deflated (format 1);
 *   4, 5   the same, Zstandard (format 2 on: 4 for the state, inputs and poses, 5 for the
 *          channels and the context);
 *   6      codec 4 of a state whose rated values (take_schema.state_rate) are stored as their
 *          residual from take_rate_predict (format 5, the state stream only).
 *
 * Contract:
 *  - take_encode_rows encodes a row-major chunk (the writer's buffers) with codec 4, 5 or 6 into
 *    the scratch's output, with no allocation (the scratch is sized once by take_enc_init for the
 *    widest stream); its CRC-32 is of the stored blob (format 4 on).
 *  - take_decode inflates a blob of any codec into column-major doubles; it allocates only its
 *    own scratch, reads at most len bytes of the blob and fails (−1) when the blob does not
 *    inflate to exactly the size the shape implies: the shape must have been checked by the
 *    caller (the reader checks every chunk's header before it decodes). *crc gets the CRC-32 of
 *    the raw values in stored precision (what formats 1–3 stored). Codec 6 comes out as codec 4's
 *    words: take_rate_undo then turns them back into values.
 *  - take_chunk_encode / take_chunk_decode: the same for one chunk on its own, every argument
 *    checked (tests, the fuzzer, the bench).
 * Nothing here touches SQLite or a file; every function is thread-safe but for a scratch, which
 * belongs to one thread. */
#ifndef TAKE_CODEC_H
#define TAKE_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "takes/take_schema.h"

/*---- the format ----*/
/* The streams' names in the file (`chunks.stream`, `columns.stream`), TAKE_STATE… order. */
extern const char* const take_stream_name[TAKE_NSTREAM];
/* The schema as take_writer_open creates it; take_open accepts exactly these statements. */
extern const char* const take_schema_sql;
/* Each stream's codec from format 2 on, and in format 1 (still read). */
extern const int take_stream_codec[TAKE_NSTREAM];
extern const int take_format1_codec[TAKE_NSTREAM];
/* The seven pose columns of a body: "<body>.x" … "<body>.qz". */
extern const char* const take_pose_parts[7];
/* Bytes a stored value takes under the codec: 4 for codecs 3 and 5 (float32), else 8. */
int take_codec_width(int codec);

/*---- the chunk codec ----*/
/* Format 5's prediction of a rated state value (take_schema.state_rate): prev + h·rate in two
 * IEEE roundings, never fused, as MuJoCo integrates it. */
double take_rate_predict(double prev, double h, double rate);
/* The writer's shortcut for a block of a rated value's residuals that are all zero (1, the
 * default); 0 takes the general transform, byte for byte the same chunks (unit tests). */
extern int take_zero_blocks;
/* The writer's transform of two neighbouring float64 columns at once (1, the default); 0 takes
 * them one at a time, byte for byte the same chunks (unit tests). */
extern int take_wide;

/* An encoder's scratch, reused chunk after chunk by the writer thread (no allocation per chunk):
 * the values in stored precision, their shuffled planes, the compressed output, and a Zstandard
 * context (ZSTD_compress would allocate and clear one per call). Its fields are the codec's. */
typedef struct take_enc {
  size_t cap;                  /* bytes of each buffer: the largest stream's chunk, 8 bytes a value */
  unsigned char *bytes, *sh, *out;
  size_t outcap;
  size_t ncols;                /* columns prev has room for */
  uint64_t* prev;              /* encode_rows: each column's last two values (uint32_t pairs for float32) */
  unsigned char* blk;          /* encode_rows: PLANE_BLOCK rows of up to ncols values */
  int* rated;                  /* encode_rows, codec 6: (column, rate) of each rated value */
  unsigned char* skip;         /* and which columns' block is all zero (no transform needed) */
  uint64_t* any;               /* and the OR of each one's residuals in the block */
  struct ZSTD_CCtx_s* cctx;    /* NULL when Zstandard could not be set up: every encode then fails */
} take_enc;

/* Room for chunks of up to nvalues values in up to ncols columns. */
void take_enc_init(take_enc* z, size_t nvalues, size_t ncols);
void take_enc_free(take_enc* z);
/* n rows of ncols doubles (row-major) with codec 4, 5 or 6 (rate: the state's rate table for
 * codec 6, else NULL; h its time step): the blob is z->out, *outlen bytes, *crc_blob its CRC-32.
 * −1 (nothing written) when the shape exceeds the scratch or the codec does not fit. */
int take_encode_rows(take_enc* z, const double* raw, int ncols, long n, int codec, const int* rate, double h,
                     size_t* outlen, unsigned long* crc_blob);
/* A blob of any codec into raw[ncols·n] (column-major); 0, or −1 when it does not inflate to
 * exactly ncols·n values. The shape is the caller's to check. */
int take_decode(const void* blob, size_t len, int codec, int ncols, long n, double* raw, unsigned long* crc);
/* Codec 6's stored words back to values, in place (column-major, n steps). */
void take_rate_undo(const int* rate, double h, int ncols, long n, double* col);

/* The chunk codec alone (docs/takefile.md "Chunks"), for tests and the fuzzer: encode ncols
 * columns of n values (column-major) with codec 0, 2 or 3 (malloc'd blob, NULL for a bad
 * shape); decode into out[ncols·n], 0 on success, −1 when the blob does not inflate to exactly
 * the size the shape implies. *crc gets the CRC-32 of the raw stored-precision values. */
unsigned char* take_chunk_encode(const double* raw, int ncols, long n, int codec, size_t* len, unsigned long* crc);
int take_chunk_decode(const void* blob, size_t len, int codec, int ncols, long n, double* out, unsigned long* crc);

#endif
