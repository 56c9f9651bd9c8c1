/* dynlib.h — a heavy system library opened on first use instead of at every start.
 *
 * Why: linked the usual way, FFmpeg's encoder and muxer (libavcodec, libavformat: with what
 * they need, 135 shared objects), SDL2 (51) and matio (with HDF5) were loaded and relocated by
 * every run of every command, even `mototake version`: on the 2-core test machine most of a
 * short command's time (docs/dependencies.md, "Loaded when used"). Only the MP4 writer
 * (render/frames.c), the MAT-file writer (base/matfile.c) and the ride window (app/ride_win.c)
 * call them, so those open them here, when a command first needs them.
 *
 * Contract:
 *  - dl_open(lib, soname, syms, n, e) opens the library by its run-time name (soname, the
 *    versioned name the build linked against: the Makefile passes it, MT_SONAME_*) and fills
 *    every *syms[i].slot with the address of syms[i].name. All or nothing: when the library or
 *    any one name is missing, no slot is filled and the error is one line naming the library,
 *    the file and the missing name (MT_EINTERNAL: the install is broken, not the user's input).
 *  - It is done once per library for the process, under a lock (the MP4 writer may open it from
 *    any thread); later calls return at once with the first call's result. The library is never
 *    closed.
 *  - The callers declare each slot with the library's own prototype (__typeof__ of the function
 *    from its header), so the compiler checks every call as if it were linked. */
#ifndef DYNLIB_H
#define DYNLIB_H

#include "base/mt.h"

typedef struct dl_sym {
  const char* name;
  void** slot;
} dl_sym;

typedef struct dl_lib {
  const char* what;   /* for messages: "FFmpeg's libavcodec" */
  int state;          /* 0 not tried, 1 open, -1 failed */
  char why[320];      /* the first failure, kept for later calls */
} dl_lib;

int dl_open(dl_lib* lib, const char* soname, const dl_sym* syms, int n, mt_err* e);

/* For the callers' tables: a slot with f's own prototype, and the length of a dl_sym array. */
#define DL_SLOT(f) __typeof__(f)* f;
#define DL_LEN(a) ((int)(sizeof(a) / sizeof *(a)))

#endif
