/* modes_anim.c — a mode shape as a looping motion of the whole rig (see modes_anim.h). */
#include "app/modes_anim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exporters/rig_motion.h"
#include "render/mode_video.h"
#include "sim/recsample.h"
#include "sim/vehicle.h"

#define SLOW_PERIOD 1.5   /* s: a cycle faster than this is shown slowed to it */

void mode_anim_defaults(mode_anim_opts* o) {
  memset(o, 0, sizeof *o);
  o->cycles = 3;
  o->fps = 30;
}

int mode_anim_check_path(const char* path, mt_err* e) {
  const char* x = path ? strrchr(path, '.') : NULL;
  if (!x || (strcasecmp(x, ".glb") && strcasecmp(x, ".gltf") && strcasecmp(x, ".mp4")))
    return mt_fail(e, MT_EINPUT, "modes: --animate: -o %s: use .glb, .gltf or .mp4", path ? path : "");
  return MT_OK;
}

static const double DEFAULT_DEG[MD_NNAMED] = {4, 3, 4, 1.5};   /* weave, wobble, capsize, chatter */

double* mode_anim_poses(vehicle* v, const md_point* p, const md_mode* m, const mode_anim_opts* o, mode_anim_info* info,
                        mt_err* e) {
  const rig* r = v->rig;
  int n = p->n, nv = veh_dof_count(v), nb = rec_nbody(r);
  if (!p->vr || !p->x0) {
    mt_fail(e, MT_EINTERNAL, "modes: --animate: the point has no eigenvectors");
    return NULL;
  }
  const double *vr = p->vr + (size_t)m->col * n, *vi = p->vi + (size_t)m->col * n;
  /* the dominant coordinate: steer for wobble and chatter, roll for weave and capsize (position block) */
  int fd = v->dadr[r->body[0].joint0];
  int steer = (m->name == MD_WOBBLE || m->name == MD_CHATTER) && r->j_steer >= 0;
  int dom = steer ? v->dadr[r->j_steer] : fd + 3;
  double mag = hypot(vr[dom], vi[dom]);
  if (!(mag > 0)) {
    mt_fail(e, MT_EINTERNAL, "modes: --animate: the %s mode does not move its %s", md_names[m->name], steer ? "steer" : "roll");
    return NULL;
  }
  double deg = o->amplitude_deg > 0 ? o->amplitude_deg : DEFAULT_DEG[m->name];
  double a = deg * MT_PI / 180 / mag;
  int real = !(m->im > 0);
  double w = real ? 2 * MT_PI : m->im;   /* a real root: shown back and forth once a second */
  double period = 2 * MT_PI / w, shown = fmax(period, SLOW_PERIOD);
  long per = (long)lround(shown * o->fps);
  if (per < 8) per = 8;
  long nf = (long)lround(o->cycles * per);
  double* pose = mt_alloc(sizeof(double) * 7 * nb * nf);
  double* dx = mt_alloc(sizeof(double) * nv);
  int ns = veh_state_size(v);
  double* xs = mt_alloc(sizeof(double) * ns);
  veh_get_state(v, xs);
  /* the phase that puts the dominant coordinate at its peak at t = 0 */
  double ph = atan2(vi[dom], vr[dom]);
  for (long f = 0; f < nf; f++) {
    double th = 2 * MT_PI * (double)f / per;
    double c = cos(th + ph), s = sin(th + ph);
    for (int i = 0; i < nv; i++) dx[i] = real ? a * vr[i] * sin(th) : a * (vr[i] * c - vi[i] * s);
    veh_set_displaced(v, p->x0, dx);
    veh_forward(v);
    rec_poses(v, pose + (size_t)f * 7 * nb);
  }
  veh_set_state(v, xs);
  veh_forward(v);
  veh_set_state(v, xs);
  free(dx);
  free(xs);
  info->nframes = nf;
  info->per_cycle = per;
  info->period = period;
  info->shown_period = shown;
  info->amplitude_deg = deg;
  info->steer = steer;
  return pose;
}

int mode_anim_write(vehicle* v, const md_point* p, const md_mode* m, const mode_anim_opts* o, const char* path, mt_err* e) {
  const rig* r = v->rig;
  mode_anim_info in;
  double* pose = mode_anim_poses(v, p, m, o, &in, e);
  if (!pose) return e->code;
  long nf = in.nframes;
  double shown = in.shown_period, period = in.period, deg = in.amplitude_deg;
  char name[64], cap[256];
  snprintf(name, sizeof name, "%s_%s", r->name, md_names[m->name]);
  snprintf(cap, sizeof cap, "%s: %s at %.1f km/h, lean %.1f deg: %.2f Hz, damping %.3f (%s, %.1f deg)%s", r->name,
           md_names[m->name], p->spec.speed * 3.6, p->trim.roll * 180 / MT_PI, m->hz, m->zeta,
           in.steer ? "steer" : "roll", deg, shown > period * 1.0001 ? ", slowed" : "");
  const char* x = strrchr(path, '.');
  int rc;
  if (!strcasecmp(x, ".mp4")) rc = mv_write(r, pose, nf, o->fps, cap, path, !o->quiet, e);
  else {
    ex_report rep;
    memset(&rep, 0, sizeof rep);
    rc = ex_rig_motion_export(r, pose, nf, o->fps, name, path, &rep, e);
    if (!rc) printf("%s: %d nodes, %ld frames at %g fps\n", path, rep.nodes, rep.frames, o->fps);
  }
  if (!rc)
    printf("%s: %s, %g cycles of %.3f s%s, peak %s %.1f deg\n", path, cap, o->cycles, shown,
           shown > period * 1.0001 ? " (slow motion)" : "", in.steer ? "steer" : "roll", deg);
  free(pose);
  return rc;
}
