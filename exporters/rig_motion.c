/* rig_motion.c — a synthetic motion of a rig through the exporter (see rig_motion.h). */
#include "exporters/rig_motion.h"

#include <stdlib.h>
#include <string.h>

#include "scene/take_bodies.h"
#include "takes/recorder.h"

int ex_rig_motion_export(const rig* r, const double* pose, long nframes, double fps, const char* name, const char* path,
                         ex_report* rep, mt_err* e) {
  int nb = rec_nbody(r);
  const char** names = mt_alloc(sizeof(char*) * 2 * nb);
  const char** parents = names + nb;
  for (int i = 0; i < nb; i++) {
    names[i] = rec_body_name(r, i);
    parents[i] = rec_body_parent(r, i);
  }
  take_schema s;
  memset(&s, 0, sizeof s);
  s.timestep = 1 / fps;
  s.nbody = nb;
  s.body_names = names;
  s.body_parents = parents;
  ex_take_bodies tb;
  ex_take_bodies_build(&s, r, &tb);
  ex_options o;
  ex_options_default(&o);
  o.fps = fps;
  o.with_track = 0;
  ex_motion m;
  memset(&m, 0, sizeof m);
  m.name = name;
  m.nbody = nb;
  m.body = tb.body;
  m.dt = 1 / fps;
  m.nsteps = nframes;
  m.pose = pose;
  int rc = ex_export(&m, &o, path, rep, e);
  ex_take_bodies_free(&tb);
  free(names);
  return rc;
}
