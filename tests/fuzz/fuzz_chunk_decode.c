/* fuzz_chunk_decode.c — libFuzzer target: the chunk decoder alone. The first four bytes pick
 * the codec and the shape (ncols, nsteps), the rest is the deflated blob. Whatever decodes is
 * encoded again and decoded a second time: the values and the CRC-32 must come back bit for
 * bit (the codec is exact in its stored precision). Built by `make fuzz`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "takes/takefile.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  static const int CODECS[4] = {0, 2, 3, 1};   /* 1: not a codec, must be refused */
  int codec = CODECS[data[0] & 3];
  int ncols = 1 + data[1] % 96;
  long n = 1 + ((data[2] | data[3] << 8) % TAKE_CHUNK_STEPS);
  double* out = malloc(sizeof(double) * (size_t)ncols * n);
  unsigned long crc = 0;
  int rc = take_chunk_decode(data + 4, size - 4, codec, ncols, n, out, &crc);
  if (codec == 1 && rc == 0) abort();
  if (rc == 0) {
    size_t len = 0;
    unsigned long crc2 = 0, crc3 = 0;
    unsigned char* blob = take_chunk_encode(out, ncols, n, codec, &len, &crc2);
    double* back = malloc(sizeof(double) * (size_t)ncols * n);
    if (!blob || take_chunk_decode(blob, len, codec, ncols, n, back, &crc3) != 0) abort();
    if (crc2 != crc || crc3 != crc || memcmp(out, back, sizeof(double) * (size_t)ncols * n) != 0) abort();
    free(blob);
    free(back);
  }
  free(out);
  return 0;
}
