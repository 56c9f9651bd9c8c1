/* drivetrain.c — gearbox ratios, chain final drive, anti-squat, clutch and brakes (see
 * drivetrain.h and docs/drivetrain.md).
 *
 * The chain is quasi-static and inextensible with no slack: whichever run is taut carries the
 * tension T = |M|/r_rear needed for the torque M the chain must put on the rear sprocket, along
 * the external common tangent of the two pitch circles. Which run is taut follows from the sign
 * of M alone, so there is no branch chatter from comparing forces (a weakness noted in
 * Slipstream's chain). The force acts on the rear sprocket at its tangent point, and its
 * reaction on the output sprocket (the frame) at the other tangent point: that couple along the
 * real chain line is what lifts or squats the swingarm under drive.
 *
 * Clutch and brakes are friction elements. A Coulomb law (T = C·sign(slip)) is discontinuous
 * at zero slip and makes the step equations ill-posed, so we offer a regularised law
 * C·tanh(slip/ω_s) — smooth, with a linear "locked" region of slope C/ω_s — and, for the
 * clutch, the implicit stick law that transmits exactly the torque needed to lock within one
 * step, saturating at capacity. */
#include "sim/drivetrain.h"
#include "base/vec3.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*---- ratios ----*/

double drive_chain_ratio(const drive_params* p) { return p->r_rear / p->r_output; }

double drive_box_ratio(const drive_params* p, int gear) {
  if (gear < 1 || gear > p->ngears) return 0;
  return p->primary * p->ratios[gear];
}

double drive_gear_ratio(const drive_params* p, int gear) {
  /* The chain ratio is taken from the pitch radii, the same radii that turn tension into
   * torque, so the quasi-static chain transmits power without loss or gain (see docs). */
  return drive_box_ratio(p, gear) * drive_chain_ratio(p);
}

/*---- chain ----*/

int drive_chain_geometry(const drive_params* p, const double out_c[3], const double rear_c[3],
                         const double n[3], int upper, drive_chain_t* o) {
  mt_zero(o, sizeof *o);
  o->upper = upper ? 1 : 0;
  double nl = sqrt(dot3(n, n));
  if (!(nl > 0) || !isfinite(nl)) return -1;
  double nn[3] = {n[0] / nl, n[1] / nl, n[2] / nl};
  /* Centre line projected into the chain plane (the sprockets should already lie in it). */
  double d[3] = {out_c[0] - rear_c[0], out_c[1] - rear_c[1], out_c[2] - rear_c[2]};
  double dn = dot3(d, nn);
  for (int i = 0; i < 3; i++) d[i] -= dn * nn[i];
  double L = sqrt(dot3(d, d)), R1 = p->r_rear, R2 = p->r_output;
  if (!(L > fabs(R1 - R2))) return -1;
  double u[3] = {d[0] / L, d[1] / L, d[2] / L}, m[3];
  cross3(u, nn, m);                                   /* in-plane, the "upper" side */
  /* The tangent's unit normal ν has ν·u = (R1 − R2)/L: then both tangent points
   * c + R·ν lie on one line perpendicular to ν, with both circles on the same side. */
  double s = (R1 - R2) / L, c = sqrt(1.0 - s * s), sg = upper ? 1.0 : -1.0, nu[3], run[3];
  for (int i = 0; i < 3; i++) {
    nu[i] = s * u[i] + sg * c * m[i];
    o->rear_point[i] = rear_c[i] + R1 * nu[i];
    o->out_point[i] = out_c[i] + R2 * nu[i];
    run[i] = d[i] + (R2 - R1) * nu[i];               /* ⟂ ν by construction */
  }
  o->length = sqrt(dot3(run, run));
  for (int i = 0; i < 3; i++) o->dir[i] = run[i] / o->length;
  return 0;
}

