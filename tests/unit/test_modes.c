/* test_modes.c — the named modes of a steady-state series (sim/modes.h) and the spectrum
 * (sim/spectrum.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/modes.h"
#include "sim/spectrum.h"
#include "tests/unit/test.h"

/*---- spectrum ----*/

MT_TEST(modes_spectrum_finds_pure_tones) {
  /* two tones on a trend: the peaks at their frequencies (within 0.2 %) with their amplitudes
   * (within 3 %), the larger first; the trend does not make a peak */
  long n = 4000;
  double dt = 0.001, *x = malloc(sizeof(double) * n);
  for (long i = 0; i < n; i++) {
    double t = i * dt;
    x[i] = 3 * sin(2 * M_PI * 7.3 * t + 0.4) + 1.0 * sin(2 * M_PI * 2.1 * t) + 5 + 2 * t;
  }
  sp_result r;
  mt_err e = {0};
  CHECK(sp_spectrum(x, n, dt, 8, &r, &e) == MT_OK);
  sp_peak pk[8];
  int np = sp_peaks(&r, 0, 60, 0.05, pk, 8);
  free(x);
  sp_free(&r);
  CHECK(np >= 2);
  CHECK_REL(pk[0].hz, 7.3, 0.002);
  CHECK_REL(pk[0].amp, 3.0, 0.03);
  CHECK_REL(pk[1].hz, 2.1, 0.005);
  CHECK_REL(pk[1].amp, 1.0, 0.05);
}

MT_TEST(modes_spectrum_decaying_tone_and_short_input) {
  /* a damped oscillation (ζ 0.05 at 12.5 Hz, the memo's wobble) peaks at its damped frequency */
  long n = 3000;
  double dt = 0.001, w = 2 * M_PI * 12.5, z = 0.05, wd = w * sqrt(1 - z * z), *x = malloc(sizeof(double) * n);
  for (long i = 0; i < n; i++) x[i] = exp(-z * w * i * dt) * sin(wd * i * dt);
  sp_result r;
  mt_err e = {0};
  CHECK(sp_spectrum(x, n, dt, 8, &r, &e) == MT_OK);
  sp_peak pk[4];
  int np = sp_peaks(&r, 0, 0, 0.05, pk, 4);
  sp_free(&r);
  CHECK(np >= 1);
  CHECK_REL(pk[0].hz, wd / (2 * M_PI), 0.01);
  CHECK(sp_spectrum(x, 10, dt, 8, &r, &e) == MT_EINPUT);
  free(x);
}

/*---- ranges ----*/

MT_TEST(modes_range_parse) {
  double v[300];
  mt_err e = {0};
  CHECK(md_parse_range("10:200:10", "x", v, 300, &e) == 20);
  CHECK(v[0] == 10 && v[19] == 200);
  CHECK(md_parse_range("0:0.8:0.1", "x", v, 300, &e) == 9);
  CHECK_NEAR(v[8], 0.8, 1e-12);
  CHECK(md_parse_range("200:10:-10", "x", v, 300, &e) == 20);
  CHECK(md_parse_range("55", "x", v, 300, &e) == 1 && v[0] == 55);
  CHECK(md_parse_range("10:5:1", "x", v, 300, &e) == -1);   /* (the first error stays in e: a fresh one each) */
  CHECK(strstr(e.msg, "step"));
  CHECK(md_parse_range("1:2:0", "x", v, 300, &e) == -1);
  CHECK(md_parse_range("1:2", "x", v, 300, &e) == -1);
  CHECK(md_parse_range("a:2:1", "x", v, 300, &e) == -1);
  CHECK(md_parse_range("1::1", "x", v, 300, &e) == -1);
  mt_err e2 = {0};
  CHECK(md_parse_range("0:1000:1", "x", v, 300, &e2) == -1);
  CHECK(strstr(e2.msg, "more than 300"));
}

/*---- the sport1000's modes over speed ----*/

