/* replay_main.c — a main() for a libFuzzer target without libFuzzer: runs LLVMFuzzerTestOneInput
 * once on each file named on the command line (built with gcc and ASan/UBSan for make test, so
 * every finding kept in tests/fuzz/regress/ stays fixed). Prints "replayed N inputs". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int n = 0;
  for (int i = 1; i < argc; i++) {
    FILE* f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "replay: cannot open %s\n", argv[i]);
      return 2;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t* buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;)
      if ((len += got) == cap) buf = realloc(buf, cap *= 2);
    fclose(f);
    if (!buf) return 1;
    /* an exact-size copy, so ASan sees reads past the input's end */
    uint8_t* exact = malloc(len ? len : 1);
    for (size_t k = 0; k < len; k++) exact[k] = buf[k];
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    n++;
  }
  printf("replayed %d inputs\n", n);
  return 0;
}
