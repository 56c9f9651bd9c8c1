/* lesson_cmd.c — `mototake render --lesson NAME [-o OUT.mp4] [--size WxH] [--preview S] [--quiet]`:
 * a lesson's takes ridden (or reused) and its parts rendered one after the other into one
 * captioned MP4 (app/lesson.h, docs/render.md "Lessons").
 *
 * Stages: lesson_args (the options), ride_parts (each part's take: reused when the file beside
 * the output recorded the same script text, else ridden), open_parts (every take opened and its
 * range checked before anything is written), render_parts (one sink, the parts' frames in turn).
 * A ridden take is DIR/SCRIPT.lesson.take, DIR the output's folder: a name of its own, so a
 * user's take or any input is never overwritten. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lesson.h"
#include "base/cli.h"
#include "base/outfile.h"
#include "base/stop.h"
#include "render/draw.h"
#include "render/frames.h"
#include "base/progress.h"
#include "render/pool.h"
#include "render/render.h"
#include "takes/run.h"
#include "takes/take_reader.h"
#include "takes/take_writer.h"

static volatile sig_atomic_t g_stop;   /* Ctrl-C: the loop stops and fo_close removes the file */
static void on_signal(int sig) { g_stop = sig; }

typedef struct lesson_job {
  ls_lesson l;
  char out[LS_PATH];
  int W, H, quiet;
  int threads;                      /* drawing threads (render/pool.h) */
  double preview;                   /* s of video per part, 0: all */
  char take[LS_MAX_PART][LS_PATH];  /* each part's take */
  rr_ctx rc[LS_MAX_PART];
  int nopen;
  double t0[LS_MAX_PART];
  long n[LS_MAX_PART], total;
} lesson_job;

static void print_list(void) {
  char names[32][64];
  int k = ls_list(names, 32);
  for (int i = 0; i < k; i++) {
    char path[LS_PATH];
    ls_lesson l;
    mt_err e = {0};
    if (ls_find(names[i], path, sizeof path, &e) || ls_load(path, &l, &e)) printf("  %-16s (%s)\n", names[i], e.msg);
    else printf("  %-16s %s: %s\n", names[i], l.title, l.about);
  }
}

static int lesson_args(const cli* c, lesson_job* j, mt_err* e) {
  char path[LS_PATH];
  if (ls_find(cli_str(c, "lesson", ""), path, sizeof path, e) || ls_load(path, &j->l, e)) return e->code;
  if (cli_set(c, "o")) snprintf(j->out, sizeof j->out, "%s", cli_str(c, "o", ""));
  else snprintf(j->out, sizeof j->out, "%s.mp4", j->l.name);
  if (fo_kind(j->out) != FO_MP4) return mt_fail(e, MT_EINPUT, "render: --lesson: -o %s: a lesson is an MP4 (OUT.mp4)", j->out);
  j->W = j->l.W, j->H = j->l.H;
  const char* size = cli_str(c, "size", NULL);
  if (size && (draw_parse_size(size, &j->W, &j->H) || j->W % 2 || j->H % 2))
    return mt_fail(e, MT_EINPUT, "render: --size: expected WxH, even, each within 64..8192, got '%s'", size);
  if (cli_double(c, "preview", 0, 0.1, 3600, &j->preview, e)) return e->code;
  j->quiet = cli_set(c, "quiet");
  long th = 0;
  if (cli_int(c, "threads", rp_auto_threads(), 1, RP_MAX_THREADS, &th, e)) return e->code;
  j->threads = (int)th;
  return MT_OK;
}

/* 1 if the take at path is complete and recorded exactly the script text of `script`; −1 while
 * another run is still recording it (it holds the writer's lock); 0 otherwise. */