int drive_chain(const drive_params* p, const double out_c[3], const double rear_c[3], const double n[3],
                double rear_torque, drive_chain_t* o) {
  /* Driving (M ≥ 0 about n) pulls the rear sprocket round through the upper run. */
  if (drive_chain_geometry(p, out_c, rear_c, n, rear_torque >= 0, o)) return -1;
  o->tension = fabs(rear_torque) / p->r_rear;
  for (int i = 0; i < 3; i++) {
    o->force_rear[i] = o->tension * o->dir[i];
    o->force_out[i] = -o->force_rear[i];
  }
  o->torque_out = -rear_torque * p->r_output / p->r_rear;
  return 0;
}

/*---- squat ----*/

double drive_anti_squat(const drive_params* p, const double contact[2], const double axle[2],
                        const double pivot[2], const double out_sprocket[2], double cog_height,
                        double wheelbase, drive_squat* out) {
  drive_squat sq;
  memset(&sq, 0, sizeof sq);
  /* Upper run in the side view (x forward, z up; the left axis +y is the normal). */
  double oc[3] = {out_sprocket[0], 0, out_sprocket[1]}, rc[3] = {axle[0], 0, axle[1]}, y[3] = {0, 1, 0};
  drive_chain_t ch;
  if (drive_chain_geometry(p, oc, rc, y, 1, &ch)) {
    sq.ratio = sq.angle = NAN;
    if (out) *out = sq;
    return NAN;
  }
  /* Rear wheel + swingarm: with the spring force unchanged, the swingarm is a two-force member
   * (force along axle–pivot), so the wheel carries three forces — ground, chain, swingarm —
   * which must meet in one point: the ground force points from the contact through C. */
  double d1[2] = {ch.dir[0], ch.dir[2]}, p1[2] = {ch.rear_point[0], ch.rear_point[2]};
  double d2[2] = {pivot[0] - axle[0], pivot[1] - axle[1]};
  double cr = d1[0] * d2[1] - d1[1] * d2[0];
  double n1 = hypot(d1[0], d1[1]), n2 = hypot(d2[0], d2[1]);
  double dx, dz;
  if (fabs(cr) <= 1e-12 * n1 * n2) {
    sq.parallel = 1;                 /* C at infinity along the common direction */
    dx = d1[0];
    dz = d1[1];
    sq.point[0] = sq.point[1] = INFINITY;
  } else {
    double t = ((axle[0] - p1[0]) * d2[1] - (axle[1] - p1[1]) * d2[0]) / cr;
    sq.point[0] = p1[0] + t * d1[0];
    sq.point[1] = p1[1] + t * d1[1];
    dx = sq.point[0] - contact[0];
    dz = sq.point[1] - contact[1];
  }
  double tan_tau = dz / dx;          /* ±inf for a vertical squat line */
  sq.angle = atan(tan_tau);
  sq.ratio = tan_tau / (cog_height / wheelbase);
  if (out) *out = sq;
  return sq.ratio;
}

/*---- clutch and brakes ----*/

static double unit(double x) { return mt_clamp(isnan(x) ? 0 : x, 0, 1); }

double drive_clutch_torque(const drive_params* p, double engagement, double slip) {
  return p->clutch_capacity * unit(engagement) * tanh(slip / p->clutch_slip);
}

double drive_clutch_lock_torque(const drive_params* p, double engagement, double slip,
                                double slip_accel_free, double inertia, double h) {
  /* slip(t+h) = slip + h·(a_free − T/J) = 0  ⇔  T = J·(slip/h + a_free); friction can only
   * supply up to the capacity, beyond which the clutch slips at capacity. */
  double cap = p->clutch_capacity * unit(engagement);
  return mt_clamp(inertia * (slip / h + slip_accel_free), -cap, cap);
}

