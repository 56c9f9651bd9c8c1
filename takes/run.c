/* run.c — the ride loop (see run.h). */
#include "takes/run.h"

#include "base/progress.h"
#include "takes/run_linear.h"

#include "base/luabox.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "sim/brake_lift.h"
#include "sim/drive_lift.h"
#include "sim/drivetrain.h"
#include "sim/posture.h"
#include "sim/rider.h"
#include "sim/rider_loop.h"
#include "sim/rider_lqr.h"
#include "sim/rider_speed.h"
#include "sim/rider_trim.h"
#include "base/angle.h"
#include "sim/stunt.h"
#include "sim/track.h"
#include "sim/trim.h"
#include "takes/incident.h"
#include "takes/lapmin.h"
#include "takes/corners.h"
#include "takes/path.h"
#include "takes/recorder.h"
#include "takes/script.h"
#include "takes/takefile.h"

/* The road, with its last answer kept (issue 18). Right after the step the runner asks for the
 * road under the frame; during the step the contact pre-check (sim/vehicle.c stage_contacts) asked
 * the same question: the frame's position at t, and the same hint while both followed the same
 * answers. A query is a pure function of (x, y, hint), so the same question (bit for bit) gets the
 * kept answer, which is what the track would compute again. */
typedef struct road_memo {
  const track* trk;
  int have, hint;
  double x, y;
  road_point out;
  long queries, reused;
} road_memo;

static int memo_query(const void* self, double x, double y, int hint, road_point* out) {
  road_memo* m = (road_memo*)self;   /* the runner's own, writable: the road interface is const */
  m->queries++;
  if (m->have && hint == m->hint && !memcmp(&x, &m->x, sizeof x) && !memcmp(&y, &m->y, sizeof y)) {
    m->reused++;
    *out = m->out;
    return 0;
  }
  int rc = track_query(m->trk, x, y, hint, out);
  m->have = rc == 0;   /* a failed query leaves *out alone: not kept */
  if (m->have) {
    m->x = x;
    m->y = y;
    m->hint = hint;
    m->out = *out;
  }
  return rc;
}

/* The channels of one step (issue 18). The loop writes only those the runner knows itself
 * (rec_sample_context: the context a take of format 4 stores, from which its readers rebuild
 * the rest, takes/takechan.h) and samples the vehicle the first time an event condition reads
 * another in that step (script_channel_source), or before a fired event acts (a linearisation
 * moves the vehicle's data). Recording with store_chan (--store-channels), every step samples
 * them all. Same calls, same values. */
typedef struct step_sample {
  vehicle* v;
  const double* x_t;         /* the state at t */
  double* scratch;           /* room for a state */
  const rec_context* ctx;
  double *poses, *ch;
  double t;
  int done;                  /* sampled in this step */
  long count;                /* steps sampled */
} step_sample;

static void sample_now(void* data) {
  step_sample* p = data;
  if (p->done) return;
  rec_sample_instant(p->v, p->x_t, p->scratch, p->ctx, p->poses, p->ch);   /* all at time t */
  p->ch[0] = p->t;   /* the sample describes time t (the state before this step) */
  p->done = 1;
  p->count++;
}

typedef struct runner {
  take_script* sc;
  rig* rig;
  track* trk;
  vehicle* v;
  path* line;
  double com_b, wheelbase, com_h;   /* m: the trimmed machine's CoM ahead of the rear contact, wheelbase, CoM height */
  lapsim_machine* race_m;    /* the race profile's machine (race_plan), NULL otherwise */
  double* race_k;            /* the curvature its plan corners on (race_plan_mean; NULL: the line's) */
  /* the race profile's corner speeds (takes/practice.h): m/s over the plan in each corner's turn
   * (the track's boards' order), and the corner whose turn each of the line's samples is in (-1:
   * none; race_turn_map). turn_of is NULL when the ride has no corner speeds. */
  double corner_speed[CORNERS_MAX];
  int* turn_of;
  int practice_lap;          /* run_opts.practice_lap: end at a fall or off the tarmac */
  rider_params rp;
  rider_state rs;
  rider_trims trims;         /* the rider's feed-forward table, solved at take start */
  rider_lqr lqr;             /* the rider's LQR steer gains (rider.steer = "lqr"), designed at take start */
  rider_drive drive;         /* the rider's engine and brake maps (throttle/brake feed-forward) */
  posture_params pp;          /* the rider's posture (sim/posture.h) */
  posture_state ps;
  double line_s;              /* station on the rider's line, this step */
  double speed_override;     /* from events: rider.speed, < 0 none */
  double offset_override;    /* rider.offset (m), NAN none */
  int hint, road_hint;
  double hold_gear;          /* gear when there is no rider */
  double base_steer, base_throttle;   /* no rider: the trim's bar torque and throttle, held */
  double input_set[IN_NKIND];   /* inputs fixed by events ("input.front_brake" = 0.3), NAN = none */
  double start_station;
  stunt_params sp;           /* the rider's wheelie/stoppie loops (sim/stunt.h) */
  stunt_state st;
  double stunt_pitch;        /* rad, ISO: rider.pitch, NAN = the stunt's default */
  int rider_started;         /* the rider's first decision is made (its start state set) */
  /* the frame's attitude as control measured it (veh_frame_euler, kinematics at t): the loop
   * reads it after the step instead of measuring again (veh_step moves no body between the
   * controller and its return); euler_set is cleared once read */
  int euler_set;
  double euler[3];           /* roll, pitch, yaw */
  double yaw_cs[2];          /* cos(yaw), sin(yaw): the LQR rider's measurement and the loop's ax, ay
                              * read them (computed once a step; branch loopC); yaw_cs_set as euler_set */
  int yaw_cs_set;
  int fallen;                /* the machine went past 75° of lean (rigs with contacts) */
  /*---- what the ride holds between run_take's stages (opened by stage_open and stage_record,
   * let go by stage_finish alone, whichever stage failed) ----*/
  road_memo memo;            /* the vehicle's road: the vehicle keeps its address, so R outlives it */
  take_writer* w;            /* the take being written; NULL in a dry run (no run_opts.out) */
  double* buf;               /* one allocation for the loop's rows below */
  double *xs, *ch, *inp, *xnext, *cx;   /* state at t, channels, inputs, scratch state, context row */
  int nc;                    /* rec_nchan() */
  const char* names[256];    /* the channels' names, for the events' conditions */
  unsigned char fired[SCRIPT_MAX_EVENTS];
  unsigned char lazy[256];   /* channels sampled on demand: the script keeps this pointer for the loop */
  rec_context ctx;           /* what the runner knows itself of this step (rec_sample_context) */
  step_sample smp;
  const lin_spec* lin_cur;   /* the linear analysis's selection (takes/run_linear.h) */
  int nlin;                  /* linearisations written so far */
  struct run_ctl_snap* snap; /* the controller saved by a closed-loop linearisation (loop_save) */
  /*---- the loop's bookkeeping, carried from step to step ----*/
  long nsteps;
  double cpu0;               /* the loop's thread's CPU clock at its start (run_result.cpu_loop) */
  double wall0;              /* the wall clock at the loop's start */
  fprog bar;                 /* the progress bar on stderr (base/progress.h: simulated seconds) */
  double prev_s, lap_start, L;   /* station at the last step, the current lap's start (< 0 none), track length */
  double ay_f, ax_f;         /* low-passed accelerations for the summary */
  double fr_f;               /* low-passed rear share of the tyres' load, for the summary */
  int stat_gear;             /* the gear and the engine's rpm at the last step, for the summary's upshifts */
  double stat_rpm;
  double off_road_time, rest_time;   /* s off the road / nearly still after a fall, running */
  double slide_x, slide_y;   /* the frame's position at the last step of the slide */
  incident inc;              /* off track and back (takes/incident.h) */
  int stop;                  /* the take ends after this step */
  long blk_left;             /* steps to the bench's next hand-over (a count down: no division a step) */
} runner;

/* One step as the loop's stages after veh_step see it. */
typedef struct run_step {
  long i;                    /* the step's index */
  double t;                  /* its time: the state before the step */
  double fp[3];              /* the frame's position after the step */
  road_point rp;             /* the road under it */
  double roll;               /* the frame's lean (rad) */
} run_step;

/*---- the track as the path module sees it ----*/
static void pr_centre(const void* self, double s, double* x, double* y, double* h) {
  double p[3];
  track_eval(self, s, 0, p, h);
  *x = p[0];
  *y = p[1];
}
static void pr_widths(const void* self, double s, double* l, double* r) { track_widths(self, s, l, r); }
static double pr_grade(const void* self, double s) { return track_grade(self, s); }
static double line_curvature(const void* line, double s) { return path_curvature(line, s); }
static double drive_accel(const void* d, double v) {
  const rider_drive* rd = d;
  return rider_drive_force_max(rd, v) / rd->mass;
}

/* The speed loop aims at the profile's speed this many seconds ahead: the brakes and the engine
 * need that long to get the machine onto the profile's deceleration. */
#define RUN_SPEED_LOOKAHEAD 0.6
/* With the feed-forward of the profile's acceleration (rider_speed.h) the lag left is the
 * throttle's and the brakes' own. */
#define RUN_SPEED_LEAD 0.15
/* ... and its speed this far ahead: the rider brakes a little before the profile does, so the
 * brakes' and the tyres' lag never carries it into a turn faster than planned. */
#define RUN_SPEED_AIM 0.3
/* ... and the body sits up this far before the planned braking begins (the torso needs ~0.6 s
 * to move from the tuck to sitting up, the fed-forward lever rises in a tenth of one) */
#define RUN_POSTURE_LEAD 0.18

/* The machine's course minus its yaw (rad): the direction in which the frame's point at the
 * contacts' midpoint p (its velocity carried there from the frame's centre of mass) moves. */
static double run_course_slip(vehicle* v, const double* p, double yaw) {
  double wv[6];
  double ci[3];
  veh_body_twist(v, v->rig->b_frame, wv);
  veh_body_com(v, v->rig->b_frame, ci);
  double rx = p[0] - ci[0], ry = p[1] - ci[1], rz = -ci[2];
  if (v->out.wheel[0].contact && v->out.wheel[1].contact)
    rz = 0.5 * (v->out.wheel[0].point[2] + v->out.wheel[1].point[2]) - ci[2];
  double cvx = wv[3] + wv[1] * rz - wv[2] * ry, cvy = wv[4] + wv[2] * rx - wv[0] * rz;
  return hypot(cvx, cvy) > 1 ? mt_wrap_angle(atan2(cvy, cvx) - yaw) : 0;
}

/*---- the controller, stage by stage: the rider's target (the line, then the speed), the
 * rider's decision, the script's overlay, the posture ----*/

/* The line's part of the target at station w->s: curvature preview plus heading and lateral
 * errors (not pure pursuit, which aims at a chord and runs wide where the curvature changes
 * fast): the curvature `preview` seconds ahead covers the roll loop's lag; the errors are
 * measured here, on the line (or its offset). */
