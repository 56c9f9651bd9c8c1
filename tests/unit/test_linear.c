/* test_linear.c — continuous-time A, B, C, D (sim/linear_abcd.c) against analytic models:
 * a spring–mass–damper, a compound pendulum on a hinge and on a ball joint, a free spinning
 * body (the quaternion's tangent space), and the vehicle (state restored bit for bit, B of the
 * steer torque = the mass matrix's inverse, D of the road input = the tyre's stiffness,
 * continuous eigenvalues = the one-step Jacobian's). */
#include <complex.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/linear.h"
#include "sim/trim.h"
#include "takes/recorder.h"
#include "tests/unit/test.h"

static mjModel* load_mjcf(const char* xml) {
  mjVFS* vfs = malloc(sizeof *vfs);
  mj_defaultVFS(vfs);
  int len = (int)strlen(xml);
  mj_makeEmptyFileVFS(vfs, "t.xml", len);
  memcpy(vfs->filedata[mj_findFileVFS(vfs, "t.xml")], xml, (size_t)len);
  char err[1000] = "";
  mjModel* m = mj_loadXML("t.xml", vfs, err, sizeof err);
  if (!m) fprintf(stderr, "MJCF: %s\n", err);
  mj_deleteVFS(vfs);
  free(vfs);
  return m;
}

static double maxdiff(const double* a, const double* b, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
  return d;
}

MT_TEST(lin_spring_mass_damper_analytic_abcd) {
  const double k = 2000, c = 15, m = 3.5;
  char xml[2048];
  snprintf(xml, sizeof xml,
           "<mujoco><option timestep='0.001' gravity='0 0 0'/><worldbody><body name='mass'>"
           "<joint name='x' type='slide' axis='1 0 0' stiffness='%g' damping='%g'/>"
           "<inertial pos='0 0 0' mass='%g' diaginertia='1 1 1'/></body></worldbody>"
           "<actuator><motor name='force' joint='x'/></actuator>"
           "<sensor><jointpos name='pos' joint='x'/><jointvel name='vel' joint='x'/>"
           "<actuatorfrc name='f' actuator='force'/></sensor></mujoco>",
           k, c, m);
  mjModel* mm = load_mjcf(xml);
  CHECK(mm);
  mjData* d = mj_makeData(mm);
  d->qpos[0] = 0.05;   /* away from rest, moving: a linear system's matrices do not care */
  d->qvel[0] = 0.3;
  d->ctrl[0] = 4;
  mj_forward(mm, d);
  lin_spec s = {0};
  lin_spec_add(&s, LIN_INPUT, "ctrl.force", 0);
  lin_spec_add(&s, LIN_OUTPUT, "sensor.pos", 0);
  lin_spec_add(&s, LIN_OUTPUT, "sensor.vel", 0);
  lin_spec_add(&s, LIN_OUTPUT, "sensor.f", 0);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd_mj(mm, d, &s, &lm, &e) == MT_OK, "%s", e.msg);
  CHECK(lm.n == 2 && lm.r == 1 && lm.m == 3);
  CHECK(!strcmp(lm.x[0].name, "q.x") && !strcmp(lm.x[1].name, "qd.x") && !strcmp(lm.x[0].units, "m"));
  const double A[4] = {0, 1, -k / m, -c / m}, B[2] = {0, 1 / m}, C[6] = {1, 0, 0, 1, 0, 0}, D[3] = {0, 0, 1};
  double ea = maxdiff(lm.A, A, 4), eb = maxdiff(lm.B, B, 2), ec = maxdiff(lm.C, C, 6), ed = maxdiff(lm.D, D, 3);
  printf("    spring-mass-damper: |A-A*| %.2g, |B-B*| %.2g, |C-C*| %.2g, |D-D*| %.2g\n", ea, eb, ec, ed);
  CHECK(ea < 1e-6 && eb < 1e-6 && ec < 1e-6 && ed < 1e-6);
  /* the frequency response of the position to the force: 1 / (k − m ω² + j c ω) */
  const double ws[4] = {1, sqrt(k / m), 40, 300};
  for (int q = 0; q < 4; q++) {
    double G[2];
    CHECK(lin_freq_response(&lm, 0, 0, ws[q], G, &e) == MT_OK);
    double complex want = 1 / (k - m * ws[q] * ws[q] + I * c * ws[q]);
    double err = cabs(G[0] + I * G[1] - want);
    printf("    G(j%.4g) = %.9g%+.9gj (analytic %.9g%+.9gj)\n", ws[q], G[0], G[1], creal(want), cimag(want));
    CHECK(err < 1e-9 * cabs(want));
  }
  /* the data is back where it was */
  CHECK(d->qpos[0] == 0.05 && d->qvel[0] == 0.3 && d->ctrl[0] == 4);
  lin_model_free(&lm);
  lin_spec_clear(&s);
  mj_deleteData(d);
  mj_deleteModel(mm);
}

