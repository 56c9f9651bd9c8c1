/* take_cmd.c — `mototake take info | channels | cut | verify`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/cli.h"
#include "sim/track.h"
#include "sim/vehicle.h"
#include "takes/recorder.h"
#include "takes/replay.h"
#include "takes/takefile.h"

static long file_size(const char* p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long)st.st_size : 0;
}

int cmd_take_info(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take info");
  cli_flag(&c, "json");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const take_schema* s = take_schema_of(r);
  const char* reason;
  int complete = take_complete(r, &reason);
  long n = take_nsteps(r), size = file_size(c.pos[0]);
  double dur = n * s->timestep;
  double per_min = dur > 0 ? size / dur * 60 : 0;
  const char* m[] = {"program_version", "git_revision", "platform", "integrator", "rig", "track", "created", "cut_from"};
  if (cli_set(&c, "json")) {
    printf("{\"file\":\"%s\",\"complete\":%s,\"end\":\"%s\",\"steps\":%ld,\"timestep_s\":%.17g,\"duration_s\":%.6f,"
           "\"file_bytes\":%ld,\"bytes_per_minute\":%.0f,\"bodies\":%d,\"channels\":%d,\"inputs\":%d,\"state\":%d",
           c.pos[0], complete ? "true" : "false", reason, n, s->timestep, dur, size, per_min, s->nbody, s->nchan, s->ninput,
           s->nstate);
    for (size_t i = 0; i < MT_ARRAY_LEN(m); i++)
      if (take_meta(r, m[i])) printf(",\"%s\":\"%s\"", m[i], take_meta(r, m[i]));
    printf(",\"sources\":[");
    for (int i = 0; i < take_nsources(r); i++) {
      const char *k, *nm, *t;
      take_source_at(r, i, &k, &nm, &t);
      printf("%s{\"kind\":\"%s\",\"name\":\"%s\",\"bytes\":%zu}", i ? "," : "", k, nm, strlen(t));
    }
    printf("],\"events\":%d}\n", take_nevents(r));
  } else {
    printf("take %s: %s%s%s\n", c.pos[0], complete ? "complete" : "INCOMPLETE", reason[0] ? " — " : "", reason);
    printf("  %ld steps of %.4g s: %.3f s recorded (%.0f Hz)\n", n, s->timestep, dur, 1 / s->timestep);
    for (size_t i = 0; i < MT_ARRAY_LEN(m); i++)
      if (take_meta(r, m[i])) printf("  %-16s %s\n", m[i], take_meta(r, m[i]));
    printf("  overrides        %s\n", take_overrides(r) ? take_overrides(r) : "[]");
    printf("  file             %.2f MB (%.1f MB per simulated minute)\n", size / 1e6, per_min / 1e6);
    printf("  streams          state %d values, inputs %d, poses of %d bodies, %d channels\n", s->nstate, s->ninput,
           s->nbody, s->nchan);
    printf("  bodies          ");
    for (int i = 0; i < s->nbody; i++) printf(" %s", s->body_names[i]);
    printf("\n  sources\n");
    for (int i = 0; i < take_nsources(r); i++) {
      const char *k, *nm, *t;
      take_source_at(r, i, &k, &nm, &t);
      printf("    %-7s %-40s %zu bytes\n", k, nm, strlen(t));
    }
    printf("  channels\n   ");
    for (int i = 0; i < s->nchan; i++) printf(" %s [%s]%s", s->chan_names[i], s->chan_units[i], i % 6 == 5 ? "\n   " : ",");
    printf("\n  events (%d)\n", take_nevents(r));
    for (int i = 0; i < take_nevents(r); i++) {
      const take_event* ev = take_event_at(r, i);
      printf("    t = %8.3f s  %-10s %s\n", ev->step * s->timestep, ev->kind, ev->json);
    }
  }
  take_close(r);
  return 0;
}


/* Parse --from/--to (seconds) into a step range within the take. */
static int step_range(const cli* c, const take_reader* r, long* a, long* b, mt_err* e) {
  double dt = take_schema_of(r)->timestep, dur = take_nsteps(r) * dt, from, to;
  if (cli_double(c, "from", 0, -1e9, 1e9, &from, e) || cli_double(c, "to", dur, -1e9, 1e9, &to, e)) return MT_EINPUT;
  if (from < 0 || to > dur + 1e-9 || from >= to)
    return mt_fail(e, MT_EINPUT, "%s: --from %g --to %g is not a range within the take (0 .. %.3f s)", c->command, from, to, dur);
  *a = (long)llround(from / dt);
  *b = (long)llround(to / dt);
  if (*b > take_nsteps(r)) *b = take_nsteps(r);
  return MT_OK;
}