double drive_brake_torque(const drive_params* p, int wheel, double input, double omega) {
  double cap = wheel == DRIVE_FRONT ? p->brake_front : p->brake_rear, k = -cap * unit(input);
  double x = omega / p->brake_slip;
  /* Brakes off (k = ±0 with a finite capacity): tanh(x) has the sign of x, ±0 included, so
   * k·tanh(x) is k·(±1): the same signed zero without the tanh (NaN stays NaN). */
  if (k == 0 && !isnan(x)) return k * copysign(1.0, x);
  return k * tanh(x);
}

/*---- parameters ----*/

static double pitch_radius(double pitch, int teeth) { return pitch / (2.0 * sin(MT_PI / teeth)); }

/* First problem with p, or NULL; *field and *sub say where. */
static const char* validate(const drive_params* p, const char** sub, const char** field, int* pos,
                            char* why, size_t n) {
#define BAD(sb, f, ps, ...) do { *sub = sb; *field = f; *pos = ps; snprintf(why, n, __VA_ARGS__); return why; } while (0)
  if (!(p->primary > 0)) BAD(NULL, "primary", 0, "must be > 0, got %g", p->primary);
  if (p->ngears < 1 || p->ngears > DRIVE_MAX_GEARS)
    BAD(NULL, "gears", 0, "expected 1..%d ratios, got %d", DRIVE_MAX_GEARS, p->ngears);
  for (int g = 1; g <= p->ngears; g++) {
    if (!(p->ratios[g] > 0)) BAD("gears", NULL, g, "gear ratio must be > 0, got %g", p->ratios[g]);
    if (g > 1 && !(p->ratios[g] < p->ratios[g - 1]))
      BAD("gears", NULL, g, "gear ratios must fall from 1st to top gear (%g after %g)", p->ratios[g], p->ratios[g - 1]);
  }
  if (!(p->r_output > 0)) BAD("chain", "radius_output", 0, "sprocket radius must be > 0, got %g", p->r_output);
  if (!(p->r_rear > 0)) BAD("chain", "radius_rear", 0, "sprocket radius must be > 0, got %g", p->r_rear);
  if (p->output_sprocket[1] != 0) BAD("chain", "output_sprocket", 0, "y must be 0: the chain runs in the symmetry plane");
  if (p->rear_sprocket[1] != 0) BAD("chain", "rear_sprocket", 0, "y must be 0: the chain runs in the symmetry plane");
  double dx = p->output_sprocket[0] - p->rear_sprocket[0], dz = p->output_sprocket[2] - p->rear_sprocket[2];
  if (!(hypot(dx, dz) > p->r_output + p->r_rear))
    BAD("chain", "output_sprocket", 0, "sprockets overlap: centres %.4g m apart, radii %.4g + %.4g m",
        hypot(dx, dz), p->r_output, p->r_rear);
  if (!(p->clutch_capacity > 0)) BAD("clutch", "capacity", 0, "must be > 0 (N m at the crank), got %g", p->clutch_capacity);
  if (!(p->clutch_slip > 0)) BAD("clutch", "slip_speed", 0, "must be > 0 (rad/s), got %g", p->clutch_slip);
  if (!(p->brake_front >= 0)) BAD("brakes", "front", 0, "must be >= 0 (N m), got %g", p->brake_front);
  if (!(p->brake_rear >= 0)) BAD("brakes", "rear", 0, "must be >= 0 (N m), got %g", p->brake_rear);
  if (!(p->brake_slip > 0)) BAD("brakes", "slip_speed", 0, "must be > 0 (rad/s), got %g", p->brake_slip);
#undef BAD
  return NULL;
}

int drive_check(const drive_params* p, mt_err* e) {
  const char *sub = NULL, *field = NULL;
  int pos = 0;
  char why[300];
  if (!validate(p, &sub, &field, &pos, why, sizeof why)) return MT_OK;
  if (field) return mt_fail(e, MT_EINPUT, "drivetrain: %s%sfield '%s': %s", sub ? sub : "", sub ? ": " : "", field, why);
  return mt_fail(e, MT_EINPUT, "drivetrain: %s: element %d: %s", sub, pos, why);
}