/* A uniform rod (mass m, length L) hanging from a pivot at the origin; the joint given. */
static mjModel* rod(const char* joint, const char* sensor, double m, double L) {
  char xml[2048];
  double ic = m * L * L / 12;
  snprintf(xml, sizeof xml,
           "<mujoco><option timestep='0.001' gravity='0 0 -9.81'/><worldbody><body name='rod'>"
           "%s<inertial pos='0 0 %.17g' mass='%.17g' diaginertia='%.17g %.17g 0.001'/></body></worldbody>"
           "<actuator><motor name='tau' joint='pivot'/></actuator>"
           "%s</mujoco>",
           joint, -L / 2, m, ic, ic, sensor);
  return load_mjcf(xml);
}

MT_TEST(lin_compound_pendulum_hinge_analytic) {
  const double m = 2.0, L = 0.8, c = 0.3, g = 9.81, d_ = L / 2, Io = m * L * L / 12 + m * d_ * d_;
  char jt[256];
  snprintf(jt, sizeof jt, "<joint name='pivot' type='hinge' axis='0 1 0' damping='%g'/>", c);
  mjModel* mm = rod(jt, "<sensor><jointpos name='angle' joint='pivot'/></sensor>", m, L);
  CHECK(mm);
  mjData* d = mj_makeData(mm);
  const double th[3] = {0, 0.4, 1.1}, om[3] = {0, 1.2, -2.5};
  for (int q = 0; q < 3; q++) {
    d->qpos[0] = th[q];
    d->qvel[0] = om[q];
    /* θ̈ = (−m g d sin θ − c θ̇ + τ) / I_O */
    const double A[4] = {0, 1, -m * g * d_ * cos(th[q]) / Io, -c / Io}, B[2] = {0, 1 / Io}, C[2] = {1, 0};
    /* the memo's default h = 0.001: a central difference of sin is off by exactly h²/6 of the
     * third derivative, here A21·h²/6 (3e-6); with h = 1e-4 chosen per state it is 3e-8 */
    for (int hh = 0; hh < 2; hh++) {
      lin_spec s = {0};
      if (hh) {
        lin_spec_add(&s, LIN_STATE, "q.pivot", 1e-4);
        lin_spec_add(&s, LIN_STATE, "qd.pivot", 1e-4);
      }
      lin_spec_add(&s, LIN_INPUT, "ctrl.tau", 0);
      lin_spec_add(&s, LIN_OUTPUT, "sensor.angle", 0);
      lin_model lm;
      mt_err e = {0};
      CHECK_MSG(lin_abcd_mj(mm, d, &s, &lm, &e) == MT_OK, "%s", e.msg);
      double h = lm.x[0].perturb;
      CHECK(h == (hh ? 1e-4 : 1e-3));
      double ea = maxdiff(lm.A, A, 4), eb = maxdiff(lm.B, B, 2), ec = maxdiff(lm.C, C, 2);
      printf("    pendulum at %.1f rad, h %g: A21 %.12g (analytic %.12g), |A-A*| %.2g |B-B*| %.2g |C-C*| %.2g\n", th[q], h,
             lm.A[2], A[2], ea, eb, ec);
      CHECK_NEAR(lm.A[2], A[2] * (1 - h * h / 6), 1e-9);   /* the truncation error, as predicted */
      if (hh) CHECK(ea < 1e-6 && eb < 1e-6 && ec < 1e-6 && fabs(lm.D[0]) < 1e-6);
      lin_model_free(&lm);
      lin_spec_clear(&s);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(mm);
}

MT_TEST(lin_compound_pendulum_ball_joint_tangent_space) {
  /* the same rod on a ball joint, hanging at rest but turned 30° about the vertical: the
   * quaternion's three tangent coordinates (body axes) give K = diag(−m g d/I_O, −m g d/I_O, 0) */
  const double m = 2.0, L = 0.8, g = 9.81, d_ = L / 2, Io = m * L * L / 12 + m * d_ * d_;
  mjModel* mm = rod("<joint name='pivot' type='ball'/>", "", m, L);
  CHECK(mm);
  mjData* d = mj_makeData(mm);
  double a = 30 * MT_PI / 180;
  d->qpos[0] = cos(a / 2);
  d->qpos[3] = sin(a / 2);
  /* all six states chosen by name, each with h = 1e-4 (the default 0.001 leaves A·h²/6) */
  static const char* names[6] = {"q.pivot.rx", "q.pivot.ry", "q.pivot.rz", "qd.pivot.wx", "qd.pivot.wy", "qd.pivot.wz"};
  lin_spec s = {0};
  for (int i = 0; i < 6; i++) lin_spec_add(&s, LIN_STATE, names[i], 1e-4);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd_mj(mm, d, &s, &lm, &e) == MT_OK, "%s", e.msg);
  lin_spec_clear(&s);
  CHECK(lm.n == 6 && !strcmp(lm.x[0].name, "q.pivot.rx") && !strcmp(lm.x[5].name, "qd.pivot.wz"));
  double A[36] = {0};
  for (int i = 0; i < 3; i++) A[i * 6 + 3 + i] = 1;
  A[3 * 6 + 0] = -m * g * d_ / Io;
  A[4 * 6 + 1] = -m * g * d_ / Io;
  double ea = maxdiff(lm.A, A, 36);
  printf("    ball pendulum: A(qd.rx, q.rx) %.9g (analytic %.9g), |A-A*| %.2g\n", lm.A[18], A[18], ea);
  CHECK(ea < 1e-6);
  lin_model_free(&lm);
  mj_deleteData(d);
  mj_deleteModel(mm);
}

MT_TEST(lin_free_body_spinning_rotation_rates_and_euler_equations) {
  /* A free rigid body spinning in zero gravity. Tangent state (p, θ, v, ω): ṗ = v, θ̇ = J_r⁻¹(θ)ω
   * so ∂θ̇/∂θ = −½[ω]×, ∂θ̇/∂ω = I; v̇ = 0; Euler: ω̇ = I⁻¹(Iω × ω), ∂ω̇/∂ω = I⁻¹([Iω]× − [ω]× I). */
  const double I1 = 0.3, I2 = 0.5, I3 = 0.7, w[3] = {1.5, -0.7, 2.2};
  char xml[1024];
  snprintf(xml, sizeof xml,
           "<mujoco><option timestep='0.001' gravity='0 0 0'/><worldbody><body name='b' pos='0 0 1'>"
           "<freejoint name='f'/><inertial pos='0 0 0' mass='3' diaginertia='%g %g %g'/></body></worldbody></mujoco>",
           I1, I2, I3);
  mjModel* mm = load_mjcf(xml);
  CHECK(mm);
  mjData* d = mj_makeData(mm);
  double q[4] = {cos(0.3), sin(0.3) * 0.6, 0, sin(0.3) * 0.8};   /* some orientation */
  memcpy(d->qpos + 3, q, sizeof q);
  d->qvel[0] = 2;
  for (int i = 0; i < 3; i++) d->qvel[3 + i] = w[i];
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd_mj(mm, d, NULL, &lm, &e) == MT_OK, "%s", e.msg);
  CHECK(lm.n == 12);
  double A[144] = {0};
  for (int i = 0; i < 6; i++) A[i * 12 + 6 + i] = 1;
  /* −½[ω]×: rows θ (3..5), columns θ (3..5) */
  double W[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) A[(3 + i) * 12 + 3 + j] = -0.5 * W[i * 3 + j];
  double In[3] = {I1, I2, I3}, Iw[3] = {I1 * w[0], I2 * w[1], I3 * w[2]};
  double IW[9] = {0, -Iw[2], Iw[1], Iw[2], 0, -Iw[0], -Iw[1], Iw[0], 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) A[(9 + i) * 12 + 9 + j] = (IW[i * 3 + j] - W[i * 3 + j] * In[j]) / In[i];
  double ea = maxdiff(lm.A, A, 144);
  printf("    free spinning body: |A-A*| %.2g (the rotation block -w/2 x and Euler's equations)\n", ea);
  CHECK(ea < 1e-6);
  lin_model_free(&lm);
  mj_deleteData(d);
  mj_deleteModel(mm);
}

