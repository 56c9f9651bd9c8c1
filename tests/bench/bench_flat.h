/* bench_flat.h — the benches' reference machine: sport1000 trimmed at 30 m/s on a flat road,
 * ridden by the bench rider (the rider's controller holding 30 m/s, upright, automatic gears). */
#ifndef BENCH_FLAT_H
#define BENCH_FLAT_H

#include "sim/vehicle_mj.h"
#include "sim/rider.h"
#include "sim/vehicle.h"

typedef struct bench_rider {
  rider_params p;
  rider_state s;
} bench_rider;

/* The vehicle (its rig in *rp), with br as its rider's parameters and state (br outlives it);
 * NULL after printing "<who>: <error>" when the rig does not load. */
vehicle* bench_flat_vehicle(rig** rp, bench_rider* br, const char* who);

/* The bare MuJoCo step of v's compiled model: d (from mj_makeData(v->m)) reset to v's positions
 * and velocities now, then n mj_step's without our callbacks (restored after). Returns the
 * thread's CPU seconds the n steps took. */
double bench_bare_block(const vehicle* v, mjData* d, int n);

#endif
