/* take_replay.h — a take as every command reads it: the reader (takes/take_reader.h) with the
 * machine rebuilt on top of it (docs/takefile.md, "Poses are rebuilt…", "Channels are
 * rebuilt…", "Reading an untrusted take").
 *
 * The reader validates the file and serves what the file stores; it never builds a simulator.
 * This layer adds what needs the take's machine, rebuilt from its embedded sources and overrides
 * (takes/replay.h):
 *  - take_open: take_reader_open, then the one check that needs the machine: the embedded rig,
 *    with the take's overrides, loads and steps with exactly meta timestep. A take that fails it
 *    is refused (MT_EINPUT, one line naming the take) by every command, since every command opens
 *    takes here.
 *  - take_read: every stream of every format. Stored streams come from the reader unchanged
 *    (take_read_stored); poses from format 3 on and channels from format 4 on (unless stored on
 *    request) are rebuilt step by step from the stored state, inputs and context
 *    (takes/takepose.h, takes/takechan.h). The rebuilt machines are made on the first such read
 *    and kept with the reader (take_attach) until take_close; with the build that recorded the
 *    take they give back bit for bit what the run sampled.
 * Errors: MT_EINPUT naming the take and the stream when the machine cannot be rebuilt or a
 * recorded step cannot be evaluated; the reader's own errors otherwise. Not thread-safe (one
 * reader, one thread). */
#ifndef TAKE_REPLAY_H
#define TAKE_REPLAY_H

#include "base/mt.h"
#include "takes/take_reader.h"

take_reader* take_open(const char* path, mt_err* e);
/* Read nsteps steps from step0 of a stream into out (row-major: step × columns). */
int take_read(take_reader* r, int stream, long step0, long nsteps, double* out, mt_err* e);
/* take_read a second of steps at a time, ticking bar (base/progress.h) with done0 + the steps read
 * so far: for a command whose time is the reading of a long range. */
struct fprog;
int take_read_bar(take_reader* r, int stream, long step0, long nsteps, double* out, struct fprog* bar, double done0,
                  mt_err* e);

#endif