static int take_matches(const char* path, const char* script) {
  mt_err e = {0};
  take_reader* r = take_reader_open(path, &e);
  if (!r) return 0;
  if (take_live(r)) {
    take_close(r);
    return -1;
  }
  FILE* f = fopen(script, "rb");
  char* want = NULL;
  size_t len = 0;
  if (f) {
    FILE* m = open_memstream(&want, &len);
    for (int ch; (ch = fgetc(f)) != EOF;) fputc(ch, m);
    fclose(m);
    fclose(f);
  }
  int same = 0;
  for (int i = 0; want && i < take_nsources(r); i++) {
    const char *kind, *name, *text;
    take_source_at(r, i, &kind, &name, &text);
    if (!strcmp(kind, "script")) same = text && strlen(text) == len && !memcmp(text, want, len);
  }
  const char* why;
  same = same && take_complete(r, &why);
  free(want);
  take_close(r);
  return same;
}

/* Part i's take, reused or ridden. Two lessons may ride the same script into the same folder at
 * once (`make -j lessons`: racing_line and trail_braking both ride laguna_race.lua): a take still
 * being recorded (its writer's lock held), or a ride refused by the take's writer because another
 * run claimed the path first (takes/take_writer.h, TAKE_WRITER_BUSY), means waiting for that run
 * and reusing its take, checking again every second; Ctrl-C ends the wait (nothing written). */
static int ride_part(lesson_job* j, int i, mt_err* e) {
  const char* ride = j->l.part[i].ride;
  for (int said = 0, rode = 0;;) {
    int m = take_matches(j->take[i], ride);
    if (m > 0) {
      if (!j->quiet) printf("lesson %s: part %d: reusing %s (it recorded %s as it is)\n", j->l.name, i + 1, j->take[i], ride);
      return MT_OK;
    }
    if (m == 0) {
      if (!rode++ && !j->quiet) printf("lesson %s: part %d: riding %s into %s\n", j->l.name, i + 1, ride, j->take[i]);
      fflush(stdout);
      outfile_forget_input(j->take[i]);   /* take_matches read it only to find it stale: replace it */
      run_opts o = {.script = ride, .out = j->take[i], .quiet = j->quiet};
      run_result r;
      if (!run_take(&o, &r, e)) return MT_OK;
      if (e->code != MT_EINPUT || !strstr(e->msg, TAKE_WRITER_BUSY)) return e->code ? e->code : MT_EINTERNAL;
      *e = (mt_err){0};
    }
    if (!said++ && !j->quiet) printf("lesson %s: part %d: another run is riding %s; waiting for it\n", j->l.name, i + 1, j->take[i]);
    fflush(stdout);
    sleep(1);
  }
}

static int ride_parts(lesson_job* j, mt_err* e) {
  const char* slash = strrchr(j->out, '/');
  for (int i = 0; i < j->l.nparts; i++) {
    const char* ride = j->l.part[i].ride;
    const char* base = strrchr(ride, '/') ? strrchr(ride, '/') + 1 : ride;
    int stem = (int)strlen(base) - (strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".lua") ? 4 : 0);
    snprintf(j->take[i], LS_PATH, "%.*s%.*s.lesson.take", slash ? (int)(slash - j->out + 1) : 0, j->out, stem, base);
    if (ride_part(j, i, e)) return e->code;
  }
  return MT_OK;
}

/* rr_open's refusal of an option the preset gave (`--plot: …`, `--overlays: …`) said again as the
 * preset's: "FILE:LINE: part N: field 'plot': …" (a caption file's refusal names its own file). */
static int part_refusal(const lesson_job* j, int i, mt_err* e) {
  static const char* const FIELD[] = {"plot", "overlays", "view", "span"};
  for (size_t k = 0; k < MT_ARRAY_LEN(FIELD); k++) {
    char opt[16];
    snprintf(opt, sizeof opt, "--%s: ", FIELD[k]);
    const char* at = strstr(e->msg, opt);
    if (!at) continue;
    char why[sizeof e->msg];
    snprintf(why, sizeof why, "%s", at + strlen(opt));
    int code = e->code;
    e->code = MT_OK;   /* mt_fail keeps the first error: this one replaces it */
    return mt_fail(e, code, "%s:%d: part %d: field '%s': %s", j->l.path, j->l.part[i].src_line, i + 1, FIELD[k], why);
  }
  return e->code;
}