static void target_line(const runner* R, const path_where* w, double V, double yaw, rider_target* tg) {
  double s_ahead = w->s + fmax(V, 1) * R->sc->preview;
  /* rider.preview_span: the mean over ±span (the racing line's curvature wiggles over a few
   * metres; the lean cannot follow them); without, the line's curvature there */
  tg->curvature = R->sc->preview_span > 0 ? path_curvature_mean(R->line, s_ahead, R->sc->preview_span * fmax(V, 1))
                                          : path_curvature(R->line, s_ahead);
  tg->offset_error = w->offset_error;
  if (isfinite(R->offset_override)) tg->offset_error -= R->offset_override - path_offset(R->line, w->s);
  tg->heading_error = mt_wrap_angle(yaw - w->heading);
}

/* The race profile's drive and braking limits here: sim/lapsim.h's per-wheel limits at the lateral
 * acceleration the line asks at this speed and the road's load factor, the same model as the
 * profile's (race_plan). */
static void race_limits_at(const runner* R, const path_where* w, double V, rider_target* tg) {
  const lapsim_machine* m = R->race_m;
  double ay = V * V * path_curvature(R->line, w->s), n = 1 + V * V * (R->line->kv[w->index] - m->lift) / MT_G;
  lapsim_long_limits(m, ay, n, R->sc->grip, &tg->drive_limit, &tg->brake_limit);
}

/* The racer under the plan's speed catches up with it rather than braking on the plan's
 * schedule from below it: the plan's deceleration is fed forward whole within RACE_CATCH_DEAD
 * (m/s) of the plan's speed here, and less by a share that falls to nothing over the next
 * RACE_CATCH_SPAN (m/s) under it (the speed loop's error, the plan's speed 0.3 s ahead, still
 * brakes). Without it the racer braked for T1 while 10 to 6.6 m/s under the plan (its run-in
 * starts at 30 m/s) and took T1 2.0 m/s slow, 4.1° short of the steady turn's lean (with it
 * 1.0-1.4 m/s slow and 2.5° short; the lap 1:36.360 -> 1:35.934). The neighbours
 * lap or fall (docs/takes.md, The racing lap, round nine): 0.75 and 1.25 m/s over 3.0 lap, 1.0
 * over 2.5 and 4.0 and 0.5 over 3.0 fall; 1.0 over 3.0 laps every grip from 76 % to 99 %. */
#define RACE_CATCH_DEAD 1.0
#define RACE_CATCH_SPAN 3.0
static double race_catch_up(const runner* R, const path_where* w, double V, double accel) {
  if (accel >= 0) return accel;
  double under = path_speed(R->line, w->s) - V;
  return accel * mt_clamp((RACE_CATCH_DEAD + RACE_CATCH_SPAN - under) / RACE_CATCH_SPAN, 0, 1);
}

/* The corner speed (takes/practice.h) at station s: the speed practice learnt for the corner
 * whose turn s is in, 0 outside the turns. */
static double race_turn_speed(const runner* R, double s) {
  const path* p = R->line;
  s = fmod(fmod(s, p->length) + p->length, p->length);
  int i = (int)mt_clamp(s / p->ds, 0, p->n - 1);
  int c = R->turn_of[i];
  return c >= 0 ? R->corner_speed[c] : 0;
}

/* The speed's part of the target (an event's rider.speed, the profile's, or the script's), the
 * gearbox, and the posture's lean correction. */
static void target_speed(const runner* R, const vehicle* v, const path_where* w, double V, double t, rider_target* tg) {
  if (R->speed_override >= 0) tg->speed = R->speed_override;
  else if (R->sc->speed_kind == SCRIPT_SPEED_AUTO && R->rp.drive) {
    /* the profile's speed and acceleration a little ahead (the engine's and the brakes' lag),
     * and the drive and braking limits here */
    tg->speed = path_speed(R->line, w->s + fmax(V, 1) * RUN_SPEED_AIM);
    tg->has_accel = 1;
    tg->accel = path_accel(R->line, w->s + fmax(V, 1) * RUN_SPEED_LEAD);
    path_long_limits(R->line, w->s, V, &tg->drive_limit, &tg->brake_limit);
    if (R->race_m) {
      race_limits_at(R, w, V, tg);
      tg->accel = race_catch_up(R, w, V, tg->accel);
      if (R->turn_of) tg->speed += race_turn_speed(R, w->s + fmax(V, 1) * RUN_SPEED_AIM);
    }
    tg->grade = path_grade(R->line, w->s);
  } else if (R->sc->speed_kind == SCRIPT_SPEED_AUTO) tg->speed = path_speed(R->line, w->s + fmax(V, 1) * RUN_SPEED_LOOKAHEAD);
  else tg->speed = script_target_speed(R->sc, w->s, t);
  tg->auto_gear = R->sc->auto_gear;
  /* the posture's lean correction: only the loops without a trim table read it (sim/rider.c) */
  if (R->sc->posture && !R->rp.trims) tg->roll_offset = posture_roll_offset(&R->pp, v->in.posture);
}

/* The racer's hands and feet under hard braking (the race profile), where the rear carries a few
 * per cent of the load: the rear pedal asks at most half of what the rear tyre can take
 * (μx × its load; the rider's fixed 15 % share locked the rear at 1.2 g, slip −0.4, and the
 * machine weaved into a fall), and the throttle is held where the engine neither drives nor brakes
 * (what a superbike's engine-brake control does: closed-throttle overrun in a low gear locked
 * the unloaded rear as well). */
static void race_hands(const rider_drive* d, vehicle* v) {
  if (v->in.front_brake <= 0) return;
  double fz = v->out.wheel[1].contact ? v->out.wheel[1].fz : 0, mu = v->out.wheel[1].fz > 0 ? 1.3 : 0;
  v->in.rear_brake = fmin(v->in.rear_brake, 0.5 * mu * fz * d->r_rear / d->brake_rear);
  int g = v->in.gear;
  if (g >= 1 && g <= d->ngears && v->in.clutch > 0.5)
    v->in.throttle = fmax(v->in.throttle, rider_drive_throttle(d, v->out.engine_rpm * MT_PI / 30, g, 0));
}

/* The racer's clutch under hard braking (the race profile): with the front lever past
 * RACE_SLIPPER_LEVER the clutch carries at most RACE_SLIPPER_CAP N·m at the crank (a slipper
 * clutch, or the racer's fingers on the lever), so the engine can neither drive nor brake the
 * unloaded rear; off the lever it takes up again over RACE_SLIPPER_RAMP s. Meanwhile the throttle
 * keeps the engine at the gear's speed of the rear wheel (the zero-torque throttle there plus
 * RACE_MATCH_GAIN per rpm short), so taking the drive up again jolts nothing. Why: at 92-94 % of
 * the grip the engine, held at zero torque, still spun the rear at 2-73 N of load (slip +0.44)
 * and the rear had no side grip when it landed (fell 17.3 s at 94 %); entering turn 3 over the
 * profile at 92-93 % fell at 28 s. Without the rev match (gain 0) 92 and 94 % fell in turn 3
 * again (27.3, 27.2 s; at 94 % the lean past 62 deg at 26.35 s, the rear's slip angle to -44 deg;
 * why the rev match matters there is not found); with the lever at 0.1 or 0.3, 88 % fell at
 * 25.6-26.4 s. docs/takes.md, The racing lap. prev_clutch is the engagement the last step rode
 * with. race_hands runs after this and reads the clutch it leaves (in the other order 90-95 %
 * fell at 27.1-28.2 s). */
#define RACE_SLIPPER_LEVER 0.5
#define RACE_SLIPPER_CAP 5.0
#define RACE_SLIPPER_RAMP 0.1
#define RACE_MATCH_GAIN 0.001
static void race_slipper(const rider_drive* d, vehicle* v, double prev_clutch) {
  if (v->in.front_brake > RACE_SLIPPER_LEVER) v->in.clutch = fmin(v->in.clutch, RACE_SLIPPER_CAP / v->rig->drive.clutch_capacity);
  else v->in.clutch = fmin(v->in.clutch, prev_clutch + v->rig->timestep / RACE_SLIPPER_RAMP);
  int g = v->in.gear;
  if (v->in.front_brake <= 0 || v->in.clutch > 0.5 || g < 1 || g > d->ngears) return;
  double rpm = shift_gear_rpm(v, g);
  double u = rider_drive_throttle(d, rpm * MT_PI / 30, g, 0) + RACE_MATCH_GAIN * (rpm - v->out.engine_rpm);
  v->in.throttle = fmax(v->in.throttle, mt_clamp(u, 0, 1));
}

/* The racer's heading under braking: while the front lever is on (the last step's command, above
 * RACE_COURSE_LEVER), the heading loop acts on the machine's course (the direction the point between
 * its contacts moves) instead of the frame's yaw. Under hard braking the rear carries 200-450 N and
 * slides: its slip angle swung by +-4 deg, the frame yawed with it, the heading loop (about V/g rad
 * of lean per rad of heading error, 4.5-6.6 at 39-57 m/s) turned that into a lean target swinging
 * between +12 and -14 deg at 1.5 Hz on the roll-rate limit, and the swing grew until the machine fell
 * braking into turn 2 at 85 % of the grip and above (t = 15.6 s). The course does not swing with the
 * rear. Off the brakes the yaw stays: in a turn near the limit a rear that steps out turns the yaw
 * inward, and the loop's answer, less lean, is what catches it (on the course at all times 76-85 %
 * fell at turn 3's exit, station 787-799 m; docs/takes.md, The racing lap). */
#define RACE_COURSE_LEVER 0.05
static void race_heading(vehicle* v, const double* p, double yaw, rider_target* tg) {
  if (v->in.front_brake > RACE_COURSE_LEVER) tg->heading_error = mt_wrap_angle(tg->heading_error + run_course_slip(v, p, yaw));
}

/* The rider's decision from fresh kinematics (and the stunt's, which owns throttle and brakes):
 * where the machine is on the line, its attitude (kept for the loop: R->euler, R->yaw_cs), the
 * target, the loops; rider_in gets the inputs it chose. Returns the frame's speed (veh_speed). */
