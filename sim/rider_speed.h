/* rider_speed.h — the rider's longitudinal feed-forward: what throttle or brake lever gives a
 * wanted force at the road, from the rig's own engine, gearbox and brake maps.
 *
 * Contract: rider_drive_build tabulates the engine's brake torque (engine_eval, the same
 * function the vehicle runs) over crank speed × throttle once, at take start, and keeps the
 * drivetrain's ratios, the brakes' torques, the rolling radii, the machine's mass and its CoM
 * geometry (for the wheelie and stoppie limits). Lookups are cheap (no allocation, no solving):
 *   - the throttle that gives a tractive force F (N, at the rear contact) at crank speed ω in
 *     gear g (the engine torque inverted along the throttle at that ω; engine inertia, clutch
 *     slip and chain losses are ignored, so the real force is at most this);
 *   - the force at full throttle in the lowest gear the rider's shift rule allows at speed V
 *     (the engine limit of the speed profile);
 *   - the front lever that gives a braking force (the rear pedal takes a fixed share).
 * Deterministic: same rig, same table. */
#ifndef RIDER_SPEED_H
#define RIDER_SPEED_H

#include "sim/rig.h"

enum { RIDER_DRIVE_NW = 64, RIDER_DRIVE_NU = 41 };

typedef struct rider_drive {
  double w_max;                                   /* rad/s, top of the crank-speed grid (grid from 0) */
  double tq[RIDER_DRIVE_NW][RIDER_DRIVE_NU];      /* N·m at the crank, throttle 0..1 in 1/40 steps */
  int ngears;
  double ratio[8];                                /* crank : rear wheel, per gear (0 = neutral) */
  double r_front, r_rear;                         /* m, rolling radii (unloaded) */
  double brake_front, brake_rear;                 /* N·m at the wheel, lever / pedal at 1 */
  double rear_share;                              /* share of the braking force from the rear pedal */
  double mass;                                    /* kg, machine and rider */
  double a_wheelie, a_stoppie;                    /* m/s², g·b/h and g·(p − b)/h */
  double up_rpm;                                  /* the shift rule's up point: the profile's gear */
  double i_front, i_rear, i_crank;                /* kg·m², the wheels' spin and the crank's inertia */
} rider_drive;

/* Tabulate for rig r. mass: the machine's total (kg); b, p, h: CoM ahead of the rear contact,
 * wheelbase and CoM height (m) in the start pose; up_rpm: the rider's upshift point. */
void rider_drive_build(const rig* r, double mass, double b, double p, double h, double up_rpm, rider_drive* d);
/* The rotating parts' inertia as mass at the road (kg): what speeding them up or slowing them
 * down asks of the engine or the brakes beyond the machine's mass, in gear g (0: declutched). */
double rider_drive_rot_mass(const rider_drive* d, int gear);
/* Crank torque (N·m) at crank speed w (rad/s) and throttle u, from the table. */
double rider_drive_torque(const rider_drive* d, double w, double u);
/* Throttle (0..1) giving tractive force F (N) at crank speed w in gear g (1 if beyond reach). */
double rider_drive_throttle(const rider_drive* d, double w, int gear, double force);
/* Tractive force (N) at full throttle at road speed V in the lowest gear whose engine speed is
 * at most up_rpm (the gear the shift rule leaves it in when accelerating). */
double rider_drive_force_max(const rider_drive* d, double V);
/* Front lever (0..1) and rear pedal (0..1) giving a braking force F (N, ≥ 0). */
void rider_drive_brakes(const rider_drive* d, double force, double* front, double* rear);

#endif
