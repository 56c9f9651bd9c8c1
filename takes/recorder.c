/* recorder.c — the take's context row and the runner's channels (see recorder.h). */
#include "takes/recorder.h"

#include <string.h>

/* The context channels' places in the channel table (sim/recsample.c; a unit test checks them against the names). */
enum { CH_TIME = 0, CH_STATION = 1, CH_OFFSET = 2, CH_DISTANCE = 3, CH_LAP = 4, CH_AX = 14, CH_AY = 15, CH_STUNT = 114 };

void rec_context_mask(unsigned char* mask) {
  memset(mask, 0, (size_t)rec_nchan());
  static const int k[] = {CH_TIME, CH_STATION, CH_OFFSET, CH_DISTANCE, CH_LAP, CH_AX, CH_AY, CH_STUNT};
  for (size_t i = 0; i < MT_ARRAY_LEN(k); i++) mask[k[i]] = 1;
}

static const int CTX_CHANNEL[REC_NCTX] = {CH_TIME, CH_STATION, CH_OFFSET, CH_DISTANCE, CH_LAP, CH_AX, CH_AY, CH_STUNT};

int rec_ctx_channel(int k) { return k >= 0 && k < REC_NCTX ? CTX_CHANNEL[k] : -1; }

void rec_ctx_values(const rec_context* c, double t, double* x) {
  double ch[CH_STUNT + 1];   /* up to the last context channel: all that is written and read */
  rec_sample_context(c, t, ch);
  rec_ctx_gather(ch, x);
}

void rec_ctx_gather(const double* chans, double* x) {
  for (int k = 0; k < REC_NCTX; k++) x[k] = chans[CTX_CHANNEL[k]];
}

void rec_ctx_scatter(const double* x, double* chans) {
  for (int k = 0; k < REC_NCTX; k++) chans[CTX_CHANNEL[k]] = x[k];
}

void rec_sample_context(const rec_context* c, double t, double* o) {
  o[CH_TIME] = t;
  o[CH_STATION] = c->station;
  o[CH_OFFSET] = c->offset;
  o[CH_DISTANCE] = c->distance;
  o[CH_LAP] = c->lap;
  o[CH_AX] = c->ax;
  o[CH_AY] = c->ay;
  o[CH_STUNT] = c->stunt;
}
