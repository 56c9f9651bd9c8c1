/* corners.h — a lap's lean corner by corner: the race summary's "corners:" line.
 *
 * Contract: a track file's corner boards (sim/track_dress.h: `corners = { { at = S, name = "T6" },
 * ... }`) split the lap into corners, each from its board to the next one's (the last wraps to the
 * first). Over the stretch of a ride the caller counts (the race profile: the flying lap), each
 * corner keeps its largest lean, the seated equivalent of it (the lean with the rider's hang-off
 * taken back, as the summary's margins count it) and the speed there; after the ride, the
 * machine's own lean limit at that speed (sim/trim.h trim_lean_fold: the steady turn with the
 * rider sitting still ends where a tyre saturates). Plain data, no allocation; a track without
 * boards has no corners. */
#ifndef CORNERS_H
#define CORNERS_H

struct track;     /* sim/track.h */
struct vehicle;   /* sim/vehicle.h */

#define CORNERS_MAX 32

typedef struct run_corner {
  char name[16];        /* the board's name ("T6") */
  double at;            /* m, the board's station: the corner runs from here to the next board */
  double lean;          /* rad, the largest |lean| counted here (0: none counted) */
  double seated;        /* rad, the largest seated lean counted here */
  double speed;         /* m/s where that seated lean was reached */
  int fold;             /* 0, or TRIM_FOLD_FRONT / _REAR: the tyre that saturates at fold_roll */
  double fold_roll;     /* rad, the steady turn's most lean at speed */
  double plan_over;     /* the race plan's most lateral acceleration here over what the machine's
                           steady turn holds at the plan's speed (takes/run.c race_turns; 0: not measured) */
} run_corner;

/* The track's corner boards into c (at most max, in the file's order). Returns how many. */
int corners_init(run_corner* c, int max, const struct track* t);
/* The corner at station s (m): the one whose board is the last at or before s; before every
 * board, the last board's (the lap wraps). Boards in any order. -1 with none. */
int corners_at(const run_corner* c, int n, double s);
/* One sample at station s (m, on the track's centre line): lean and seated (rad, any sign),
 * speed (m/s). The corner whose board is the last one at or before s counts it. */
void corners_count(run_corner* c, int n, double s, double lean, double seated, double speed);
/* Each counted corner's fold at its speed, on the scratch vehicle v (left at the last point
 * the last trim reached). */
void corners_folds(run_corner* c, int n, struct vehicle* v);

#endif
