/* practice.h — the racer's practice: how much faster than the plan to take each fast corner,
 * learnt over dry laps (rider.practice; takes/run.c stage_practice rides the laps).
 *
 * Contract. A lap is one whole ride of the take script (its run-in and its flying lap), dry; it
 * "lapped" when it completed the flying lap without falling or leaving the tarmac. A corner's
 * speed is what the racer asks over the plan's speed in that corner's turn (takes/run.c
 * race_turn_speed). Practice starts from the plan (every corner 0 m/s) and, after each lap that
 * lapped, changes one corner: of the fast corners (ridden at PRACTICE_FAST or more, the plan at
 * the tyres' grip there: plan_over >= 1, the machine's steady-turn limit known), the one whose
 * seated lean is furthest from PRACTICE_AIM against that limit, among those short of it by more
 * than PRACTICE_SHORT, or over it by more than PRACTICE_OVER while carrying speed. The step is
 * what that distance asks at the corner's own measured slope (degrees of seated lean per m/s;
 * PRACTICE_SLOPE until it is measured), within PRACTICE_STEP_MIN..PRACTICE_STEP_MAX m/s.
 *
 * A lap that does not lap is forgotten: the speeds stay those of the last lap that lapped, and
 * the same corner is tried again PRACTICE_RETRY m/s further for each such lap (the racing lap
 * falls far from the corner changed, at T6 or T10 for a change in T1: docs/takes.md, round
 * eleven; a fall says where the lap is fragile, not that the corner was too fast); after
 * PRACTICE_FAILS such laps that corner keeps its speed. So does a corner whose lean, taken
 * PRACTICE_DEAF_SPAN or more over the plan, answered by less than PRACTICE_SLOPE_MIN per m/s
 * against the plan's own lap (its speed there is not the grip's to give; at 92-94 % of the grip
 * T1 was stepped to +21 m/s without this; the answer is not linear: at 98.5 % T1 leaned 0.4 deg
 * more for 2.2 m/s and 1.6 deg more for 5.2), and none is taken more than PRACTICE_SPEED_MAX
 * over the plan. Practice ends when no corner asks for a change or the laps run out; the take
 * then rides the last lap that lapped, which, the ride being deterministic, it repeats bit for
 * bit.
 *
 * Plain data, no allocation, no simulation: the caller rides the laps. Invariant: speed[] only
 * ever holds the speeds of a lap that lapped (or the plan's zeros). */
#ifndef PRACTICE_H
#define PRACTICE_H

#include "takes/corners.h"

#define PRACTICE_MAX_LAPS 20
#define PRACTICE_FAST (100 / 3.6)   /* m/s: a corner ridden this fast or faster is a fast corner */
#define PRACTICE_SHORT 1.5          /* deg: a fast corner short of its limit by more is practised */
#define PRACTICE_OVER 1.0           /* deg: over it by more, with speed carried, backs off */
#define PRACTICE_AIM (-0.75)        /* deg: where a change aims, against the limit */
#define PRACTICE_SLOPE 0.8          /* deg per m/s until a corner's own is measured */
#define PRACTICE_STEP_MIN 0.5       /* m/s */
#define PRACTICE_STEP_MAX 3.0       /* m/s */
#define PRACTICE_SPEED_MAX 8.0      /* m/s: the most a corner is taken over the plan */
#define PRACTICE_SLOPE_MIN 0.2      /* deg per m/s: a corner that answers less, over at least */
#define PRACTICE_DEAF_SPAN 4.0      /* m/s over the plan, is left as it is */
#define PRACTICE_RETRY 1.0          /* m/s further per lap that did not lap */
#define PRACTICE_FAILS 2

/* One lap of practice: the corner it changed (-1: none, the plan's own lap), the speed it tried
 * there (m/s over the plan), whether it lapped, and then that corner's shortfall (deg). */
typedef struct practice_try {
  int corner;
  double speed;
  int lapped;
  double shortfall;
} practice_try;

typedef struct practice {
  int n;                           /* corners (the track's boards, takes/corners.h) */
  double speed[CORNERS_MAX];       /* m/s: the last lap that lapped (what the take rides) */
  double next[CORNERS_MAX];        /* m/s: the lap to ride now */
  double slope[CORNERS_MAX];       /* deg of seated lean per m/s, the last change's */
  double base[CORNERS_MAX];        /* deg: each corner's shortfall in the plan's own lap */
  int fails[CORNERS_MAX];          /* laps that did not lap while this corner was changed */
  int done[CORNERS_MAX];           /* the corner keeps its speed (fails, or it does not answer) */
  run_corner last[CORNERS_MAX];    /* the corners of the last lap that lapped */
  int has_last;
  int trying;                      /* the corner the lap being ridden changes (-1: none) */
  int laps, lapped;                /* laps ridden; of them, laps that lapped */
  practice_try log[PRACTICE_MAX_LAPS];   /* the first PRACTICE_MAX_LAPS laps, in order */
} practice;

/* Start for n corners (at most CORNERS_MAX): the plan, every speed 0; next[] is the first lap. */
void practice_init(practice* p, int n);
/* What the lap ridden with p->next did: lapped or not, and its corners c (n of them, in the
 * board order practice_init was given). Returns 1 with p->next set for another lap, or 0 when
 * practice is over (p->speed holds the speeds to ride; p->next is set equal to them). */
int practice_after(practice* p, int lapped, const run_corner* c, int n);
/* A corner's seated lean against the machine's steady-turn limit at its speed, in degrees
 * (negative: short); 0 without a limit. */
double practice_shortfall(const run_corner* c);

#endif
