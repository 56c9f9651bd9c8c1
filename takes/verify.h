/* verify.h — `take verify`'s machinery: rebuild the machine from a take alone, re-simulate it and
 * compare every stored stream with the re-simulation (module prefix verify_).
 *
 * Contract. take_verify opens the take through the take reader (takes/takefile.h), refuses one a
 * run is still recording, decodes and checks every chunk, rebuilds the rig and the track from the
 * take's own sources (takes/replay.h) and re-simulates every step from the recorded inputs (a
 * ride's inputs re-ridden from its events, takes/ride.h). Compared at each step, in this order:
 * the poses (bit for bit, when stored), the channels (float32 bits; a format-4 take stores the
 * context alone, and the rebuilt channels are this re-simulation's own), the bookkeeping channels
 * re-derived as the recorders derive them (lap, distance from row 0's; the stunt loop of a run
 * take, takes/stunt_replay.h), the context against the stored channels of a --store-channels
 * take, and the next state (bit for bit). It never writes.
 *
 * Returns MT_OK with the report filled in (a divergence is a finding, not an error), or an error
 * naming the take and the field when the take cannot be verified at all (exit 2 for the command).
 */
#ifndef VERIFY_H
#define VERIFY_H

#include "base/mt.h"

/* What verify found. Same build (program version and git revision equal to the recording's):
 * the first divergence ends the check — it is a defect or a changed take. Another build: its
 * physics may round differently, so the re-simulation carries on from its own state after the
 * first divergence and measures how far each channel drifts over the whole take. */
typedef struct verify_report {
  long first_bad;          /* first diverging step, −1 none */
  char what[512];          /* what diverged there, with both numbers */
  long checked;            /* steps whose state was compared */
  int other_build;         /* the take names another program version or git revision */
  char rec_by[160], rep_by[160];
  long resimulated;        /* steps re-simulated in all (another build: to the end or to a failure) */
  char stopped[300];       /* another build: why the re-simulation ended early ("" ran to the end) */
  char drift[600];         /* another build: the largest difference of the headline channels over the take */
  int ctx_only;            /* format 4: the context compared, the other channels rebuilt from the state */
  int stunt_unknown;       /* a cut during a stunt: the stunt channel is the recording's, not re-derived */
} verify_report;

/* quiet: no progress bar (else one on stderr over the steps, base/progress.h). */
int take_verify(const char* path, verify_report* vr, int quiet, mt_err* e);
/* take_verify, and its findings printed on stdout as `mototake take verify` prints them: "PATH:
 * bit-exact: …", or the first divergence (with another build's drift). Returns the command's
 * exit status: 0 bit-exact, 1 a divergence; or e->code with e set when the take cannot be
 * verified at all (nothing printed then). */
int take_verify_report(const char* path, int quiet, mt_err* e);
/* The text take_verify_report prints for vr (every line ends in '\n'), appended to out: the
 * report's words for every caller (the library hands it out as is). Returns 0 bit-exact, 1 a
 * divergence, or e->code with e set (another build's divergence reopens the take for its
 * timestep). */
int take_verify_text(const char* path, const verify_report* vr, mt_sb* out, mt_err* e);

#endif