/* Part i's take opened with the preset's view and options, its range checked against the take. */
static int open_part(lesson_job* j, int i, mt_err* e) {
  const ls_part* p = &j->l.part[i];
  rr_opts o = {p->view, NULL, p->span > 0 ? p->span : 120, p->hud, NULL, 0, 0, p->plot[0] ? p->plot : NULL,
               p->captions[0] ? p->captions : NULL, p->overlays[0] ? p->overlays : NULL};
  rr_ctx* rc = &j->rc[i];
  if (rr_open(rc, j->take[i], NULL, &o, j->W, j->H, e)) return part_refusal(j, i, e);
  j->nopen = i + 1;
  double dur = rc->k.duration, to = p->to < 0 ? dur : p->to;
  if (to > dur && to <= dur + rc->k.dt + 1e-9) to = dur;   /* the take's nominal end is its end (render_cmd.c) */
  if (to > dur || p->from >= to)
    return mt_fail(e, MT_EINPUT, "%s:%d: part %d: field '%s': %g s is not within the take %s (0 .. %.3f s)", j->l.path, p->src_line, i + 1,
                   to > dur ? "to" : "from", to > dur ? to : p->from, j->take[i], dur);
  rc->o.t0 = 0, rc->o.t1 = dur;   /* the timeline's overview bar shows the whole take */
  j->t0[i] = p->from;
  j->n[i] = (long)ceil((to - p->from) * j->l.fps / p->speed - 1e-9);
  if (j->preview > 0 && j->n[i] > (long)ceil(j->preview * j->l.fps)) j->n[i] = (long)ceil(j->preview * j->l.fps);
  j->total += j->n[i];
  return MT_OK;
}

/* Every part's frames, in order, into one sink, each part drawn by j->threads threads. */
static int render_parts(lesson_job* j, fo_sink* sink, fprog* prog, mt_err* e) {
  long first = 0;
  int rc = MT_OK;
  for (int i = 0; i < j->l.nparts && !rc; i++) {
    rp_job pj = {j->take[i], NULL, j->t0[i], j->l.part[i].speed / j->l.fps, j->n[i], first, j->total, j->threads, j->out, &g_stop, prog};
    rc = rp_render(&j->rc[i], sink, &pj, e);
    first += j->n[i];
  }
  return rc;
}

static int run_lesson(lesson_job* j, mt_err* e) {
  if (ride_parts(j, e)) return e->code;
  for (int i = 0; i < j->l.nparts; i++)
    if (open_part(j, i, e)) return e->code;
  fo_sink* sink = fo_open_ring(j->out, j->W, j->H, j->l.fps, rp_ring(j->threads), e);
  if (!sink) return e->code;
  fprog prog;
  fprog_start(&prog, j->total, !j->quiet);
  g_stop = 0;
  mt_stop_saved old_sig;
  mt_stop_catch(on_signal, &old_sig);
  int rc = render_parts(j, sink, &prog, e);
  double busy;
  rc = fo_close(sink, !rc, &busy, e) || rc;
  mt_stop_release(&old_sig);
  fprog_end(&prog);
  if (!rc && !j->quiet)
    printf("%s: lesson %s, %d part%s, %ld frames %dx%d at %g fps (%.3f s of video)\n", j->out, j->l.name, j->l.nparts,
           j->l.nparts == 1 ? "" : "s", j->total, j->W, j->H, j->l.fps, j->total / j->l.fps);
  return rc ? (e->code ? e->code : MT_EINTERNAL) : MT_OK;
}

int cmd_render_lesson(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "render");
  const char* args[] = {"lesson", "o", "size", "preview", "threads"};
  for (size_t i = 0; i < MT_ARRAY_LEN(args); i++) cli_arg(&c, args[i]);
  cli_flag(&c, "quiet");
  if (cli_parse(&c, argc, argv, 0, 0, &e)) return cli_report(&e);
  if (c.help) return 0;
  if (!strcmp(cli_str(&c, "lesson", ""), "list")) {
    print_list();
    return 0;
  }
  lesson_job* j = calloc(1, sizeof *j);
  int rc = lesson_args(&c, j, &e) || run_lesson(j, &e);
  for (int i = 0; i < j->nopen; i++) rr_close(&j->rc[i]);
  free(j);
  return rc ? cli_report(&e) : 0;
}
