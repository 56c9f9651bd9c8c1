/* fuzz_take_open.c — libFuzzer target: a whole take file (any bytes, usually a mutated small
 * take) through take_open and every reader call the commands make: metadata, sources, events,
 * every chunk of every stream (take_check_all) and a read of each stream's whole range into a
 * buffer sized from the schema as the commands size theirs. Nothing may crash, leak, read or
 * write out of bounds; refusals are fine. Built by `make fuzz` (tests/fuzz/fuzz_*.c). */
// fuzz-seeds: @take tests/data/stoppie_format2.take
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "takes/recorder.h"
#include "takes/takefile.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char path[64], jpath[80];
  snprintf(path, sizeof path, "/tmp/fuzz_take_%d.take", (int)getpid());
  snprintf(jpath, sizeof jpath, "%s-journal", path);
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  remove(jpath);
  mt_err e = {0};
  take_reader* r = take_open(path, &e);
  if (r) {
    const take_schema* s = take_schema_of(r);
    const char* reason;
    take_complete(r, &reason);
    for (int i = 0; i < take_nsources(r); i++) {
      const char *k, *nm, *t;
      take_source_at(r, i, &k, &nm, &t);
    }
    for (int i = 0; i < take_nevents(r); i++) (void)take_event_at(r, i)->json[0];
    for (int b = 0; b < s->nbody; b++) (void)(s->body_names[b][0] + s->body_parents[b][0]);
    long n = take_nsteps(r);
    int ncols[TAKE_NSTREAM] = {s->nstate, s->ninput, 7 * s->nbody, s->nchan, REC_NCTX};
    for (int st = 0; st < TAKE_NSTREAM; st++) {
      double* buf = malloc(sizeof(double) * ((size_t)ncols[st] * (size_t)(n > 0 ? n : 1) + 1));
      mt_err e2 = {0};
      take_read(r, st, 0, n, buf, &e2);
      free(buf);
    }
    mt_err e3 = {0};
    take_check_all(r, &e3);
    take_close(r);
  }
  remove(path);
  remove(jpath);
  return 0;
}