typedef struct sweep {
  md_point p[10];
  double kmh[10];
  int n;
} sweep;

static int run_sweep(sweep* s, const char* const* sets, int nset) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  rig* r = rig_load(path, sets, nset, &e);
  if (!r) return -1;
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  memset(s, 0, sizeof *s);
  s->n = 10;
  int rc = v ? 0 : -1;
  for (int i = 0; i < s->n && !rc; i++) {
    s->kmh[i] = 20 + 20 * i;
    s->p[i].spec.speed = s->kmh[i] / 3.6;
    rc = md_solve(v, &s->p[i], 1e-6, 0, &e);
  }
  if (!rc) md_name(s->p, s->n);
  veh_free(v);
  rig_free(r);
  return rc;
}

MT_TEST(modes_sport1000_named_over_speed) {
  /* straight running 20–200 km/h: the memo's picture. Weave: 0.3–4 Hz rising with speed, its
   * shape roll/yaw/sideslip more than steer, losing damping at high speed; wobble: 6–12 Hz,
   * steer-dominated, least damped at a moderate speed (40–120 km/h), better damped at 200;
   * capsize a real root; chatter: a fork-bending mode above 15 Hz. Every name is followed
   * through the whole sweep, each step a small move (continuity). */
  static sweep s;
  CHECK(run_sweep(&s, NULL, 0) == 0);
  int imin = -1;
  for (int i = 0; i < s.n; i++) {
    const md_mode *we = md_find(&s.p[i], MD_WEAVE), *wo = md_find(&s.p[i], MD_WOBBLE), *ca = md_find(&s.p[i], MD_CAPSIZE),
                  *ch = md_find(&s.p[i], MD_CHATTER);
    CHECK_MSG(we && wo && ca && ch, "a mode lost at %g km/h", s.kmh[i]);
    CHECK(we->hz > 0.3 && we->hz < 4);
    CHECK(we->share[MD_G_ROLL] + we->share[MD_G_YAW] + we->share[MD_G_LAT] > we->share[MD_G_STEER]);
    CHECK(wo->hz > 6 && wo->hz < 12);
    CHECK(wo->share[MD_G_STEER] > wo->share[MD_G_ROLL] + wo->share[MD_G_YAW]);
    CHECK(ca->im == 0);
    CHECK(ch->hz > 15 && ch->share[MD_G_BEND] > 0.3);
    if (i > 0) {
      const md_mode *we0 = md_find(&s.p[i - 1], MD_WEAVE), *wo0 = md_find(&s.p[i - 1], MD_WOBBLE);
      CHECK(we->hz > we0->hz);                       /* weave frequency rises with speed */
      CHECK(fabs(wo->hz - wo0->hz) < 0.15 * wo0->hz);   /* wobble moves smoothly */
    }
    if (imin < 0 || wo->zeta < md_find(&s.p[imin], MD_WOBBLE)->zeta) imin = i;
  }
  printf("    wobble least damped at %g km/h (ζ %.4f, %.2f Hz); weave at 200 km/h %.2f Hz ζ %.3f\n", s.kmh[imin],
         md_find(&s.p[imin], MD_WOBBLE)->zeta, md_find(&s.p[imin], MD_WOBBLE)->hz, md_find(&s.p[9], MD_WEAVE)->hz,
         md_find(&s.p[9], MD_WEAVE)->zeta);
  CHECK(s.kmh[imin] >= 40 && s.kmh[imin] <= 120);
  CHECK(md_find(&s.p[9], MD_WOBBLE)->zeta > md_find(&s.p[imin], MD_WOBBLE)->zeta + 0.1);
  CHECK(md_find(&s.p[9], MD_WEAVE)->zeta < md_find(&s.p[4], MD_WEAVE)->zeta);
}

