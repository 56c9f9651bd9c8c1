/* render_blender.c — `mototake render --engine blender` (see render_blender.h).
 *
 * Stages: rb_check_args (options, Blender found), then rb_render: make_tmp (a private folder),
 * export_range (this program's `export` of the frames' range as GLB), write_addon (the embedded
 * add-on's files), run_blender (EEVEE frames into PNGs, the add-on's "mototake-frame" lines ticking the progress),
 * compose (each PNG under the HUD into the sink), remove_tmp. */
#include "app/render_blender.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/progress.h"
#include "scene/cameras.h"

extern char** environ;
extern const int ex_addon_nfiles;
extern const char* const ex_addon_name[];
extern const unsigned char* const ex_addon_data[];
extern const size_t ex_addon_size[];

/* $MOTOTAKE_BLENDER (must be an executable file), else the first executable `blender` on PATH. */
static int find_blender(char* out, size_t n, mt_err* e) {
  const char* env = getenv("MOTOTAKE_BLENDER");
  if (env && *env) {
    if (access(env, X_OK)) return mt_fail(e, MT_EINPUT, "render: --engine blender: MOTOTAKE_BLENDER=%s is not a program that can run (%s)", env, strerror(errno));
    snprintf(out, n, "%s", env);
    return MT_OK;
  }
  const char* path = getenv("PATH");
  for (const char* p = path ? path : ""; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(out, n, "%.*s/blender", (int)len, p);
    struct stat st;
    if (len && !stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK)) return MT_OK;
    p += len + (p[len] == ':');
  }
  return mt_fail(e, MT_EINPUT, "render: --engine blender: Blender is not installed (no blender on PATH; install it with "
                               "`sh tests/deps.sh blender` or set MOTOTAKE_BLENDER to the program)");
}

int rb_check_args(const cli* c, rr_opts* o, double fps, double speed, rb_job* j, mt_err* e) {
  static const char* const cairo_only[] = {"view", "grid", "compare", "span"};
  for (size_t i = 0; i < MT_ARRAY_LEN(cairo_only); i++)
    if (cli_set(c, cairo_only[i])) return mt_fail(e, MT_EINPUT, "render: --%s is for the Cairo views, not --engine blender (it renders --camera)", cairo_only[i]);
  if (speed != 1) return mt_fail(e, MT_EINPUT, "render: --engine blender plays the take at --speed 1 (got %g)", speed);
  if (fps != floor(fps)) return mt_fail(e, MT_EINPUT, "render: --engine blender: --fps must be a whole number, got %g", fps);
  const char* names[16];
  int m = sc_camera_names(names, 16), found = 0;
  j->camera = o->camera ? o->camera : "chase";
  for (int i = 0; i < m; i++) found |= !strcmp(names[i], j->camera);
  if (!found) {
    char list[256];
    rr_camera_list(list, sizeof list);
    return mt_fail(e, MT_EINPUT, "render: --camera %s: no such camera rig (%s)", j->camera, list);
  }
  o->camera = NULL;
  long smp;
  if (cli_int(c, "samples", 16, 1, 256, &smp, e)) return e->code;
  j->samples = (int)smp;
  j->fps = (int)fps;
  return find_blender(j->blender, sizeof j->blender, e);
}

/* ---- the temporary folder ---- */

static int rm_entry(const char* p, const struct stat* st, int flag, struct FTW* f) {
  (void)st, (void)flag, (void)f;
  return remove(p) && errno != ENOENT ? -1 : 0;
}

static void remove_tmp(const char* dir) {
  if (dir[0]) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int make_tmp(char* dir, size_t n, mt_err* e) {
  const char* base = getenv("TMPDIR");
  snprintf(dir, n, "%s/mototake-blender-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(dir)) {
    int err = errno;
    dir[0] = 0;
    return mt_fail(e, MT_EINTERNAL, "render: cannot make a temporary folder: %s", strerror(err));
  }
  return MT_OK;
}

/* ---- child processes ---- */

/* Run argv with stdin from /dev/null and stdout+stderr into fd_out; the pid, or -1 (errno). */
static pid_t spawn(char* const argv[], int fd_out) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fd_out, 1);
  posix_spawn_file_actions_adddup2(&fa, fd_out, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) errno = rc;
  return rc ? -1 : pid;
}