/*---- the vehicle ----*/

static vehicle* trimmed_sport(rig** rp, double speed, double lean_deg) {
  struct rig* r = mt_test_load_sport();
  if (!r) return NULL;
  *rp = r;
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  if (!v) return NULL;
  trim_spec s = {0};
  s.speed = speed;
  s.fix_roll = 1;
  s.roll = lean_deg * MT_PI / 180;
  s.gear = -1;
  trim_result t;
  if (trim_solve(v, &s, &t, &e)) {
    fprintf(stderr, "trim: %s\n", e.msg);
    veh_free(v);
    return NULL;
  }
  return v;
}

MT_TEST(lin_vehicle_restores_state_b_is_minv_d_is_tyre_stiffness) {
  rig* r;
  vehicle* v = trimmed_sport(&r, 30, 15);
  CHECK(v);
  int ns = veh_state_size(v), nv = v->m->nv;
  double* x0 = malloc(sizeof(double) * 2 * ns);
  veh_get_state(v, x0);
  double t0 = v->d->time;
  veh_input in0 = v->in;
  lin_spec s = {0};
  lin_spec_add(&s, LIN_INPUT, "steer_torque", 0);
  lin_spec_add(&s, LIN_INPUT, "road_front", 0);
  lin_spec_add(&s, LIN_INPUT, "road_rear", 0.0005);
  lin_spec_add(&s, LIN_OUTPUT, "front_load", 0);
  lin_spec_add(&s, LIN_OUTPUT, "rear_load", 0);
  lin_spec_add(&s, LIN_OUTPUT, "steer_angle", 0);
  lin_spec_add(&s, LIN_OUTPUT, "qd.steer", 0);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd(v, &s, &lm, &e) == MT_OK, "%s", e.msg);
  veh_get_state(v, x0 + ns);
  CHECK(memcmp(x0, x0 + ns, sizeof(double) * ns) == 0 && v->d->time == t0 && !memcmp(&in0, &v->in, sizeof in0));
  CHECK(v->road_dz[0] == 0 && v->road_dz[1] == 0);
  CHECK(lm.n == 2 * nv + v->m->na && lm.r == 3 && lm.m == 4);
  CHECK(lm.u[2].perturb == 0.0005 && lm.u[0].perturb == 0.001 * fmax(1, fabs(in0.steer_torque)) && lm.u[1].perturb == 0.001);
  /* B of the steer torque: the steer row of M⁻¹ (the torque enters the steer dof only) */
  int qs = -1, ps = -1;
  for (int i = 0; i < lm.n; i++) {
    if (!strcmp(lm.x[i].name, "qd.steer")) qs = i;
    if (!strcmp(lm.x[i].name, "q.steer")) ps = i;
  }
  CHECK(qs >= 0 && ps >= 0);
  veh_forward(v);
  double* ej = calloc(2 * nv, sizeof(double));
  ej[v->dadr[r->j_steer]] = 1;
  mj_solveM(v->m, v->d, ej + nv, ej, 1);
  veh_set_state(v, x0);
  double eb = 0;
  for (int i = 0; i < nv; i++) eb = fmax(eb, fabs(lm.B[(size_t)(nv + i) * lm.r + 0] - ej[nv + i]));
  printf("    B(steer torque) vs M^-1 e_steer: max diff %.2g (steer %.6g rad/s^2 per N*m)\n", eb, ej[nv + v->dadr[r->j_steer]]);
  CHECK(eb < 1e-6 * fabs(ej[nv + v->dadr[r->j_steer]]));
  free(ej);
  /* D: raising the road under a tyre by dz loads it by k·dz, the other not at all (instantly) */
  double kf = r->wheel[RIG_FRONT].tyre.k, kr = r->wheel[RIG_REAR].tyre.k;
  printf("    D(front_load, road_front) %.9g N/m (tyre k %.9g), D(rear_load, road_rear) %.9g (k %.9g)\n", lm.D[0 * 3 + 1], kf,
         lm.D[1 * 3 + 2], kr);
  CHECK(fabs(lm.D[0 * 3 + 1] - kf) < 1e-6 * kf && fabs(lm.D[1 * 3 + 2] - kr) < 1e-6 * kr);
  CHECK(fabs(lm.D[0 * 3 + 2]) < 1e-6 * kf && fabs(lm.D[1 * 3 + 1]) < 1e-6 * kr);
  /* C: the steer_angle channel (deg) and the state qd.steer as outputs */
  CHECK_NEAR(lm.C[2 * lm.n + ps], 180 / MT_PI, 1e-6);
  CHECK_NEAR(lm.C[3 * lm.n + qs], 1, 1e-9);
  lin_model_free(&lm);
  lin_spec_clear(&s);
  free(x0);
  veh_free(v);
  rig_free(r);
}

