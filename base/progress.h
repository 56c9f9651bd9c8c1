/* progress.h — the one progress bar of every long command, on stderr (module prefix fprog_).
 *
 * Contract: shown only when wanted (not --quiet) and stderr is a terminal or the environment has
 * MOTOTAKE_PROGRESS set (`mototake run` under the web server; tests); never in a pipe or a file
 * otherwise. A line "\r[##########....................] " and then, by the kind of work:
 *   frames   "I/N frames  F frames/s  ETA S s "               (render, modes --anim)
 *   sim      "T / D s  Rx real time  ETA M:SS "               (run, ride --events; the web server
 *                                                               reads "T / D" after the "] ")
 *   work     "LABEL  P%  ETA S s "                            (take verify, channels, shifts, band,
 *                                                               slip, export, ...)
 * at most every 0.1 s and at the end (done >= n), then a newline from fprog_end. Nothing is
 * allocated; a tick that draws nothing costs one clock read. The label must outlive the bar. */
#ifndef FPROG_H
#define FPROG_H

enum { FPROG_FRAMES, FPROG_SIM, FPROG_WORK };

typedef struct fprog {
  int on;               /* showing */
  int kind;             /* FPROG_* */
  int tty, width;       /* stderr is a terminal; the longest line after the bar so far */
  double n;             /* the whole: frames, simulated seconds, units of work */
  const char* label;    /* FPROG_WORK's name of the work */
  double t0, last;      /* s (monotonic clock): start, last line */
} fprog;

/* Whether a bar would show: wanted and (stderr a terminal or MOTOTAKE_PROGRESS set). */
int fprog_wanted(int wanted);
/* Start for n frames; wanted: 0 for --quiet. */
void fprog_start(fprog* p, long n, int wanted);
/* Start for a simulation of duration seconds. */
void fprog_start_sim(fprog* p, double duration, int wanted);
/* Start for n units of some work named label (e.g. "take verify"). */
void fprog_start_work(fprog* p, double n, const char* label, int wanted);
/* `done` (0..n) is finished: a line when 0.1 s passed since the last, or done >= n. */
void fprog_tick(fprog* p, double done);
/* A line for `done` now (the last one of work that ended before n). */
void fprog_show(fprog* p, double done);
/* End the line (after the last tick). */
void fprog_end(fprog* p);

#endif
