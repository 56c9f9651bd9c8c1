/* test_contact.c — contact spheres on the road: force balance at rest, Coulomb sliding, the
 * sport1000 lying on its side, and located errors in a rig's contacts list. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/vehicle_mj.h"
#include "sim/contact.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "tests/unit/test.h"

/* A point mass carrying one contact sphere, integrated like MuJoCo (semi-implicit Euler, 1 ms). */
typedef struct ball { double x[3], v[3], m; contact_point cp; contact_result cr; const road* rd; int hint; } ball;

static void ball_step(ball* b, double dt) {
  const double w[3] = {0, 0, 0};
  contact_eval(&b->cp, b->rd, b->x, b->v, w, &b->hint, &b->cr);
  for (int i = 0; i < 3; i++) b->v[i] += dt * (b->cr.force[i] / b->m - (i == 2 ? MT_G : 0));
  for (int i = 0; i < 3; i++) b->x[i] += dt * b->v[i];
}

static ball make_ball(void) {
  ball b = {.m = 20, .hint = -1};
  b.x[2] = 0.2;
  b.cp.radius = 0.05;
  b.cp.mu = 0.45;
  b.cp.k = 1.5e5;
  b.cp.c = 4000;
  return b;
}

MT_TEST(contact_sphere_at_rest_carries_its_weight) {
  /* Dropped from 15 cm, after 2 s the sphere rests: normal force = m·g, depth = m·g/k. */
  ball b = make_ball();
  for (int i = 0; i < 2000; i++) ball_step(&b, 1e-3);
  double W = b.m * MT_G;
  CHECK_MSG(b.cr.touching, "not touching after 2 s (z %.4f)", b.x[2]);
  CHECK_MSG(fabs(b.cr.fn - W) < 1e-3 * W, "normal force %.3f N, weight %.3f N", b.cr.fn, W);
  CHECK_MSG(fabs(b.cr.depth - W / b.cp.k) < 0.01 * W / b.cp.k, "depth %.6f m, m·g/k %.6f m", b.cr.depth, W / b.cp.k);
  CHECK_MSG(fabs(b.cr.ft) < 1e-9 && fabs(b.v[2]) < 1e-6, "not at rest: friction %g N, vz %g m/s", b.cr.ft, b.v[2]);
}

MT_TEST(contact_sliding_sphere_decelerates_at_mu_g) {
  /* Resting, then pushed along at 6 m/s: Coulomb friction decelerates it at μ·g (1 %) between
   * 5 and 1 m/s, along the line of motion, and it stops. */
  ball b = make_ball();
  for (int i = 0; i < 2000; i++) ball_step(&b, 1e-3);
  b.v[0] = 6 * 0.6;
  b.v[1] = 6 * 0.8;
  double t = 0, t5 = -1, t1 = -1;
  for (int i = 0; i < 8000; i++) {
    ball_step(&b, 1e-3);
    t += 1e-3;
    double sp = hypot(b.v[0], b.v[1]);
    if (t5 < 0 && sp <= 5) t5 = t;
    if (t1 < 0 && sp <= 1) t1 = t;
  }
  CHECK_MSG(t5 > 0 && t1 > t5, "never slowed from 5 to 1 m/s (t5 %g, t1 %g)", t5, t1);
  double a = 4 / (t1 - t5), want = b.cp.mu * MT_G;
  CHECK_MSG(fabs(a - want) < 0.01 * want, "deceleration %.4f m/s², μ·g %.4f m/s²", a, want);
  CHECK_MSG(hypot(b.v[0], b.v[1]) < 1e-3, "still sliding at %.4f m/s after 5 s", hypot(b.v[0], b.v[1]));
  CHECK_MSG(fabs(b.x[1] / b.x[0] - 0.8 / 0.6) < 1e-6, "slid off its line: y/x %.8f", b.x[1] / b.x[0]);
}

