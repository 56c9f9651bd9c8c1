/* progress.h — the frame progress bar of long renders on stderr (module prefix fprog_).
 *
 * Contract: shown only when wanted (not --quiet) and stderr is a terminal or the environment
 * has MOTOTAKE_PROGRESS set (as `mototake run` does; the web server and tests set it); then
 * "\r[####......] I/N frames  F frames/s  ETA S s " at most every 0.1 s and at the last frame,
 * and a newline at the end. Nothing is allocated; a tick costs one clock read. */
#ifndef FPROG_H
#define FPROG_H

typedef struct fprog {
  int on;               /* showing */
  long n;               /* frames in all */
  double t0, last;      /* s (monotonic clock): start, last line */
} fprog;

/* Start for n frames; wanted: 0 for --quiet. */
void fprog_start(fprog* p, long n, int wanted);
/* Frame `done` (1..n) is finished. */
void fprog_tick(fprog* p, long done);
/* End the line (after the last tick). */
void fprog_end(fprog* p);

#endif
