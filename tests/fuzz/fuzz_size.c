/* fuzz_size.c — libFuzzer target for draw_parse_size (the --size WxH option of every PNG command).
 * fuzz-seeds: @text 1600x1200 64x64 8192x8192 63x64 1x1 0x0 -1x100 100x x100 1600x1200x 99999999999x1
 *
 * The specification, checked on every input (abort on violation, which libFuzzer records as a
 * finding): a size is accepted exactly when the text is decimal digits, 'x', decimal digits, with
 * both numbers in [64, 8192]; then the outputs are those numbers. Anything else (signs, spaces,
 * a number too long for an int, a tail) is rejected and leaves the outputs untouched. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"

/* The reference: digits only, value saturated at 100000 so nothing overflows. */
static int ref_parse(const char* s, int* w, int* h) {
  long v[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') {
      v[k] = v[k] * 10 + (*s++ - '0');
      if (v[k] > 100000) v[k] = 100000;
    }
    if (k == 0 && *s++ != 'x') return -1;
  }
  if (*s || v[0] < 64 || v[0] > 8192 || v[1] < 64 || v[1] > 8192) return -1;
  *w = (int)v[0];
  *h = (int)v[1];
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char s[256];
  if (size >= sizeof s) size = sizeof s - 1;
  memcpy(s, data, size);
  s[size] = 0;
  int w = -7, h = -7, rw = -7, rh = -7;
  int got = draw_parse_size(s, &w, &h), want = ref_parse(s, &rw, &rh);
  if ((got == 0) != (want == 0) || w != rw || h != rh) abort();
  return 0;
}
