/* test_vstep.c — the staged vehicle step (sim/vstep.h) against mj_step1/mj_step2, bit for bit,
 * and its guard: a model where a skipped stage has work falls back to MuJoCo's own step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/drivetrain.h"
#include "sim/engine.h"
#include "sim/rider.h"
#include "sim/track.h"
#include "sim/trim.h"
#include "sim/vehicle.h"
#include "sim/vstep.h"
#include "tests/unit/test.h"

typedef struct rider_ctx { rider_params rp; rider_state rs; double speed; } rider_ctx;

static void ride(vehicle* v, void* data) {
  rider_ctx* c = data;
  rider_target t = {0};
  t.speed = c->speed;
  t.roll_mode = 1;
  t.auto_gear = 1;
  rider_control(&c->rp, &c->rs, v, &t, v->rig->timestep);
}

/* a trimmed sport1000 at speed on rd at (x, y, z, heading), ridden by the bench rider;
 * staged = 0: mj_step1/mj_step2 */
static vehicle* make(const rig* r, road rd, const double p[3], double heading, double speed, int staged,
                     rider_ctx* c, mt_err* e) {
  int was = vstep_enabled;
  vstep_enabled = staged;
  vehicle* v = veh_new(r, rd, 0, e);
  vstep_enabled = was;
  if (!v) return NULL;
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.gear = -1;
  s.x = p[0];
  s.y = p[1];
  s.z = p[2];
  s.heading = heading;
  trim_result tr;
  if (trim_solve(v, &s, &tr, e)) {
    veh_free(v);
    return NULL;
  }
  rider_default_params(&c->rp);
  memset(&c->rs, 0, sizeof c->rs);
  c->speed = speed;
  v->control = ride;
  v->control_data = c;
  return v;
}

/* Step both n times; the first step (1-based) where the state, the accelerations or any output
 * differ in any bit, else 0. */
static long lockstep(vehicle* a, vehicle* b, long n, char* what, size_t nw) {
  mt_err e = {0};
  const mjModel* m = a->m;
  for (long i = 1; i <= n; i++) {
    int ra = veh_step(a, &e), rb = veh_step(b, &e);
    const char* w = NULL;
    if (ra != rb) w = "return code";
    else if (memcmp(a->d->qpos, b->d->qpos, sizeof(double) * m->nq)) w = "qpos";
    else if (memcmp(a->d->qvel, b->d->qvel, sizeof(double) * m->nv)) w = "qvel";
    else if (memcmp(a->d->act, b->d->act, sizeof(double) * m->na)) w = "act";
    else if (memcmp(a->d->qacc, b->d->qacc, sizeof(double) * m->nv)) w = "qacc";
    else if (memcmp(a->d->act_dot, b->d->act_dot, sizeof(double) * m->na)) w = "act_dot";
    else if (memcmp(a->d->xpos, b->d->xpos, sizeof(double) * 3 * m->nbody)) w = "xpos";
    else if (memcmp(a->d->cvel, b->d->cvel, sizeof(double) * 6 * m->nbody)) w = "cvel";
    else if (memcmp(a->d->qfrc_applied, b->d->qfrc_applied, sizeof(double) * m->nv)) w = "qfrc_applied";
    else if (memcmp(&a->out, &b->out, sizeof a->out)) w = "veh_out";
    else if (memcmp(&a->in, &b->in, sizeof a->in)) w = "veh_input";
    else if (a->d->time != b->d->time) w = "time";
    else if (a->d->warning[mjWARN_BADQACC].number != b->d->warning[mjWARN_BADQACC].number) w = "warnings";
    if (w) {
      snprintf(what, nw, "%s", w);
      return i;
    }
    if (ra) break;
  }
  return 0;
}