MT_TEST(contact_off_the_road_edge_slides_on_its_extension) {
  /* The straight is 12 m wide; 20 m to the left of its centre line the road query says "off the
   * road", and a sphere there still rests on the extended surface (carries its weight) and slides
   * at μ·g: a fallen machine sliding off the edge neither drops through the world nor sticks. */
  char path[4096];
  track_resolve("straight", path, sizeof path);
  mt_err e = {0};
  track* t = track_load(path, &e);
  CHECK_MSG(t, "%s", e.msg);
  road rd = track_road(t);
  road_point rp;
  rd.query(rd.self, 100, 20, -1, &rp);
  ball b = make_ball();
  b.rd = &rd;
  b.x[0] = 100;
  b.x[1] = 20;
  b.x[2] = rp.z + 0.2;
  for (int i = 0; i < 2000; i++) ball_step(&b, 1e-3);
  double fn = b.cr.fn, W = b.m * MT_G;
  b.v[0] = 5;
  double t0 = -1, t1 = -1;
  for (int i = 0; i < 2000; i++) {
    ball_step(&b, 1e-3);
    if (t0 < 0 && b.v[0] <= 4) t0 = i * 1e-3;
    if (t1 < 0 && b.v[0] <= 2) t1 = i * 1e-3;
  }
  track_free(t);
  CHECK_MSG(!rp.on_road, "20 m off the centre line is on the road?");
  CHECK_MSG(fabs(fn - W) < 1e-3 * W, "off the road the sphere carries %.3f N of %.3f N", fn, W);
  double a = 2 / (t1 - t0), want = b.cp.mu * MT_G;
  CHECK_MSG(t0 >= 0 && t1 > t0 && fabs(a - want) < 0.01 * want, "deceleration %.4f m/s², μ·g %.4f m/s²", a, want);
}

MT_TEST(contact_sport1000_lying_on_its_side_carries_its_weight) {
  /* Dropped on its left side (80° of lean, 30 cm up), no rider input: after 8 s the machine is at
   * rest on its contact spheres (and whatever tyre still touches), and the road's vertical forces
   * add up to the weight of the whole machine within 0.5 %. It does not sink: no sphere deeper
   * than 2 cm. Without contact spheres it would fall through the road. */
  rig* r = mt_test_load_sport();
  CHECK(r);
  CHECK(r->contacts.n >= 10);
  mt_err e = {0};
  vehicle* v = veh_new(r, (road){0}, 0, &e);
  CHECK_MSG(v, "%s", e.msg);
  veh_place(v, 0, 0, 0.3, 0, -80 * MT_PI / 180, 0);
  /* 7 s to settle, then the frame's speed over the last second. Lying down, the bars swing
   * slowly to the steering lock against the steering damper and the bar end's friction (about
   * 5 s), dragging the machine a little; after that it is still. Friction is regularised (no
   * stiction), so "at rest" is a small mean and a small peak, not exactly zero. */
  double sp_sum = 0, sp_max = 0;
  for (int i = 0; i < 8000; i++) {
    CHECK_MSG(veh_step(v, &e) == MT_OK, "%s", e.msg);
    if (i >= 7000) {
      int fd = v->dadr[r->body[0].joint0];
      double s2 = sqrt(v->d->qvel[fd] * v->d->qvel[fd] + v->d->qvel[fd + 1] * v->d->qvel[fd + 1] + v->d->qvel[fd + 2] * v->d->qvel[fd + 2]);
      sp_sum += s2;
      sp_max = fmax(sp_max, s2);
    }
  }
  veh_forward(v);
  double W = mj_getTotalmass(v->m) * MT_G, fz = 0, deepest = 0;
  for (int w = 0; w < 2; w++) fz += v->out.wheel[w].force[2];
  fz += v->out.contact_fn;   /* flat road: the normals are vertical */
  for (int i = 0; i < r->contacts.n; i++) deepest = fmax(deepest, v->out.contact_fn_each[i] / r->contacts.p[i].k);
  double roll, pitch, yaw;
  veh_frame_euler(v, &roll, &pitch, &yaw);
  int fd = v->dadr[r->body[0].joint0];
  double sp = sqrt(v->d->qvel[fd] * v->d->qvel[fd] + v->d->qvel[fd + 1] * v->d->qvel[fd + 1] + v->d->qvel[fd + 2] * v->d->qvel[fd + 2]);
  int touching = v->out.contacts_touching;
  veh_free(v);
  rig_free(r);
  CHECK_MSG(touching >= 2, "only %d spheres touch", touching);
  CHECK_MSG(fabs(fz - W) < 0.005 * W, "road carries %.1f N of %.1f N (lean %.1f deg)", fz, W, roll * 180 / MT_PI);
  CHECK_MSG(sp < 0.01 && sp_sum / 1000 < 0.005 && sp_max < 0.01, "not at rest: frame moves at %.4f m/s (mean %.4f, peak %.4f over the last second)", sp, sp_sum / 1000, sp_max);
  CHECK_MSG(deepest < 0.02, "a sphere is %.4f m deep", deepest);
  CHECK_MSG(roll < -1.0, "lean %.1f deg: it did not stay down on its left side", roll * 180 / MT_PI);
}

