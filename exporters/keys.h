/* keys.h — from full-rate world poses to the keys a file carries: sampling at exact frame
 * times, extra keys where a node turns fast, error-bounded reduction, and evaluation the way
 * consumers interpolate (linear positions, shortest-arc rotations). */
#ifndef EX_KEYS_H
#define EX_KEYS_H

/* Full-rate WORLD poses of one node: pose + i*stride is x y z qw qx qy qz at t = i*dt. */
typedef struct ex_track {
  const double* pose;
  long stride;       /* doubles from one step to the next */
  long nsteps;       /* >= 2 */
  double dt;
} ex_track;

/* One node's keys, LOCAL to its parent (z up): times from the start of the exported range,
 * strictly increasing; quaternions unit with sign continuity (dot of neighbours >= 0). */
typedef struct ex_keys {
  long n;
  double* t;         /* n */
  double* p;         /* n × 3 */
  double* q;         /* n × 4, w x y z */
  long frames;       /* of which keys at frame times */
} ex_keys;

/* World pose of a track at time t (s): positions linear, rotations slerp between steps. */
void ex_track_pose(const ex_track* tr, double t, double pose[7]);
/* Sample node (relative to parent, NULL for the world) at t = from + k/fps, k = 0..K with
 * K = floor((to - from)·fps + 1e-9), plus sub-frame keys wherever the node's local rotation
 * travels more than spin_limit (rad, < π) between frames: the interval is split where the
 * rotation path has covered equal parts, so no key-to-key rotation exceeds spin_limit.
 * Returns the number of sub-frame keys added. */
long ex_keys_sample(const ex_track* node, const ex_track* parent, double from, double to,
                    double fps, double spin_limit, ex_keys* out);
/* Pose at time t (clamped to the keys) by linear position and slerp rotation between keys. */
void ex_keys_eval(const ex_keys* k, double t, double pose[7]);
/* Error of linear interpolation between keys a and b at key i: position (m) and the larger of
 * the slerp and normalised-lerp rotation errors (rad). */
void ex_keys_error(const ex_keys* k, long a, long b, long i, double* ep, double* ea);
/* Drop keys that linear interpolation between the kept neighbours reproduces within tol_pos
 * (m) and tol_ang (rad) — Douglas–Peucker: a segment is accepted only if every key inside it
 * is within both bounds, and only if its keys rotate at most spin_limit in total, so the spin
 * keys survive. The first and last keys stay. Returns keys kept; *max_pos and *max_ang get the
 * largest error of a dropped key (may be NULL). */
long ex_keys_reduce(ex_keys* k, double tol_pos, double tol_ang, double spin_limit,
                    double* max_pos, double* max_ang);
void ex_keys_free(ex_keys* k);

#endif