MT_TEST(modes_light_steering_damper_destabilises_wobble) {
  /* the memo's "wobble w/ light damping": with the steering damper nearly removed (0.5 instead
   * of 6.944 N·m·s/rad) the named wobble is less damped at every speed, and unstable at 70–80 km/h */
  static sweep s, l;
  static const char* light[] = {"bodies.steering.joints.steer.spring.c=0.5"};
  CHECK(run_sweep(&s, NULL, 0) == 0);
  CHECK(run_sweep(&l, light, 1) == 0);
  for (int i = 0; i < s.n; i++) {
    const md_mode *a = md_find(&s.p[i], MD_WOBBLE), *b = md_find(&l.p[i], MD_WOBBLE);
    CHECK(a && b);
    CHECK_MSG(b->zeta < a->zeta, "at %g km/h: light %.4f, stock %.4f", s.kmh[i], b->zeta, a->zeta);
  }
  CHECK(md_find(&l.p[3], MD_WOBBLE)->zeta < 0);   /* 80 km/h */
}

MT_TEST(modes_point_that_cannot_be_trimmed_is_reported) {
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  CHECK(r);
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  md_point p;
  memset(&p, 0, sizeof p);
  p.spec.speed = 20;
  p.spec.turn = 1;
  p.spec.ay = 2.0;   /* 2 g: beyond the tyres */
  int rc = md_solve(v, &p, 1e-6, 0, &e);
  veh_free(v);
  rig_free(r);
  CHECK(rc == MT_EINPUT);
  CHECK(!p.ok && strlen(p.why) > 10);
  CHECK(strstr(p.why, "trim"));
}

/*---- mode animations ----*/

#include "app/modes_anim.h"
#include "takes/recorder.h"

/* conj(a)·b: b's rotation relative to a (w x y z). */
static void quat_rel(const double* a, const double* b, double* o) {
  double w = a[0], x = -a[1], y = -a[2], z = -a[3];
  o[0] = w * b[0] - x * b[1] - y * b[2] - z * b[3];
  o[1] = w * b[1] + x * b[0] + y * b[3] - z * b[2];
  o[2] = w * b[2] - x * b[3] + y * b[0] + z * b[1];
  o[3] = w * b[3] + x * b[2] - y * b[1] + z * b[0];
}

/* Angle (deg) of the rotation taking quaternion a to b (w x y z). */
static double quat_angle(const double* a, const double* b) {
  double d = fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * acos(fmin(1, d)) * 180 / M_PI;
}