static const char* const KEYS[] = {"primary", "gears", "chain", "clutch", "brakes", "name", "source", "notes", NULL};
static const char* const CHAIN_KEYS[] = {"pitch", "teeth_output", "teeth_rear", "radius_output", "radius_rear",
                                         "output_sprocket", "rear_sprocket", NULL};
static const char* const CLUTCH_KEYS[] = {"capacity", "slip_speed", NULL};
static const char* const BRAKE_KEYS[] = {"front", "rear", "slip_speed", NULL};

/* Enter sub-table `name` of the table at t (pushed on success); its scope goes to *sub. */
static int enter(lua_State* L, int t, const lb_scope* s, const char* name, char* label, size_t n,
                 lb_scope* sub, mt_err* e) {
  int pushed;
  if (lb_table(L, t, s, name, 0, 1, &pushed, e)) return MT_EINPUT;
  snprintf(label, n, "%s%s%s", s->label ? s->label : "", s->label ? ": " : "", name);
  *sub = lb_enter(s, name, 0, label);
  return MT_OK;
}

/* A list of numbers (length lo..hi) at field name of table t. */
static int read_list(lua_State* L, int t, const lb_scope* s, const char* name, int lo, int hi, double* out,
                     int* count, mt_err* e) {
  int pushed;
  if (lb_table(L, t, s, name, 0, 1, &pushed, e)) return MT_EINPUT;
  char label[160];
  snprintf(label, sizeof label, "%s%sfield '%s'", s->label ? s->label : "", s->label ? ": " : "", name);
  lb_scope vs = lb_enter(s, name, 0, label);
  int k = (int)lua_rawlen(L, -1);
  if (k < lo || k > hi) {
    lua_pop(L, 1);
    if (lo == hi) return lb_fail(s, name, 0, e, "expected %d numbers, got %d", lo, k);
    return lb_fail(s, name, 0, e, "expected %d to %d numbers, got %d", lo, hi, k);
  }
  for (int i = 0; i < k; i++)
    if (lb_num(L, -1, &vs, NULL, i + 1, 1, 0, &out[i], e)) {
      lua_pop(L, 1);
      return MT_EINPUT;
    }
  lua_pop(L, 1);
  if (count) *count = k;
  return MT_OK;
}

static int read_teeth(lua_State* L, int t, const lb_scope* s, const char* name, int* out, mt_err* e) {
  double v;
  if (lb_num(L, t, s, name, 0, 1, 0, &v, e)) return MT_EINPUT;
  if (v != floor(v) || v < 6 || v > 200) return lb_fail(s, name, 0, e, "must be a whole number of teeth in 6..200, got %g", v);
  *out = (int)v;
  return MT_OK;
}

static int read_chain(lua_State* L, int t, const lb_scope* cs, drive_params* p, mt_err* e) {
  if (lb_check_keys(L, t, cs, CHAIN_KEYS, e)) return MT_EINPUT;
  lua_getfield(L, t, "teeth_output");
  int by_teeth = !lua_isnil(L, -1);
  lua_pop(L, 1);
  if (by_teeth) {
    /* Pitch radius of a sprocket: the chain's pins sit on a circle through the N-gon of side p. */
    if (lb_num(L, t, cs, "pitch", 0, 1, 0, &p->chain_pitch, e)) return MT_EINPUT;
    if (!(p->chain_pitch > 0)) return lb_fail(cs, "pitch", 0, e, "must be > 0 (m), got %g", p->chain_pitch);
    if (read_teeth(L, t, cs, "teeth_output", &p->teeth_output, e) ||
        read_teeth(L, t, cs, "teeth_rear", &p->teeth_rear, e))
      return MT_EINPUT;
    p->r_output = pitch_radius(p->chain_pitch, p->teeth_output);
    p->r_rear = pitch_radius(p->chain_pitch, p->teeth_rear);
  } else {
    if (lb_num(L, t, cs, "radius_output", 0, 1, 0, &p->r_output, e) ||
        lb_num(L, t, cs, "radius_rear", 0, 1, 0, &p->r_rear, e))
      return MT_EINPUT;
  }
  if (read_list(L, t, cs, "output_sprocket", 3, 3, p->output_sprocket, NULL, e) ||
      read_list(L, t, cs, "rear_sprocket", 3, 3, p->rear_sprocket, NULL, e))
    return MT_EINPUT;
  return MT_OK;
}