static double control_rider(runner* R, vehicle* v, double t, double* rider_in) {
  /* where the machine is: between its tyres' contact points (the line is for the tyres;
   * the frame's centre sits inside it by its height × sin lean) */
  double fp[3], fq[4];
  veh_body_pose(v, v->rig->b_frame, fp, fq);
  double p[2] = {fp[0], fp[1]};
  if (v->out.wheel[0].contact && v->out.wheel[1].contact) {
    p[0] = 0.5 * (v->out.wheel[0].point[0] + v->out.wheel[1].point[0]);
    p[1] = 0.5 * (v->out.wheel[0].point[1] + v->out.wheel[1].point[1]);
  }
  path_where w;
  path_locate(R->line, p[0], p[1], &R->hint, &w);
  R->line_s = w.s;
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  R->euler[0] = roll;
  R->euler[1] = pitch;
  R->euler[2] = yaw;
  R->euler_set = 1;
  R->yaw_cs[0] = cos(yaw);
  R->yaw_cs[1] = sin(yaw);
  R->yaw_cs_set = 1;
  double V = veh_speed(v);
  rider_target tg = {0};
  target_line(R, &w, V, yaw, &tg);
  if (R->sc->race) race_heading(v, p, yaw, &tg);
  if (!R->rider_started) {
    /* The take starts in a solved steady turn, where the tyres' slip points the frame inside
     * its path (1.1–2.0° at the skidpad sweep's 0.8–0.9 g starts). The heading loop reads that
     * as an error; in the steady turn the outer integrator holds it off. Start that integrator
     * where the steady turn needs it (else the machine drifted up to 2.5 m wide in the first
     * seconds on the skidpads). Upright starts (the laps) measure 0 and are unchanged. */
    R->rider_started = 1;
    rider_start_slip(&R->rp, &R->rs, V, tg.curvature, run_course_slip(v, p, yaw));
  }
  target_speed(R, v, &w, V, t, &tg);
  rider_frame fr = {roll, yaw, V, run_yaw_cs_shared ? R->yaw_cs : NULL};
  double prev_clutch = v->in.clutch;
  rider_control_at(&R->rp, &R->rs, v, &tg, v->rig->timestep, &fr);
  if (R->sc->race) race_slipper(&R->drive, v, prev_clutch);   /* first: race_hands reads the clutch it leaves */
  if (R->sc->race) race_hands(&R->drive, v);
  if (R->st.kind != STUNT_NONE) {
    stunt_control(&R->sp, &R->st, v, v->rig->timestep);   /* owns throttle and brakes */
    if (R->st.kind == STUNT_NONE) R->rs.speed_int = 0;    /* landed: the speed loop starts afresh */
    else R->rs.speed_int = fmin(R->rs.speed_int, 0);
  }
  rider_in[IN_STEER] = v->in.steer_torque;
  rider_in[IN_THROTTLE] = v->in.throttle;
  rider_in[IN_FRONT_BRAKE] = v->in.front_brake;
  rider_in[IN_REAR_BRAKE] = v->in.rear_brake;
  rider_in[IN_CLUTCH] = v->in.clutch;
  rider_in[IN_GEAR] = v->in.gear;
  return V;
}

/* The script's overlay on the rider's (or the trim's) inputs: its open-loop inputs, the inputs
 * events fixed, the inputs' ranges; a fallen rider lets go of everything. */
static void control_overlay(runner* R, vehicle* v, double t, const double* rider_in) {
  double out[IN_NKIND];
  script_inputs_at(R->sc, t, rider_in, out);
  for (int k = 0; k < IN_NKIND; k++)
    if (isfinite(R->input_set[k])) out[k] = R->input_set[k];
  v->in.steer_torque = out[IN_STEER];
  v->in.throttle = mt_clamp(out[IN_THROTTLE], 0, 1);
  v->in.front_brake = mt_clamp(out[IN_FRONT_BRAKE], 0, 1);
  v->in.rear_brake = mt_clamp(out[IN_REAR_BRAKE], 0, 1);
  v->in.clutch = mt_clamp(out[IN_CLUTCH], 0, 1);
  v->in.gear = (int)mt_clamp(out[IN_GEAR], 0, 6);
  v->in.rider_lean_torque = out[IN_RIDER_LEAN];
  if (R->fallen) {
    /* down and sliding: the rider has let go of everything */
    v->in.steer_torque = v->in.throttle = v->in.front_brake = v->in.rear_brake = v->in.clutch = 0;
    v->in.rider_lean_torque = 0;
  }
}

/* Hang-off, tuck, sit-up: set-points for the posture joints, at speed V (veh_speed, measured by
 * control_rider: the inputs moved nothing). */
static void control_posture(runner* R, vehicle* v, double V) {
  V = fmax(V, 0);
  double brake = v->in.front_brake;
  /* on a speed profile the rider sits up as the braking begins: with the brakes fed forward
   * (rider_speed.h) the lever rises in a tenth of a second, the body moves with the plan */
  if (R->rp.drive && R->sc->speed_kind == SCRIPT_SPEED_AUTO && R->speed_override < 0 &&
      path_accel(R->line, R->line_s + V * RUN_POSTURE_LEAD) < -0.1 * MT_G)
    brake = fmax(brake, R->pp.brake_full);
  /* posture_ay_ahead(line_curvature, ...) in one call (path_ay_ahead: the same stations and samples) */
  posture_situation ps = {V, path_ay_ahead(R->line, R->line_s, V, R->pp.preview), brake};
  posture_update(&R->pp, &R->ps, &ps, v->rig->timestep, v->in.posture);
}

/* The controller (veh_step calls it): the rider's decision from fresh kinematics, then the
 * script's overlay, then the posture. */
static void control(vehicle* v, void* data) {
  runner* R = data;
  double t = veh_time(v);
  double rider_in[IN_NKIND] = {0};
  double V = 0;   /* the frame's speed (veh_speed), measured once when the rider rides */
  if (R->sc->has_rider) V = control_rider(R, v, t, rider_in);
  else {
    /* No rider: the trim's inputs are the open-loop baseline the script's inputs act on. */
    rider_in[IN_STEER] = R->base_steer;
    rider_in[IN_THROTTLE] = R->base_throttle;
    rider_in[IN_CLUTCH] = 1;
    rider_in[IN_GEAR] = R->hold_gear;
  }
  control_overlay(R, v, t, rider_in);
  if (!R->sc->has_rider) R->hold_gear = v->in.gear;
  if (R->sc->has_rider && R->sc->posture) control_posture(R, v, V);
}

/*---- the controller as a closed loop's (sim/linear.h lin_loop): a closed-loop linearisation
 * calls control() at perturbed points; everything control() writes is saved first and put back
 * after each decision and at the end, so the ride goes on bit for bit. */
typedef struct run_ctl_snap {
  rider_state rs;
  posture_state ps;
  stunt_state st;
  int hint, euler_set, yaw_cs_set, rider_started;
  double line_s, euler[3], yaw_cs[2], hold_gear;
  rider_loop_sel sel;        /* the rider's continuous states in this ride (rider_loop.h) */
} run_ctl_snap;

static void loop_save(void* data) {
  runner* R = data;
  run_ctl_snap* c = R->snap;
  c->rs = R->rs, c->ps = R->ps, c->st = R->st;
  c->hint = R->hint, c->euler_set = R->euler_set, c->yaw_cs_set = R->yaw_cs_set, c->rider_started = R->rider_started;
  c->line_s = R->line_s, c->hold_gear = R->hold_gear;
  memcpy(c->euler, R->euler, sizeof c->euler);
  memcpy(c->yaw_cs, R->yaw_cs, sizeof c->yaw_cs);
}

static void loop_restore(void* data) {
  runner* R = data;
  const run_ctl_snap* c = R->snap;
  R->rs = c->rs, R->ps = c->ps, R->st = c->st;
  R->hint = c->hint, R->euler_set = c->euler_set, R->yaw_cs_set = c->yaw_cs_set, R->rider_started = c->rider_started;
  R->line_s = c->line_s, R->hold_gear = c->hold_gear;
  memcpy(R->euler, c->euler, sizeof c->euler);
  memcpy(R->yaw_cs, c->yaw_cs, sizeof c->yaw_cs);
}

static void loop_get(void* data, double* c) {
  runner* R = data;
  rider_loop_get(&R->snap->sel, &R->rs, c);
}

static void loop_set(void* data, const double* c) {
  runner* R = data;
  rider_loop_set(&R->snap->sel, &R->rs, c);
}

/* The rider's limits at its last decision, and two of the runner's own: a stunt's loops own the
 * throttle and brakes (not linearised), a fallen rider has let go. */
#define RUN_LIM_STUNT (1u << RIDER_LIM_N)
#define RUN_LIM_FALLEN (1u << (RIDER_LIM_N + 1))
static unsigned loop_limits(void* data) {
  runner* R = data;
  if (!R->sc->has_rider) return 0;
  return R->rs.limits | (R->st.kind != STUNT_NONE ? RUN_LIM_STUNT : 0) | (R->fallen ? RUN_LIM_FALLEN : 0);
}

static const char* loop_limit_name(unsigned bits) {
  if (bits & ((1u << RIDER_LIM_N) - 1)) return rider_limit_name(bits);
  return bits & RUN_LIM_STUNT ? "stunt loop (wheelie or stoppie)" : "grip (the machine has fallen)";
}

/* The ride's controller as a lin_loop (R->snap allocated here, freed with the runner). */
static void loop_describe(runner* R, lin_loop* L) {
  if (!R->snap) R->snap = mt_alloc(sizeof *R->snap);
  memset(L, 0, sizeof *L);
  R->snap->sel.n = 0;
  if (R->sc->has_rider) {
    int accel = R->rp.drive && R->sc->speed_kind == SCRIPT_SPEED_AUTO && R->speed_override < 0;
    rider_loop_select(&R->rp, 1, accel, &R->snap->sel);
  }
  rider_loop_describe(&R->snap->sel, L);
  L->data = R;
  L->get = loop_get;
  L->set = loop_set;
  L->save = loop_save;
  L->restore = loop_restore;
  L->limits = loop_limits;
  L->limit_name = loop_limit_name;
}

