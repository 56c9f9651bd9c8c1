/* takejournal.h — is the `-journal` beside a take that take's own? (docs/takefile.md, "Crash safety")
 *
 * SQLite rolls a hot journal back into whatever file sits under its name. A journal left by a
 * killed run beside a file that has since been replaced (another run renamed a new take there,
 * or someone moved files) would write another file's pages into the take and cut it to another
 * file's length: "database disk image is malformed" (issue 29). So before SQLite sees it, the
 * journal is judged here, from the bytes alone, without SQLite and without writing anything.
 *
 * The proof rests on what the writer controls (takes/take_writer.c): every take carries a random
 * non-zero SQLite application_id (page 1, bytes 68–71), and each of the writer's transactions
 * sets it again as its first write, so page 1 — with that id — is the first page record of every
 * journal the writer leaves. Contract of take_journal_judge(take, journal):
 *  - TJ_NONE: no journal.
 *  - TJ_INERT: SQLite would apply nothing: empty, a zeroed first byte (PERSIST between commits),
 *    or a header without SQLite's magic (SQLite stops there).
 *  - TJ_OWN: the first record is page 1 with a valid checksum, the take's page size and the take's
 *    own non-zero application_id (a foreign journal passes with odds 2^-32); or there is no valid
 *    record and the journal's original page count equals the take's, so rolling it back changes
 *    nothing (a run killed between writing a journal header and its first record).
 *  - TJ_FOREIGN: anything else; `why` (n bytes) says what failed. Never roll it back.
 * A take being recorded (its writer's flock held) must not be judged: its journal is in flux. */
#ifndef TAKEJOURNAL_H
#define TAKEJOURNAL_H

#include <stddef.h>

enum { TJ_NONE, TJ_INERT, TJ_OWN, TJ_FOREIGN };

int take_journal_judge(const char* take, const char* journal, char* why, size_t n);

#endif
