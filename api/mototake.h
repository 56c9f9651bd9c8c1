/* mototake.h — libmototake's public interface: what programs other than bin/mototake may call.
 *
 * bin/libmototake.so is the same code as bin/mototake (the layers base → sim → takes → scene), with
 * this header as its only door: the library exports the mtk_* functions declared here and nothing
 * else (api/mototake.map). The Python package python/mototake wraps it through ctypes.
 *
 * Conventions, for every function below:
 * - A function that can fail returns MTK_OK (0), MTK_EINPUT (2: the caller's file, script or
 *   arguments are wrong — the CLI's exit status 2) or MTK_EINTERNAL (1), and keeps the one-line
 *   message the CLI would print ("file:line: field: why") for mtk_last_error(). A handle-returning
 *   function returns NULL on failure, with the message there too.
 * - Inputs are untrusted: a take, rig, track or script given here is checked exactly as the CLI
 *   checks it (the same hardened reader, the same sandbox); what the CLI refuses, this refuses.
 * - Strings the library hands out belong to the handle they came from and live until it is closed.
 *   Arrays the caller fills are the caller's, sized by the counts the library reports.
 * - Handles are not thread-safe; distinct handles may be used from distinct threads. The library
 *   writes nothing to stdout or stderr and never exits the process (out of memory aside).
 * - Time is in seconds, angles in radians unless a channel's units say otherwise (the channels
 *   keep the units `mototake take channels` writes), SI units throughout. */
#ifndef MOTOTAKE_H
#define MOTOTAKE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MTK_OK = 0, MTK_EINTERNAL = 1, MTK_EINPUT = 2 };

/* The library's version ("0.x.y") and the git revision it was built from (what takes record). */
const char* mtk_version(void);
const char* mtk_git_revision(void);

/* The message of the last failure in this thread (one line, no newline); "" when none yet. */
const char* mtk_last_error(void);
/* Its code (MTK_EINPUT or MTK_EINTERNAL; MTK_OK when none): what a NULL handle failed with. */
int mtk_last_code(void);

/* ---- takes (api/mtk_take.c) ----
 *
 * A take opened here goes through the same hardened reader and the same rig-step check as every
 * command (takes/take_replay.h take_open): what `mototake take info` refuses, mtk_take_open
 * refuses, with the same line. Arrays are filled in place from a caller's buffer sized by the
 * matching *_rows call; a range is [t0, t1] in seconds as `take channels --from/--to` takes it,
 * NaN for "the start" / "the end of the take". */
typedef struct mtk_take mtk_take;

/* NULL on failure (mtk_last_error: the CLI's line, "PATH: field: why"). */
mtk_take* mtk_take_open(const char* path);
void mtk_take_close(mtk_take* t);   /* NULL is fine */

/* Metadata rows in the file's order: count, and the i-th key and value (0 ≤ i < count). */
int mtk_take_nmeta(const mtk_take* t);
int mtk_take_meta_at(const mtk_take* t, int i, const char** key, const char** value);
long mtk_take_nsteps(const mtk_take* t);
double mtk_take_timestep(const mtk_take* t);   /* s */
/* 1 complete, 0 cut off (a killed run); *reason (may be NULL) the status row's words. */
int mtk_take_complete(const mtk_take* t, const char** reason);

/* The channels (schema order, including "time"), their units as `take channels` writes them. */
int mtk_take_nchannels(const mtk_take* t);
const char* mtk_take_channel_name(const mtk_take* t, int i);    /* NULL when i is out of range */
const char* mtk_take_channel_units(const mtk_take* t, int i);
/* The index of a channel by name, or −1 with the CLI's line ("take channels: --channels: no
 * channel 'X' (nearest: Y; see mototake take info)"). */
int mtk_take_channel_index(mtk_take* t, const char* name);
int mtk_take_nbodies(const mtk_take* t);
const char* mtk_take_body_name(const mtk_take* t, int i);
/* The state stream's columns: MuJoCo's qpos, qvel, act, named x0, x1, … as the file names them. */
int mtk_take_nstate(const mtk_take* t);
const char* mtk_take_state_name(const mtk_take* t, int i);

/* Rows of channels over [t0, t1] at rate Hz (0: full rate, one row per step; > 0: resampled as
 * `take channels --rate`): ≥ 0, or −1 with the CLI's line for a bad range or rate. */
long mtk_take_channel_rows(mtk_take* t, double rate, double t0, double t1);
/* Fill the n channels idx[0..n) over [t0, t1] at rate: time[rows] (may be NULL) the rows' times
 * as `take channels` writes them, out[n × rows] COLUMN-major (channel k's rows at out + k·rows:
 * each channel contiguous). rows must be what mtk_take_channel_rows returned. Full rate gives
 * the values exactly as read (float32-rounded channels, as doubles); resampled, the CSV's values
 * before printing. Not thread-safe per take. */
int mtk_take_channels(mtk_take* t, const int* idx, int n, double rate, double t0, double t1, double* time, double* out,
                      long rows);

/* Steps over [t0, t1] (the rows of poses and of the state), or −1 with the CLI's range line. */
long mtk_take_rows(mtk_take* t, double t0, double t1);
/* Body `body`'s pose at every step of [t0, t1]: time[rows] (may be NULL), out[rows × 7] ROW-major
 * (x y z qw qx qy qz: m, unit quaternion). */