static void bad_rig(const char* from, const char* to, const char* want) {
  rig* r = mt_test_load_sport();
  if (!r) {
    snprintf(mt_test_msg, sizeof mt_test_msg, "sport1000 did not load");
    mt_test_failed = 1;
    return;
  }
  char* src = strstr(r->source, from);
  char buf[20000];
  if (!src || strlen(r->source) + strlen(to) >= sizeof buf) {
    snprintf(mt_test_msg, sizeof mt_test_msg, "'%s' not in sport1000.lua", from);
    mt_test_failed = 1;
    rig_free(r);
    return;
  }
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(src - r->source), r->source, to, src + strlen(from));
  mt_err e = {0};
  rig* b = rig_load_text("bad/sport1000.lua", buf, r->modules, r->nmodule, NULL, 0, &e);
  /* the message names the file and the line of the changed contact */
  int line = 1;
  for (const char* q = r->source; q < src; q++) line += *q == '\n';
  char where[64];
  snprintf(where, sizeof where, "bad/sport1000.lua:%d: ", line);
  int loaded = b != NULL;
  rig_free(b);
  rig_free(r);
  CHECK_MSG(!loaded && strstr(e.msg, want) && !strncmp(e.msg, where, strlen(where)),
            "wanted '%s%s' in '%s'", where, want, loaded ? "(loaded)" : e.msg);
}

MT_TEST(contact_rig_errors_located) {
  bad_rig("{ name = \"left_peg\",       body = \"frame\"", "{ name = \"left_peg\",       body = \"frmae\"",
          "contact 1: field 'body': no body named 'frmae'");
  if (mt_test_failed) return;
  bad_rig("radius = 0.02,  mu = 0.45 },\n    { name = \"right_peg\"", "radius = -0.02,  mu = 0.45 },\n    { name = \"right_peg\"",
          "contact 1: field 'radius': must be within (0, 0.5] m, got -0.02");
  if (mt_test_failed) return;
  bad_rig("point = {0.30, -0.20, 0.32}", "point = {0.30, -0.20}", "contact 2: field 'point': expected 3 finite numbers");
  if (mt_test_failed) return;
  bad_rig("radius = 0.12,  mu = 0.3 }", "radius = 0.12,  mu = 0.3, muu = 1 }", "contact 15: field 'muu': unknown field");
}

/* Energy error of the sport1000 dropped on its left side from 30 cm with every damper, brake,
 * engine and friction off (tyres ideal vertical springs, spheres undamped and frictionless),
 * over 2 s of bouncing at timestep dt; and the most energy the spheres stored at once. */
static double drop_energy_error(double dt, double* sphere_e, double* E0) {
  char path[4096], set[64];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  snprintf(set, sizeof set, "timestep=%g", dt);
  const char* sets[1] = {set};
  mt_err e = {0};
  rig* r = rig_load(path, sets, 1, &e);
  if (!r) return INFINITY;
  vehicle* v = veh_new(r, (road){0}, VEH_IDEAL_SUPPORTS | VEH_NO_DISSIPATION, &e);
  v->in.gear = 0;
  veh_place(v, 0, 0, 0.3, 0, -80 * MT_PI / 180, 0);
  *E0 = veh_energy(v);
  double emax = 0;
  *sphere_e = 0;
  long n = lround(2.0 / dt);
  for (long i = 0; i < n; i++) {
    if (veh_step(v, &e) != MT_OK) {
      emax = INFINITY;
      break;
    }
    emax = fmax(emax, fabs(veh_energy(v) - *E0));
    double se = 0;
    for (int k = 0; k < r->contacts.n; k++) se += 0.5 * v->out.contact_fn_each[k] * v->out.contact_fn_each[k] / r->contacts.p[k].k;
    *sphere_e = fmax(*sphere_e, se);
  }
  veh_free(v);
  rig_free(r);
  return emax;
}

MT_TEST(contact_sport1000_falling_on_frictionless_spheres_conserves_energy) {
  /* The spheres' forces are conservative and their ½·k·δ² is in veh_energy: the energy error is
   * the integrator's, so it shrinks with the timestep (at least 5× from 1 ms to 0.1 ms) and is
   * under 0.5 % at 0.1 ms, while the spheres store over 10 % of the energy at their peak (leaving
   * their energy out, or a non-conservative force, would show as an error of that size). */
  double se1, se2, E0;
  double e1 = drop_energy_error(1e-3, &se1, &E0);
  double e2 = drop_energy_error(1e-4, &se2, &E0);
  CHECK_MSG(se2 > 0.1 * E0, "spheres stored only %.3g J of %.1f J", se2, E0);
  CHECK_MSG(e2 < 0.005 * E0, "energy error %.3g J of %.1f J at 0.1 ms", e2, E0);
  CHECK_MSG(e2 < e1 / 5, "energy error %.3g J at 1 ms, %.3g J at 0.1 ms: not the integrator's", e1, e2);
}
