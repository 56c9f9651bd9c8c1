/* fuzz_chunk_decode.c — libFuzzer target: the chunk decoder alone. The first four bytes pick
 * the codec and the shape (ncols, nsteps), the rest is the deflated blob. Whatever decodes is
 * encoded again and decoded a second time: the values and the CRC-32 must come back bit for
 * bit (the codec is exact in its stored precision). With bit 2 of the first byte set, the rest
 * is taken as the chunk's inflated bytes instead (deflated here, the shape fitted to their
 * length), so that the un-shuffling and un-differencing of arbitrary bit patterns (NaNs,
 * infinities, subnormals) is exercised too. Bit 3 picks the Zstandard codecs (4, 5) for 2 and 3,
 * the blob then a Zstandard frame. Built by `make fuzz`. */
// fuzz-seeds: @text dAAA0123456789abcdef eAAA0123456789abcdef fAAA0123456789abcdef gAAA0123456789abcdef mBAAabcdefgh01234567 nBAAabcdefgh01234567 aAAAxxxxxxxx
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "takes/takefile.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  static const int CODECS[4] = {0, 2, 3, 1};   /* 1: not a codec, must be refused */
  int codec = CODECS[data[0] & 3];
  if ((data[0] & 8) && (codec == 2 || codec == 3)) codec += 2;   /* 4, 5: Zstandard */
  int ncols = 1 + data[1] % 96;
  long n = 1 + ((data[2] | data[3] << 8) % TAKE_CHUNK_STEPS);
  const uint8_t* blob = data + 4;
  size_t blen = size - 4;
  unsigned char* z = NULL;
  if (data[0] & 4) {
    int W = codec == 3 || codec == 5 ? 4 : 8;
    if (blen < (size_t)W) return 0;
    ncols = 1 + data[1] % 8;
    if (blen < (size_t)(ncols * W)) ncols = 1;
    n = (long)(blen / ((size_t)ncols * W));
    if (n > TAKE_CHUNK_STEPS) n = TAKE_CHUNK_STEPS;
    uLongf zl = compressBound(blen);
    if (codec >= 4) {
      size_t zc = ZSTD_compressBound(blen);
      z = malloc(zc);
      zl = ZSTD_compress(z, zc, blob, (size_t)ncols * n * W, 1);
      if (ZSTD_isError(zl)) abort();
    } else {
      z = malloc(zl);
      if (compress2(z, &zl, blob, (uLong)((size_t)ncols * n * W), 1) != Z_OK) abort();
    }
    blob = z;
    blen = zl;
  }
  double* out = malloc(sizeof(double) * (size_t)ncols * n);
  unsigned long crc = 0;
  int rc = take_chunk_decode(blob, blen, codec, ncols, n, out, &crc);
  if ((data[0] & 4) && codec != 1 && rc != 0) abort();   /* the right size always decodes */
  free(z);
  if (codec == 1 && rc == 0) abort();
  if (rc == 0) {
    size_t len = 0;
    unsigned long crc2 = 0, crc3 = 0;
    unsigned char* blob = take_chunk_encode(out, ncols, n, codec, &len, &crc2);
    double* back = malloc(sizeof(double) * (size_t)ncols * n);
    if (!blob || take_chunk_decode(blob, len, codec, ncols, n, back, &crc3) != 0) abort();
    /* float32 → double → float32 quiets a signalling NaN: the one pattern codec 3 cannot carry
     * through a re-encoding (a cut of a crafted take); the values still compare equal */
    int snan = 0;
    for (size_t k = 0; (codec == 3 || codec == 5) && k < (size_t)ncols * n; k++) snan |= out[k] != out[k];
    if ((!snan && crc2 != crc) || crc3 != crc2 || memcmp(out, back, sizeof(double) * (size_t)ncols * n) != 0) abort();
    free(blob);
    free(back);
  }
  free(out);
  return 0;
}
