/* sweep_cmd.c — `mototake sweep` (run a grid of takes, or emit it as a job list) and
 * `mototake sweep index` (index takes made elsewhere). The work is in takes/sweep.c. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/cli.h"
#include "takes/sweep.h"

static long default_jobs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 256 ? 256 : n;
}

/* --time MIN and --mem MB: a SLURM task's limits, for --emit slurm alone (nothing else reads them:
 * refused elsewhere rather than ignored). 0 where not given: the defaults (takes/sweep.h). */
static int slurm_limits(const cli* c, const char* emit, sweep_slurm* sl, mt_err* e) {
  int given = cli_set(c, "time") || cli_set(c, "mem");
  if (given && !(emit && !strcmp(emit, "slurm")))
    return mt_fail(e, MT_EINPUT, "sweep: --time and --mem are a SLURM task's limits: they go with --emit slurm");
  if (cli_int(c, "time", 0, 1, 525600, &sl->minutes, e) || cli_int(c, "mem", 0, 16, 16777216, &sl->mem_mb, e))
    return MT_EINPUT;
  return MT_OK;
}

int cmd_sweep(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "sweep");
  cli_multi(&c, "vary");
  cli_arg(&c, "jobs");
  cli_arg(&c, "o");
  cli_arg(&c, "emit");
  cli_arg(&c, "program");
  cli_arg(&c, "time");
  cli_arg(&c, "mem");
  cli_flag(&c, "no-verify");
  cli_flag(&c, "retry-failed");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  const char* dir = cli_str(&c, "o", NULL);
  if (!dir) {
    mt_fail(&e, MT_EINPUT, "sweep: -o DIR is required (the takes and index.sqlite land there)");
    return cli_report(&e);
  }
  const cli_opt* v = cli_get(&c, "vary");
  if (v->nvalues == 0) {
    mt_fail(&e, MT_EINPUT, "sweep: at least one --vary KEY=A:B:N is required");
    return cli_report(&e);
  }
  if (v->nvalues > SWEEP_MAX_AXES) {
    mt_fail(&e, MT_EINPUT, "sweep: at most %d --vary axes", SWEEP_MAX_AXES);
    return cli_report(&e);
  }
  long jobs;
  if (cli_int(&c, "jobs", default_jobs(), 1, 256, &jobs, &e)) return cli_report(&e);
  static sweep_grid g;
  memset(&g, 0, sizeof g);
  for (int k = 0; k < v->nvalues; k++)
    if (sweep_parse_vary(v->values[k], &g.ax[g.naxis++], &e)) return cli_report(&e);
  if (sweep_grid_init(&g, c.pos[0], &e)) return cli_report(&e);
  const char* emit = cli_str(&c, "emit", NULL);
  sweep_slurm sl = {0, 0};
  if (slurm_limits(&c, emit, &sl, &e)) return cli_report(&e);
  if (emit) {
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    self[k > 0 ? k : 0] = 0;
    const char* prog = cli_str(&c, "program", k > 0 ? self : "mototake");
    return sweep_emit(&g, dir, emit, prog, &sl, &e) ? cli_report(&e) : 0;
  }
  if (sweep_prepare(&g, dir, &e)) return cli_report(&e);
  sweep_opts o = {(int)jobs, !cli_set(&c, "no-verify"), cli_set(&c, "quiet"), cli_set(&c, "retry-failed"), 0};
  int rc = sweep_run(dir, &o, &e);
  if (rc == SWEEP_INTERRUPTED) return rc;
  return rc ? cli_report(&e) : 0;
}

int cmd_sweep_index(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "sweep index");
  cli_arg(&c, "jobs");
  cli_flag(&c, "no-verify");
  cli_flag(&c, "retry-failed");
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 1, 1, &e)) return cli_report(&e);
  if (c.help) return 0;
  long jobs;
  if (cli_int(&c, "jobs", default_jobs(), 1, 256, &jobs, &e)) return cli_report(&e);
  sweep_opts o = {(int)jobs, !cli_set(&c, "no-verify"), cli_set(&c, "quiet"), cli_set(&c, "retry-failed"), 1};
  int rc = sweep_run(c.pos[0], &o, &e);
  if (rc == SWEEP_INTERRUPTED) return rc;
  return rc ? cli_report(&e) : 0;
}
