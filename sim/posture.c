/* posture.c — the rider's posture decisions (see posture.h). */
#include "sim/posture.h"

#include <math.h>
#include <string.h>

void posture_default_params(posture_params* p, const rig* r) {
  memset(p, 0, sizeof *p);
  if (r) {
    double com[3];
    p->mass = rig_total_mass(r, com);
    p->cg_height = com[2];
    int jh = r->j_posture[RIG_POSTURE_HIP], jl = r->j_posture[RIG_POSTURE_LEAN];
    for (int b = 0; b < r->nbody; b++) {
      /* is b in the subtree of the joint's body? (parents precede children) */
      for (int a = b; a >= 0; a = r->body[a].parent) {
        if (jh >= 0 && a == r->joint[jh].body) p->m_hip += r->body[b].mass;
        if (jl >= 0 && a == r->joint[jl].body) p->mz_lean += r->body[b].mass * (r->body[b].com[2] - r->joint[jl].anchor[2]);
      }
    }
  }
  /* Hang-off: hips 0.18 m and torso 20° inside at full (typical 0.10–0.25 m and 15–30°,
   * ../shared/notes/model-data.md §d); from 1 m/s² asked to full at 5 m/s² (the cautious
   * Laguna rider corners at up to 0.7 g). */
  p->hip_max = 0.18;
  p->lean_max = 20 * MT_PI / 180;
  p->ay_start = 1.0;
  p->ay_full = 5.0;
  /* Tuck: torso 30° forward (chest toward the tank) from 22 m/s, full at 30 m/s. */
  p->tuck_pitch = 30 * MT_PI / 180;
  p->tuck_v0 = 22;
  p->tuck_v1 = 30;
  /* Sitting up under braking: 10° back of the neutral posture, fully from 10 % front lever (the virtual rider brakes at 0.1–0.6). */
  p->brake_pitch = -10 * MT_PI / 180;
  p->brake_full = 0.1;
  /* The hips cross from centre to full in about 0.5 s, the torso leans at up to 45°/s and
   * pitches at up to 60°/s; 0.15 s smoothing; the path looked at 1 s ahead. On Laguna with
   * the current virtual rider these sit in a narrow band that rides the lap: in our trials a
   * 0.8 s or 1.5 s preview, or 0.2 m with 25°, fell at turn 2 (docs/takes.md). */
  p->rate[RIG_POSTURE_HIP] = 0.4;
  p->rate[RIG_POSTURE_LEAN] = 45 * MT_PI / 180;
  p->rate[RIG_POSTURE_PITCH] = 60 * MT_PI / 180;
  p->tau = 0.15;
  p->preview = 1.0;
}

void posture_reset(posture_state* s) { memset(s, 0, sizeof *s); }

void posture_start(const posture_params* p, posture_state* s, const posture_situation* x, double out[RIG_NPOSTURE]) {
  double tgt[RIG_NPOSTURE];
  posture_targets(p, x, tgt);
  for (int k = 0; k < RIG_NPOSTURE; k++) s->limited[k] = s->out[k] = out[k] = tgt[k];
}

static double smoothstep(double u) {
  u = mt_clamp(u, 0, 1);
  return u * u * (3 - 2 * u);
}

void posture_targets(const posture_params* p, const posture_situation* x, double tgt[RIG_NPOSTURE]) {
  /* Hang-off toward the inside: a left turn (ay > 0) moves everything left (negative). */
  double h = smoothstep((fabs(x->ay_ahead) - p->ay_start) / (p->ay_full - p->ay_start));
  double side = x->ay_ahead > 0 ? -1 : 1;
  tgt[RIG_POSTURE_HIP] = side * h * p->hip_max;
  tgt[RIG_POSTURE_LEAN] = side * h * p->lean_max;
  /* Pitch: a tuck on the straight at speed (less of it as the hang-off grows); sitting up
   * wins while braking. */
  double tuck = smoothstep((x->speed - p->tuck_v0) / (p->tuck_v1 - p->tuck_v0)) * (1 - h);
  double b = mt_clamp(x->brake / p->brake_full, 0, 1);
  tgt[RIG_POSTURE_PITCH] = (1 - b) * tuck * p->tuck_pitch + b * p->brake_pitch;
}

void posture_update(const posture_params* p, posture_state* s, const posture_situation* x, double dt,
                    double out[RIG_NPOSTURE]) {
  double tgt[RIG_NPOSTURE];
  posture_targets(p, x, tgt);
  double a = mt_clamp(dt / p->tau, 0, 1);
  for (int k = 0; k < RIG_NPOSTURE; k++) {
    double step = p->rate[k] * dt;
    s->limited[k] += mt_clamp(tgt[k] - s->limited[k], -step, step);
    s->out[k] += a * (s->limited[k] - s->out[k]);
    out[k] = s->out[k];
  }
}

double posture_roll_offset(const posture_params* p, const double sp[RIG_NPOSTURE]) {
  if (p->mass <= 0 || p->cg_height <= 0) return 0;
  double dy = (p->m_hip * sp[RIG_POSTURE_HIP] + p->mz_lean * sin(sp[RIG_POSTURE_LEAN])) / p->mass;
  return -atan(dy / p->cg_height);
}

double posture_ay_ahead(double (*curvature)(const void* path, double s), const void* path, double s, double speed,
                        double preview) {
  double best = 0;
  for (int i = 0; i <= 4; i++) {
    double k = curvature(path, s + speed * preview * i / 4);
    if (fabs(k) > fabs(best)) best = k;
  }
  return speed * speed * best;
}