static double cpu_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int open_writer(runner* R, const char* out, int store_chan, take_writer** wp, mt_err* e) {
  const rig* r = R->rig;
  int nb = rec_nbody(r), nc = rec_nchan(), ni = rec_ninput();
  const char* bn[RIG_MAX_BODIES + VEH_NLINK];
  const char* bp[RIG_MAX_BODIES + VEH_NLINK];
  for (int i = 0; i < nb; i++) {
    bn[i] = rec_body_name(r, i);
    bp[i] = rec_body_parent(r, i);
  }
  const char* cn[256];
  const char* cu[256];
  for (int i = 0; i < nc; i++) {
    cn[i] = rec_channels()[i].name;
    cu[i] = rec_channels()[i].units;
  }
  const char* in[16];
  const char* iu[16];
  for (int i = 0; i < ni; i++) {
    in[i] = rec_inputs()[i].name;
    iu[i] = rec_inputs()[i].units;
  }
  take_schema sch = {r->timestep, veh_state_size(R->v), ni, in, iu, nb, bn, bp, nc, cn, cu, store_chan, NULL};
  int* rates = mt_alloc(sizeof(int) * (size_t)(veh_state_size(R->v) + 1));   /* format 5: integrated values */
  veh_state_rates(R->v, rates);
  sch.state_rate = rates;
  take_source src[64];
  int ns = 0;
  char script_name[512], rig_name[512];   /* never the author's folders (issue 11) */
  src[ns++] = (take_source){"script", luabox_recorded_name(R->sc->path, script_name, sizeof script_name), R->sc->source};
  src[ns++] = (take_source){"rig", luabox_recorded_name(r->path, rig_name, sizeof rig_name), r->source};
  for (int i = 0; i < r->nmodule && ns < 62; i++) src[ns++] = (take_source){"module", r->modules[i].name, r->modules[i].text};
  src[ns++] = (take_source){"track", track_name(R->trk), track_source(R->trk)};
  /* overrides as JSON, ["key=value", ...], written by jansson as takes/ride.c writes them (and
   * take_open reads them): every string escaped */
  json_t* ov = json_array();
  for (int i = 0; i < r->nset; i++) json_array_append_new(ov, json_string(r->sets[i]));
  char* js = json_dumps(ov, JSON_COMPACT);
  json_decref(ov);
  if (!js) return mt_fail(e, MT_EINTERNAL, "%s: out of memory writing the overrides", out);
  *wp = take_writer_open(out, &sch, src, ns, js, e);
  free(rates);
  free(js);
  if (!*wp) return e->code ? e->code : MT_EINTERNAL;
  struct utsname u;
  char plat[400] = "unknown";
  if (uname(&u) == 0) snprintf(plat, sizeof plat, "%s %s %s", u.sysname, u.release, u.machine);
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", r->timestep);
  char mj[64];
  veh_integrator(mj, sizeof mj);
  time_t tt = time(NULL);
  char created[64];
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
  if (take_writer_meta(*wp, "program", "mototake", e) || take_writer_meta(*wp, "program_version", mt_version(), e) ||
      take_writer_meta(*wp, "git_revision", mt_git_rev(), e) || take_writer_meta(*wp, "platform", plat, e) ||
      take_writer_meta(*wp, "timestep", buf, e) || take_writer_meta(*wp, "integrator", mj, e) ||
      take_writer_meta(*wp, "rig", r->name, e) || take_writer_meta(*wp, "track", track_name(R->trk), e) ||
      take_writer_meta(*wp, "created", created, e))
    return e->code;
  return MT_OK;
}

run_blocks run_bench_blocks;
int run_yaw_cs_shared = 1;

/*==== run_take, stage by stage ====
 * open (script, rig, track, vehicle) -> rider (line, loops, stunt, posture) -> start (the trimmed
 * steady state) -> plan (the speed profile) -> hand over (the rider's integrators, the controller)
 * -> record (the take writer) -> tables (the rider's trims and LQR) -> loop (per step: step,
 * where, context, record, statistics, stop checks, events, progress) -> finish (the end reason,
 * the take marked complete or discarded, everything freed). A stage returns MT_OK or the error it
 * put in e; whatever it opened stays in the runner for stage_finish. */

/* The script, the rig with the script's overrides then the command line's, the track, and the
 * vehicle on the memoised road; the linear analysis's names are checked before riding. */
static int stage_open(runner* R, const run_opts* o, mt_err* e) {
  R->sc = script_load(o->script, e);
  if (!R->sc) return MT_EINPUT;
  char path[4096];
  rig_resolve(R->sc->rig, path, sizeof path);
  int nset = R->sc->noverride + o->nset;
  const char** sets = mt_alloc(sizeof(char*) * (nset + 1));
  for (int i = 0; i < R->sc->noverride; i++) sets[i] = R->sc->overrides[i];
  for (int i = 0; i < o->nset; i++) sets[R->sc->noverride + i] = o->sets[i];
  R->rig = rig_load(path, sets, nset, e);
  free(sets);
  if (!R->rig) return MT_EINPUT;
  int rc;
  if ((rc = script_events_resolve(R->sc, R->rig->timestep, e))) return rc;   /* events_rate, every: in whole steps */
  track_resolve(R->sc->track, path, sizeof path);
  R->trk = track_load(path, e);
  if (!R->trk) return MT_EINPUT;
  if (R->sc->has_rider && R->sc->race && !track_closed(R->trk))   /* as `mototake lapsim` refuses it */
    return mt_fail(e, MT_EINPUT, "%s:%d: rider: field 'profile': \"race\" rides the machine's minimum lap, which needs a closed track; %s is open",
                   R->sc->path, R->sc->race_line, track_name(R->trk));
  R->memo = (road_memo){R->trk, 0, 0, 0, 0, {0}, 0, 0};
  R->v = veh_new(R->rig, (road){&R->memo, memo_query}, 0, e);
  if (!R->v) return e->code;
  return run_linear_check(R->v, R->sc, e);
}

/* The racer's shift points. A gear's force falls below the next gear's only past the power
 * peak, so a racer holds each gear to the limiter, as sim/lapsim.h's best gear does: upright,
 * the upshift comes as the rev limiter's fuel cut begins. Leaned past RACE_SHORT_LEAN it comes
 * RACE_SHIFT_SHORT short of the cut: the cut's loss of drive at lean throws the rear out. With
 * the upshift at the cut at any lean, 76, 80, 85, 95 and 96 % of the grip fell (at 95 % a shift
 * from 3rd to 4th at 41 deg of lean, 201 km/h, and the rear's slip angle grew from -3 to -27 deg
 * in 0.3 s); 200 rpm short at any lean laps every grip from 76 to 99 % but never reaches the
 * limiter. Short past 5, 7.5 and 10 deg lap every grip from 76 to 99 %; past 12 deg 76 % fell,
 * past 15 deg 76, 80 and 85 % (docs/takes.md, The racing lap). */
#define RACE_SHIFT_SHORT 200.0
#define RACE_SHORT_LEAN (7.5 * MT_PI / 180)
/* The racer's hands go from the throttle to the brake lever faster than the cautious rider's: the
 * force it asks may change by RACE_JERK (m/s³) instead of rider_default_params' 40. The profile
 * switches from full drive (+7.6 m/s²) to full braking (−10.5 m/s²) at one station; at 40 m/s³
 * the rider needed 0.45 s for that, was 3-4 m/s over the profile's speed braking into the infield's
 * right-hander (station 700-760 m at 85 % of the grip), could not brake the excess off once the
 * turn took the tyres' grip and ran wide. 80, 100, 140, 160, 200 and 400 were also ridden (docs/takes.md). */
#define RACE_JERK 120.0
/* How fast the race profile's asked-for lean may change (rad/s; rider_default_params' 1.2). In
 * the Corkscrew's left-right flick at 91-94 % of the grip the lean asked lagged the line on the
 * 1.2 rad/s limit, the machine came into the right-hander late, the rear's slip angle swung from
 * -5 to -42 deg and it fell (61.8-62.6 s). 0.6 and 0.8 fell there or earlier; 1.5 rode 92-94 %,
 * 2.0 85-96 % but 87 % (docs/takes.md, The racing lap). */
#define RACE_ROLL_RATE 2.0
static void race_rider(const rig* r, rider_params* rp) {
  rp->shift.up_rpm = r->engine.rev_limit * 30 / MT_PI;
  rp->shift.short_lean = RACE_SHORT_LEAN;
  rp->shift.up_rpm_leaned = rp->shift.up_rpm - RACE_SHIFT_SHORT;
  rp->jerk = RACE_JERK;
  rp->max_roll_rate = RACE_ROLL_RATE;
}

/* The rider's line (and its speed profile's stations), its loops' parameters, the stunt it
 * starts in, and its posture. */
static int stage_rider(runner* R, mt_err* e) {
  path_road pr = {R->trk, track_length(R->trk), track_closed(R->trk), pr_centre, pr_widths, pr_grade};
  int kind = R->sc->line_kind == SCRIPT_LINE_RACING ? PATH_RACING : R->sc->line_kind == SCRIPT_LINE_OFFSET ? PATH_OFFSET : PATH_CENTRE;
  R->line = path_build(&pr, kind, R->sc->line_offset, R->sc->margin, 2.0);
  rider_default_params(&R->rp);
  if (R->sc->has_rider && R->sc->race) race_rider(R->rig, &R->rp);
  if (R->sc->has_rider) R->rp.w_lateral = R->sc->lateral;   /* rider.lateral (default 0.5 rad/s, as rider_default_params) */
  stunt_default_params(&R->sp);
  if (R->sc->has_rider && R->sc->stunt != STUNT_NONE) {
    R->stunt_pitch = R->sc->stunt_pitch;
    int rc = stunt_start(&R->st, R->sc->stunt, isnan(R->stunt_pitch) ? stunt_default_pitch(R->sc->stunt) : R->stunt_pitch, e);
    if (rc) return rc;
  }
  posture_default_params(&R->pp, R->rig);
  posture_reset(&R->ps);
  return MT_OK;
}

/* The start: a solved steady state at the start station, on the line (tr: the trim found). */
static int stage_start(runner* R, trim_result* tr, mt_err* e) {
  double p0[3], h0;
  if (track_closed(R->trk)) {
    double L0 = track_length(R->trk);
    R->sc->start_station = fmod(fmod(R->sc->start_station, L0) + L0, L0);   /* negative: back from the line */
  }
  double start_off = R->sc->start_offset;
  if (R->sc->has_rider && R->sc->line_kind != SCRIPT_LINE_CENTRE && start_off == 0) start_off = path_offset(R->line, R->sc->start_station);
  track_eval(R->trk, R->sc->start_station, start_off, p0, &h0);
  R->start_station = R->sc->start_station;
  trim_spec ts = {0};
  ts.speed = R->sc->start_speed;
  /* Start in the steady turn the line asks for there, unless the script gives a lean. */
  if (R->sc->start_lean != 0 || !R->sc->has_rider) {
    ts.fix_roll = 1;
    ts.roll = R->sc->start_lean * MT_PI / 180;
  } else {
    ts.fix_roll = 0;
    ts.yaw_rate = R->sc->start_speed * path_curvature(R->line, R->sc->start_station);
  }
  ts.gear = R->sc->start_gear;
  ts.min_rpm = 1.1 * R->rp.shift.down_rpm;   /* a gear the rider will not shift out of at once */
  ts.x = p0[0];
  ts.y = p0[1];
  ts.z = p0[2];
  ts.heading = h0;
  if (R->sc->has_rider && R->sc->posture) {   /* the rider is already in the posture the start asks for */
    double V0 = fmax(R->sc->start_speed, 0);
    posture_situation px = {V0, posture_ay_ahead(line_curvature, R->line, R->sc->start_station, V0, R->pp.preview), 0};
    posture_start(&R->pp, &R->ps, &px, R->v->in.posture);
  }
  int rc;
  if ((rc = trim_solve(R->v, &ts, tr, e))) return rc;
  if (!R->sc->has_rider) return MT_OK;
  /* In a hard steady turn the tyres' slip points the frame inside its course: turn the start
   * so that the course, not the yaw, lies along the line (else it heads out of the turn by
   * that angle, 1.1–2.0° at the skidpad sweep's 0.8–0.9 g starts), and solve again. */
  veh_forward(R->v);
  double fp[3], fq[4];
  veh_body_pose(R->v, R->rig->b_frame, fp, fq);
  double pc[2] = {fp[0], fp[1]}, r0, p0_, y0;
  if (R->v->out.wheel[0].contact && R->v->out.wheel[1].contact)
    for (int k = 0; k < 2; k++) pc[k] = 0.5 * (R->v->out.wheel[0].point[k] + R->v->out.wheel[1].point[k]);
  veh_frame_euler(R->v, &r0, &p0_, &y0);
  double slip0 = run_course_slip(R->v, pc, y0);
  if (fabs(slip0) > 1e-6) {
    ts.heading = h0 - slip0;
    if ((rc = trim_solve(R->v, &ts, tr, e))) return rc;
  }
  return MT_OK;
}