MT_TEST(lin_vehicle_continuous_roots_match_the_step_jacobian) {
  /* eig(A) of the continuous model against ln(λ)/h of the one-step Jacobian (lin_modes): the
   * semi-implicit step shifts a root s by O(h·s²): compare the modes below 20 Hz within
   * 1 % + h·|s|²/2 */
  rig* r;
  vehicle* v = trimmed_sport(&r, 30, 0);
  CHECK(v);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd(v, NULL, &lm, &e) == MT_OK, "%s", e.msg);
  double* re = malloc(sizeof(double) * 2 * lm.n);
  double* im = re + lm.n;
  CHECK(lin_eig(&lm, re, im, &e) == MT_OK);
  lin_mode md[128];
  int k = lin_modes(v, 1e-6, md, 128, &e);
  CHECK(k > 0);
  int matched = 0;
  for (int i = 0; i < k; i++) {
    if (md[i].freq_hz < 0.5 || md[i].freq_hz > 20) continue;
    double complex sd = md[i].re + I * md[i].im;
    double best = INFINITY;
    for (int j = 0; j < lm.n; j++) best = fmin(best, cabs(re[j] + I * im[j] - sd));
    printf("    mode %.3f Hz (zeta %.3f): nearest continuous root %.3g away (%.2f %%)\n", md[i].freq_hz, md[i].damping, best,
           100 * best / cabs(sd));
    CHECK(best < 0.01 * cabs(sd) + 0.5 * r->timestep * cabs(sd) * cabs(sd));
    matched++;
  }
  CHECK(matched >= 2);   /* weave and wobble at least */
  free(re);
  lin_model_free(&lm);
  veh_free(v);
  rig_free(r);
}

