/* recsample.h — the recorder's sampling of the vehicle: what a take records at every step
 * (body poses, the inputs, the channels), read from the running machine.
 *
 * The sampler only *reads* the vehicle (rec_sample_instant puts back the state it borrows, bit
 * for bit); it never changes the simulation. Any consumer (take files, the live window, plots,
 * the linear analysis) gets the same named, unit-labelled channels in the same order, so adding
 * a channel here adds it everywhere. The tables are static: the names and units returned live
 * as long as the program. The take's context row (the channels the runner knows) is
 * takes/recorder.h. */
#ifndef MT_RECSAMPLE_H
#define MT_RECSAMPLE_H

#include "sim/vehicle.h"

typedef struct rec_channel {
  const char* name;
  const char* units;
} rec_channel;

/* Where the machine is on its track, kept by the runner (not part of the vehicle). */
typedef struct rec_context {
  double station, offset;   /* m, from the road under the frame */
  double distance;          /* m travelled along the track (continuous across laps) */
  int lap;                  /* completed laps */
  double ax, ay;            /* m/s², longitudinal and lateral acceleration of the frame (heading axes) */
  int stunt;                /* the rider's balance loop running (sim/stunt.h STUNT_*) */
} rec_context;

/* Channels: their count and table. */
int rec_nchan(void);
const rec_channel* rec_channels(void);
int rec_chan_index(const char* name);
/* Sample every channel into out[rec_nchan()] (call after a step: v->out is that step's forces). */
void rec_sample(vehicle* v, const rec_context* c, double* out);

/* Inputs (what the rider did): count, names, units, and the values. */
int rec_ninput(void);
const rec_channel* rec_inputs(void);
void rec_input_values(const veh_input* in, double* out);
/* vals holds n inputs in rec_inputs() order (older takes have fewer: the rest are 0, their defaults). */
void rec_input_apply(const double* vals, int n, veh_input* in);

/* Bodies recorded: the rig's bodies then the shock linkage's parts; names and parents. */
int rec_nbody(const rig* r);
const char* rec_body_name(const rig* r, int i);
const char* rec_body_parent(const rig* r, int i);   /* "" for the root */
/* Poses: x y z qw qx qy qz per body, world frame. */
void rec_poses(const vehicle* v, double* out);

/* Poses and channels of one instant (issue 18): after veh_step, qpos/qvel/act are already at
 * t + dt while the kinematics, forces and accelerations still describe t. x_t is the state at t
 * (veh_get_state before the step); scratch has room for veh_state_size doubles. The state at t
 * is put back for the reads (joint angles, the linkage's poses, the reactions' velocities) and
 * t + dt restored after: plain copies, so the simulation itself is unchanged bit for bit.
 * poses may be NULL: then only the channels are sampled (a take stores no poses since format 3;
 * its readers rebuild them from the state, takes/takepose.h). */
void rec_sample_instant(vehicle* v, const double* x_t, double* scratch, const rec_context* c, double* poses, double* chans);

#endif