/* The rider's drive model from the trimmed machine: its engine and brake maps, with the wheelbase,
 * the CoM's place and height measured on the machine (defaults when a wheel is off the ground),
 * and the wheels' spin inertias. Returns the machine's mass (measured before veh_forward). */
static double plan_drive(runner* R) {
  double mass = veh_mass(R->v), b = 0.6, wb = 1.4, hc = 0.55;
  veh_forward(R->v);
  if (R->v->out.wheel[0].contact && R->v->out.wheel[1].contact) {
    double c[3];
    veh_com(R->v, c);   /* the whole machine's CoM */
    const double *pf = R->v->out.wheel[0].point, *pr = R->v->out.wheel[1].point;
    double dx = pf[0] - pr[0], dy = pf[1] - pr[1];
    wb = hypot(dx, dy);
    b = ((c[0] - pr[0]) * dx + (c[1] - pr[1]) * dy) / wb;
    hc = c[2] - 0.5 * (pf[2] + pr[2]);
  }
  rider_drive_build(R->rig, mass, b, wb, hc, R->rp.shift.up_rpm, &R->drive);
  R->com_b = b, R->wheelbase = wb, R->com_h = hc;
  for (int k = 0; k < 2; k++) {   /* a wheel's spin inertia: its body's largest principal moment */
    double I[3];
    veh_body_inertia(R->v, R->rig->wheel[k].body, I);
    *(k ? &R->drive.i_rear : &R->drive.i_front) = fmax(I[0], fmax(I[1], I[2]));
  }
  return mass;
}

/* The race profile (rider.profile = "race"): the speed is sim/lapsim.h's minimum-time profile at
 * the script's grip (rider.grip × the tyres' peak), from the machine as trimmed (its CoM height
 * and place measured at the start, as the rider's drive model has them: the loaded machine
 * sits lower at the back and its rider higher than the reference pose), every wheel within its
 * own ellipse, no top speed but the rev limiter in top gear; the rider's drive and braking
 * limits are the same model's (race_limits_at). Replaces the cautious profile's speeds. */
/* The plan brakes within RACE_STOPPIE_SHARE of the trimmed machine's static stoppie limit
 * (R->drive.a_stoppie, g·(p − b)/h): under hard braking the fork dives and the air's drag acts
 * above the ground, so the rear lifts before the static limit. At 97 % of the grip with the whole
 * limit the rear carried 2-4 % of its load for 1.6 s braking into the Corkscrew (51.5-53.2 s,
 * station 1581-1661 m), free-wheeled to a slip ratio of +0.36, landed spinning and sideways when
 * the brake let go and the machine fell at 54.41 s. With the upshift 200 rpm short of the cut
 * (RACE_SHIFT_SHORT), at 98.5 % of the grip 0.895-0.905 all lap (1:36.31-1:36.23) with the rear
 * down to 0-2 % of its load; 0.91 fell at 77.9 s, 0.92 at 77.5 s (docs/takes.md, The racing lap). */
#define RACE_STOPPIE_SHARE 0.90
/* The plan drives within RACE_WHEELIE_SHARE of the wheelie limit as the machine squats
 * (sim/drive_lift.h): the least drive at which the front lifts at the speeds a racer drives out
 * of this lap's corners at, RACE_EXIT_V (above 40 m/s the sport1000's engine cannot lift it).
 * The rigid g·b/h (1.182 g as trimmed) is 18 % more than the 1.000 g where it lifts at 40 m/s;
 * with it the front carried 0-250 N for 2 s out of turn 2 and the lap rode the front's edge. At
 * 98.5 % of the grip 0.96-0.99 of it lap, 1.00 falls in turn 3 (27.75 s); 0.98 laps every grip
 * from 76 % to 98 % (99 % falls in turn 6; docs/takes.md, The racing lap, round nine). */
#define RACE_WHEELIE_SHARE 0.98
static const double RACE_EXIT_V[] = {15, 20, 25, 30, 35, 40};
static double race_wheelie(const runner* R) {
  double a = INFINITY;
  for (size_t i = 0; i < sizeof RACE_EXIT_V / sizeof RACE_EXIT_V[0]; i++) {
    drive_lift dl;
    mt_err e = {0};
    if (drive_lift_at_speed(R->rig, RACE_EXIT_V[i], &dl, &e) == MT_OK && dl.lifted) a = fmin(a, dl.accel);
  }
  return isfinite(a) ? fmin(R->drive.a_wheelie, RACE_WHEELIE_SHARE * a) : R->drive.a_wheelie;
}

/* The plan's second and third passes corner on the curvature the rider's lean follows
 * (path_curvature_mean over ± rider.preview_span at the plan's speed, as target_line previews
 * it; two passes: the span depends on the speed the last pass gave): on the line's own curvature
 * the plan slowed for peaks a few metres long that the lean, following their mean, never
 * reached, and the machine cornered short of its limit there (turn 10 4.3 deg short of the
 * steady turn's lean, 0.7 with the mean). The path the mean curvature draws is within about
 * w²·κ/6 of the line, w the half-width (0.19 m at turn 6's apex: w 8.7 m, κ 0.015 1/m).
 * Returns MT_EINTERNAL when out of memory. */
#define RACE_MEAN_PASSES 2
static int race_plan_mean(runner* R, const lapsim_machine* m, lapsim_result* ls) {
  path* p = R->line;
  double* km = malloc(sizeof(double) * (p->n > 0 ? p->n : 1));
  if (!km) return MT_EINTERNAL;
  int rc = MT_OK;
  for (int pass = 0; pass < RACE_MEAN_PASSES && rc == MT_OK; pass++) {
    for (int i = 0; i < p->n; i++) km[i] = path_curvature_mean(p, p->s[i], R->sc->preview_span * fmax(p->v[i], 1));
    rc = lapmin_run_k(m, p, km, R->sc->grip, 0, p->v, ls);
  }
  if (rc == MT_OK) R->race_k = km;   /* the runner frees it */
  else free(km);
  return rc;
}

static int race_plan(runner* R, path_plan* plan) {
  lapsim_machine* m = R->race_m = mt_alloc(sizeof *m);
  lapsim_machine_from_rig(R->rig, m);
  m->b = R->com_b;
  m->p = R->wheelbase;
  m->h = R->com_h;
  m->a_wheelie = race_wheelie(R);
  m->a_stoppie = RACE_STOPPIE_SHARE * R->drive.a_stoppie;
  lapsim_result ls;
  int rc = lapmin_run(m, R->line, R->sc->grip, 0, R->line->v, &ls);
  if (rc == MT_OK && R->sc->preview_span > 0) rc = race_plan_mean(R, m, &ls);
  if (rc) return rc;
  plan->ay_peak = ls.ay_peak;
  plan->brake_peak = ls.brake_peak;
  plan->drive_peak = ls.drive_peak;
  return MT_OK;
}

/* The same minimum cornering within the machine's own steady turn (sim/lapsim.h
 * lapsim_machine_turns: the most lateral acceleration its steady turn holds at each speed, where
 * the point mass has μy·n·g), and how far the plan (race_plan, at the script's grip of the
 * point mass) asks past what that turn holds: its largest v²|κ| over the hold at 100 % grip on
 * the line's samples (κ the curvature the plan cornered on, R->race_k), and where. m: the point
 * mass's machine (copied, not changed). */
static void race_turns(runner* R, const lapsim_machine* m, run_result* res) {
  lapsim_machine* mt = mt_alloc(sizeof *mt);
  *mt = *m;
  mt_err e = {0};
  lapsim_result ls;
  res->plan_over_corner = -1;
  if (lapsim_machine_turns(R->rig, mt, &e) == MT_OK && mt->nturn > 0 && lapmin_run(mt, R->line, 1, 1, NULL, &ls) == MT_OK) {
    res->has_turns = 1;
    res->min_lap_turns = ls.time;
    const path* p = R->line;
    for (int i = 0; i < p->n; i++) {
      double k = R->race_k ? R->race_k[i] : p->k[i];
      double v = p->v[i], hold = lapsim_lateral_hold(mt, v, p->kv[i], 1), r = hold > 0 ? v * v * fabs(k) / hold : 0;
      int c = corners_at(res->corner, res->ncorner, i * p->ds);
      if (c >= 0) res->corner[c].plan_over = fmax(res->corner[c].plan_over, r);
      if (r > res->plan_over) {
        res->plan_over = r;
        res->plan_over_speed = v;
        res->plan_over_corner = c;
      }
    }
  }
  free(mt);
}

/* The machine's own minimum lap on the line ridden (sim/lapsim.h at the tyres' whole grip) and
 * the limits the race summary measures the ride against. */
static void race_minimum(runner* R, run_result* res) {
  lapsim_machine* m = mt_alloc(sizeof *m);
  lapsim_result ls;
  lapsim_machine_from_rig(R->rig, m);
  res->short_lean = R->rp.shift.short_lean;
  if (lapmin_run(m, R->line, 1, 1, NULL, &ls) == MT_OK) {
    res->has_min = 1;
    res->min_lap = ls.time;
    res->lean_limit = ls.lean_limit;
    res->brake_limit = ls.brake_limit / MT_G;
    res->wheelie_limit = m->a_wheelie / MT_G;
    race_turns(R, m, res);
  }
  free(m);
}

/* The race summary's stoppie limit as the machine dives (sim/brake_lift.h), at the speed of the
 * lap's hardest braking: lapsim's g·(p − b)/h is a rigid machine's (1.373 g for the sport1000),
 * and on its springs the machine dives and its rear lifts sooner (1.22 g at 54 km/h, 1.12 g at
 * 216 km/h: docs/lapsim.md). Measured after the ride, on a scratch vehicle of the
 * same rig: the take is not touched. Nothing is said when it cannot be measured. */
static void race_lift(runner* R, run_result* res) {
  brake_lift bl;
  mt_err e = {0};
  if (res->peak_brake_speed > 0 && brake_lift_at_speed(R->rig, res->peak_brake_speed, &bl, &e) == MT_OK && bl.lifted) {
    res->has_lift = 1;
    res->lift_limit = bl.decel / MT_G;
  }
}

