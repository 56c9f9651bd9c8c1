/* sweep.h — studies of many takes: a grid of rig parameters, each point a recorded take
 * (`mototake sweep`, docs/sweep.md).
 *
 * Contract: a sweep is one take script and up to SWEEP_MAX_AXES axes KEY=A:B:N (KEY a rig
 * parameter that `mototake run --set` accepts). The grid is the product of the axes, point i
 * numbered row-major (the last axis varies fastest); point i's take is DIR/pNNNN.take and its
 * run's output DIR/pNNNN.log. The index DIR/index.sqlite holds the grid (tables sweep, axes,
 * params) and one row per finished point (table points, view results), each committed in its
 * own transaction as the point finishes: a killed sweep leaves a readable index, and running
 * the same sweep again skips the points it holds. Takes are made by child processes (this
 * program's own `run` and `take verify`, fork and exec, no shell), never in this process; the
 * metrics are read back from the take files, so `sweep index` gives the same rows for takes made
 * elsewhere (GNU parallel, SLURM). Nothing here is called per simulation step. */
#ifndef SWEEP_H
#define SWEEP_H

#include "base/mt.h"

#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_POINTS 100000

typedef struct sweep_axis {
  char key[128];
  double lo, hi;
  int n;                 /* values lo + (hi − lo)·k/(n − 1), k = 0..n−1; n = 1: lo alone */
} sweep_axis;

typedef struct sweep_grid {
  char script[4096];     /* as given (local children run it from our working directory) */
  char script_abs[4096]; /* absolute (emitted job lists) */
  int naxis;
  sweep_axis ax[SWEEP_MAX_AXES];
  long npoints;
  double duration;       /* s, the script's: the most a point's take lasts (slurm's time limit) */
} sweep_grid;

/* The summary of one take, read from the take file (NAN / −1 where it does not apply). */
typedef struct sweep_metrics {
  int complete;
  char end_reason[256];
  double duration;       /* s recorded */
  double lap_time;       /* s between the first two crossings of the line, NAN if none */
  double max_lean;       /* deg, largest |lean| */
  double max_ay_g;       /* largest |a_y| / 9.81, a_y the tyres' lateral forces over the mass low-passed
                          * 0.1 s, as `mototake run` prints the achieved a_y (NaN: no tyre forces) */
  double min_speed, max_speed;   /* m/s */
  double max_offset;     /* m, largest |offset| from the centre line */
  int fell;              /* a "fell" mark or a "fell over" end */
  int left_track;        /* the take ended because the machine left the track */
  double band_max;       /* deg, worst 1 s RMS of the 6–12 Hz steer angle (wobble band) */
  double band_share;     /* share of 1 s windows above 0.5 deg in that band */
  int marks;             /* mark events */
} sweep_metrics;

/* Parse "KEY=A:B:N" (N whole, 1..10000; N = 1 needs A = B or takes A). */
int sweep_parse_vary(const char* spec, sweep_axis* a, mt_err* e);
/* Fill script/script_abs and npoints, and check every key is a numeric parameter of the
 * script's rig (loading the script and its rig once). */
int sweep_grid_init(sweep_grid* g, const char* script, mt_err* e);
/* The value of axis k at point i, and its text for --set (shortest that reads back exactly). */
double sweep_value(const sweep_grid* g, long i, int k);
void sweep_value_text(double v, char* out, size_t n);

/* Create DIR and its index for g, or open the index there and check it holds the same grid.
 * Without an index, DIR must hold no file under a name the sweep writes (pNNNN.* and pNNNN_* for
 * a point NNNN of the grid, index.sqlite-journal, jobs.txt, sweep.slurm, README.txt): such a
 * file is refused, by name, never overwritten. */
int sweep_prepare(const sweep_grid* g, const char* dir, mt_err* e);
/* The grid stored in DIR's index. */
int sweep_load_grid(const char* dir, sweep_grid* g, mt_err* e);

typedef struct sweep_opts {
  int jobs;              /* processes at once */
  int verify;            /* run `take verify` on each take */
  int quiet;             /* no progress lines */
  int retry_failed;      /* run points recorded as failed again */
  int collect_only;      /* `sweep index`: no runs, only takes already in DIR */
} sweep_opts;

/* Run (or with collect_only, index) the points of DIR not yet in its index. Returns MT_OK when
 * it got through the grid (failed points included: they are rows), MT_EINPUT/MT_EINTERNAL on
 * errors, and SWEEP_INTERRUPTED after SIGINT/SIGTERM (children stopped, index consistent). */
#define SWEEP_INTERRUPTED 130
int sweep_run(const char* dir, const sweep_opts* o, mt_err* e);

/* A SLURM task's limits (#SBATCH --time, --mem): many clusters refuse a job without them. 0: the
 * defaults, sweep_slurm_minutes() and SWEEP_SLURM_MEM_MB. */
typedef struct sweep_slurm {
  long minutes;          /* wall time per task */
  long mem_mb;           /* memory per task, MB */
} sweep_slurm;
/* A run's peak resident memory was 95 MB here (laguna_lap.lua with --store-channels, GNU time's
 * %M); 512 MB leaves five times that. */
#define SWEEP_SLURM_MEM_MB 512
/* The default time limit of a task riding a script of duration s simulated seconds: its run at
 * 5x real time (the lap ran at 74x here: room for a node 15 times slower or busier), at least
 * 5 minutes; a script's longest, 3600 s, gets 12 minutes. The verify runs later, in `sweep index`. */
long sweep_slurm_minutes(double duration);
/* Write DIR/jobs.txt (GNU parallel) or DIR/sweep.slurm (a SLURM job array, limits sl) for the
 * grid, with a README.txt line; program is the mototake to call there. */
int sweep_emit(const sweep_grid* g, const char* dir, const char* kind, const char* program, const sweep_slurm* sl,
               mt_err* e);

/* The summary of a take file. */
int sweep_take_metrics(const char* path, sweep_metrics* m, mt_err* e);

/* The index's metric columns, for reports: name, unit, and the SQL type. */
typedef struct sweep_column { const char* name; const char* unit; const char* doc; } sweep_column;
const sweep_column* sweep_columns(int* n);

#endif