MT_TEST(lin_vehicle_parameter_input_rebuilds_the_model) {
  /* a rig parameter as input: the fork spring's rate k. The fork force is preload + k·(x − x_min)
   * (+ damping, zero at the trim), so D(fork_force, k) = x − x_min, the travel from full extension */
  rig* r;
  vehicle* v = trimmed_sport(&r, 25, 10);
  CHECK(v);
  lin_spec s = {0};
  lin_spec_add(&s, LIN_INPUT, "param:bodies.fork.joint.spring.k", 0);
  lin_spec_add(&s, LIN_OUTPUT, "fork_force", 0);
  lin_spec_add(&s, LIN_OUTPUT, "fork_travel", 0);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd(v, &s, &lm, &e) == MT_OK, "%s", e.msg);
  const rig_sd* sd = &r->joint[r->j_fork].sd;
  double want = lm.y[1].value - sd->x_min;
  printf("    D(fork_force, k) %.9g m, travel from full extension %.9g m (k %g N/m, h %g)\n", lm.D[0], want, lm.u[0].value,
         lm.u[0].perturb);
  CHECK(lm.u[0].value == sd->k && lm.u[0].perturb == 0.001 * sd->k);
  CHECK(fabs(lm.D[0] - want) < 1e-6 * fabs(want) && fabs(lm.D[1]) < 1e-12);
  lin_model_free(&lm);
  lin_spec_clear(&s);
  veh_free(v);
  rig_free(r);
}

