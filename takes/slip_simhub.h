/* slip_simhub.h — a take's motion under the property names SimHub users know (module prefix
 * slip_simhub_), for `mototake take channels --simhub`.
 *
 * Contract: reads a take (channels, states, its embedded rig and track), never writes it; one
 * value per column per recorded step. Definitions and signs (docs/slip.md, "SimHub names"):
 * heading axes x forward, y left, z up (docs/conventions.md); accelerations are those of the
 * whole machine's centre of mass (rider included), SI, gravity not included (0 at rest);
 * angles ISO (roll positive right, pitch positive nose down, yaw positive left). */
#ifndef SLIP_SIMHUB_H
#define SLIP_SIMHUB_H

#include "base/mt.h"
#include "takes/recorder.h"
#include "takes/takefile.h"

/* The columns: their count and names with units. */
int slip_simhub_ncol(void);
const rec_channel* slip_simhub_cols(void);
/* Steps [step0, step0 + n) of the take into out (n × slip_simhub_ncol(), row-major). MT_EINPUT
 * naming the file when the take lacks a channel it needs or cannot be rebuilt. */
int slip_simhub_read(take_reader* r, const char* path, long step0, long n, double* out, mt_err* e);

#endif