/* The child's exit status, or 128 + signal. */
static int wait_child(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The first line of a file, without its newline ("" if none). */
static void first_line(const char* path, char* out, size_t n) {
  out[0] = 0;
  FILE* f = fopen(path, "r");
  if (!f) return;
  if (fgets(out, (int)n, f)) out[strcspn(out, "\n")] = 0;
  fclose(f);
}

/* The frames' range exported as DIR/take.glb at the job's fps: from t0 to the last frame's time
 * (half a frame more, so the export's whole-frame count cannot round one short), within the take;
 * *f0 is the Blender frame of t0. The exporter's refusal is ours, its line and its code. */
static int export_range(const rb_job* j, const char* dir, int* f0, mt_err* e) {
  double xf = j->t0, xt = fmin(j->dur, j->t0 + (j->n - 0.5) / j->fps);
  if (xt <= xf) xf = fmax(0, xt - 1.0 / j->fps);   /* --at the take's very end */
  *f0 = 1 + (int)lround((j->t0 - xf) * j->fps);
  char self[PATH_MAX], glb[PATH_MAX], log[PATH_MAX], fps[16], from[32], to[32];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) return mt_fail(e, MT_EINTERNAL, "render: cannot find this program (/proc/self/exe): %s", strerror(errno));
  self[k] = 0;
  snprintf(glb, sizeof glb, "%s/take.glb", dir);
  snprintf(log, sizeof log, "%s/export.log", dir);
  snprintf(fps, sizeof fps, "%d", j->fps);
  snprintf(from, sizeof from, "%.17g", xf);
  snprintf(to, sizeof to, "%.17g", xt);
  char* argv[] = {self, "export", (char*)j->take, "-o", glb, "--fps", fps, "--from", from, "--to", to, "--name", "take", "--armature", NULL};
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return mt_fail(e, MT_EINTERNAL, "render: %s: %s", log, strerror(errno));
  pid_t pid = spawn(argv, fd);
  close(fd);
  if (pid < 0) return mt_fail(e, MT_EINTERNAL, "render: cannot run %s export: %s", self, strerror(errno));
  int rc = wait_child(pid);
  if (!rc) return MT_OK;
  char why[400];
  first_line(log, why, sizeof why);
  const char* w = strncmp(why, "mototake: ", 10) ? why : why + 10;   /* cli_report adds it again */
  return mt_fail(e, rc == MT_EINPUT ? MT_EINPUT : MT_EINTERNAL, "render: %s", w[0] ? w : "the export failed");
}

/* The embedded add-on (build/blender_addon.c) as DIR/addon/mototake_io/... */
static int write_addon(const char* dir, mt_err* e) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/addon", dir);
  mkdir(p, 0700);
  snprintf(p, sizeof p, "%s/addon/mototake_io", dir);
  mkdir(p, 0700);
  for (int i = 0; i < ex_addon_nfiles; i++) {
    snprintf(p, sizeof p, "%s/addon/%s", dir, ex_addon_name[i]);
    FILE* f = fopen(p, "wb");
    int bad = !f || fwrite(ex_addon_data[i], 1, ex_addon_size[i], f) != ex_addon_size[i];
    if (f && fclose(f)) bad = 1;
    if (bad) return mt_fail(e, MT_EINTERNAL, "render: cannot write %s: %s", p, strerror(errno));
  }
  return MT_OK;
}

/* The Python that Blender runs: the add-on from DIR/addon, then mototake_io.render_cli. */
static const char* const k_driver =
    "import sys; a = sys.argv[sys.argv.index('--') + 1:]; sys.path.insert(0, a[0]); "
    "import mototake_io; mototake_io.render_cli(a[1:])";

/* Blender's output, read line by line as it renders: "mototake-frame N" is a frame written (the
 * progress; the add-on prints it unbuffered), "mototake: ..." the add-on's refusal; the last other line is kept for errors. */
static void read_blender(FILE* f, fprog* prog, char* why, size_t n) {
  char line[1024];
  long done = 0;
  int refused = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!strncmp(line, "mototake-frame ", 15)) fprog_tick(prog, ++done);
    else if (!strncmp(line, "mototake: ", 10)) snprintf(why, n, "%s", line + 10), refused = 1;
    else if (!refused && line[0] && strcmp(line, "Blender quit") && strncmp(line, "Fra:", 4) && strncmp(line, "Saved: ", 7) &&
             strncmp(line, " Time: ", 7))
      snprintf(why, n, "%s", line);
  }
}