int drive_params_read(lua_State* L, int idx, const lb_scope* s, drive_params* p, mt_err* e) {
  int t = lua_absindex(L, idx);
  memset(p, 0, sizeof *p);
  p->clutch_slip = 10.0;
  p->brake_slip = 0.5;
  if (lb_check_keys(L, t, s, KEYS, e)) return MT_EINPUT;
  if (lb_num(L, t, s, "primary", 0, 1, 0, &p->primary, e)) return MT_EINPUT;
  if (read_list(L, t, s, "gears", 1, DRIVE_MAX_GEARS, p->ratios + 1, &p->ngears, e)) return MT_EINPUT;

  char lc[128], lk[128], lbk[128];
  lb_scope cs, ks, bs;
  if (enter(L, t, s, "chain", lc, sizeof lc, &cs, e)) return MT_EINPUT;
  int rc = read_chain(L, lua_gettop(L), &cs, p, e);
  lua_pop(L, 1);
  if (rc) return rc;

  if (enter(L, t, s, "clutch", lk, sizeof lk, &ks, e)) return MT_EINPUT;
  rc = lb_check_keys(L, -1, &ks, CLUTCH_KEYS, e) ||
       lb_num(L, -1, &ks, "capacity", 0, 1, 0, &p->clutch_capacity, e) ||
       lb_num(L, -1, &ks, "slip_speed", 0, 0, p->clutch_slip, &p->clutch_slip, e);
  lua_pop(L, 1);
  if (rc) return MT_EINPUT;

  if (enter(L, t, s, "brakes", lbk, sizeof lbk, &bs, e)) return MT_EINPUT;
  rc = lb_check_keys(L, -1, &bs, BRAKE_KEYS, e) ||
       lb_num(L, -1, &bs, "front", 0, 1, 0, &p->brake_front, e) ||
       lb_num(L, -1, &bs, "rear", 0, 1, 0, &p->brake_rear, e) ||
       lb_num(L, -1, &bs, "slip_speed", 0, 0, p->brake_slip, &p->brake_slip, e);
  lua_pop(L, 1);
  if (rc) return MT_EINPUT;

  const char *sub = NULL, *field = NULL;
  int pos = 0;
  char why[300];
  if (!validate(p, &sub, &field, &pos, why, sizeof why)) return MT_OK;
  /* Point the message at the sub-table the problem lives in. */
  if (!sub) return lb_fail(s, field, pos, e, "%s", why);
  if (strcmp(sub, "gears") == 0) {
    char label[160];
    snprintf(label, sizeof label, "%s%sfield 'gears'", s->label ? s->label : "", s->label ? ": " : "");
    lb_scope gs = lb_enter(s, "gears", 0, label);
    return lb_fail(&gs, NULL, pos, e, "%s", why);
  }
  const lb_scope* ss = strcmp(sub, "chain") == 0 ? &cs : strcmp(sub, "clutch") == 0 ? &ks : &bs;
  /* Radii derived from teeth are blamed on the teeth. */
  if (p->teeth_output && strcmp(field, "radius_output") == 0) field = "teeth_output";
  if (p->teeth_rear && strcmp(field, "radius_rear") == 0) field = "teeth_rear";
  return lb_fail(ss, field, pos, e, "%s", why);
}
