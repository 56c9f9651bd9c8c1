/* rider_lqr_ref.h — what the LQR steer loop (sim/rider_lqr.h) regulates about: the reference
 * state and the feed-forward torque from the rider's trim table (module prefix rider_lqr_ref_).
 *
 * Contract: the loop is τ = τ_trim(V, φt) − K(V)·(x − x_ref) with x = (φ, φ̇, ψ̇, v_lat, δ, δ̇)
 * (rider_lqr_measure). The reference is the asked-for lean φt for the roll, zero for the rates,
 * and — for yaw rate, lateral velocity and steer — the steady turn at the machine's OWN lean φ
 * (clamped to ±max_roll), not at φt. Why: the gain K is designed upright; near the tyres' limit
 * the steady turn's lateral velocity rises steeply with lean (the table's v_lat: 1.41 m/s at 50°,
 * 2.42 m/s at 55°, 31 m/s), so with the reference at φt the term −K_vlat·(v_lat − v_lat,trim(φt))
 * (K_vlat ≈ −280 N·m per m/s) cancels the roll term: the quasi-static loop stiffness
 * K·∂x_trim/∂φ + ∂τ_trim/∂φ turned negative above ~47° at 24–40 m/s, and on the fast lap the
 * machine stuck at 41–45° of lean while 52–60° was asked (left the track at 2124 m). About the
 * machine's own steady turn those three terms only damp departures from it and the stiffness is
 * K_roll + ∂τ_trim/∂φ at every lean (rider_lqr_ref_stiffness; tests/unit/test_rider_lqr.c).
 * Cheap (table lookups, no allocation), deterministic. */
#ifndef RIDER_LQR_REF_H
#define RIDER_LQR_REF_H

#include "sim/rider_lqr.h"
#include "sim/rider_trim.h"

/* Reference x_ref (gain order, rider_lqr.h) and feed-forward torque (N·m, returned) at speed V for
 * the asked-for ISO roll `target` with the machine at ISO roll `roll` (rad), leans clamped to
 * ±max_roll. own_lean = 0 gives the former reference (everything at the target), for comparison. */
double rider_lqr_ref(const rider_trims* t, double V, double target, double roll, double max_roll, int own_lean,
                     double xref[RIDER_LQR_NK]);
/* the same with the table's speed cell at V given (rider_trims_cell) */
double rider_lqr_ref_in(const rider_trims* t, const rider_trim_cell* c, double target, double roll, double max_roll,
                        int own_lean, double xref[RIDER_LQR_NK]);
/* The closed loop's quasi-static stiffness (N·m/rad) at speed V and ISO lean phi: how much the
 * machine's need τ_trim(φ) exceeds the rider's torque as a steady turn's lean passes the asked-for
 * one, ∂/∂φ [τ_trim(φ) − τ_rider(x_trim(φ); φt)] at φ = φt, by central differences (h rad).
 * Positive: a lean beyond the target is rolled back (the loop settles on the target); negative:
 * the rider lets it run away from the target. */
double rider_lqr_ref_stiffness(const rider_lqr* l, const rider_trims* t, double V, double phi, double max_roll,
                               int own_lean, double h);

#endif