/* Blender renders frames f0 .. f0+n-1 of DIR/take.glb into DIR/f_NNNNNN.png. */
static int run_blender(const rb_job* j, const char* dir, int f0, mt_err* e) {
  char addon[PATH_MAX], glb[PATH_MAX], pat[PATH_MAX], w[16], h[16], a[16], b[16], smp[16];
  snprintf(addon, sizeof addon, "%s/addon", dir);
  snprintf(glb, sizeof glb, "%s/take.glb", dir);
  snprintf(pat, sizeof pat, "%s/f_######", dir);
  snprintf(w, sizeof w, "%d", j->W), snprintf(h, sizeof h, "%d", j->H), snprintf(smp, sizeof smp, "%d", j->samples);
  snprintf(a, sizeof a, "%d", f0), snprintf(b, sizeof b, "%ld", f0 + j->n - 1);
  char* argv[] = {(char*)j->blender, "-b", "--factory-startup", "--python-exit-code", "3", "--python-expr", (char*)k_driver,
                  "--", addon, glb, (char*)j->camera, w, h, a, b, smp, pat, NULL};
  int fds[2];
  if (pipe2(fds, O_CLOEXEC)) return mt_fail(e, MT_EINTERNAL, "render: pipe: %s", strerror(errno));
  pid_t pid = spawn(argv, fds[1]);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return mt_fail(e, MT_EINPUT, "render: --engine blender: cannot run %s: %s", j->blender, strerror(errno));
  }
  fprog prog;
  fprog_start(&prog, j->n, !j->quiet);
  char why[400] = "";
  FILE* f = fdopen(fds[0], "r");
  if (f) read_blender(f, &prog, why, sizeof why), fclose(f);   /* a signal (no SA_RESTART) ends the read */
  else close(fds[0]);
  if (*j->stop) kill(pid, SIGTERM);   /* a SIGTERM to us alone reaches Blender too */
  int rc = wait_child(pid);
  fprog_end(&prog);
  if (*j->stop) return mt_fail(e, MT_EINPUT, "render: interrupted while Blender rendered; nothing written");
  if (rc == 2) return mt_fail(e, MT_EINPUT, "render: Blender: %s", why);
  if (rc) return mt_fail(e, MT_EINTERNAL, "render: %s exited %d: %s", j->blender, rc, why[0] ? why : "(no output)");
  return MT_OK;
}

/* Each Blender frame under the HUD into the sink (frame i at take time t0 + i/fps). */
static int compose(rr_ctx* rc_, fo_sink* sink, const rb_job* j, const char* dir, int f0, mt_err* e) {
  fprog prog;
  fprog_start(&prog, j->n, !j->quiet);
  int rc = MT_OK;
  for (long i = 0; i < j->n && !rc; i++) {
    if (*j->stop) {
      rc = mt_fail(e, MT_EINPUT, "render: interrupted at frame %ld of %ld; nothing written", i, j->n);
      break;
    }
    char png[PATH_MAX];
    snprintf(png, sizeof png, "%s/f_%06ld.png", dir, f0 + i);
    cairo_surface_t* pic = cairo_image_surface_create_from_png(png);
    unsigned char* buf = NULL;
    if (cairo_surface_status(pic) != CAIRO_STATUS_SUCCESS)
      rc = mt_fail(e, MT_EINTERNAL, "render: Blender left no readable frame %ld (%s)", i, cairo_status_to_string(cairo_surface_status(pic)));
    else if (!(buf = fo_buffer(sink, e)))
      rc = e->code ? e->code : MT_EINTERNAL;
    if (!rc) {
      cairo_surface_t* s = cairo_image_surface_create_for_data(buf, CAIRO_FORMAT_ARGB32, rc_->W, rc_->H, 4 * rc_->W);
      cairo_t* cr = cairo_create(s);
      rc = rr_draw_picture(rc_, cr, j->t0 + (double)i / j->fps, pic, e);
      cairo_destroy(cr);
      cairo_surface_flush(s);
      cairo_surface_destroy(s);
      if (!rc) rc = fo_submit(sink, e);
    }
    cairo_surface_destroy(pic);
    remove(png);   /* done with: the folder holds at most the frames still to come */
    if (!rc) fprog_tick(&prog, i + 1);
  }
  fprog_end(&prog);
  return rc;
}

int rb_render(rr_ctx* rc_, fo_sink* sink, const rb_job* j, mt_err* e) {
  char dir[PATH_MAX] = "";
  int f0 = 1;
  int rc = make_tmp(dir, sizeof dir, e);
  if (!rc) rc = export_range(j, dir, &f0, e);
  if (!rc) rc = write_addon(dir, e);
  if (!rc) rc = run_blender(j, dir, f0, e);
  if (!rc) rc = compose(rc_, sink, j, dir, f0, e);
  remove_tmp(dir);
  return rc;
}