MT_TEST(lin_vehicle_every_channel_is_an_output) {
  /* all recorder channels at once: every C and D entry finite; the time, lap and gear channels
   * do not move with any state; lean (deg) moves with the frame's roll rotation (deg per rad) */
  rig* r;
  vehicle* v = trimmed_sport(&r, 30, 20);
  CHECK(v);
  lin_spec s = {0};
  for (int k = 0; k < rec_nchan(); k++) lin_spec_add(&s, LIN_OUTPUT, rec_channels()[k].name, 0);
  lin_spec_add(&s, LIN_INPUT, "throttle", 0);
  lin_model lm;
  mt_err e = {0};
  CHECK_MSG(lin_abcd(v, &s, &lm, &e) == MT_OK, "%s", e.msg);
  CHECK(lm.m == rec_nchan());
  for (size_t i = 0; i < (size_t)lm.m * lm.n; i++) CHECK(isfinite(lm.C[i]));
  for (int i = 0; i < lm.m; i++) CHECK(isfinite(lm.D[i]));
  int t = rec_chan_index("time"), g = rec_chan_index("gear"), lean = rec_chan_index("lean"), rx = -1;
  for (int j = 0; j < lm.n; j++) {
    CHECK(lm.C[(size_t)t * lm.n + j] == 0 && lm.C[(size_t)g * lm.n + j] == 0);
    if (!strcmp(lm.x[j].name, "q.frame.rx")) rx = j;
  }
  CHECK(rx >= 0);
  /* roll about the body x axis, leaning 20°: d(lean)/d(rx) = 180/π · cos(pitch) ≈ 57.3 */
  printf("    %d outputs; d(lean)/d(q.frame.rx) = %.6g deg/rad\n", lm.m, lm.C[(size_t)lean * lm.n + rx]);
  CHECK(fabs(fabs(lm.C[(size_t)lean * lm.n + rx]) - 180 / MT_PI) < 0.01 * 180 / MT_PI);
  lin_model_free(&lm);
  lin_spec_clear(&s);
  veh_free(v);
  rig_free(r);
}

MT_TEST(lin_bad_names_and_perturbations) {
  rig* r;
  vehicle* v = trimmed_sport(&r, 20, 0);
  CHECK(v);
  struct {
    int kind;
    const char* name;
    double h;
    const char* want;
  } cases[] = {
      {LIN_STATE, "q.stear", 0, "near matches: q.steer"},
      {LIN_INPUT, "road_frnt", 0, "near matches: road_front"},
      {LIN_OUTPUT, "steer_angel", 0, "near matches: steer_angle"},
      {LIN_INPUT, "throttle", -0.1, "must be a finite number > 0"},
      {LIN_INPUT, "steer_torque", 1e-300, "must be a finite"},   /* placeholder replaced below */
      {LIN_STATE, "qd.front_spin", 1e-30, "singular"},
  };
  cases[4].h = NAN;
  for (size_t i = 0; i < MT_ARRAY_LEN(cases); i++) {
    lin_spec s = {0};
    lin_spec_add(&s, cases[i].kind, cases[i].name, cases[i].h);
    lin_model lm;
    mt_err e = {0};
    int rc = lin_abcd(v, &s, &lm, &e);
    CHECK_MSG(rc == MT_EINPUT && strstr(e.msg, cases[i].want), "case %zu: rc %d, '%s'", i, rc, e.msg);
    lin_spec_clear(&s);
  }
  veh_free(v);
  rig_free(r);
}