int mtk_take_poses(mtk_take* t, int body, double t0, double t1, double* time, double* out, long rows);
/* The stored state stream over [t0, t1], bit for bit: out[rows × nstate] ROW-major. */
int mtk_take_state(mtk_take* t, double t0, double t1, double* out, long rows);

/* Events: count, and the i-th step, kind and JSON text (the take's own, untrusted: parse it). */
int mtk_take_nevents(const mtk_take* t);
int mtk_take_event_at(const mtk_take* t, int i, long* step, const char** kind, const char** json);

/* `take verify` of the take's file: re-simulate and compare (no progress output).
 * MTK_OK with *ok 1 (bit-exact) or 0 (a divergence: a finding, not an error), and *text what
 * `mototake take verify` prints on stdout (lines ending in '\n'; valid until the next verify on
 * t or its close); first_bad the first diverging step (−1 none), checked the steps compared,
 * resimulated the steps re-simulated, other_build 1 when another build recorded it (any of the
 * pointers may be NULL). An error (the take cannot be verified at all) as `take verify`'s line. */
int mtk_take_verify(mtk_take* t, int* ok, const char** text, long* first_bad, long* checked, long* resimulated,
                    int* other_build);

/* ---- running and linearising (api/mtk_sim.c) ---- */

/* Rigs are named as the CLI names them: a path, or a rig of rigs/ by name ("sport1000"), found
 * under the project root: $MOTOTAKE_ROOT, else the folder above the bin/ holding this library
 * (api/mtk_root.c; a script's rig = "sport1000" too). sets: nset "KEY=VALUE" overrides, as
 * `--set` takes them (NULL when nset is 0; a NULL entry is refused). */

/* Ride the take script at `script` (a path) and record it into the take `out`: what
 * `mototake run SCRIPT -o OUT --set KEY=VALUE ...` does, with no output (the script's own
 * overrides first, then sets). MTK_OK when the ride completed and the take was closed complete;
 * on failure the command's message, and `out` is what the command leaves (a take written in
 * place is marked incomplete; an existing file otherwise is kept). */
int mtk_run(const char* script, const char* const* sets, int nset, const char* out);

/* The steady state of the rig at `speed` m/s and `lean_deg` of lean (ISO roll, positive right)
 * in `gear` (−1: the command's choice; 0 neutral; 1..6), as `mototake trim RIG --speed V
 * [--lean DEG] [--gear G] --json` prints it: its one JSON line (no newline) into buf of size
 * bytes (MTK_TRIM_JSON_SIZE always suffices; shorter is refused). */
#define MTK_TRIM_JSON_SIZE 1024
int mtk_trim_json(const char* rig, const char* const* sets, int nset, double speed, double lean_deg, int gear, char* buf,
                  size_t size);

/* The rig trimmed and linearised at one point, as `mototake modes RIG --speed V [--lean DEG |
 * --ay G] --json` (the open loop: the machine alone, its inputs held): the listed modes (up to
 * 60 Hz; real roots from −50 1/s up; zeros left out), one of each conjugate pair, with the
 * command's names; and the continuous model A, B, C, D about the same trim (sim/linear.h: the
 * names and units as a take's linearise event writes them to its .m and .json). */
typedef struct mtk_modes mtk_modes;

/* speed in m/s; lateral: the lean in degrees, or with by_ay != 0 the lateral acceleration in g
 * (positive: a left turn). inputs/outputs: the model's (names as a take script's `linear`
 * table takes them); ninputs < 0 / noutputs < 0: the default selection (steer_torque,
 * rider_lean_torque, throttle, front_brake, rear_brake; speed, lean, roll_rate, yaw_rate,
 * steer_angle, steer_rate: what `modes --abcd` writes). NULL on failure (mtk_last_error). */
mtk_modes* mtk_modes_new(const char* rig, const char* const* sets, int nset, double speed, double lateral, int by_ay,
                         const char* const* inputs, int ninputs, const char* const* outputs, int noutputs);
void mtk_modes_free(mtk_modes* m);

/* The point as trimmed: [0] speed (m/s), [1] lean (deg), [2] lateral acceleration (g). */
void mtk_modes_point(const mtk_modes* m, double out[3]);
/* The listed modes: their count, then count-sized arrays filled (any may be NULL): the root's
 * real part (1/s) and imaginary part (rad/s, ≥ 0), frequency (Hz), damping ratio. */
int mtk_modes_count(const mtk_modes* m);
void mtk_modes_roots(const mtk_modes* m, double* re, double* im, double* hz, double* zeta);
/* Mode i's name: "weave", "wobble", "capsize", "chatter" or "other" (NULL if i is out of range). */
const char* mtk_modes_name(const mtk_modes* m, int i);

enum { MTK_STATE = 0, MTK_INPUT = 1, MTK_OUTPUT = 2 };
/* The model's sizes: states n, inputs r, outputs p (any pointer may be NULL). */
void mtk_modes_size(const mtk_modes* m, int* n, int* r, int* p);
/* Variable i of kind MTK_STATE / MTK_INPUT / MTK_OUTPUT: its name and its units (NULL if out of
 * range). */
const char* mtk_modes_var(const mtk_modes* m, int kind, int i);
const char* mtk_modes_units(const mtk_modes* m, int kind, int i);
/* Copy the matrices, row-major, into caller arrays of n·n, n·r, p·n and p·r doubles (any NULL:
 * skipped). */
void mtk_modes_abcd(const mtk_modes* m, double* A, double* B, double* C, double* D);

#ifdef __cplusplus
}
#endif
#endif