MT_TEST(modes_animation_loops_with_the_chosen_amplitude) {
  /* the wobble at 70 km/h: every frame a pose of the trimmed state moved along the mode; the
   * steering assembly turns relative to the frame by about the 3° asked (its twist adds a
   * little), the motion repeats exactly after one cycle, and the vehicle's state is left as it was */
  char path[4096];
  snprintf(path, sizeof path, "%s/rigs/sport1000.lua", mt_test_root());
  mt_err e = {0};
  rig* r = rig_load(path, NULL, 0, &e);
  CHECK(r);
  road rd = {0};
  vehicle* v = veh_new(r, rd, 0, &e);
  static md_point p;
  memset(&p, 0, sizeof p);
  p.spec.speed = 70 / 3.6;
  CHECK(md_solve(v, &p, 1e-6, 1, &e) == MT_OK);
  md_name(&p, 1);
  const md_mode* m = md_find(&p, MD_WOBBLE);
  CHECK(m);
  int ns = veh_state_size(v);
  double* before = malloc(sizeof(double) * 2 * ns);
  veh_get_state(v, before);
  mode_anim_opts o;
  mode_anim_defaults(&o);
  mode_anim_info in;
  double* pose = mode_anim_poses(v, &p, m, &o, &in, &e);
  veh_get_state(v, before + ns);
  int same = memcmp(before, before + ns, sizeof(double) * ns) == 0;
  int nb = rec_nbody(r), bs = rig_body_index(r, "steering"), bw = rig_body_index(r, "front_wheel");
  double rest[7 * 32];
  rec_poses(v, rest);
  double maxrel = 0, maxw = 0, loop = 0;
  for (long f = 0; pose && f < in.nframes; f++) {
    const double* q = pose + (size_t)f * 7 * nb;
    /* the steering body's rotation relative to the frame, now against at rest */
    double rn[4], rr[4];
    quat_rel(q + 3, q + 7 * bs + 3, rn);
    quat_rel(rest + 3, rest + 7 * bs + 3, rr);
    maxrel = fmax(maxrel, quat_angle(rn, rr));
    maxw = fmax(maxw, hypot(q[7 * bw] - rest[7 * bw], q[7 * bw + 1] - rest[7 * bw + 1]));
    if (f + in.per_cycle < in.nframes)
      for (int k = 0; k < 7 * nb; k++) loop = fmax(loop, fabs(q[k] - q[k + 7 * nb * in.per_cycle]));
  }
  printf("    %ld frames, %ld per cycle; steering turns %.2f deg relative to the frame; front wheel moves %.1f mm\n", in.nframes,
         in.per_cycle, maxrel, 1000 * maxw);
  free(pose);
  free(before);
  md_point_free(&p);
  veh_free(v);
  rig_free(r);
  CHECK(pose != NULL);
  CHECK(same);
  CHECK(in.steer && in.amplitude_deg == 3);
  CHECK(in.nframes == 3 * in.per_cycle && in.per_cycle == 45);   /* 3 cycles slowed to 1.5 s at 30 fps */
  CHECK(maxrel > 2.5 && maxrel < 4.5);
  CHECK(maxw > 0.002);
  CHECK(loop < 1e-9);
}

/* Two lateral oscillations that both look fully like the weave (the score saturates at 1) differ
 * in their score only by rounding; the name goes to the less damped one (docs/vehicle.md, "Modes
 * of sport1000"), whichever comes first, and the wobble to the larger steer share. */
MT_TEST(modes_tied_scores_go_to_the_documented_mode) {
  static md_point p;
  for (int order = 0; order < 2; order++)
    for (int jitter = -1; jitter <= 1; jitter++) {
      memset(&p, 0, sizeof p);
      p.ok = 1;
      p.nmode = 4;
      const double hz[4] = {1.84, 2.40, 7.6, 7.9}, zeta[4] = {0.499, 0.813, 0.05, 0.02};
      const double steer[4] = {0.57, 0.47, 0.59, 0.45};
      for (int k = 0; k < 4; k++) {
        int j = order ? (k < 2 ? 1 - k : 5 - k) : k;   /* the pairs in either order */
        md_mode* m = &p.mode[j];
        m->hz = hz[k];
        m->zeta = zeta[k];
        m->im = 2 * MT_PI * hz[k];
        m->re = -zeta[k] * m->im / sqrt(1 - zeta[k] * zeta[k]);
        m->share[MD_G_STEER] = steer[k];
        if (k < 2) {   /* weave-like: roll and yaw besides steer */
          m->share[MD_G_ROLL] = 0.36;
          m->share[MD_G_YAW] = 0.21;
        } else {       /* wobble-like: the frame nearly still */
          m->share[MD_G_ROLL] = 0.05;
          m->share[MD_G_YAW] = 0.05;
        }
        m->share[MD_G_INPLANE] = (k == 1 ? 1e-13 : 1e-14) * (1 + jitter);   /* rounding noise in the score */
        m->share[MD_G_RIDER] = 0.1;
      }
      md_name(&p, 1);
      const md_mode* w = md_find(&p, MD_WEAVE);
      const md_mode* b = md_find(&p, MD_WOBBLE);
      CHECK(w && b);
      CHECK_MSG(w->hz == 1.84, "weave named at %.2f Hz (order %d, jitter %d)", w->hz, order, jitter);
      CHECK_MSG(b->hz == 7.6, "wobble named at %.2f Hz (order %d, jitter %d)", b->hz, order, jitter);
    }
}