/* The race summary's wheelie limit as the machine squats (sim/drive_lift.h), at the speed of the
 * lap's hardest drive: lapsim's g·b/h is a rigid machine's (1.213 g for the sport1000); on its
 * springs, with the wheels' and the crank's spin and the air, the front lifts sooner (1.047 g at
 * 67 km/h, 1.009 g at 131 km/h: docs/lapsim.md). After the ride, on scratch vehicles of the same
 * rig: the take is not touched. Nothing is said when no ramp lifts the front. */
static void race_front_lift(runner* R, run_result* res) {
  drive_lift dl;
  mt_err e = {0};
  if (res->peak_drive_speed > 0 && drive_lift_at_speed(R->rig, res->peak_drive_speed, &dl, &e) == MT_OK && dl.lifted) {
    res->has_front_lift = 1;
    res->front_lift = dl.accel / MT_G;
    res->front_lift_speed = dl.speed;
  }
}

/* The race summary's lean limit as the machine has it: lapsim's is a point mass's on the rear
 * tyre's crown at the tyres' peak friction; the machine's own steady turn (sim/trim.h, its rider
 * sitting still, as max_lean_seated counts the lean) ends at a fold where a tyre saturates
 * (trim_lean_fold), at the speed of the lap's largest seated lean. After the
 * ride, on a scratch vehicle: the take is not touched; nothing is said without a fold. */
static void race_lean_fold(runner* R, run_result* res) {
  mt_err e = {0};
  if (!(res->max_lean_seated_speed > 0)) return;
  vehicle* v = veh_new(R->rig, (road){0}, 0, &e);
  if (!v) return;
  res->lean_fold = trim_lean_fold(v, res->max_lean_seated_speed, &res->lean_fold_roll);
  corners_folds(res->corner, res->ncorner, v);   /* and each corner's, at its own speed */
  veh_free(v);
}

/* Each corner's turn, where its corner speed applies (race_turn_speed): the line's samples from the
 * corner's board to the next one's where the line's curvature is at least RACE_TURN_SHARE of its
 * largest there. Over the whole stretch from one board to the next a higher speed also came into
 * the braking for the next corner and the straight before it: T1 taken 0.5, 1.5, 2 or 2.5 m/s
 * faster fell at T6's entry (42.8-43.6 s). In the turn alone T1 took 0.5 to 5 m/s but 1 and 2
 * (falls in T10, 76.4 s), T6 1 to 6 m/s (docs/takes.md, round eleven). */
#define RACE_TURN_SHARE 0.5
static void race_turn_map(runner* R, const run_result* res) {
  const path* p = R->line;
  R->turn_of = mt_alloc(sizeof(int) * (size_t)p->n);
  double peak[CORNERS_MAX] = {0};
  for (int i = 0; i < p->n; i++) {
    int c = R->turn_of[i] = corners_at(res->corner, res->ncorner, i * p->ds);
    if (c >= 0) peak[c] = fmax(peak[c], fabs(p->k[i]));
  }
  for (int i = 0; i < p->n; i++) {
    int c = R->turn_of[i];
    if (c >= 0 && !(peak[c] > 0 && fabs(p->k[i]) >= RACE_TURN_SHARE * peak[c])) R->turn_of[i] = -1;
  }
}

/* The racer's practice (rider.practice, takes/practice.h): up to that many dry rides of the same
 * script before the take, each a whole ride of its own (run_take with run_opts.practice_lap, the
 * speeds of practice's next lap), then the take rides the speeds of the last that lapped. A
 * practice ride that fails otherwise than by its riding ends the take with its error. */
static int stage_practice(runner* R, const run_opts* o, run_result* res, mt_err* e) {
  practice* P = mt_alloc(sizeof *P);
  run_result* pr = mt_alloc(sizeof *pr);
  practice_init(P, res->ncorner);
  run_opts po = *o;
  po.out = NULL;
  po.quiet = 1;
  po.practice_lap = 1;
  po.corner_speed = P->next;
  fprog bar;
  fprog_start_work(&bar, R->sc->practice, "practice laps", !o->quiet);
  int rc = MT_OK, more = 1;
  while (more && P->laps < R->sc->practice) {
    fprog_tick(&bar, P->laps);
    if ((rc = run_take(&po, pr, e))) break;
    int lapped = pr->lap_time > 0 && pr->fell_time < 0 && pr->off_track == 0;
    if (lapped) res->practice_lap_time = pr->lap_time;   /* practice_after keeps this lap's speeds */
    for (int i = 0; i < pr->ncorner && i < res->ncorner; i++) pr->corner[i].plan_over = res->corner[i].plan_over;
    more = practice_after(P, lapped, pr->corner, pr->ncorner);
  }
  fprog_show(&bar, P->laps);
  fprog_end(&bar);
  memcpy(res->practice_log, P->log, sizeof res->practice_log);
  res->practice_laps = P->laps;
  res->practice_lapped = P->lapped;
  if (!P->lapped) res->practice_lap_time = 0;
  memcpy(R->corner_speed, P->speed, sizeof R->corner_speed);
  free(pr);
  free(P);
  return rc;
}

/* Speed profile (QSS, in the tyres' force): lateral, drive and braking within grip × the
 * tyres' peak friction (friction ellipse, load factor over crests), drive also within the
 * engine at full throttle and grip × the wheelie limit, braking within grip × the stoppie
 * limit; the air's drag eats drive and helps braking. The rider feeds its acceleration forward
 * (with a rider on "auto" speed: res gets the plan's peaks). */
static int stage_plan(runner* R, run_result* res, mt_err* e) {
  double g = R->sc->grip;
  path_plan plan;
  rider_tyre_peaks(R->rig, &res->mu_y, &res->mu_x);
  double mass = plan_drive(R);
  /* braking also within 0.75·grip·g: the rider brakes mostly upright, and harder braking
   * unsettled the roll loop in our trials; drive within 0.9·grip·g: with more drive the
   * quickshifter's cut on the 1→2 upshift jolted the machine by 0.30–0.33 g (docs/takes.md) */
  double a_brake = fmin(g * R->drive.a_stoppie, 0.75 * g * MT_G), a_drv = fmin(g * R->drive.a_wheelie, 0.9 * g * MT_G);
  path_limits lim = {g * res->mu_y, g * res->mu_x, a_drv, a_brake,
                     0.5 * R->rig->aero.rho * R->rig->aero.cd_area / mass, R->sc->has_rider ? R->sc->top_speed : 80,
                     drive_accel, &R->drive};
  path_speed_profile_qss(R->line, &lim, &plan);
  int rc = R->sc->has_rider && R->sc->race ? race_plan(R, &plan) : MT_OK;
  if (rc)
    return mt_fail(e, rc, "%s: rider: the race profile's plan could not be made (%s)", R->sc->path,
                   rc == MT_EINTERNAL ? "out of memory" : "its line has fewer than two samples");
  if (R->sc->has_rider && R->sc->speed_kind == SCRIPT_SPEED_AUTO) {
    res->has_plan = 1;
    res->plan_ay = plan.ay_peak / MT_G;
    res->plan_brake = plan.brake_peak / MT_G;
    res->plan_drive = plan.drive_peak / MT_G;
    res->plan_time = path_time(R->line);
    R->rp.drive = &R->drive;
  }
  if (R->sc->has_rider && R->sc->race) {
    res->ncorner = corners_init(res->corner, CORNERS_MAX, R->trk);
    /* a practice lap leaves out the summary's minimum lap and the plan's ask by corner (0.33 s a
     * lap): the ask is the plan's, the same in every lap, and stage_practice reads the take's own */
    if (!R->practice_lap) race_minimum(R, res);
  }
  return MT_OK;
}

/* The hand-over: start from the trim's whole steady state, its gear, bar torque and throttle
 * (the rider's integrators, or the open-loop baseline without a rider), and let the controller
 * drive. */
static void stage_hand_over(runner* R, const trim_result* tr) {
  R->hold_gear = R->v->in.gear;
  R->rs.steer_int = tr->steer_torque;   /* the rider starts holding the bars as the trim found them */
  R->rs.roll_ref = tr->roll;             /* ... and asking for the lean it has */
  if (R->rp.ki_speed > 0 && !R->rp.drive) R->rs.speed_int = tr->throttle / R->rp.ki_speed;   /* and the throttle */
  R->base_steer = tr->steer_torque;
  R->base_throttle = tr->throttle;
  R->v->control = control;
  R->v->control_data = R;
}

/* The rider's trim table (a few hundred solves on a scratch vehicle; run after the take file
 * exists, so a ride killed early still leaves a readable take) and its LQR steer gains. */
static int stage_tables(runner* R, mt_err* e) {
  if (!R->sc->has_rider) return MT_OK;
  int rc;
  if ((rc = rider_trims_build(R->rig, R->sc->posture ? &R->pp : NULL, &R->trims, e))) return rc;
  R->rp.trims = &R->trims;
  if (R->sc->steer_lqr) {
    rider_lqr_weights lw;
    rider_lqr_default_weights(&lw);
    if ((rc = rider_lqr_build(R->rig, &lw, &R->lqr, e))) return rc;
    R->rp.lqr = &R->lqr;
  }
  return MT_OK;
}

/* The loop's rows, the on-demand sampling, the clocks and the summary's starting values
 * (res->end_reason: "duration reached" until a stage says otherwise). */
static void loop_prepare(runner* R, const run_opts* o, run_result* res) {
  vehicle* v = R->v;
  int nx = veh_state_size(v), ni = rec_ninput();
  R->nc = rec_nchan();
  R->buf = mt_alloc(sizeof(double) * (2 * nx + R->nc + ni + REC_NCTX));
  R->xs = R->buf;
  R->ch = R->xs + nx;
  R->inp = R->ch + R->nc;
  R->xnext = R->inp + ni;
  R->cx = R->xnext + nx;
  for (int i = 0; i < R->nc; i++) R->names[i] = rec_channels()[i].name;
  /* no poses: the take stores none (format 3) and nothing in the batch run reads them; they were
   * a quarter of the sampling's CPU (issue 18) */
  R->smp = (step_sample){v, R->xs, R->xnext, &R->ctx, NULL, R->ch, 0, 0, 0};
  if (!R->w || !o->store_chan) {   /* the conditions ask for what they read */
    rec_context_mask(R->lazy);
    for (int k = 0; k < R->nc; k++) R->lazy[k] = !R->lazy[k];
    script_channel_source(R->sc, R->lazy, sample_now, &R->smp);
  }
  R->lin_cur = &R->sc->lin;
  R->nsteps = (long)ceil(R->sc->duration / R->rig->timestep - 1e-9);
  R->cpu0 = cpu_clock(CLOCK_THREAD_CPUTIME_ID);
  R->wall0 = now();
  R->prev_s = R->sc->start_station;
  incident_init(&R->inc, R->sc->start_station);
  R->lap_start = -1;
  R->L = track_length(R->trk);
  fprog_start_sim(&R->bar, R->sc->duration, !o->quiet);   /* the web server reads it (MOTOTAKE_PROGRESS) */
  res->fell_time = -1;
  res->rear_share_min = res->front_share_min = 1;
  R->fr_f = 0.5;
  res->min_speed = INFINITY;
  snprintf(res->end_reason, sizeof res->end_reason, "duration reached");
  R->blk_left = run_bench_blocks.steps;
}

