/* fuzz_cli_number.c — libFuzzer target: the CLI's number parsing (cli_double, cli_int,
 * cli_parse_double). Whatever the text, an accepted value is finite, within the range asked for,
 * and printing and re-parsing it gives the same number; a refusal names the option in one line. */
// fuzz-seeds: @text 0 1 -1 12.5 -3e2 1e6 1000000.5 1e308 1e-320 nan inf -inf 0x10 1,5 12abc 5= 999999999999999999999
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char v[256];
  if (size >= sizeof v) size = sizeof v - 1;
  memcpy(v, data, size);
  v[size] = 0;
  char arg[300];
  snprintf(arg, sizeof arg, "--x=%s", v);
  char* argv[] = {arg};
  cli c;
  mt_err e = {0};
  cli_init(&c, "fuzz");
  cli_arg(&c, "x");
  if (cli_parse(&c, 1, argv, 0, 0, &e) != MT_OK) return 0;   /* e.g. a value with '=' is fine */
  double d;
  if (cli_double(&c, "x", 0, -1e6, 1e6, &d, &e) == MT_OK) {
    if (!isfinite(d) || d < -1e6 || d > 1e6) abort();
    char back[64];
    snprintf(back, sizeof back, "%.17g", d);
    double d2;
    if (cli_parse_double(back, &d2) || d2 != d) abort();
  } else if (!strstr(e.msg, "--x") || strchr(e.msg, '\n')) {
    abort();
  }
  mt_err_clear(&e);
  long l;
  if (cli_int(&c, "x", 0, -1000, 1000, &l, &e) == MT_OK) {
    if (l < -1000 || l > 1000) abort();
  } else if (!strstr(e.msg, "--x") || strchr(e.msg, '\n')) {
    abort();
  }
  return 0;
}
