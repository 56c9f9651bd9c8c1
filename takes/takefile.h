/* takefile.h — the take file: one SQLite database holding a whole ride (docs/takefile.md).
 *
 * A take is self-contained: program version, platform and timestep; the full source text of
 * the rig (and every module it required), the track and the script, and the overrides; and at
 * every step the simulator's state, the inputs and the channels; every body's pose is read
 * as a stream too, but from format 3 it is not stored: take_read rebuilds it from the state
 * and the embedded rig (takes/takepose.h). The streams are stored in compressed chunks of one
 * second: per column, the second difference of each value's bits, the bytes shuffled into
 * planes, compressed with Zstandard (deflate in format 1) — smooth motion becomes long runs of
 * equal bytes. Every chunk carries the CRC-32 of its raw bytes, checked on every read.
 *
 * Crash safety: a new file is written in place (an existing one is replaced by rename at the
 * end, base/outfile.h); the chunks commit in transactions of up to 16 (handed to the writer
 * thread together, and at least once a second of the run's time) with the step count in the
 * status row, so a killed run leaves a readable take, marked incomplete, missing at most what it
 * simulated in its last second. Encoding and committing run on a writer thread, so the
 * simulation pays only for a copy.
 *
 * Reading: a take is untrusted input. take_open checks the schema, the metadata and every
 * count and index against each other (and refuses with one line naming file and field) before
 * anything is sized from them; SQLite runs with defensive settings and a work budget. The
 * metadata every command relies on is validated there once, for all of them: the overrides
 * parse (a JSON list of "key=value" strings), and the embedded rig, rebuilt with them, loads and
 * steps with exactly meta timestep (the step the run recorded with); a take that passes is one
 * every reader can replay as recorded.
 *
 * This header is the table of contents; each part has its own, narrower header:
 *   takes/take_schema.h  what a take holds: format version, streams, schema and source types;
 *   takes/take_codec.h   the file's format: schema text, stream codecs, the chunk codec;
 *   takes/take_writer.h  writing: the writer thread, its transactions, the journal rules, a cut;
 *   takes/take_reader.h  reading the file: validation, the records, the stored streams;
 *   takes/take_replay.h  take_open and take_read as commands use them: the reader with the
 *                        machine rebuilt on top (the rig-step check, the rebuilt streams). */
#ifndef TAKEFILE_H
#define TAKEFILE_H

#include "takes/take_codec.h"
#include "takes/take_reader.h"
#include "takes/take_replay.h"
#include "takes/take_schema.h"
#include "takes/take_writer.h"

#endif