/* Where on the track (under the frame), after the step: the lap count and the first complete
 * lap's time, and the context's station, offset and distance. */
static void step_where(runner* R, run_step* S, run_result* res) {
  vehicle* v = R->v;
  double fq[4];
  veh_body_pose(v, R->rig->b_frame, S->fp, fq);
  v->road.query(v->road.self, S->fp[0], S->fp[1], R->road_hint, &S->rp);
  R->road_hint = S->rp.hint;
  if (track_closed(R->trk) && S->rp.s < R->prev_s - 0.5 * R->L) {
    R->ctx.lap++;
    if (R->lap_start >= 0 && res->lap_time == 0) res->lap_time = S->t - R->lap_start;
    R->lap_start = S->t;
  }
  if (R->lap_start < 0 && track_closed(R->trk) && R->ctx.lap == 1) R->lap_start = S->t;
  R->prev_s = S->rp.s;
  R->ctx.station = S->rp.s;
  R->ctx.offset = S->rp.offset;
  R->ctx.distance = R->ctx.lap * R->L + S->rp.s - R->start_station;
}

/* The context's attitude and accelerations: the lean (S->roll) and yaw as the controller
 * measured them in this step when it did, the frame's acceleration in the yaw's axes. */
static void step_context(runner* R, run_step* S) {
  double roll, pitch, yaw, cy, sy, acc[3];
  if (R->euler_set) {   /* as the controller measured it in this step: the same kinematics at t */
    roll = R->euler[0];
    pitch = R->euler[1];
    yaw = R->euler[2];
    R->euler_set = 0;
  } else
    veh_frame_euler(R->v, &roll, &pitch, &yaw);
  if (R->yaw_cs_set && run_yaw_cs_shared) {   /* cos(yaw), sin(yaw) of that yaw, as below */
    cy = R->yaw_cs[0];
    sy = R->yaw_cs[1];
  } else {
    cy = cos(yaw);
    sy = sin(yaw);
  }
  R->yaw_cs_set = 0;
  (void)pitch;
  veh_frame_accel(R->v, acc);
  R->ctx.ax = acc[0] * cy + acc[1] * sy;
  R->ctx.ay = -acc[0] * sy + acc[1] * cy;
  R->ctx.stunt = R->st.kind;
  S->roll = roll;
}

/* The step's channels (all of them with --store-channels, else the context and what the
 * conditions ask for later) and, recording, its row in the take. */
static int step_record(runner* R, const run_opts* o, const run_step* S, mt_err* e) {
  R->smp.t = S->t;
  R->smp.done = 0;
  if (R->w && o->store_chan) sample_now(&R->smp);
  else rec_sample_context(&R->ctx, S->t, R->ch);
  if (!R->w) return MT_OK;
  rec_input_values(&R->v->in, R->inp);
  rec_ctx_values(&R->ctx, S->t, R->cx);
  return take_writer_step(R->w, R->xs, R->inp, R->cx, o->store_chan ? R->ch : NULL, e);
}

/* The race summary's figures: the throttle and the engine (rpm, time on the rev limiter, gears,
 * the upshifts at the limiter's fuel cut and short of it), and how light each wheel went: the rear's least share of the load while braking harder than
 * 0.5 g, the front's while driving harder than 0.3 g (low-passed as the grip in use, 0.1 s). */
static void step_race_statistics(runner* R, run_result* res, double a_lp) {
  vehicle* v = R->v;
  double fz = v->out.wheel[0].fz + v->out.wheel[1].fz, dt = R->rig->timestep;
  if (fz > 0) R->fr_f += a_lp * (v->out.wheel[1].fz / fz - R->fr_f);
  res->max_throttle = fmax(res->max_throttle, v->in.throttle);
  if (v->in.throttle >= 0.99) res->full_throttle_time += dt;
  res->max_rpm = fmax(res->max_rpm, v->out.engine_rpm);
  if (v->out.engine_rpm * MT_PI / 30 >= R->rig->engine.rev_limit) res->limiter_time += dt;
  if (v->in.gear > res->top_gear) res->top_gear = v->in.gear;
  if (v->in.gear > R->stat_gear && R->stat_gear >= 1) {   /* an upshift: the rpm it was asked at */
    int at_cut = R->stat_rpm * MT_PI / 30 >= R->rig->engine.rev_limit;
    int* n = at_cut ? &res->ups_cut : &res->ups_short;
    double* lohi = at_cut ? res->ups_cut_rpm : res->ups_short_rpm;
    lohi[0] = *n ? fmin(lohi[0], R->stat_rpm) : R->stat_rpm;
    lohi[1] = *n ? fmax(lohi[1], R->stat_rpm) : R->stat_rpm;
    (*n)++;
  }
  R->stat_gear = v->in.gear;
  R->stat_rpm = v->out.engine_rpm;
  if (R->ax_f < -0.5 * MT_G) res->rear_share_min = fmin(res->rear_share_min, R->fr_f);
  if (R->ax_f > 0.3 * MT_G) res->front_share_min = fmin(res->front_share_min, 1 - R->fr_f);
}

/* The summary's statistics: speed range, lean, offset, and the road's grip in use. */
static void step_statistics(runner* R, const run_step* S, run_result* res) {
  vehicle* v = R->v;
  double vel[3];
  /* ground speed of the frame (never negative: a machine lying the wrong way round still moves) */
  veh_frame_velocity(v, vel);
  double V = hypot(vel[0], vel[1]);
  if (V < res->min_speed) res->min_speed = V;
  if (V > res->max_speed) res->max_speed = V;
  if (fabs(S->roll) > res->max_lean) res->max_lean = fabs(S->roll);
  double seated = R->sc->has_rider && R->sc->posture ? fabs(S->roll - posture_roll_offset(&R->pp, v->in.posture)) : fabs(S->roll);
  if (seated > res->max_lean_seated) {
    res->max_lean_seated = seated;
    res->max_lean_seated_speed = veh_speed(v);
  }
  if (R->sc->race && R->ctx.lap == 1) corners_count(res->corner, res->ncorner, S->rp.s, S->roll, seated, veh_speed(v));
  if (fabs(S->rp.offset) > res->max_offset) res->max_offset = fabs(S->rp.offset);
  /* the road's grip in use: the tyres' friction forces (each in its contact frame: along
   * and across the wheel on the road's plane, not the road's normal force, which tilts
   * with the grade) over the machine's mass, low-passed (0.1 s) */
  double fx = 0, fy = 0;
  for (int k = 0; k < 2; k++) {
    fx += v->out.wheel[k].fx;
    fy += v->out.wheel[k].fy;
  }
  double a_lp = R->rig->timestep / (0.1 + R->rig->timestep), m = veh_mass(v);
  R->ay_f += a_lp * (fy / m - R->ay_f);
  R->ax_f += a_lp * (fx / m - R->ax_f);
  res->peak_ay = fmax(res->peak_ay, fabs(R->ay_f) / MT_G);
  if (-R->ax_f / MT_G > res->peak_brake) {
    res->peak_brake = -R->ax_f / MT_G;
    res->peak_brake_speed = V;
  }
  if (R->ax_f / MT_G > res->peak_drive) {
    res->peak_drive = R->ax_f / MT_G;
    res->peak_drive_speed = V;
  }
  step_race_statistics(R, res, a_lp);
}

/* The end of the take's own making: a fall (with contact spheres a mark, then the slide until
 * the machine rests), a fall over (without them), or 2 s off the road. Sets R->stop. */
static void step_stop_checks(runner* R, const run_step* S, run_result* res, mt_err* e) {
  double roll = S->roll, t = S->t;
  char ij[256];
  if (incident_step(&R->inc, R->v, t, S->rp.s, S->rp.offset, roll, ij, sizeof ij) != INC_NONE && R->w)
    take_writer_event(R->w, S->i, "mark", ij, e);
  if (!S->rp.on_road) {
    res->left_track = 1;
    R->off_road_time += R->rig->timestep;
  } else {
    R->off_road_time = 0;
  }
  if (fabs(roll) > 75 * MT_PI / 180 && R->rig->contacts.n > 0) {
    /* With contact spheres the machine lands on its side and slides: a fall is a mark, and
     * the take goes on until it comes to rest (or the duration). */
    if (!R->fallen) {
      R->fallen = 1;
      res->fell_time = t;
      R->slide_x = S->fp[0];
      R->slide_y = S->fp[1];
      char js[128];
      snprintf(js, sizeof js, "{\"label\":\"fell\",\"time\":%.6f,\"lean\":%.1f}", t, roll * 180 / MT_PI);
      if (R->w) take_writer_event(R->w, S->i, "mark", js, e);
    }
  }
  if (R->practice_lap && (R->fallen || R->inc.n_off > 0)) R->stop = 1;   /* a practice lap that did not lap */
  if (R->fallen) {
    res->slide_distance += hypot(S->fp[0] - R->slide_x, S->fp[1] - R->slide_y);
    R->slide_x = S->fp[0];
    R->slide_y = S->fp[1];
    double qv[3];
    veh_frame_velocity(R->v, qv);
    double sp = sqrt(qv[0] * qv[0] + qv[1] * qv[1] + qv[2] * qv[2]);
    R->rest_time = sp < 0.3 ? R->rest_time + R->rig->timestep : 0;
    if (R->rest_time >= 1.0) {
      snprintf(res->end_reason, sizeof res->end_reason, "came to rest at t = %.2f s, %.1f m after the fall at %.2f s", t,
               res->slide_distance, res->fell_time);
      if (R->w) take_writer_event(R->w, S->i, "end", "{\"reason\":\"came to rest\"}", e);
      R->stop = 1;
    }
  } else if (fabs(roll) > 75 * MT_PI / 180) {
    snprintf(res->end_reason, sizeof res->end_reason, "fell over at t = %.2f s (lean %.0f deg)", t, roll * 180 / MT_PI);
    if (R->w) take_writer_event(R->w, S->i, "end", "{\"reason\":\"fell over\"}", e);
    R->stop = 1;
  } else if (R->off_road_time > 2.0 && !R->fallen) {
    snprintf(res->end_reason, sizeof res->end_reason, "left the track at t = %.2f s, station %.0f m", t, S->rp.s);
    if (R->w) take_writer_event(R->w, S->i, "end", "{\"reason\":\"left the track\"}", e);
    R->stop = 1;
  }
}

/* One `set` of a fired event (event k of the script, set q): the rider's overrides, a stunt's
 * start or stop, an input held; recorded as a "set" event. A stunt that cannot start fails with
 * the event's place (R->stop set). */