int cmd_take_channels(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take channels");
  cli_arg(&c, "o");
  cli_arg(&c, "rate");
  cli_arg(&c, "channels");
  cli_arg(&c, "from");
  cli_arg(&c, "to");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "take channels: -o FILE.csv is required");
    return cli_report(&e);
  }
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  const take_schema* s = take_schema_of(r);
  int sel[512], ns = 0, rc = MT_OK;
  const char* list = cli_str(&c, "channels", NULL);
  if (list) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    char* save;
    for (char* t = strtok_r(buf, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
      int k = -1;
      for (int i = 0; i < s->nchan; i++)
        if (strcmp(s->chan_names[i], t) == 0) k = i;
      if (k < 0) {
        int best = 0;
        for (int i = 1; i < s->nchan; i++)
          if (mt_edit_distance(t, s->chan_names[i]) < mt_edit_distance(t, s->chan_names[best])) best = i;
        rc = mt_fail(&e, MT_EINPUT, "take channels: --channels: no channel '%s' (nearest: %s; see mototake take info)", t,
                     s->chan_names[best]);
      } else if (ns < 512) {
        sel[ns++] = k;
      }
    }
  } else {
    for (int i = 0; i < s->nchan && i < 512; i++) sel[ns++] = i;
  }
  long a = 0, b = 0;
  double rate = 0;
  if (!rc) rc = step_range(&c, r, &a, &b, &e);
  if (!rc) rc = cli_double(&c, "rate", 0, 0, 1e6, &rate, &e);
  if (!rc && cli_set(&c, "rate") && !(rate > 0)) rc = mt_fail(&e, MT_EINPUT, "take channels: --rate must be > 0");
  if (rc) {
    take_close(r);
    return cli_report(&e);
  }
  /* read the range once */
  long n = b - a;
  double* ch = mt_alloc(sizeof(double) * s->nchan * (n + 1));
  rc = take_read(r, TAKE_CHAN, a, n, ch, &e);
  char tmp[4200];
  mt_tmp_name(tmp, sizeof tmp, out);
  FILE* f = rc ? NULL : fopen(tmp, "w");
  if (!rc && !f) rc = mt_fail(&e, MT_EINPUT, "%s: cannot write", out);
  if (!rc) {
    double dt = s->timestep;
    fprintf(f, "time");
    for (int k = 0; k < ns; k++)
      if (strcmp(s->chan_names[sel[k]], "time")) fprintf(f, ",%s", s->chan_names[sel[k]]);
    fprintf(f, "\ns");
    for (int k = 0; k < ns; k++)
      if (strcmp(s->chan_names[sel[k]], "time")) fprintf(f, ",%s", s->chan_units[sel[k]]);
    fprintf(f, "\n");
    if (rate > 0) {
      /* resample by linear interpolation at exact multiples of 1/rate */
      double t0 = a * dt, t1 = (b - 1) * dt;
      for (long q = (long)ceil(t0 * rate - 1e-9);; q++) {
        double t = q / rate;
        if (t > t1 + 1e-12) break;
        double u = t / dt - a;
        long i = (long)floor(u);
        if (i >= n - 1) i = n - 2;
        if (i < 0) i = 0;
        double w = n > 1 ? u - i : 0;
        fprintf(f, "%.9g", t);
        for (int k = 0; k < ns; k++) {
          if (!strcmp(s->chan_names[sel[k]], "time")) continue;
          double v0 = ch[i * s->nchan + sel[k]], v1 = n > 1 ? ch[(i + 1) * s->nchan + sel[k]] : v0;
          fprintf(f, ",%.9g", v0 + w * (v1 - v0));
        }
        fprintf(f, "\n");
      }
    } else {
      for (long i = 0; i < n; i++) {
        fprintf(f, "%.9g", (a + i) * dt);
        for (int k = 0; k < ns; k++)
          if (strcmp(s->chan_names[sel[k]], "time")) fprintf(f, ",%.9g", ch[i * s->nchan + sel[k]]);
        fprintf(f, "\n");
      }
    }
    if (fclose(f) != 0) rc = mt_fail(&e, MT_EINPUT, "%s: write failed", out);
    if (!rc && rename(tmp, out) != 0) rc = mt_fail(&e, MT_EINPUT, "%s: cannot write", out);
    if (rc) remove(tmp);
  }
  free(ch);
  take_close(r);
  return rc ? cli_report(&e) : 0;
}