MT_TEST(vstep_staged_step_is_bit_identical_on_the_flat_road) {
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  rider_ctx ca, cb;
  double p[3] = {0, 0, 0};
  vehicle* a = make(r, (road){0}, p, 0, 30, 0, &ca, &e);
  vehicle* b = make(r, (road){0}, p, 0, 30, 1, &cb, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  CHECK_MSG(!a->staged && b->staged, "the staged step should apply to sport1000 (and not when disabled)");
  char what[64] = "";
  long n = getenv("MT_TEST_TAG") ? 2000 : 20000;
  long at = lockstep(a, b, n, what, sizeof what);
  CHECK_MSG(at == 0, "the paths differ at step %ld in %s", at, what);
  /* and the ride went somewhere: 30 m/s held by the rider */
  CHECK_MSG(fabs(veh_speed(b) - 30) < 1, "speed %.3f m/s", veh_speed(b));
  veh_free(a);
  veh_free(b);
  rig_free(r);
}

/* Laguna Seca and the road point 10 m from its start (p, heading h), where the Laguna tests
 * start their ride; NULL with e set when the track does not load. */
static track* laguna_at_10m(double p[3], double* h, mt_err* e) {
  char path[4096];
  track_resolve("laguna_seca", path, sizeof path);
  track* t = track_load(path, e);
  if (t) track_eval(t, 10, 0, p, h);
  return t;
}

MT_TEST(vstep_staged_step_is_bit_identical_on_laguna) {
  /* the road under the tyres from the track (height, grade, camber), braking from 40 to 25 m/s
   * into turn 2 so the rider shifts and the brakes and engine braking work */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  double p[3], h;
  track* t = laguna_at_10m(p, &h, &e);
  CHECK_MSG(t, "%s", e.msg);
  rider_ctx ca, cb;
  vehicle* a = make(r, track_road(t), p, h, 40, 0, &ca, &e);
  vehicle* b = make(r, track_road(t), p, h, 40, 1, &cb, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  CHECK(b->staged && !a->staged);
  ca.speed = cb.speed = 25;
  char what[64] = "";
  long n = getenv("MT_TEST_TAG") ? 1500 : 6000;
  long at = lockstep(a, b, n, what, sizeof what);
  CHECK_MSG(at == 0, "the paths differ at step %ld in %s", at, what);
  CHECK_MSG(veh_speed(b) < 35, "speed %.2f m/s: the rider did not brake", veh_speed(b));
  veh_free(a);
  veh_free(b);
  track_free(t);
  rig_free(r);
}

MT_TEST(vstep_bad_state_fails_the_same_way) {
  /* a NaN velocity: MuJoCo's own check resets the data and warns in both paths; veh_step's
   * verdict and the state after are the same */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  rider_ctx ca, cb;
  double p[3] = {0, 0, 0};
  vehicle* a = make(r, (road){0}, p, 0, 20, 0, &ca, &e);
  vehicle* b = make(r, (road){0}, p, 0, 20, 1, &cb, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  char what[64] = "";
  CHECK(lockstep(a, b, 100, what, sizeof what) == 0);
  int dof = a->dadr[r->j_steer];
  a->d->qvel[dof] = b->d->qvel[dof] = NAN;
  mt_err ea = {0}, eb = {0};
  int ra = veh_step(a, &ea), rb = veh_step(b, &eb);
  CHECK_MSG(ra == rb, "old %d (%s), staged %d (%s)", ra, ea.msg, rb, eb.msg);
  CHECK_MSG(strcmp(ea.msg, eb.msg) == 0, "old: %s; staged: %s", ea.msg, eb.msg);
  CHECK(a->d->warning[mjWARN_BADQVEL].number == 1 && b->d->warning[mjWARN_BADQVEL].number == 1);
  CHECK(memcmp(a->d->qpos, b->d->qpos, sizeof(double) * a->m->nq) == 0);
  CHECK(memcmp(a->d->qvel, b->d->qvel, sizeof(double) * a->m->nv) == 0);
  /* a tyre state gone infinite: MuJoCo's actuation makes NaN forces, qacc goes bad */
  CHECK(lockstep(a, b, 50, what, sizeof what) == 0);
  a->d->act[0] = b->d->act[0] = INFINITY;
  ra = veh_step(a, &ea);
  rb = veh_step(b, &eb);
  CHECK_MSG(ra == rb && strcmp(ea.msg, eb.msg) == 0, "old: %s; staged: %s", ea.msg, eb.msg);
  CHECK_MSG(ra != MT_OK, "an infinite tyre state went unnoticed");
  CHECK(a->d->warning[mjWARN_BADQACC].number == b->d->warning[mjWARN_BADQACC].number);
  CHECK(memcmp(a->d->qpos, b->d->qpos, sizeof(double) * a->m->nq) == 0);
  veh_free(a);
  veh_free(b);
  rig_free(r);
}

static mjModel* load_xml(const char* xml) {
  mjVFS* vfs = malloc(sizeof *vfs);
  mj_defaultVFS(vfs);
  int len = (int)strlen(xml);
  mj_makeEmptyFileVFS(vfs, "t.xml", len);
  memcpy(vfs->filedata[mj_findFileVFS(vfs, "t.xml")], xml, (size_t)len);
  char err[500] = "";
  mjModel* m = mj_loadXML("t.xml", vfs, err, sizeof err);
  mj_deleteVFS(vfs);
  free(vfs);
  return m;
}

MT_TEST(vstep_guard_falls_back_when_a_skipped_stage_has_work) {
  /* a base model like ours (no geoms, state-carrying actuators without force) passes; each
   * variant gives one skipped stage work and must fall back */
  static const char* head = "<mujoco><option integrator=\"%s\"%s>%s</option><worldbody>"
                            "<body name=\"a\" pos=\"0 0 1\"><freejoint/>%s<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>"
                            "<body name=\"b\"><joint name=\"h\" type=\"hinge\"%s/>"
                            "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>%s</body></body>%s</worldbody>"
                            "<actuator><general joint=\"h\" dyntype=\"user\" gaintype=\"fixed\" gainprm=\"%s\" biastype=\"none\"/>"
                            "</actuator>%s%s</mujoco>";
  struct {
    const char* integ;
    const char* optattr;
    const char* flags;
    const char* geom;
    const char* jattr;
    const char* site;
    const char* world;
    const char* gain;
    const char* eq;
    const char* sensor;
    int applies;
    const char* name;
  } cases[] = {
      {"Euler", "", "", "", "", "", "", "0", "", "", 1, "base"},
      {"Euler", "", "<flag contact=\"disable\"/>", "<geom type=\"sphere\" size=\"0.1\"/>", "", "", "", "0", "", "", 1,
       "geom with contacts disabled"},
      {"Euler", "", "", "<geom type=\"sphere\" size=\"0.1\"/>", "", "", "<geom type=\"plane\" size=\"5 5 1\"/>", "0", "",
       "", 0, "collidable geoms"},
      {"Euler", "", "", "", "", "", "", "0", "<equality><joint joint1=\"h\"/></equality>", "", 0, "an equality"},
      {"Euler", "", "<flag equality=\"disable\"/>", "", "", "", "", "0", "<equality><joint joint1=\"h\"/></equality>", "",
       1, "a disabled equality"},
      {"Euler", "", "", "", " limited=\"true\" range=\"-1 1\"", "", "", "0", "", "", 0, "a joint limit"},
      {"Euler", "", "", "", " frictionloss=\"1\"", "", "", "0", "", "", 0, "friction loss"},
      {"Euler", "", "", "", "", "<site name=\"s\"/>", "", "0", "", "<sensor><accelerometer site=\"s\"/></sensor>", 0,
       "a sensor"},
      {"RK4", "", "", "", "", "", "", "0", "", "", 0, "RK4"},
      {"implicit", "", "", "", "", "", "", "0", "", "", 0, "implicit"},
      {"Euler", "", "<flag energy=\"enable\"/>", "", "", "", "", "0", "", "", 0, "energy"},
      {"Euler", "", "", "", "", "", "", "1", "", "", 0, "an actuator with gain"},
      {"Euler", "", "", "", "", "", "<camera name=\"c\"/>", "0", "", "", 0, "a camera"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char xml[4000];
    snprintf(xml, sizeof xml, head, cases[k].integ, cases[k].optattr, cases[k].flags, cases[k].geom, cases[k].jattr,
             cases[k].site, cases[k].world, cases[k].gain, cases[k].eq, cases[k].sensor);
    mjModel* m = load_xml(xml);
    CHECK_MSG(m, "case %s did not compile", cases[k].name);
    const char* why = NULL;
    int ok = vstep_applies(m, &why);
    mj_deleteModel(m);
    CHECK_MSG(ok == cases[k].applies, "%s: vstep_applies %d (%s), expected %d", cases[k].name, ok, why ? why : "",
              cases[k].applies);
  }
  /* and a vehicle whose compiled model was given a skipped stage's work is not staged */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  CHECK(v->staged && vstep_applies(v->m, NULL));
  v->m->opt.enableflags |= mjENBL_ENERGY;
  CHECK(!vstep_applies(v->m, NULL));
  v->m->opt.enableflags &= ~mjENBL_ENERGY;
  v->m->opt.disableflags &= ~mjDSBL_LIMIT;
  CHECK(vstep_applies(v->m, NULL));   /* no joint of the rig is limited: nothing to do */
  v->m->jnt_limited[1] = 1;
  CHECK(!vstep_applies(v->m, NULL));
  veh_free(v);
  rig_free(r);
}

static mjtNum test_act_dyn(const mjModel* m, const mjData* d, int id) {
  (void)m;
  return 5.0 - d->act[id] + 0.1 * d->qvel[6];   /* drives act to its upper limit */
}

MT_TEST(vstep_phases_match_mj_step1_step2_on_small_models) {
  /* a free body with a hinged child under gravity, spinning, pushed: without damping (the explicit
   * update written out), with joint damping (mj_Euler's implicit damping), with a limited
   * activation (its clamp) */
  static const char* xml = "<mujoco><option integrator=\"Euler\" timestep=\"0.002\"/><worldbody>"
                           "<body name=\"a\" pos=\"0 0 1\"><freejoint/><inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"1 2 3\"/>"
                           "<body name=\"b\" pos=\"0.3 0 0\"><joint name=\"h\" type=\"hinge\" axis=\"0 1 1\"%s/>"
                           "<inertial pos=\"0.1 0.05 0\" mass=\"1\" diaginertia=\"0.1 0.2 0.3\"/></body></body></worldbody>"
                           "<actuator><general joint=\"h\" dyntype=\"user\" gaintype=\"fixed\" gainprm=\"0\" biastype=\"none\"%s/>"
                           "</actuator></mujoco>";
  const char* variants[][2] = {{"", ""}, {" damping=\"0.7\"", ""}, {"", " actlimited=\"true\" actrange=\"-1 1.2\""}};
  mjfGeneric cb = mjcb_control;
  mjfAct ad = mjcb_act_dyn;
  mjcb_control = NULL;
  mjcb_act_dyn = test_act_dyn;
  for (int k = 0; k < 3; k++) {
    char x[3000];
    snprintf(x, sizeof x, xml, variants[k][0], variants[k][1]);
    mjModel* m = load_xml(x);
    CHECK_MSG(m, "variant %d did not compile", k);
    CHECK(vstep_applies(m, NULL));
    mjData* a = mj_makeData(m);
    mjData* b = mj_makeData(m);
    double qv[7] = {0.3, -0.2, 0.1, 1.5, -0.7, 2.0, 4.0};
    memcpy(a->qvel, qv, sizeof qv);
    memcpy(b->qvel, qv, sizeof qv);
    int at = 0;
    for (int i = 1; i <= 2000 && !at; i++) {
      a->qfrc_applied[6] = b->qfrc_applied[6] = sin(0.01 * i);   /* a force between the phases */
      /* a Cartesian force on the child in every other step (mj_fwdAcceleration's own path) */
      a->xfrc_applied[6 * 2 + 2] = b->xfrc_applied[6 * 2 + 2] = i % 2 ? 0.3 * cos(0.02 * i) : 0;
      mj_step1(m, a);
      mj_step2(m, a);
      vstep_phase1(m, b);
      b->qfrc_applied[6] = a->qfrc_applied[6];
      vstep_phase2(m, b);
      if (memcmp(a->qpos, b->qpos, sizeof(double) * m->nq) || memcmp(a->qvel, b->qvel, sizeof(double) * m->nv) ||
          memcmp(a->act, b->act, sizeof(double) * m->na) || memcmp(a->qacc, b->qacc, sizeof(double) * m->nv) ||
          a->time != b->time)
        at = i;
    }
    double act = b->act[0];
    mj_deleteData(a);
    mj_deleteData(b);
    mj_deleteModel(m);
    CHECK_MSG(at == 0, "variant %d: the paths differ at step %d", k, at);
    if (k == 2) CHECK_MSG(act == 1.2, "the activation should sit at its limit 1.2, is %.17g", act);
  }
  mjcb_control = cb;
  mjcb_act_dyn = ad;
}

/* Step a with the shortcuts of the force code off and b with them on, n times; the first step
 * (1-based) where anything differs in any bit, else 0. */
static long lockstep_shortcuts(vehicle* a, vehicle* b, long n, char* what, size_t nw) {
  long at = 0;
  for (long i = 1; i <= n && !at; i++) {
    veh_force_shortcuts = tyre_zero_shortcuts = engine_derived_shortcuts = 0;
    mt_err e = {0};
    int ra = veh_step(a, &e);
    veh_force_shortcuts = tyre_zero_shortcuts = engine_derived_shortcuts = 1;
    int rb = veh_step(b, &e);
    const mjModel* m = a->m;
    const char* w = NULL;
    if (ra != rb) w = "return code";
    else if (memcmp(a->d->qpos, b->d->qpos, sizeof(double) * m->nq)) w = "qpos";
    else if (memcmp(a->d->qvel, b->d->qvel, sizeof(double) * m->nv)) w = "qvel";
    else if (memcmp(a->d->act, b->d->act, sizeof(double) * m->na)) w = "act";
    else if (memcmp(a->d->qacc, b->d->qacc, sizeof(double) * m->nv)) w = "qacc";
    else if (memcmp(a->d->qfrc_applied, b->d->qfrc_applied, sizeof(double) * m->nv)) w = "qfrc_applied";
    else if (memcmp(&a->out, &b->out, sizeof a->out)) w = "veh_out";
    else if (memcmp(&a->in, &b->in, sizeof a->in)) w = "veh_input";
    if (w) {
      snprintf(what, nw, "%s", w);
      at = i;
    }
    if (ra) break;
  }
  veh_force_shortcuts = tyre_zero_shortcuts = engine_derived_shortcuts = 1;
  return at;
}

MT_TEST(vstep_force_shortcuts_are_bit_identical) {
  /* the generalized-force pass without the bodies no force reaches, and the Magic Formula
   * without the exp and the division of its zero coefficients (pDy2 = pDy3 = 0 in the shipped
   * sets), against the full computations: on Laguna braking from 40 to 25 m/s, and on the flat
   * road with the machine let fall (the contact spheres, the sidewall, a wheel in the air) */
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->wheel[0].tyre.pDy2 == 0 && r->wheel[0].tyre.pDy3 == 0 && r->wheel[1].tyre.pDy3 == 0);
  mt_err e = {0};
  double p[3], h;
  track* t = laguna_at_10m(p, &h, &e);
  CHECK_MSG(t, "%s", e.msg);
  rider_ctx ca, cb;
  vehicle* a = make(r, track_road(t), p, h, 40, 1, &ca, &e);
  vehicle* b = make(r, track_road(t), p, h, 40, 1, &cb, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  ca.speed = cb.speed = 25;
  char what[64] = "";
  long n = getenv("MT_TEST_TAG") ? 1500 : 6000;
  long at = lockstep_shortcuts(a, b, n, what, sizeof what);
  CHECK_MSG(at == 0, "the shortcuts differ at step %ld in %s", at, what);
  veh_free(a);
  veh_free(b);
  /* no rider: the machine falls over at 5 m/s and slides */
  double p0[3] = {0, 0, 0};
  a = make(r, (road){0}, p0, 0, 5, 1, &ca, &e);
  b = make(r, (road){0}, p0, 0, 5, 1, &cb, &e);
  CHECK_MSG(a && b, "%s", e.msg);
  a->control = b->control = NULL;
  a->d->qvel[a->dadr[r->j_steer]] = b->d->qvel[b->dadr[r->j_steer]] = 2;
  int touched = 0;
  for (int k = 0; k < 6 && !at; k++) {
    at = lockstep_shortcuts(a, b, 500, what, sizeof what);
    touched |= b->out.contacts_touching > 0;
  }
  CHECK_MSG(at == 0, "the shortcuts differ in the fall at step %ld in %s", at, what);
  CHECK_MSG(touched, "the fall never put a contact sphere on the road (roll %.2f)", b->d->qpos[3]);
  veh_free(a);
  veh_free(b);
  track_free(t);
  rig_free(r);
}

MT_TEST(vstep_body_velocity_is_mj_objectvelocity) {
  /* veh_body_velocity against MuJoCo's mj_objectVelocity (world axes), every body, every bit,
   * along the Laguna ride (leaning, pitching, braking) */
  rig* r = mt_test_load_sport();
  CHECK(r);
  mt_err e = {0};
  double p[3], h;
  track* t = laguna_at_10m(p, &h, &e);
  CHECK_MSG(t, "%s", e.msg);
  rider_ctx c;
  vehicle* v = make(r, track_road(t), p, h, 40, 1, &c, &e);
  CHECK_MSG(v, "%s", e.msg);
  c.speed = 25;
  long n = getenv("MT_TEST_TAG") ? 500 : 3000, compared = 0;
  for (long i = 0; i < n; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    for (int b = 0; b < v->m->nbody; b++) {
      double ours[6], theirs[6];
      veh_body_velocity(v->m, v->d, b, ours);
      mj_objectVelocity(v->m, v->d, mjOBJ_BODY, b, theirs, 0);
      CHECK_MSG(memcmp(ours, theirs, sizeof ours) == 0,
                "step %ld body %d: ours %.17g %.17g %.17g, MuJoCo's %.17g %.17g %.17g", i, b, ours[3], ours[4],
                ours[5], theirs[3], theirs[4], theirs[5]);
      compared++;
    }
  }
  CHECK(compared == n * v->m->nbody && v->m->nbody > 10);
  veh_free(v);
  track_free(t);
  rig_free(r);
}

MT_TEST(vstep_tyre_outputs_do_not_depend_on_what_was_there) {
  /* tyre_contact and tyre_forces no longer clear their output first: every byte must still be
   * written. Into a buffer of 0x00 and one of 0xA5 bytes, the same bytes come out: upright,
   * leaning, in the air, lying flat on the road (the early return), at zero and negative load */
  rig* r = mt_test_load_sport();
  CHECK(r);
  const tyre_params* tp = &r->wheel[RIG_REAR].tyre;
  const double c[3] = {0.3, -0.2, 0.3}, vc[3] = {30, 0.4, -0.1}, w[3] = {0.2, -95, 1.5};
  const double axes[4][3] = {{0, 1, 0}, {0, 0.8660254037844386, 0.5}, {0.1, 0.99, -0.1}, {0, 0, 1}};
  const double heights[3] = {0.3, 0.25, 0.6};
  int flat = 0;
  for (int k = 0; k < 4; k++)
    for (int hz = 0; hz < 3; hz++) {
      double cc[3] = {c[0], c[1], heights[hz]}, a[3];
      double na = sqrt(axes[k][0] * axes[k][0] + axes[k][1] * axes[k][1] + axes[k][2] * axes[k][2]);
      for (int i = 0; i < 3; i++) a[i] = axes[k][i] / na;
      tyre_contact_t x, y;
      memset(&x, 0, sizeof x);
      memset(&y, 0xA5, sizeof y);
      tyre_contact(tp, NULL, cc, a, vc, w, NULL, &x);
      tyre_contact(tp, NULL, cc, a, vc, w, NULL, &y);
      CHECK_MSG(memcmp(&x, &y, sizeof x) == 0, "contact: axis %d height %d", k, hz);
      flat += x.l[0] == 0 && x.l[1] == 0 && x.l[2] == 0 && x.on_road;
    }
  CHECK(flat == 3);   /* the axis along the normal: the early return, at every height */
  const double fzs[4] = {1500, 0.5, 0, -10}, slips[3][3] = {{0.02, 0.05, 0.3}, {-0.1, -0.2, -0.8}, {0, 0, 0}};
  for (int m = 0; m < 2; m++)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 3; j++) {
        tyre_params q = *tp;
        if (m) {
          q.model = TYRE_MODEL_ROLLING;
          q.k_slip = 1e5;
        }
        tyre_forces_t x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0xA5, sizeof y);
        tyre_forces(&q, fzs[i], slips[j][0], slips[j][1], slips[j][2], &x);
        tyre_forces(&q, fzs[i], slips[j][0], slips[j][1], slips[j][2], &y);
        CHECK_MSG(memcmp(&x, &y, sizeof x) == 0, "forces: model %d load %g slips %d", m, fzs[i], j);
      }
  rig_free(r);
}

/* The step's scans two lanes at a time (bad values, any bit, any positive damping) give what one
 * at a time gives: every length 0..13, one odd value (NaN of either sign, ±inf, ±mjMAXVAL and the doubles either side of it, −0, a
 * denormal) at every position, among finite values, +0s or −0s. */
MT_TEST(vstep_wide_scans_are_the_scalar_ones) {
  const double odd[] = {NAN, -NAN, INFINITY, -INFINITY, mjMAXVAL, -mjMAXVAL, nextafter(mjMAXVAL, INFINITY),
                        nextafter(-mjMAXVAL, -INFINITY), nextafter(mjMAXVAL, 0), -0.0, 0.0, 4.9e-324, 1.0};
  const double fill[] = {0.0, -0.0, 0.25};
  long n_cases = 0, bad = 0, pos = 0;
  for (int n = 0; n <= 13; n++)
    for (size_t f = 0; f < sizeof fill / sizeof fill[0]; f++)
      for (int at = -1; at < n; at++)
        for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
          double x[16];
          for (int i = 0; i < 16; i++) x[i] = i < n ? fill[f] : NAN;   /* NaN past the end: never read */
          if (at >= 0) x[at] = odd[k];
          vstep_wide = 0;
          int g0 = vstep_all_good(x, n), p0 = vstep_any_positive(x, n);
          uint64_t b0 = vstep_any_bits(x, n);
          vstep_wide = 1;
          int g1 = vstep_all_good(x, n), p1 = vstep_any_positive(x, n);
          uint64_t b1 = vstep_any_bits(x, n);
          CHECK_MSG(g0 == g1 && b0 == b1 && p0 == p1, "n %d, fill %g, %g at %d: all_good %d/%d, bits %llx/%llx, positive %d/%d",
                    n, fill[f], odd[k], at, g0, g1, (unsigned long long)b0, (unsigned long long)b1, p0, p1);
          pos += p0;
          n_cases++;
          bad += !g0;
        }
  vstep_wide = 1;
  CHECK(n_cases > 2000 && bad > 300 && pos > 300 && pos < n_cases);
}

/* mt_zero (the step's per-call clearing of veh_wheel_out, engine_out and drive_chain_t without a
 * `rep stos`) writes what memset(p, 0, n) writes and nothing else: every length 0..200 and those
 * three structs' sizes, at every alignment 0..15, inside a buffer of 0xA5 bytes. */
MT_TEST(mt_zero_is_memset) {
  unsigned char a[256], b[256];
  size_t sizes[204];
  int ns = 0;
  for (size_t n = 0; n <= 200; n++) sizes[ns++] = n;
  sizes[ns++] = sizeof(veh_wheel_out);
  sizes[ns++] = sizeof(engine_out);
  sizes[ns++] = sizeof(drive_chain_t);
  for (int k = 0; k < ns; k++)
    for (size_t off = 0; off < 16; off++) {
      memset(a, 0xA5, sizeof a);
      memset(b, 0xA5, sizeof b);
      memset(a + off, 0, sizes[k]);
      mt_zero(b + off, sizes[k]);
      CHECK_MSG(memcmp(a, b, sizeof a) == 0, "%zu bytes at offset %zu", sizes[k], off);
    }
  /* and through the struct types themselves, as the step calls it */
  veh_wheel_out w;
  memset(&w, 0xA5, sizeof w);
  mt_zero(&w, sizeof w);
  unsigned char z[sizeof w];
  memset(z, 0, sizeof z);
  CHECK(memcmp(&w, z, sizeof w) == 0);
}