static int event_set(runner* R, const script_event* ev, int k, int q, long i, mt_err* e) {
  int rc = MT_OK;
  if (strcmp(ev->set_key[q], "rider.speed") == 0) R->speed_override = ev->set_val[q];
  else if (strcmp(ev->set_key[q], "rider.offset") == 0) R->offset_override = ev->set_val[q];
  else if (strcmp(ev->set_key[q], "rider.preview") == 0) R->sc->preview = ev->set_val[q];
  else if (strcmp(ev->set_key[q], "rider.pitch") == 0) {
    R->stunt_pitch = ev->set_val[q] * MT_PI / 180;
    if (R->st.kind != STUNT_NONE && R->st.phase != 2 && (rc = stunt_start(&R->st, R->st.kind, R->stunt_pitch, e))) R->stop = 1;
  } else if (strcmp(ev->set_key[q], "rider.stunt") == 0) {
    int kind = (int)ev->set_val[q];
    if (kind == STUNT_NONE) stunt_stop(&R->st);
    else if ((rc = stunt_start(&R->st, kind, isfinite(R->stunt_pitch) ? R->stunt_pitch : stunt_default_pitch(kind), e))) R->stop = 1;
  } else if (strncmp(ev->set_key[q], "input.", 6) == 0) {
    int in = script_input_kind(ev->set_key[q] + 6);
    if (in >= 0) R->input_set[in] = ev->set_val[q];
  }
  if (rc) {
    char msg[sizeof e->msg];
    snprintf(msg, sizeof msg, "%s", e->msg);
    e->code = MT_OK;   /* restate the stunt's error with the event's place */
    mt_fail(e, rc, "%s:%d: event %d: %s", R->sc->path, ev->line, k + 1, msg);
    return rc;
  }
  char js[1024];
  if (!strcmp(ev->set_key[q], "rider.stunt"))
    snprintf(js, sizeof js, "{\"key\":\"%s\",\"value\":\"%s\"}", ev->set_key[q], stunt_name((int)ev->set_val[q]));
  else snprintf(js, sizeof js, "{\"key\":\"%s\",\"value\":%.17g}", ev->set_key[q], ev->set_val[q]);
  if (R->w) take_writer_event(R->w, i, "set", js, e);
  return MT_OK;
}

/* A script's text (a mark's label, a stop's reason: a stranger's bytes) as a JSON string with its
 * quotes, escaped by jansson, into out: a quote, backslash or control character no longer breaks
 * the event's JSON. Bytes that are not UTF-8 become '?'. Plain labels come out as before. */
static void json_quoted(const char* s, char* out, size_t n) {
  json_t* j = json_string(s);
  if (!j) {
    char t[256];
    size_t k = 0;
    for (; s[k] && k < sizeof t - 1; k++) t[k] = (unsigned char)s[k] < 0x80 ? s[k] : '?';
    t[k] = 0;
    j = json_string(t);
  }
  char* d = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
  snprintf(out, n, "%s", d ? d : "\"\"");
  free(d);
  json_decref(j);
}

/* Event k fired in step i: its mark, its sets, its linear analysis, its stop. A failed set still
 * lets the event's stop end the take (its reason recorded); a failed linearisation does not. */
static int event_act(runner* R, const run_opts* o, int k, const run_step* S, run_result* res, mt_err* e) {
  script_event* ev = &R->sc->event[k];
  char js[1024];
  int rc = MT_OK;
  if (ev->mark[0]) {
    char q[800];   /* a 127-byte label escaped: at most 6 bytes each, and its quotes */
    json_quoted(ev->mark, q, sizeof q);
    snprintf(js, sizeof js, "{\"label\":%s,\"time\":%.6f}", q, S->t);
    if (R->w) take_writer_event(R->w, S->i, "mark", js, e);
  }
  for (int q = 0; q < ev->nset && !rc; q++) rc = event_set(R, ev, k, q, S->i, e);
  if (ev->lin) R->lin_cur = ev->lin;   /* the selection from here on */
  if (ev->linearise && !rc) {
    char* lj = NULL;
    lin_loop L;
    if (ev->lin_closed) loop_describe(R, &L);
    if ((rc = run_linearise(R->v, ev->lin_closed ? &L : NULL, R->sc, R->lin_cur, k, o->out, ++R->nlin, &lj, e))) {
      R->stop = 1;
      return rc;
    }
    if (R->w) take_writer_event(R->w, S->i, "linearise", lj, e);
    free(lj);
  }
  if (ev->stop[0]) {
    snprintf(res->end_reason, sizeof res->end_reason, "%s", ev->stop);
    char q[800];
    json_quoted(ev->stop, q, sizeof q);
    snprintf(js, sizeof js, "{\"reason\":%s}", q);
    if (R->w) take_writer_event(R->w, S->i, "end", js, e);
    R->stop = 1;
  }
  return rc;
}

/* The events (several may fire in one step), until none is left or the take stops. */
static int step_events(runner* R, const run_opts* o, const run_step* S, run_result* res, mt_err* e) {
  int rc = MT_OK;
  for (int guard = 0; guard < SCRIPT_MAX_EVENTS && !R->stop; guard++) {
    int k = script_next_event(R->sc, S->i, R->names, R->ch, R->nc, S->t, R->fired, e);
    if (k == -2) {
      R->stop = 1;
      return MT_EINPUT;
    }
    if (k < 0) break;
    sample_now(&R->smp);   /* the conditions still to come read this step's values, whatever the event does */
    rc = event_act(R, o, k, S, res, e);
  }
  return rc;
}

/* The step's count and time, the bench's hand-over, the progress bar. */
static void step_progress(runner* R, const run_step* S, run_result* res) {
  res->steps = S->i + 1;
  res->sim_time = (S->i + 1) * R->rig->timestep;
  if (R->blk_left > 0 && --R->blk_left == 0) {   /* after every run_bench_blocks.steps steps: (i + 1) % steps == 0 */
    R->blk_left = run_bench_blocks.steps;
    run_bench_blocks.fn(run_bench_blocks.data);
  }
  fprog_tick(&R->bar, res->sim_time);
}

/* The loop: per step, the vehicle's step then the stages that read it. A failed step or take
 * row ends it at once (the end reason: the step's error); a failed event after its step's count. */
static int stage_loop(runner* R, const run_opts* o, run_result* res, mt_err* e) {
  int rc = MT_OK;
  for (long i = 0; i < R->nsteps && !R->stop; i++) {
    run_step S = {.i = i};
    veh_get_state(R->v, R->xs);
    S.t = veh_time(R->v);
    if ((rc = veh_step(R->v, e))) {
      snprintf(res->end_reason, sizeof res->end_reason, "%s", e->msg);
      break;
    }
    step_where(R, &S, res);
    step_context(R, &S);
    if ((rc = step_record(R, o, &S, e))) break;
    step_statistics(R, &S, res);
    step_stop_checks(R, &S, res, e);
    rc = step_events(R, o, &S, res, e);
    step_progress(R, &S, res);
  }
  return rc;
}

/* The loop's counts and clocks into the summary; the progress bar's last line. */
static void loop_summary(runner* R, run_result* res) {
  res->laps = R->ctx.lap;
  res->samples = R->smp.count;
  res->off_track = R->inc.n_off;
  res->off_time = R->inc.first_off_t;
  res->off_station = R->inc.first_off_s;
  res->off_offset = R->inc.first_off_o;
  res->off_surface = R->inc.first_off_surface;
  res->road_queries = R->memo.queries;
  res->road_reused = R->memo.reused;
  res->wall = now() - R->wall0;
  res->cpu_loop = cpu_clock(CLOCK_THREAD_CPUTIME_ID) - R->cpu0;
  fprog_show(&R->bar, res->sim_time);   /* the last line: where the run ended */
  fprog_end(&R->bar);
}

/* The finish: a failed ride keeps the old take (base/outfile.h) unless the take is written in
 * place; else the take is closed, complete when rc is MT_OK, with its end reason. Everything
 * the ride opened is freed. Returns the ride's result (or the close's error). */
static int stage_finish(runner* R, const run_opts* o, run_result* res, int rc, mt_err* e) {
  if (R->w && rc != MT_OK && !take_writer_in_place(R->w)) {
    take_writer_discard(R->w);
    size_t n = strlen(e->msg);
    snprintf(e->msg + n, sizeof e->msg - n, " (the existing %s was kept)", o->out);
  } else if (R->w) {
    mt_err e2 = {0};
    res->complete = rc == MT_OK;
    double wcpu = 0;
    take_writer_cpu_to(R->w, &wcpu);
    if (take_writer_close(R->w, res->complete, res->end_reason, &e2) && rc == MT_OK) {
      *e = e2;
      rc = e2.code;
    }
    if (res->cpu_loop > 0) res->cpu_writer = wcpu;
  }
  free(R->buf);
  free(R->snap);
  path_free(R->line);
  free(R->race_m);
  free(R->race_k);
  free(R->turn_of);
  veh_free(R->v);
  track_free(R->trk);
  rig_free(R->rig);
  script_free(R->sc);
  return rc;
}

/* The stages up to the loop, in order; the first failure ends them. */
static int stage_prepare(runner* R, const run_opts* o, run_result* res, mt_err* e) {
  int rc;
  trim_result tr;
  if ((rc = stage_open(R, o, e)) || (rc = stage_rider(R, e)) || (rc = stage_start(R, &tr, e))) return rc;
  if ((rc = stage_plan(R, res, e))) return rc;
  stage_hand_over(R, &tr);
  if (R->race_m && (o->corner_speed || (R->sc->practice > 0 && !o->practice_lap))) {
    if (o->corner_speed) memcpy(R->corner_speed, o->corner_speed, sizeof R->corner_speed);
    else if ((rc = stage_practice(R, o, res, e))) return rc;
    race_turn_map(R, res);
    res->has_corner_speed = 1;
    memcpy(res->corner_speed, R->corner_speed, sizeof res->corner_speed);
  }
  if (o->out && (rc = open_writer(R, o->out, o->store_chan, &R->w, e))) return rc;
  return stage_tables(R, e);
}

int run_take(const run_opts* o, run_result* res, mt_err* e) {
  memset(res, 0, sizeof *res);
  runner R = {0};
  R.speed_override = -1;
  R.offset_override = NAN;
  R.hint = R.road_hint = -1;
  R.stunt_pitch = NAN;
  R.practice_lap = o->practice_lap;
  for (int k = 0; k < IN_NKIND; k++) R.input_set[k] = NAN;
  int rc = stage_prepare(&R, o, res, e);
  if (rc == MT_OK) {
    loop_prepare(&R, o, res);
    rc = stage_loop(&R, o, res, e);
    loop_summary(&R, res);
    if (res->has_min) {   /* the race summary's limits as the machine has them */
      race_lift(&R, res);
      race_front_lift(&R, res);
    }
    if (res->has_min || (o->practice_lap && R.race_m)) race_lean_fold(&R, res);   /* practice reads the corners' folds */
  }
  return stage_finish(&R, o, res, rc, e);
}
