/* outfile.h — the one rule for every file mototake writes (docs/hardening.md, "Outputs"), and
 * the whole-file reader that notes what it reads as an input. It stands on base/mt.h (errors,
 * allocation, the temporary name) and nothing on it calls back up.
 *
 * Contract:
 *  - The target path must be non-empty, and be absent or a regular file. A directory, a device,
 *    a FIFO, a socket or a symbolic link at the target is refused (never followed, never
 *    replaced); so is a target that is one of the files this process has read (an input: every
 *    file read by mt_read_file or opened by take_open is noted with outfile_note_input).
 *  - The new content goes to a temporary in the same folder, "PATH.tmpPID", created exclusively
 *    (O_EXCL, never through a link). outfile_commit fsyncs it, checks the target again and
 *    renames it over the target; until then the old file is untouched. outfile_abort removes
 *    the temporary. After a crash or kill -9 only a temporary is left, and the next
 *    outfile_open of the same target removes every "PATH.tmpN" (and its "-journal") whose
 *    process N no longer exists. SIGINT, SIGTERM and SIGHUP remove the temporaries being written
 *    (where their disposition was the default) and then end the process as the signal would.
 *  - OUTFILE_INPLACE_IF_ABSENT (for takes, whose crash safety is a readable incomplete take at
 *    the path): once the file has a valid beginning, outfile_publish links the temporary to the
 *    path if nothing is there (link(2) never replaces) and writing goes on at the path; commit
 *    then only syncs it and abort removes it. When the target exists, it stays a temporary.
 * Every refusal is one message naming the path and the reason, with MT_EINPUT. */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stddef.h>

#include "base/mt.h"

enum { OUTFILE_TEMP = 0, OUTFILE_INPLACE_IF_ABSENT = 1 };

typedef struct outfile {
  char path[4096];   /* the target */
  char tmp[4200];    /* the file being written: the temporary, or path itself when in place */
  int fd;            /* open on tmp while writing through outfile_write, else -1 */
  int mode;          /* OUTFILE_TEMP or OUTFILE_INPLACE_IF_ABSENT */
  int inplace;       /* 1: published, writing at path itself (it did not exist) */
  int active;        /* 1 between a successful open and commit/abort */
  int slot;          /* in the list of temporaries removed on SIGINT/SIGTERM/SIGHUP, -1 none */
} outfile;

/* Check path against the rule without writing anything. */
int outfile_check(const char* path, mt_err* e);
/* Create the file to write (o->tmp, open as o->fd, mode 0644). */
int outfile_open(outfile* o, const char* path, int mode, mt_err* e);
/* OUTFILE_INPLACE_IF_ABSENT: move the file to the path now if nothing is there (1), else 0. */
int outfile_publish(outfile* o);
/* Append len bytes to o->fd. */
int outfile_write(outfile* o, const void* data, size_t len, mt_err* e);
/* Sync and move into place. On failure the temporary is removed and the old target kept. */
int outfile_commit(outfile* o, mt_err* e);
/* Remove what outfile_open created (no-op when not active). */
void outfile_abort(outfile* o);
/* Whole buffer to path under the rule (open, write, commit). */
int outfile_write_all(const char* path, const void* data, size_t len, mt_err* e);
/* Whole file into a NUL-terminated buffer (caller frees), the path noted as an input; NULL with
 * e set (MT_EINPUT) when it cannot be opened or read. Files larger than MT_READ_MAX are refused
 * (the reader stops there: /dev/zero ends quickly). */
#define MT_READ_MAX (16 << 20)
char* mt_read_file(const char* path, size_t* len, mt_err* e);
/* Whole buffer to path under the rule: the same as outfile_write_all (the older name). */
int mt_write_file_atomic(const char* path, const void* data, size_t len, mt_err* e);
/* Note a file this process reads, so it is refused as an output. */
void outfile_note_input(const char* path);
/* Forget a noted input: a cache read only to find it stale, about to be written again
 * (app/lesson_cmd.c's takes). */
void outfile_forget_input(const char* path);
/* How many other live processes have a temporary of path open ("PATH.tmpN", N running), counting
 * only N < below_pid when below_pid > 0 (the tie-break of two writers that started together). */
int outfile_other_writers(const char* path, long below_pid);
/* Remove stale temporaries of path (our own naming, dead processes). Returns how many. */
int outfile_clean_stale(const char* path);

#endif