int cmd_take_cut(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take cut");
  cli_arg(&c, "o");
  cli_arg(&c, "from");
  cli_arg(&c, "to");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* out = cli_str(&c, "o", NULL);
  if (!out) {
    mt_fail(&e, MT_EINPUT, "take cut: -o PART.take is required");
    return cli_report(&e);
  }
  take_reader* r = take_open(c.pos[0], &e);
  if (!r) return cli_report(&e);
  long a, b;
  int rc = step_range(&c, r, &a, &b, &e);
  if (!rc) {
    char note[4200];
    snprintf(note, sizeof note, "%s steps %ld..%ld", c.pos[0], a, b);
    rc = take_write_cut(r, a, b - a, out, note, &e);
  }
  take_close(r);
  return rc ? cli_report(&e) : 0;
}

/*---- verify: rebuild the machine from the take alone and re-simulate ----*/

int take_verify(const char* path, long* first_bad, char* what, size_t nwhat, long* checked, mt_err* e) {
  take_reader* r = take_open(path, e);
  if (!r) return MT_EINPUT;
  *first_bad = -1;
  *checked = 0;
  rig* rg = NULL;
  track* tk = NULL;
  vehicle* v = NULL;
  int rc = replay_rebuild(r, 1, &rg, &tk, e);
  if (!rc) {
    v = veh_new(rg, track_road(tk), 0, e);
    if (!v) rc = e->code;
  }
  const take_schema* s = take_schema_of(r);
  if (!rc && veh_state_size(v) != s->nstate)
    rc = mt_fail(e, MT_EINPUT, "%s: the take's state has %d values, the rebuilt machine %d", path, s->nstate, veh_state_size(v));
  if (!rc && fabs(rg->timestep - s->timestep) > 0)
    rc = mt_fail(e, MT_EINPUT, "%s: the rebuilt rig's timestep %g differs from the take's %g", path, rg->timestep, s->timestep);
  long n = take_nsteps(r);
  if (!rc && n > 0) {
    int nx = s->nstate;
    double* x = mt_alloc(sizeof(double) * nx * 2);
    double* in = mt_alloc(sizeof(double) * (s->ninput + 1));
    rc = take_read(r, TAKE_STATE, 0, 1, x, e);
    if (!rc) {
      veh_set_state(v, x);
      v->d->time = 0;
    }
    for (long i = 0; i + 1 < n && !rc; i++) {
      if ((rc = take_read(r, TAKE_INPUT, i, 1, in, e))) break;
      rec_input_apply(in, s->ninput, &v->in);
      v->d->time = i * s->timestep;
      if ((rc = veh_step(v, e))) break;
      if ((rc = take_read(r, TAKE_STATE, i + 1, 1, x, e))) break;
      veh_get_state(v, x + nx);
      (*checked)++;
      if (memcmp(x, x + nx, sizeof(double) * nx) != 0) {
        int k = 0;
        while (k < nx && memcmp(&x[k], &x[nx + k], sizeof(double)) == 0) k++;
        *first_bad = i + 1;
        /* name the state component: qpos, qvel or act of which joint */
        int nq = v->m->nq, nv = v->m->nv;
        const char* part = k < nq ? "position" : k < nq + nv ? "velocity" : "tyre state";
        int idx = k < nq ? k : k < nq + nv ? k - nq : k - nq - nv;
        const char* joint = "";
        if (k < nq + nv)
          for (int j = 0; j < v->m->njnt; j++) {
            int a0 = k < nq ? v->m->jnt_qposadr[j] : v->m->jnt_dofadr[j];
            if (a0 <= idx) joint = mj_id2name(v->m, mjOBJ_JOINT, j);
          }
        snprintf(what, nwhat, "%s of %s (state value %d): recorded %.17g, re-simulated %.17g", part, joint[0] ? joint : "act", k,
                 x[k], x[nx + k]);
        break;
      }
    }
    free(x);
    free(in);
  }
  veh_free(v);
  track_free(tk);
  rig_free(rg);
  take_close(r);
  return rc;
}

int cmd_take_verify(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "take verify");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  long bad, checked;
  char what[512] = "";
  int rc = take_verify(c.pos[0], &bad, what, sizeof what, &checked, &e);
  if (rc) return cli_report(&e);
  if (bad >= 0) {
    printf("%s: DIVERGES at step %ld: %s\n", c.pos[0], bad, what);
    return 1;
  }
  printf("%s: bit-exact: %ld steps re-simulated from the take alone match the recording\n", c.pos[0], checked);
  return 0;
}
