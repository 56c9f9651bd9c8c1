/* serve.c — `mototake serve`: the local web pages (docs/web.md).
 *
 * Contract: an HTTP server (libmicrohttpd, one thread per connection) on 127.0.0.1 unless
 * --listen says otherwise, serving the static pages in the project's web/ folder and JSON APIs
 * (jansson) over the takes under --root. Every request carries the token printed at start (in
 * the query, ?token=, or the cookie the first page sets). Paths from requests are relative to
 * the root, made of plain names (no "..", no leading "/", no dot files) and must resolve (symlinks
 * followed) inside the root. Work is done by running this same program (fork/exec, never a
 * shell) with fixed argument lists; its products (thumbnails, previews, CSV, exports, plots,
 * verify results) are cached under ROOT/.mototake-web/, runs write new takes under ROOT/runs/
 * and saved override sets go to ROOT/overrides/: nothing existing is ever overwritten, and each
 * of these folders must resolve inside the root (root_dir). Takes are read only through the take
 * reader (takes/takefile.h), and their products are cached under the take's content (take_id).
 * Request bodies are capped at 64 KiB, URLs by the connection memory limit. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "base/cli.h"
#include "base/luabox.h"
#include "takes/takefile.h"

#define SV_BODY_MAX 65536
#define SV_MAX_SETS 64
#define SV_MAX_JOBS 256   /* runs per server lifetime (a job id is never reused) */
/* Connections: at most SV_MAX_CONN, one thread each; one that sends nothing for SV_IDLE_S seconds
 * (waiting for its request's headers, or idle between keep-alive requests) is closed, and one
 * whose headers are not all in SV_HEADER_S after it connected (or after its previous request) is
 * shut down by the header watchdog. With 120 s of inactivity here and no watchdog, 64 idle
 * sockets locked every user out for two minutes (issue 29 finding 9). The handler's own work (a
 * verify, a render) runs on the connection's thread and counts as neither. */
#define SV_MAX_CONN 64
#define SV_IDLE_S 10
#define SV_HEADER_S 15

static char g_root[4096], g_cache[4200], g_web[4200], g_proj[4096], g_exe[4096], g_token[33];
/* The cache folder is pinned: checked once at start (root_dir) and held open for the server's life;
 * g_cache is "/proc/self/fd/N" of that descriptor, so every path built on it — the server's own
 * files and the products its children write — resolves to the folder that was checked, whatever
 * is renamed or symlinked at ROOT/.mototake-web afterwards (issue 29 finding 3: a folder swapped
 * between the check and a child's write was followed). The descriptor is inherited by the
 * children (no close-on-exec), which write through the same path. g_cache_real is the folder's
 * real path at the check, which cache_ok compares and messages show. */
static char g_cache_real[4200];
/* This program's build: its executable's size and modification time, set at start. Every cache
 * name hashes it, so that a new build (a plot drawn differently) never serves the old build's
 * products: the files of another build are left and no longer found. */
static char g_build[96];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int g_stopping;   /* set on SIGINT/SIGTERM: run_self kills its child at once */

typedef struct sv_job {
  int used, state;          /* 0 running, 1 done, 2 failed */
  char script[64], take[4200], rel[1024], err[512], errfile[4300];
  int dirfd;                /* runs/, held open while the run writes there; take is "/proc/self/fd/DIRFD/NAME" */
  char name[200];           /* NAME: the run, started inside that folder, writes it by this name */
  double t, total;
  char stage[32];           /* before the ride's bar, the last work bar's label ("practice laps"), "" none */
  double pct;               /* and its percentage */
  pid_t pid;
} sv_job;
static sv_job g_jobs[SV_MAX_JOBS];
static char* g_job_sets[SV_MAX_JOBS][SV_MAX_SETS];   /* a job's --set values (strdup'd) */

/* ---------- small helpers ---------- */

static uint64_t fnv(const char* s, uint64_t h) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static int name_ok(const char* s, size_t max) {   /* [A-Za-z0-9_-], 1..max chars */
  size_t n = 0;
  for (; s[n]; n++)
    if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '_' ||
          s[n] == '-'))
      return 0;
  return n > 0 && n <= max;
}

static int set_ok(const char* s) {   /* KEY=NUMBER with KEY of [A-Za-z0-9_.] */
  const char* eq = strchr(s, '=');
  if (!eq || eq == s || strlen(s) > 200) return 0;
  for (const char* p = s; p < eq; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.'))
      return 0;
  double v;
  return cli_parse_double(eq + 1, &v) == 0;
}

/* A request path relative to the root → an existing regular file inside it (realpath), or -1. */
static int safe_path(const char* rel, char* out, size_t n) {
  if (!rel || !*rel || rel[0] == '/' || strlen(rel) > 1000) return -1;
  const char* p = rel;
  while (*p) {
    const char* q = strchr(p, '/');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == 0 || p[0] == '.') return -1;   /* "", ".", "..", dot files */
    for (size_t i = 0; i < len; i++)
      if ((unsigned char)p[i] < 32 || p[i] == '\\') return -1;
    p += len + (q ? 1 : 0);
    if (q && !*p) return -1;
  }
  char joined[8192], rp[PATH_MAX];
  snprintf(joined, sizeof joined, "%s/%s", g_root, rel);
  if (!realpath(joined, rp)) return -1;
  size_t rl = strlen(g_root);
  if (strncmp(rp, g_root, rl) != 0 || rp[rl] != '/') return -1;   /* a symlink out of the root */
  struct stat st;
  if (stat(rp, &st) || !S_ISREG(st.st_mode)) return -1;
  snprintf(out, n, "%s", rp);
  return 0;
}

/* The folder ROOT/name the server writes in (name: one plain component; created when absent if
 * `create`). It is opened, following symlinks, and the folder it really is — its path read back
 * from /proc/self/fd — must lie strictly inside the root: a library whose `overrides`, `runs` or
 * `.mototake-web` is a symlink leading elsewhere is refused, never written through (issue 29
 * finding 3). Returns the open folder (create files in it with openat and O_EXCL | O_NOFOLLOW:
 * a folder swapped after this check is not followed) with its real path in out; -1 and why in err. */
static int root_dir(const char* name, int create, char* out, size_t n, char* err, size_t en) {
  char p[4400], fdp[64], rp[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", g_root, name);
  if (create && mkdir(p, 0755) && errno != EEXIST) {
    snprintf(err, en, "%s: cannot create it (%s)", name, strerror(errno));
    return -1;
  }
  int fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, en, "%s: not a folder", name);
    return -1;
  }
  snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", fd);
  ssize_t L = readlink(fdp, rp, sizeof rp - 1);
  size_t rl = strlen(g_root);
  if (L > 0) rp[L] = 0;
  if (L <= 0 || strncmp(rp, g_root, rl) != 0 || rp[rl] != '/') {
    snprintf(err, en, "%s leads outside the root (to %s): refused", name, L > 0 ? rp : "?");
    close(fd);
    return -1;
  }
  snprintf(out, n, "%s", rp);
  return fd;
}

/* The cache folder is still the one checked at start (cmd_serve): called before each write in
 * it, so that a folder replaced by a symlink while the server runs is not written through. */
static int cache_ok(void) {
  char rp[PATH_MAX], err[600];
  int fd = root_dir(".mototake-web", 0, rp, sizeof rp, err, sizeof err);
  if (fd < 0) return 0;
  close(fd);
  return strcmp(rp, g_cache_real) == 0;
}

/* A new file at path for the server's own output, never through what is there: a file or a
 * symlink planted at the (predictable) name is removed first, and O_EXCL | O_NOFOLLOW refuse one
 * that appears in between. The folder itself was checked to lie inside the root (root_dir). */
static int fresh_file(const char* path) {
  unlink(path);
  return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* Run this program with argv (argv[0] ignored) — fork/exec, no shell; stdout to out_file (or
 * /dev/null), stderr to err_file. cwd_fd (or -1): a folder the child starts in, so that a plain
 * NAME argument is a file in that very folder, whatever its path has become (SQLite refuses a path
 * through /proc/self/fd, a symlink, for a take it writes). Kills the child after timeout_s.
 * Returns its exit status, or -1. */
static int run_self(const char* const* args, int nargs, const char* out_file, const char* err_file, int timeout_s,
                    int progress, int cwd_fd, pid_t* pid_out) {
  char* argv[160];
  if (nargs > 150) return -1;
  argv[0] = "mototake";
  for (int i = 0; i < nargs; i++) argv[i + 1] = (char*)args[i];
  argv[nargs + 1] = NULL;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    int o = out_file ? fresh_file(out_file) : open("/dev/null", O_WRONLY | O_CLOEXEC);
    int er = err_file ? fresh_file(err_file) : open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (in < 0 || o < 0 || er < 0) _exit(127);
    sigset_t none;   /* the server blocks SIGINT and SIGTERM in every thread (cmd_serve) */
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    dup2(in, 0);
    dup2(o, 1);
    dup2(er, 2);
    if (progress) setenv("MOTOTAKE_PROGRESS", "1", 1);
    if (cwd_fd >= 0 && fchdir(cwd_fd) != 0) _exit(127);
    execv(g_exe, argv);
    _exit(127);
  }
  if (pid_out) {
    pthread_mutex_lock(&g_lock);
    *pid_out = pid;
    pthread_mutex_unlock(&g_lock);
  }
  int st = 0;
  double waited = 0;
  for (;;) {
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return -1;
    if (waited > timeout_s || g_stopping) {   /* stopping: the daemon waits for this thread */
      kill(pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -1;
    }
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
    waited += 0.02;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* In a message for the page, a pinned folder's "/proc/self/fd/N" (at most one) becomes its name
 * in the root: what the user knows it as. */
static void unpin(char* msg, size_t n, const char* pin, const char* name) {
  char* p = strstr(msg, pin);
  size_t pl = strlen(pin);
  if (!p || (p[pl] && p[pl] != '/')) return;
  char rest[1024];
  snprintf(rest, sizeof rest, "%s", p + pl);
  snprintf(p, n - (size_t)(p - msg), "%s%s", name, rest);
}

static char* slurp(const char* path, size_t max) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  char* b = malloc(max + 1);
  size_t n = b ? fread(b, 1, max, f) : 0;
  fclose(f);
  if (b) b[n] = 0;
  return b;
}

static void first_line(const char* file, char* out, size_t n) {
  out[0] = 0;
  FILE* f = fopen(file, "r");
  if (!f) return;
  if (fgets(out, (int)n, f)) out[strcspn(out, "\r\n")] = 0;
  fclose(f);
  unpin(out, n, g_cache, ".mototake-web");
}

/* The cache file ROOT/.mototake-web/HASH.ext of the product `what` of the thing named by id
 * (take_id for a take, file_id for a shipped rig). */
static void cache_name(const char* what, const char* id, const char* ext, char* out, size_t n) {
  uint64_t h = fnv(id, fnv("|", fnv(what, fnv(g_build, 1469598103934665603ULL))));
  snprintf(out, n, "%s/%016llx.%s", g_cache, (unsigned long long)h, ext);
}

/* A shipped file's id: its path, modification time and size (the project's own rigs). */
static void file_id(const char* path, char* out, size_t n) {
  struct stat st = {0};
  stat(path, &st);
  snprintf(out, n, "file|%s|%lld|%lld", path, (long long)st.st_mtime, (long long)st.st_size);
}

/* A cached product as JSON, or NULL; a symlink planted in the cache is not followed. */
static json_t* load_cached_json(const char* cf) {
  int fd = open(cf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return NULL;
  json_error_t je;
  json_t* j = json_loadfd(fd, 0, &je);
  close(fd);
  return j;
}

/* ---------- products being made, and their progress ----------
 * A product made with its progress bar (the MP4 preview: seconds to a minute) is listed here
 * while its command runs, with the file its stderr goes to; /api/take/progress reads the bar's
 * last "DONE/N frames" from that file, so the page can show how far the render is. */
#define SV_MAX_MAKING 16
static struct { char target[4400], errf[4400]; } g_making[SV_MAX_MAKING];   /* under g_lock; "" free */

static int making_add(const char* target, const char* errf) {   /* the slot, or -1 when all are taken */
  int k = -1;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < SV_MAX_MAKING && k < 0; i++)
    if (!g_making[i].target[0]) k = i;
  if (k >= 0) {
    snprintf(g_making[k].target, sizeof g_making[k].target, "%s", target);
    snprintf(g_making[k].errf, sizeof g_making[k].errf, "%s", errf);
  }
  pthread_mutex_unlock(&g_lock);
  return k;
}

static void making_del(int k) {
  if (k < 0) return;
  pthread_mutex_lock(&g_lock);
  g_making[k].target[0] = 0;
  pthread_mutex_unlock(&g_lock);
}

/* 1 with the frames done and in all when target is being made (0 / 0 before the first frame);
 * 0 when it is not. The last "] DONE/N frames" of render's bar (render/progress.c). */
static int making_progress(const char* target, long* done, long* n) {
  char errf[4400] = "";
  *done = *n = 0;
  pthread_mutex_lock(&g_lock);   /* the file's name only: it is read without the lock */
  for (int i = 0; i < SV_MAX_MAKING && !errf[0]; i++)
    if (!strcmp(g_making[i].target, target)) snprintf(errf, sizeof errf, "%s", g_making[i].errf);
  pthread_mutex_unlock(&g_lock);
  if (!errf[0]) return 0;
  char* s = slurp(errf, 1 << 20);   /* NULL when the render has just ended and the file is gone */
  char* last = NULL;
  for (char* p = s; p && (p = strstr(p, "] ")); p += 2) last = p;
  long a, b;
  if (last && sscanf(last + 2, "%ld/%ld frames", &a, &b) == 2 && a >= 0 && b >= a) *done = a, *n = b;
  free(s);
  return 1;
}

/* The first pat in [p, end), or NULL: bounded to one line, so a long file costs one pass. */
static char* find_in(char* p, char* end, const char* pat) {
  size_t k = strlen(pat);
  for (; p + k <= end; p++)
    if (!memcmp(p, pat, k)) return p;
  return NULL;
}

/* The first line of a command's stderr that is not its progress bar: the error. The bar is
 * "\r[###...] D/N frames  F frames/s  ETA E s " segments; an error printed in the middle of a
 * render follows the last segment on the same line. */
static void error_line(const char* file, char* out, size_t n) {
  out[0] = 0;
  char* s = slurp(file, 1 << 20);
  for (char* line = s; line && *line && !out[0];) {
    char* end = line + strcspn(line, "\n");
    char* p = line;
    for (char* r = line; r < end; r++)
      if (*r == '\r') p = r + 1;
    char* eta = find_in(p, end, "ETA ");
    if (*p == '[' && eta) {   /* a bar segment: what follows "ETA E s " */
      char* sp = find_in(eta + 4, end, " s ");
      p = sp ? sp + 3 : end;
    }
    while (p < end && *p == ' ') p++;
    if (p < end) snprintf(out, n, "%.*s", (int)(end - p), p);
    line = *end ? end + 1 : end;
  }
  free(s);
  unpin(out, n, g_cache, ".mototake-web");
}

/* Make `target` by running args with -o TMP (TMP: target with a unique infix), then rename.
 * progress: the command shows its frame bar (MOTOTAKE_PROGRESS; args must not hold --quiet)
 * and target is listed in g_making while it runs.
 * Returns 0 when target exists afterwards; else err holds the command's first error line. */
static int make_cached(const char* target, const char* const* args, int nargs, int timeout_s, int progress, char* err,
                       size_t en) {
  struct stat ts;
  if (lstat(target, &ts) == 0 && S_ISREG(ts.st_mode)) return 0;
  if (!cache_ok()) {
    snprintf(err, en, ".mototake-web is no longer the folder checked at start: refused");
    return -1;
  }
  static int counter;
  pthread_mutex_lock(&g_lock);
  int k = ++counter;
  pthread_mutex_unlock(&g_lock);
  const char* dot = strrchr(target, '.');
  char tmp[4400], errf[4400];
  snprintf(tmp, sizeof tmp, "%.*s.tmp%d-%d%s", (int)(dot - target), target, (int)getpid(), k, dot);
  snprintf(errf, sizeof errf, "%s.err", tmp);
  const char* a[160];
  int na = 0;
  for (int i = 0; i < nargs; i++) a[na++] = args[i];
  a[na++] = "-o";
  a[na++] = tmp;
  int slot = progress ? making_add(target, errf) : -1;
  int rc = run_self(a, na, NULL, errf, timeout_s, slot >= 0, -1, NULL);
  making_del(slot);
  if (rc == 0 && access(tmp, R_OK) == 0) {
    rename(tmp, target);
    unlink(errf);
    return 0;
  }
  error_line(errf, err, en);
  if (!err[0]) snprintf(err, en, "the command failed (status %d)", rc);
  unlink(tmp);
  unlink(errf);
  return -1;
}

/* ---------- responses ---------- */

static enum MHD_Result reply(struct MHD_Connection* c, unsigned code, const char* mime, const char* body,
                             size_t len) {
  struct MHD_Response* r = MHD_create_response_from_buffer(len, (void*)body, MHD_RESPMEM_MUST_COPY);
  MHD_add_response_header(r, "Content-Type", mime);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  enum MHD_Result ret = MHD_queue_response(c, code, r);
  MHD_destroy_response(r);
  return ret;
}

static enum MHD_Result reply_json(struct MHD_Connection* c, unsigned code, json_t* j) {
  char* s = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  enum MHD_Result r = reply(c, code, "application/json", s ? s : "null", s ? strlen(s) : 4);
  free(s);
  return r;
}

static enum MHD_Result reply_err(struct MHD_Connection* c, unsigned code, const char* msg) {
  return reply_json(c, code, json_pack("{s:s}", "error", msg));
}

static enum MHD_Result reply_file(struct MHD_Connection* c, const char* path, const char* mime, const char* download) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);   /* a symlink planted in the cache is not served */
  struct stat st;
  if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    if (fd >= 0) close(fd);
    return reply_err(c, 404, "not found");
  }
  struct MHD_Response* r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
  MHD_add_response_header(r, "Content-Type", mime);
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  if (download) {
    char h[600];
    snprintf(h, sizeof h, "attachment; filename=\"%s\"", download);
    MHD_add_response_header(r, "Content-Disposition", h);
  }
  enum MHD_Result ret = MHD_queue_response(c, 200, r);
  MHD_destroy_response(r);
  return ret;
}

static const char* mime_of(const char* p) {
  const char* d = strrchr(p, '.');
  if (!d) return "application/octet-stream";
  if (!strcmp(d, ".html")) return "text/html; charset=utf-8";
  if (!strcmp(d, ".css")) return "text/css; charset=utf-8";
  if (!strcmp(d, ".js")) return "text/javascript; charset=utf-8";
  if (!strcmp(d, ".json")) return "application/json";
  if (!strcmp(d, ".png")) return "image/png";
  if (!strcmp(d, ".svg")) return "image/svg+xml";
  if (!strcmp(d, ".mp4")) return "video/mp4";
  if (!strcmp(d, ".csv")) return "text/csv; charset=utf-8";
  return "application/octet-stream";
}

/* ---------- takes: read only through the hardened reader ----------
 * take_open (takes/takefile.h) connects with SQLite's defensive settings (no views, no
 * triggers), gives every statement a work budget and checks the schema and every count: a take
 * whose meta or columns table is a recursive view is refused at once with one line, where the
 * raw SQL this file used to run spun a connection thread for ever, and the daemon, waiting for
 * it, never stopped (issue 29 finding 2). take_open notes each input in a process-wide list
 * (base/outfile.h) that is not thread-safe, so the connection threads take turns: g_take_lock,
 * held from reader_open to reader_close; the work budget bounds how long. */
static pthread_mutex_t g_take_lock = PTHREAD_MUTEX_INITIALIZER;

/* The take at abs (rel: as the request named it, for the message), or NULL and the reader's
 * refusal in err with the take named by rel. */
static take_reader* reader_open(const char* abs, const char* rel, char* err, size_t en) {
  pthread_mutex_lock(&g_take_lock);
  mt_err e = {0};
  take_reader* r = take_open(abs, &e);
  if (!r) {
    size_t al = strlen(abs);
    if (!strncmp(e.msg, abs, al)) snprintf(err, en, "%s%s", rel, e.msg + al);
    else snprintf(err, en, "%s: %s", rel, e.msg);
    pthread_mutex_unlock(&g_take_lock);
  }
  return r;
}

static void reader_close(take_reader* r) {
  take_close(r);
  pthread_mutex_unlock(&g_take_lock);
}

/* A take's id for the cache (issue 29 finding 7): its content key (take_content_key: the stored
 * chunk CRCs and every record), so a take rewritten in place under the same size and mtime is a
 * new take to the cache, and a copy elsewhere is the same one; with the file's device, inode and
 * inode-change time, for bytes flipped inside a chunk's data that keep its stored CRC: every
 * write sets the ctime, and no call sets it back (utimensat restores only the access and
 * modification times). 0, or -1 with the reader's refusal in err. */
static int take_id(take_reader* r, const char* abs, char* id, size_t n, char* err, size_t en) {
  char key[65];
  mt_err e = {0};
  struct stat st;
  if (take_content_key(r, key, &e) || stat(abs, &st)) {
    snprintf(err, en, "%s", e.msg[0] ? e.msg : "cannot stat the take");
    return -1;
  }
  snprintf(id, n, "take|%s|%llu|%llu|%lld.%09ld", key, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
           (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec);
  return 0;
}

/* Open, check and identify the take at abs in one go; -1 with the refusal in err. */
static int take_id_of(const char* abs, const char* rel, char* id, size_t n, char* err, size_t en) {
  take_reader* r = reader_open(abs, rel, err, en);
  if (!r) return -1;
  int bad = take_id(r, abs, id, n, err, en);
  reader_close(r);
  return bad;
}

/* `mototake take info --json` of the take, cached under its id. */
static json_t* take_info(const char* abs, const char* id) {
  char cf[4400];
  cache_name("info", id, "json", cf, sizeof cf);
  json_t* j = load_cached_json(cf);
  if (j || !cache_ok()) return j;
  const char* a[] = {"take", "info", abs, "--json"};
  static int counter;
  pthread_mutex_lock(&g_lock);
  int k = ++counter;
  pthread_mutex_unlock(&g_lock);
  char tmp[4500];
  snprintf(tmp, sizeof tmp, "%s.tmp%d", cf, k);   /* unique per request; renamed into place */
  if (run_self(a, 4, tmp, NULL, 60, 0, -1, NULL) != 0) {
    unlink(tmp);
    return NULL;
  }
  rename(tmp, cf);
  return load_cached_json(cf);
}

static void end_time(const char* abs, const char* id, char* out, size_t n) {   /* the last recorded moment, for --at */
  json_t* i = take_info(abs, id);
  double d = i ? json_number_value(json_object_get(i, "duration_s")) : 0;
  json_decref(i);
  snprintf(out, n, "%.3f", d > 0.01 ? d - 0.01 : 0);
}

static json_t* verify_status(const char* id) {
  char cf[4400];
  cache_name("verify", id, "json", cf, sizeof cf);
  return load_cached_json(cf);   /* NULL: not verified yet (this content never was) */
}

/* One take of the library: its info and verify status, or the reader's refusal as "error". */
static json_t* library_entry(const char* abs, const char* rel) {
  char id[200], err[1100];
  json_t* e = json_object();
  json_object_set_new(e, "path", json_string(rel));
  if (take_id_of(abs, rel, id, sizeof id, err, sizeof err)) {
    json_object_set_new(e, "info", json_null());
    json_object_set_new(e, "verify", json_null());
    json_object_set_new(e, "error", json_string(err));
    return e;
  }
  json_t* info = take_info(abs, id);
  json_object_set_new(e, "info", info ? info : json_null());
  json_t* v = verify_status(id);
  json_object_set_new(e, "verify", v ? v : json_null());
  return e;
}

static void walk(const char* dir, const char* rel, int depth, json_t* out) {
  if (depth > 5 || json_array_size(out) >= 2000) return;
  DIR* d = opendir(dir);
  if (!d) return;
  struct dirent* de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char p[8192], r[4096];
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
    struct stat st;
    if (lstat(p, &st)) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(p, r, depth + 1, out);
    } else {
      size_t L = strlen(de->d_name);
      if (L > 5 && !strcmp(de->d_name + L - 5, ".take")) {
        char abs[PATH_MAX];
        if (safe_path(r, abs, sizeof abs)) continue;   /* symlinks out of the root are left out */
        json_array_append_new(out, library_entry(abs, r));
      }
    }
  }
  closedir(d);
}

#define SV_MAX_EVENTS 5000   /* events listed on a take's page */

/* A take's channels and events (the first SV_MAX_EVENTS, as recorded), as the reader gives them. */
static json_t* take_detail(const take_reader* r) {
  const take_schema* s = take_schema_of(r);
  json_t* ch = json_array();
  for (int i = 0; i < s->nchan; i++)
    json_array_append_new(ch, json_pack("{s:s,s:s}", "name", s->chan_names[i], "units", s->chan_units[i]));
  json_t* ev = json_array();
  for (int i = 0; i < take_nevents(r) && i < SV_MAX_EVENTS; i++) {
    const take_event* e = take_event_at(r, i);
    json_error_t je;
    json_t* d = json_loads(e->json, 0, &je);
    json_array_append_new(ev, json_pack("{s:f,s:s,s:o}", "t", e->step * s->timestep, "kind", e->kind, "data", d ? d : json_null()));
  }
  return json_pack("{s:o,s:o}", "channels", ch, "events", ev);
}

/* ---------- rigs ---------- */

static int shipped(const char* folder, const char* name, char* out, size_t n) {
  if (!name || !name_ok(name, 60)) return -1;
  snprintf(out, n, "%s/%s/%s.lua", g_proj, folder, name);
  return access(out, R_OK);
}

/* The comment on the line defining a parameter: KEY's named parts are found in turn, each after
 * the previous one (a body, joint or contact by `name = "PART"` or `PART = {`, a field by
 * `PART =`), and the `--` comment on the last one's line is returned with the line number. "" when the chain cannot be followed. */
static const char* find_word(const char* from, const char* pat) {
  for (const char* s = from; (s = strstr(s, pat)); s++)
    if (s == from || !((s[-1] >= 'a' && s[-1] <= 'z') || (s[-1] >= 'A' && s[-1] <= 'Z') || (s[-1] >= '0' && s[-1] <= '9') ||
                       s[-1] == '_' || s[-1] == '.'))
      return s;
  return NULL;
}

static void param_comment(const char* src, const char* key, char* out, size_t n, int* line) {
  out[0] = 0;
  *line = 0;
  if (!src) return;
  const char* from = src;
  const char* limit = NULL;   /* a field must lie before the next named thing after its owner */
  const char* hit = NULL;
  const char* p = key;
  int named = 0;   /* the part is a name in a list (after bodies/joints/contacts) */
  while (*p) {
    const char* q = strchr(p, '.');
    size_t L = q ? (size_t)(q - p) : strlen(p);
    char part[64];
    if (L >= sizeof part) return;
    memcpy(part, p, L);
    part[L] = 0;
    p += L + (q ? 1 : 0);
    if (part[0] >= '0' && part[0] <= '9') continue;
    if (!strcmp(part, "bodies") || !strcmp(part, "joints") || !strcmp(part, "contacts") || !strcmp(part, "wheels")) {
      named = 1;
      continue;
    }
    if (!strcmp(part, "joint") || !strcmp(part, "tyre")) continue;
    char pat[96];
    const char* h = NULL;
    if (named) {
      snprintf(pat, sizeof pat, "name = \"%s\"", part);
      h = strstr(from, pat);
    }
    int anchor = h != NULL;
    if (!h) {
      snprintf(pat, sizeof pat, "%s =", part);
      h = find_word(from, pat);
    }
    if (!h) {
      snprintf(pat, sizeof pat, "%s=", part);
      h = find_word(from, pat);
    }
    if (h && !anchor && limit && h >= limit) h = NULL;
    if (anchor) limit = strstr(h + 1, "name = \"");
    named = 0;
    if (!h) {
      if (!*p) return;   /* the field itself is not written out: a default */
      continue;          /* a part the source does not spell out: keep looking for the next */
    }
    hit = h;
    from = h + 1;
  }
  if (!hit) return;
  const char* ls = hit;
  while (ls > src && ls[-1] != '\n') ls--;
  const char* le = strchr(hit, '\n');
  if (!le) le = hit + strlen(hit);
  const char* cm = NULL;
  for (const char* s = hit; s + 1 < le; s++)
    if (s[0] == '-' && s[1] == '-') {
      cm = s + 2;
      break;
    }
  for (const char* s = src; s < ls; s++)
    if (*s == '\n') (*line)++;
  (*line)++;
  if (!cm) return;
  while (*cm == ' ') cm++;
  snprintf(out, n, "%.*s", (int)(le - cm), cm);
}

/* The source a key's comment is looked for in: the rig, or the module it comes from. */
static const char* source_for(const char* key, char* const* srcs) {
  if (!strncmp(key, "engine.", 7) || !strncmp(key, "drivetrain.", 11)) return srcs[1] ? srcs[1] : srcs[0];
  if (!strncmp(key, "wheels.front.tyre.", 18)) return srcs[2] ? srcs[2] : srcs[0];
  if (!strncmp(key, "wheels.rear.tyre.", 17)) return srcs[3] ? srcs[3] : srcs[0];
  return srcs[0];
}

/* Collect the set=K=V query values (repeated keys) of a request. */
typedef struct qsets { const char* v[SV_MAX_SETS]; int n, bad; } qsets;
static enum MHD_Result collect_sets(void* cls, enum MHD_ValueKind kind, const char* key, const char* value) {
  qsets* q = cls;
  if (strcmp(key, "set")) return MHD_YES;
  if (!value || !*value) return MHD_YES;
  if (q->n >= SV_MAX_SETS || !set_ok(value)) q->bad = 1;
  else q->v[q->n++] = value;
  return MHD_YES;
}

static uint64_t sets_hash(const qsets* q, uint64_t h) {
  for (int i = 0; i < q->n; i++) h = fnv(q->v[i], fnv("&", h));
  return h;
}

/* ---------- jobs (ride this) ---------- */

/* The run's last progress line (base/progress.h): "T / TOTAL s" of the ride, or before the ride
 * starts, "LABEL  P%" of work it does first (the racer's practice laps, takes/practice.h). */
static void job_progress(sv_job* j) {
  char* s = slurp(j->errfile, 1 << 20);
  if (!s) return;
  char* last = NULL;
  for (char* p = s; (p = strstr(p, "] ")); p += 2) last = p;
  double t, tot, pct;
  char label[32];
  if (last && sscanf(last + 2, "%lf / %lf", &t, &tot) == 2) {
    j->t = t;
    j->total = tot;
    j->stage[0] = 0;
  } else if (last && sscanf(last + 2, "%31[a-z ]%lf%%", label, &pct) == 2) {
    size_t n = strlen(label);
    while (n > 0 && label[n - 1] == ' ') label[--n] = 0;
    snprintf(j->stage, sizeof j->stage, "%s", label);
    j->pct = pct;
  }
  free(s);
}

static void* job_thread(void* arg) {
  sv_job* j = arg;
  char script[4300];
  snprintf(script, sizeof script, "%s/takes/%s.lua", g_proj, j->script);
  const char* a[4 + 2 * SV_MAX_SETS + 4];
  int na = 0;
  a[na++] = "run";
  a[na++] = script;
  a[na++] = "-o";
  a[na++] = j->name;   /* in runs/, where the child starts (run_self) */
  int idx = (int)(j - g_jobs);
  for (int i = 0; i < SV_MAX_SETS && g_job_sets[idx][i]; i++) {
    a[na++] = "--set";
    a[na++] = g_job_sets[idx][i];
  }
  int rc = run_self(a, na, NULL, j->errfile, 3600, 1, j->dirfd, &j->pid);
  pthread_mutex_lock(&g_lock);
  job_progress(j);   /* the bar's last line: the simulated time and the script's duration */
  if (rc == 0) {
    j->state = 1;
    j->t = j->total;
  } else {
    j->state = 2;
    char line[512] = "";
    FILE* f = fopen(j->errfile, "r");
    if (f) {   /* the last line that is not the progress bar */
      char b[1024];
      while (fgets(b, sizeof b, f))
        if (!strstr(b, "real time")) snprintf(line, sizeof line, "%s", b);
      fclose(f);
    }
    line[strcspn(line, "\n")] = 0;
    snprintf(j->err, sizeof j->err, "%s", line[0] ? line : "mototake run failed");
    struct stat st;
    if (stat(j->take, &st) == 0 && st.st_size == 0) unlink(j->take);
  }
  close(j->dirfd);
  j->dirfd = -1;
  for (int i = 0; i < SV_MAX_SETS; i++) {
    free(g_job_sets[idx][i]);
    g_job_sets[idx][i] = NULL;
  }
  pthread_mutex_unlock(&g_lock);
  return NULL;
}
/* ---------- the header watchdog ----------
 * libmicrohttpd closes a connection after SV_IDLE_S without activity, but one that trickles a
 * byte of its headers every few seconds is never idle, and 64 of them held every slot. The
 * watchdog bounds the whole wait: a connection whose request has not reached the handler
 * SV_HEADER_S after it connected (or after its previous request ended) is shut down, and
 * libmicrohttpd then closes it. A slot lives from the STARTED to the CLOSED notification, which
 * libmicrohttpd gives before it closes the socket, so the descriptor shut down (under
 * g_slot_lock) is always that connection's own. */
typedef struct sv_slot { int used, waiting, fd; double deadline; } sv_slot;
static sv_slot g_slots[SV_MAX_CONN + 8];
static pthread_mutex_t g_slot_lock = PTHREAD_MUTEX_INITIALIZER;

static double mono_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void notify_conn(void* cls, struct MHD_Connection* c, void** socket_context, enum MHD_ConnectionNotificationCode code) {
  pthread_mutex_lock(&g_slot_lock);
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo* ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    for (int i = 0; ci && i < SV_MAX_CONN + 8; i++)
      if (!g_slots[i].used) {
        g_slots[i] = (sv_slot){1, 1, ci->connect_fd, mono_s() + SV_HEADER_S};
        *socket_context = &g_slots[i];
        break;
      }
  } else if (*socket_context) {
    ((sv_slot*)*socket_context)->used = 0;
    *socket_context = NULL;
  }
  pthread_mutex_unlock(&g_slot_lock);
}

/* The connection's request reached the handler (waiting 0), or ended (1: the next one's headers
 * are awaited from now). */
static void slot_waiting(struct MHD_Connection* c, int waiting) {
  const union MHD_ConnectionInfo* ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  sv_slot* sl = ci ? ci->socket_context : NULL;
  if (!sl) return;
  pthread_mutex_lock(&g_slot_lock);
  sl->waiting = waiting;
  sl->deadline = mono_s() + SV_HEADER_S;
  pthread_mutex_unlock(&g_slot_lock);
}

static void* watchdog(void* arg) {
  while (!g_stopping) {
    struct timespec ts = {0, 250000000};
    nanosleep(&ts, NULL);
    double now = mono_s();
    pthread_mutex_lock(&g_slot_lock);
    for (int i = 0; i < SV_MAX_CONN + 8; i++)
      if (g_slots[i].used && g_slots[i].waiting && now > g_slots[i].deadline) {
        shutdown(g_slots[i].fd, SHUT_RDWR);
        g_slots[i].waiting = 0;   /* once */
      }
    pthread_mutex_unlock(&g_slot_lock);
  }
  return NULL;
}

/* ---------- the request handler ---------- */

typedef struct conn { char* body; size_t len; int too_big; } conn;

static int token_ok(struct MHD_Connection* c) {
  const char* q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
  const char* k = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "mt_token");
  return (q && !strcmp(q, g_token)) || (k && !strcmp(k, g_token));
}

static const char* arg(struct MHD_Connection* c, const char* k) {
  return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, k);
}

/* ---------- the API: a table of routes, one handler each ---------- */

/* A request about one take the reader accepted (api_take): its path, content id and, for
 * "info", the reader's detail. */
typedef struct take_req {
  struct MHD_Connection* c;
  const char* method;
  const char *abs, *rel, *id;
  json_t* d;
} take_req;

/* /api/take/info: a take's details: the reader's view, the cached `take info` and verify verdict. */
static enum MHD_Result rt_take_info(take_req* q) {
  struct MHD_Connection* c = q->c;
  const char* abs = q->abs;
  const char* rel = q->rel;
  const char* id = q->id;
  json_t* d = q->d;
  json_t* i = take_info(abs, id);
  json_t* v = verify_status(id);
  json_object_set_new(d, "path", json_string(rel));
  json_object_set_new(d, "info", i ? i : json_null());
  json_object_set_new(d, "verify", v ? v : json_null());
  return reply_json(c, 200, d);
}

/* /api/take/verify: run `take verify` (POST) and cache its verdict. */
static enum MHD_Result rt_take_verify(take_req* q) {
  struct MHD_Connection* c = q->c;
  const char* abs = q->abs;
  const char* id = q->id;
  const char* method = q->method;
  char cf[4400];
  int post = !strcmp(method, "POST");
  if (!post) return reply_err(c, 405, "POST");
  if (!cache_ok()) return reply_err(c, 500, ".mototake-web is no longer the folder checked at start: refused");
  cache_name("verify", id, "json", cf, sizeof cf);
  char ef[4500], of[4500], tmp[4500];
  snprintf(ef, sizeof ef, "%s.err", cf);
  snprintf(of, sizeof of, "%s.out", cf);
  snprintf(tmp, sizeof tmp, "%s.tmp%lx", cf, (unsigned long)pthread_self());
  const char* a[] = {"take", "verify", abs};
  int rc = run_self(a, 3, of, ef, 1800, 0, -1, NULL);
  char line[512];
  first_line(rc == 0 ? of : ef, line, sizeof line);
  if (!line[0]) first_line(of, line, sizeof line);
  unlink(ef);
  unlink(of);
  json_t* res = json_pack("{s:b,s:s}", "ok", rc == 0, "message", line);
  int fd = fresh_file(tmp);   /* written aside and renamed: a symlink at cf is replaced, not followed */
  if (fd >= 0 && json_dumpfd(res, fd, 0) == 0 && close(fd) == 0) rename(tmp, cf);
  else {
    if (fd >= 0) close(fd);
    unlink(tmp);
  }
  return reply_json(c, 200, res);
}

/* A product of the take, made by one of this program's commands (args: its command line, without
 * -o) and cached under key and the take's content id; made on first request, then served (as a
 * download named dl when dl is not NULL). A command that fails answers fail_code with its first
 * error line. */
static enum MHD_Result take_product(take_req* q, const char* key, const char* ext, const char* const* args, int nargs,
                                    int timeout_s, unsigned fail_code, const char* dl) {
  int progress = !strcmp(key, "preview");   /* the one product long enough for a bar (/api/take/progress) */
  char cf[4400], err[512] = "";
  cache_name(key, q->id, ext, cf, sizeof cf);
  if (make_cached(cf, args, nargs, timeout_s, progress, err, sizeof err)) return reply_err(q->c, fail_code, err);
  return reply_file(q->c, cf, mime_of(cf), dl);
}

/* /api/take/thumb: the whole track with the path ridden, at the take's end. */
static enum MHD_Result rt_take_thumb(take_req* q) {
  char ats[32];
  end_time(q->abs, q->id, ats, sizeof ats);
  const char* a[] = {"render", q->abs, "--view", "track", "--at", ats, "--size", "320x240", "--hud", "off", "--quiet"};
  return take_product(q, "thumb", "png", a, 11, 300, 500, NULL);
}

/* /api/take/preview: a chase-view video of the take (without --quiet: its frame bar is the
 * progress /api/take/progress reports; its stdout summary goes nowhere). */
static enum MHD_Result rt_take_preview(take_req* q) {
  const char* a[] = {"render", q->abs, "--view", "chase", "--size", "480x270", "--fps", "15", "--speed", "2"};
  return take_product(q, "preview", "mp4", a, 10, 1800, 500, NULL);
}

/* /api/take/progress?what=preview: how far the take's MP4 preview is: {"state":"ready"} when it
 * is made, {"state":"making","done":D,"total":N} (frames) while a request makes it, else
 * {"state":"none"}. */
static enum MHD_Result rt_take_progress(take_req* q) {
  const char* what = arg(q->c, "what");
  if (!what || strcmp(what, "preview")) return reply_err(q->c, 400, "what: preview");
  char cf[4400];
  struct stat st;
  long done, n;
  cache_name("preview", q->id, "mp4", cf, sizeof cf);
  if (lstat(cf, &st) == 0 && S_ISREG(st.st_mode)) return reply_json(q->c, 200, json_pack("{s:s}", "state", "ready"));
  if (making_progress(cf, &done, &n))
    return reply_json(q->c, 200, json_pack("{s:s,s:I,s:I}", "state", "making", "done", (json_int_t)done, "total", (json_int_t)n));
  return reply_json(q->c, 200, json_pack("{s:s}", "state", "none"));
}

/* /api/take/data: CSV of picked channels at a rate. */
static enum MHD_Result rt_take_data(take_req* q) {
  struct MHD_Connection* c = q->c;
  const char* ch = arg(c, "channels");
  const char* rate = arg(c, "rate");
  double r = 100;
  if (!ch || !*ch || strlen(ch) > 2000) return reply_err(c, 400, "channels: expected a,b,c");
  for (const char* p = ch; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '.' || *p == ','))
      return reply_err(c, 400, "channels: names are [A-Za-z0-9_.] separated by commas");
  if (rate && (cli_parse_double(rate, &r) || !(r > 0 && r <= 1000))) return reply_err(c, 400, "rate: 0 < Hz <= 1000");
  char rs[32], key[2200];
  snprintf(rs, sizeof rs, "%g", r);
  snprintf(key, sizeof key, "data|%s|%s", ch, rs);
  const char* a[] = {"take", "channels", q->abs, "--channels", ch, "--rate", rs};
  return take_product(q, key, "csv", a, 7, 300, 400, NULL);
}

/* /api/take/download: the take itself, or its channels (CSV or MATLAB .mat, at 100 Hz), GLB or FBX. */
static enum MHD_Result rt_take_download(take_req* q) {
  struct MHD_Connection* c = q->c;
  const char* abs = q->abs;
  const char* f = arg(c, "format");
  const char* base = strrchr(abs, '/') + 1;
  char dn[600];
  if (!f || !strcmp(f, "take")) return reply_file(c, abs, "application/vnd.sqlite3", base);
  int chans = !strcmp(f, "csv") || !strcmp(f, "mat");
  if (!chans && strcmp(f, "glb") && strcmp(f, "fbx")) return reply_err(c, 400, "format: take, csv, mat, glb or fbx");
  snprintf(dn, sizeof dn, "%.*s.%s", (int)(strlen(base) - 5), base, f);
  const char* csv[] = {"take", "channels", abs, "--rate", "100"};
  const char* exp[] = {"export", abs};
  return chans ? take_product(q, f, f, csv, 5, 600, 500, dn) : take_product(q, f, f, exp, 2, 1800, 500, dn);
}

static const struct take_route { const char* what; enum MHD_Result (*fn)(take_req*); } TAKE_ROUTES[] = {
    {"info", rt_take_info},   {"verify", rt_take_verify},     {"thumb", rt_take_thumb},
    {"preview", rt_take_preview}, {"data", rt_take_data}, {"download", rt_take_download},
    {"progress", rt_take_progress},
};

/* /api/take/WHAT?path=REL: every product of a take, the take itself included, only once the
 * reader accepted it (issue 29); then the route of WHAT. */
static enum MHD_Result rt_take(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  char abs[PATH_MAX];
  const char* what = url + 10;
  const char* rel = arg(c, "path");
  if (safe_path(rel, abs, sizeof abs)) return reply_err(c, 404, "no such take under the root");
  /* every product of a take, the take itself included, only once the reader accepted it */
  char id[200], rerr[1100];
  take_reader* tr = reader_open(abs, rel, rerr, sizeof rerr);
  if (!tr) return reply_err(c, 422, rerr);
  json_t* d = !strcmp(what, "info") ? take_detail(tr) : NULL;
  int bad = take_id(tr, abs, id, sizeof id, rerr, sizeof rerr);
  reader_close(tr);
  if (bad) {
    json_decref(d);
    return reply_err(c, 422, rerr);
  }
  take_req q = {c, method, abs, rel, id, d};
  for (size_t k = 0; k < MT_ARRAY_LEN(TAKE_ROUTES); k++)
    if (!strcmp(what, TAKE_ROUTES[k].what)) return TAKE_ROUTES[k].fn(&q);
  json_decref(d);
  return reply_err(c, 404, "no such API");
}

/* /api/takes: the library, every take under the root with its reader's verdict. */
static enum MHD_Result rt_takes(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  json_t* a = json_array();
  walk(g_root, "", 0, a);
  return reply_json(c, 200, json_pack("{s:s,s:o}", "root", g_root, "takes", a));
}

/* /api/compare/plan?a=&b=: two takes' paths on the whole track. */
static enum MHD_Result rt_compare_plan(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  char abs[PATH_MAX];
  char err[512] = "";
  char cf[4400];
  char b[PATH_MAX], ida[200], idb[200];
  if (safe_path(arg(c, "a"), abs, sizeof abs) || safe_path(arg(c, "b"), b, sizeof b))
    return reply_err(c, 404, "no such take under the root");
  if (take_id_of(abs, arg(c, "a"), ida, sizeof ida, err, sizeof err) || take_id_of(b, arg(c, "b"), idb, sizeof idb, err, sizeof err))
    return reply_err(c, 422, err);
  char ats[32], key[400];
  end_time(abs, ida, ats, sizeof ats);
  snprintf(key, sizeof key, "cmp|%s", idb);
  cache_name(key, ida, "png", cf, sizeof cf);
  const char* a[] = {"render", abs, "--compare", b, "--view", "track", "--at", ats, "--size", "800x600", "--hud", "off", "--quiet"};
  if (make_cached(cf, a, 13, 300, 0, err, sizeof err)) return reply_err(c, 500, err);
  return reply_file(c, cf, "image/png", NULL);
}

/* /api/rigs: the shipped rigs and take scripts, and the saved override sets. */
static enum MHD_Result rt_rigs(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  json_t* rigs = json_array();
  json_t* scripts = json_array();
  json_t* saved = json_array();
  const char* rn[] = {"sport1000", "whipple_benchmark"};
  char p[4400];
  for (int i = 0; i < 2; i++)
    if (!shipped("rigs", rn[i], p, sizeof p)) json_array_append_new(rigs, json_string(rn[i]));
  snprintf(p, sizeof p, "%s/takes", g_proj);
  DIR* d = opendir(p);
  struct dirent* de;
  while (d && (de = readdir(d))) {
    size_t L = strlen(de->d_name);
    if (L > 4 && !strcmp(de->d_name + L - 4, ".lua") && de->d_name[0] != '.')
      json_array_append_new(scripts, json_stringn(de->d_name, L - 4));
  }
  if (d) closedir(d);
  char oerr[600];   /* saved sets are listed only from an overrides folder inside the root */
  int ofd = root_dir("overrides", 0, p, sizeof p, oerr, sizeof oerr);
  d = ofd >= 0 ? fdopendir(ofd) : NULL;
  if (ofd >= 0 && !d) close(ofd);
  while (d && (de = readdir(d))) {
    size_t L = strlen(de->d_name);
    if (L > 5 && !strcmp(de->d_name + L - 5, ".json") && de->d_name[0] != '.') {
      char f[8192];
      snprintf(f, sizeof f, "%s/%s", p, de->d_name);
      json_t* o = load_cached_json(f);   /* not through a symlink */
      if (o) {
        json_object_set_new(o, "file", json_sprintf("overrides/%s", de->d_name));
        json_array_append_new(saved, o);
      }
    }
  }
  if (d) closedir(d);
  return reply_json(c, 200, json_pack("{s:o,s:o,s:o}", "rigs", rigs, "scripts", scripts, "saved", saved));
}

/* A request about a shipped rig (rt_rig): its name, file and the overrides asked for. */
typedef struct rig_req {
  struct MHD_Connection* c;
  const char *rig, *rp;
  const qsets* q;
} rig_req;

/* /api/rig/params?rig=&set=...: every numeric parameter with its value, unit, comment and line. */
static enum MHD_Result rt_rig_params(const rig_req* r) {
  struct MHD_Connection* c = r->c;
  const char* rig = r->rig;
  const char* rp = r->rp;
  const qsets* q = r->q;
  char err[512] = "";
  char of[4500], ef[4500];
  if (!cache_ok()) return reply_err(c, 500, ".mototake-web is no longer the folder checked at start: refused");
  snprintf(of, sizeof of, "%s/params-%d-%lx.json", g_cache, (int)getpid(), (unsigned long)pthread_self());
  snprintf(ef, sizeof ef, "%s.err", of);
  const char* a[4 + 2 * SV_MAX_SETS];
  int na = 0;
  a[na++] = "rig";
  a[na++] = "info";
  a[na++] = rp;
  a[na++] = "--params";
  a[na++] = "--json";
  for (int i = 0; i < q->n; i++) {
    a[na++] = "--set";
    a[na++] = q->v[i];
  }
  int rc = run_self(a, na, of, ef, 60, 0, -1, NULL);
  first_line(ef, err, sizeof err);
  json_t* list = rc == 0 ? load_cached_json(of) : NULL;
  unlink(of);
  unlink(ef);
  if (!list) return reply_err(c, 400, err[0] ? err : "rig info failed");
  char* srcs[4] = {slurp(rp, 1 << 20), NULL, NULL, NULL};
  char mp[4400];
  snprintf(mp, sizeof mp, "%s/rigs/engine_gsxr1000.lua", g_proj);
  srcs[1] = slurp(mp, 1 << 20);
  snprintf(mp, sizeof mp, "%s/rigs/tyres/evangelou_120_70_zr17_front.lua", g_proj);
  srcs[2] = slurp(mp, 1 << 20);
  snprintf(mp, sizeof mp, "%s/rigs/tyres/evangelou_180_55_zr17_rear.lua", g_proj);
  srcs[3] = slurp(mp, 1 << 20);
  size_t i;
  json_t* p;
  json_array_foreach(list, i, p) {
    const char* k = json_string_value(json_object_get(p, "key"));
    if (!k) continue;
    char cm[400];
    int line;
    const char* src = source_for(k, srcs);
    param_comment(src, k, cm, sizeof cm, &line);
    if (cm[0]) json_object_set_new(p, "comment", json_string(cm));
    if (line) {
      const char* fn = src == srcs[0] ? strrchr(rp, '/') + 1 : src == srcs[1] ? "engine_gsxr1000.lua" : "tyres";
      json_object_set_new(p, "where", json_sprintf("%s:%d", fn, line));
    }
  }
  for (int k = 0; k < 4; k++) free(srcs[k]);
  return reply_json(c, 200, json_pack("{s:s,s:o}", "rig", rig, "params", list));
}

/* /api/rig/plot?rig=&kind=&set=...: a drawing or plot of the rig, cached. */
static enum MHD_Result rt_rig_plot(const rig_req* r) {
  struct MHD_Connection* c = r->c;
  const char* rp = r->rp;
  const qsets* q = r->q;
  char err[512] = "";
  char cf[4400];
  const char* kind = arg(c, "kind");
  if (!kind) kind = "draw";
  char key[128];
  snprintf(key, sizeof key, "plot|%s|%016llx", kind, (unsigned long long)sets_hash(q, 7));
  char rid[4600];
  file_id(rp, rid, sizeof rid);
  cache_name(key, rid, "png", cf, sizeof cf);
  const char* a[8 + 2 * SV_MAX_SETS];
  int na = 0;
  if (!strcmp(kind, "draw")) {
    a[na++] = "rig"; a[na++] = "draw"; a[na++] = rp; a[na++] = "--size"; a[na++] = "800x500";
  } else if (!strcmp(kind, "tyre_front") || !strcmp(kind, "tyre_rear")) {
    a[na++] = "plot"; a[na++] = "tyre"; a[na++] = rp; a[na++] = "--wheel"; a[na++] = kind + 5;
    a[na++] = "--quantity"; a[na++] = "fy"; a[na++] = "--size"; a[na++] = "800x560";
  } else if (!strcmp(kind, "engine")) {
    a[na++] = "plot"; a[na++] = "engine"; a[na++] = rp; a[na++] = "--size"; a[na++] = "800x560";
  } else if (!strcmp(kind, "gears")) {
    a[na++] = "plot"; a[na++] = "engine"; a[na++] = rp; a[na++] = "--kind"; a[na++] = "gears"; a[na++] = "--size"; a[na++] = "800x450";
  } else if (!strcmp(kind, "modes")) {
    a[na++] = "modes"; a[na++] = rp; a[na++] = "--speeds"; a[na++] = "10:70:5"; a[na++] = "--quiet";
  } else {
    return reply_err(c, 400, "kind: draw, tyre_front, tyre_rear, engine, gears or modes");
  }
  for (int i = 0; i < q->n; i++) {
    a[na++] = "--set";
    a[na++] = q->v[i];
  }
  if (make_cached(cf, a, na, 600, 0, err, sizeof err)) return reply_err(c, 400, err);
  return reply_file(c, cf, "image/png", NULL);
}

/* /api/rig/params and /api/rig/plot: the shipped rig and its overrides checked first. */
static enum MHD_Result rt_rig(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  char rp[4400];
  const char* rig = arg(c, "rig");
  if (shipped("rigs", rig, rp, sizeof rp)) return reply_err(c, 404, "no such shipped rig");
  qsets q = {0};
  MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_sets, &q);
  if (q.bad) return reply_err(c, 400, "set: expected KEY=NUMBER (at most 64)");
  rig_req r = {c, rig, rp, &q};
  return !strcmp(url, "/api/rig/params") ? rt_rig_params(&r) : rt_rig_plot(&r);
}

/* A POST whose body (a JSON object) and its "sets" were checked (rt_post). */
typedef struct post_req {
  struct MHD_Connection* c;
  json_t *b, *sets;   /* b owned by the handler */
} post_req;

/* /api/rig/save {name, rig, sets}: an override set saved under overrides/ in the root. */
static enum MHD_Result rt_rig_save(post_req* p) {
  struct MHD_Connection* c = p->c;
  json_t* b = p->b;
  json_t* sets = p->sets;
  char err[512] = "";
  const char* name = json_string_value(json_object_get(b, "name"));
  const char* rig = json_string_value(json_object_get(b, "rig"));
  char rp[4400], dir[4400], f[200];
  if (!name || !name_ok(name, 60) || shipped("rigs", rig, rp, sizeof rp)) {
    json_decref(b);
    return reply_err(c, 400, "name: [A-Za-z0-9_-]{1,60}; rig: a shipped rig");
  }
  int dfd = root_dir("overrides", 1, dir, sizeof dir, err, sizeof err);
  if (dfd < 0) {
    json_decref(b);
    return reply_err(c, 403, err);
  }
  snprintf(f, sizeof f, "%s.json", name);
  int fd = openat(dfd, f, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  int why = errno;
  if (fd < 0) {
    close(dfd);
    json_decref(b);
    return reply_err(c, 409, why == EEXIST ? "an override set of that name exists (never overwritten)" : "cannot create the file");
  }
  json_t* o = json_pack("{s:s,s:s,s:o}", "name", name, "rig", rig, "sets", sets ? json_incref(sets) : json_array());
  int bad = !o || json_dumpfd(o, fd, JSON_INDENT(2)) != 0;
  bad |= close(fd) != 0;
  json_decref(o);
  if (bad) unlinkat(dfd, f, 0);   /* a disk full or an I/O error leaves no half-written set behind */
  close(dfd);
  if (bad) {
    json_decref(b);
    return reply_err(c, 500, "could not write the override set");
  }
  json_t* r = json_pack("{s:s+}", "file", "overrides/", name);   /* before b (it owns name) goes */
  json_decref(b);
  return reply_json(c, 200, r);
}

/* /api/run {script, sets}: a job running a shipped take script into runs/ in the root. */
static enum MHD_Result rt_run(post_req* p) {
  struct MHD_Connection* c = p->c;
  json_t* b = p->b;
  json_t* sets = p->sets;
  char err[512] = "";
  const char* script = json_string_value(json_object_get(b, "script"));
  char sp[4400];
  if (shipped("takes", script, sp, sizeof sp)) {
    json_decref(b);
    return reply_err(c, 400, "script: the name of a shipped take script");
  }
  char dir[4400];
  int dfd = root_dir("runs", 1, dir, sizeof dir, err, sizeof err);
  if (dfd < 0 || !cache_ok()) {   /* the new take and the run's log: only inside the root */
    if (dfd >= 0) close(dfd);
    json_decref(b);
    return reply_err(c, 403, dfd < 0 ? err : ".mototake-web is no longer the folder checked at start: refused");
  }
  pthread_mutex_lock(&g_lock);
  int id = -1;
  for (int k = 0; k < SV_MAX_JOBS && id < 0; k++)
    if (!g_jobs[k].used) id = k;
  if (id < 0) {
    pthread_mutex_unlock(&g_lock);
    close(dfd);
    json_decref(b);
    return reply_err(c, 503, "too many runs");
  }
  sv_job* j = &g_jobs[id];
  memset(j, 0, sizeof *j);
  j->used = 1;
  snprintf(j->script, sizeof j->script, "%s", script);
  int fd = -1;
  for (int n = 1; n < 10000 && fd < 0; n++) {
    char f[200];
    snprintf(f, sizeof f, "%s-%d.take", script, n);
    snprintf(j->rel, sizeof j->rel, "runs/%s", f);
    snprintf(j->take, sizeof j->take, "/proc/self/fd/%d/%s", dfd, f);   /* the checked folder itself */
    snprintf(j->name, sizeof j->name, "%s", f);
    fd = openat(dfd, f, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);   /* reserve: never overwrite */
  }
  if (fd >= 0) close(fd);
  j->dirfd = dfd;   /* closed by the job's thread when the run ends */
  snprintf(j->errfile, sizeof j->errfile, "%s/job-%d-%d.err", g_cache, (int)getpid(), id);
  size_t i;
  json_t* s;
  json_array_foreach(sets, i, s) g_job_sets[id][i] = strdup(json_string_value(s));
  pthread_t th;
  int bad = fd < 0 || pthread_create(&th, NULL, job_thread, j);
  if (!bad) pthread_detach(th);
  else {
    j->used = 0;
    close(dfd);
  }
  pthread_mutex_unlock(&g_lock);
  json_decref(b);
  if (bad) return reply_err(c, 500, "cannot start the run");
  return reply_json(c, 200, json_pack("{s:i,s:s}", "job", id, "take", j->rel));
}

/* /api/rig/save and /api/run: POST only, the body a JSON object whose "sets" are KEY=NUMBER. */
static enum MHD_Result rt_post(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  int post = !strcmp(method, "POST");
  if (!post) return reply_err(c, 405, "POST");
  json_error_t je;
  json_t* b = json_loadb(cc->body ? cc->body : "", cc->len, 0, &je);
  if (!b || !json_is_object(b)) {
    json_decref(b);
    return reply_err(c, 400, "the body must be a JSON object");
  }
  json_t* sets = json_object_get(b, "sets");
  if (sets && (!json_is_array(sets) || json_array_size(sets) > SV_MAX_SETS)) {
    json_decref(b);
    return reply_err(c, 400, "sets: an array of at most 64 \"KEY=NUMBER\"");
  }
  size_t i;
  json_t* s;
  json_array_foreach(sets, i, s) if (!json_is_string(s) || !set_ok(json_string_value(s))) {
    json_decref(b);
    return reply_err(c, 400, "sets: each must be \"KEY=NUMBER\"");
  }
  post_req p = {c, b, sets};
  return !strcmp(url, "/api/rig/save") ? rt_rig_save(&p) : rt_run(&p);
}

/* /api/job?id=N: a run job's state and progress. */
static enum MHD_Result rt_job(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  const char* ids = arg(c, "id");
  long id;
  if (!ids || cli_parse_long(ids, &id) || id < 0 || id >= SV_MAX_JOBS || !g_jobs[id].used)
    return reply_err(c, 404, "no such job");
  pthread_mutex_lock(&g_lock);
  sv_job* j = &g_jobs[id];
  if (j->state == 0) job_progress(j);
  json_t* r = json_pack("{s:s,s:f,s:f,s:s,s:s,s:s,s:f}", "state", j->state == 0 ? "running" : j->state == 1 ? "done" : "failed",
                        "t", j->t, "total", j->total, "take", j->rel, "error", j->err, "stage", j->stage, "pct", j->pct);
  pthread_mutex_unlock(&g_lock);
  return reply_json(c, 200, r);
}

/* The routes: a path (or, with prefix, the start of one) and its handler. */
static const struct route {
  const char* path;
  int prefix;
  enum MHD_Result (*fn)(struct MHD_Connection* c, const char* url, const char* method, conn* cc);
} ROUTES[] = {
    {"/api/takes", 0, rt_takes},         {"/api/take/", 1, rt_take},   {"/api/compare/plan", 0, rt_compare_plan},
    {"/api/rigs", 0, rt_rigs},           {"/api/rig/params", 0, rt_rig}, {"/api/rig/plot", 0, rt_rig},
    {"/api/rig/save", 0, rt_post},       {"/api/run", 0, rt_post},     {"/api/job", 0, rt_job},
};

static enum MHD_Result api(struct MHD_Connection* c, const char* url, const char* method, conn* cc) {
  for (size_t k = 0; k < MT_ARRAY_LEN(ROUTES); k++)
    if (ROUTES[k].prefix ? !strncmp(url, ROUTES[k].path, strlen(ROUTES[k].path)) : !strcmp(url, ROUTES[k].path))
      return ROUTES[k].fn(c, url, method, cc);
  return reply_err(c, 404, "no such API");
}

static enum MHD_Result handler(void* cls, struct MHD_Connection* c, const char* url, const char* method,
                               const char* version, const char* upload, size_t* upload_size, void** con_cls) {
  conn* cc = *con_cls;
  if (!cc) {   /* the request's headers are in */
    slot_waiting(c, 0);
    cc = calloc(1, sizeof *cc);
    if (!cc) return MHD_NO;
    *con_cls = cc;
    return MHD_YES;
  }
  if (*upload_size) {   /* the body, in pieces; capped */
    if (cc->len + *upload_size > SV_BODY_MAX) cc->too_big = 1;
    else {
      char* nb = realloc(cc->body, cc->len + *upload_size + 1);
      if (!nb) return MHD_NO;
      cc->body = nb;
      memcpy(cc->body + cc->len, upload, *upload_size);
      cc->len += *upload_size;
      cc->body[cc->len] = 0;
    }
    *upload_size = 0;
    return MHD_YES;
  }
  if (cc->too_big) return reply_err(c, 413, "request body larger than 64 KiB");
  if (strcmp(method, "GET") && strcmp(method, "POST") && strcmp(method, "HEAD"))
    return reply_err(c, 405, "GET or POST");
  if (!token_ok(c)) return reply_err(c, 403, "missing or wrong token (use the URL printed by mototake serve)");
  if (!strncmp(url, "/api/", 5)) return api(c, url, method, cc);
  /* static pages from web/: plain names only */
  const char* rel = url[0] == '/' ? url + 1 : url;
  if (!*rel) rel = "index.html";
  size_t L = strlen(rel);
  if (L > 100) return reply_err(c, 404, "not found");
  for (const char* p = rel; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
      return reply_err(c, 404, "not found");
  if (rel[0] == '.' || strstr(rel, "..")) return reply_err(c, 404, "not found");
  char p[4400];
  snprintf(p, sizeof p, "%s/%s", g_web, rel);
  int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    if (fd >= 0) close(fd);
    return reply_err(c, 404, "not found");
  }
  struct MHD_Response* r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
  MHD_add_response_header(r, "Content-Type", mime_of(p));
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "Content-Security-Policy", "default-src 'self'; img-src 'self' blob:; media-src 'self'");
  char ck[128];
  snprintf(ck, sizeof ck, "mt_token=%s; Path=/; HttpOnly; SameSite=Strict", g_token);
  MHD_add_response_header(r, "Set-Cookie", ck);
  enum MHD_Result ret = MHD_queue_response(c, 200, r);
  MHD_destroy_response(r);
  return ret;
}

static void completed(void* cls, struct MHD_Connection* c, void** con_cls, enum MHD_RequestTerminationCode t) {
  slot_waiting(c, 1);
  conn* cc = *con_cls;
  if (cc) {
    free(cc->body);
    free(cc);
  }
  *con_cls = NULL;
}

int cmd_serve(int argc, char** argv) {
  cli c;
  mt_err e = {0};
  cli_init(&c, "serve");
  cli_arg(&c, "port");
  cli_arg(&c, "root");
  cli_arg(&c, "listen");
  if (cli_parse(&c, argc, argv, 0, 0, &e)) return cli_report(&e);
  if (c.help) return 0;
  long port;
  if (cli_int(&c, "port", 29176, 1, 65535, &port, &e)) return cli_report(&e);
  const char* root = cli_str(&c, "root", ".");
  struct stat st;
  if (!realpath(root, g_root) || stat(g_root, &st) || !S_ISDIR(st.st_mode)) {
    mt_fail(&e, MT_EINPUT, "serve: --root: '%s' is not a folder", root);
    return cli_report(&e);
  }
  const char* listen = cli_str(&c, "listen", "127.0.0.1");
  struct sockaddr_in sa = {0};
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  if (inet_pton(AF_INET, listen, &sa.sin_addr) != 1) {
    mt_fail(&e, MT_EINPUT, "serve: --listen: expected an IPv4 address, got '%s'", listen);
    return cli_report(&e);
  }
  snprintf(g_proj, sizeof g_proj, "%s", luabox_project_root());
  snprintf(g_web, sizeof g_web, "%s/web", g_proj);
  ssize_t n = readlink("/proc/self/exe", g_exe, sizeof g_exe - 1);
  if (n <= 0) return cli_report(&(mt_err){MT_EINTERNAL, "serve: cannot find this program's path"});
  g_exe[n] = 0;
  struct stat xst = {0};
  stat(g_exe, &xst);
  snprintf(g_build, sizeof g_build, "build|%lld|%lld.%09ld|", (long long)xst.st_size, (long long)xst.st_mtim.tv_sec, (long)xst.st_mtim.tv_nsec);
  char cerr[600];   /* the cache folder: created, or a folder (or a symlink to one) inside the root */
  int cfd = root_dir(".mototake-web", 1, g_cache_real, sizeof g_cache_real, cerr, sizeof cerr);
  if (cfd < 0) {
    mt_fail(&e, MT_EINPUT, "serve: --root: %s/%s", g_root, cerr);
    return cli_report(&e);
  }
  /* pinned for the server's life and inherited by its children (see g_cache_real) */
  if (fcntl(cfd, F_SETFD, 0) != 0) return cli_report(&(mt_err){MT_EINTERNAL, "serve: cannot hold the cache folder open"});
  snprintf(g_cache, sizeof g_cache, "/proc/self/fd/%d", cfd);
  unsigned char rnd[16];
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || read(fd, rnd, 16) != 16) return cli_report(&(mt_err){MT_EINTERNAL, "serve: cannot read /dev/urandom"});
  close(fd);
  for (int i = 0; i < 16; i++) snprintf(g_token + 2 * i, 3, "%02x", rnd[i]);
  signal(SIGPIPE, SIG_IGN);
  /* SIGINT and SIGTERM are taken by this thread alone, by sigwait below: blocked here, before the
   * daemon starts its threads, which inherit the mask. With a handler and pause() instead, a
   * signal delivered to a connection thread set the flag there and left this thread in pause()
   * for ever (seen under valgrind: `serve` did not stop on SIGTERM). Children unblock them again
   * (run_self). */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);
  struct MHD_Daemon* d =
      MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, (uint16_t)port, NULL, NULL,
                       handler, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr*)&sa, MHD_OPTION_NOTIFY_COMPLETED, completed,
                       NULL, MHD_OPTION_NOTIFY_CONNECTION, notify_conn, NULL, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_CONNECTION_LIMIT,
                       (unsigned)SV_MAX_CONN, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SV_IDLE_S, MHD_OPTION_END);
  if (!d) {
    mt_fail(&e, MT_EINPUT, "serve: cannot listen on %s:%ld (in use?)", listen, port);
    return cli_report(&e);
  }
  pthread_t wd;
  if (pthread_create(&wd, NULL, watchdog, NULL)) {
    MHD_stop_daemon(d);
    return cli_report(&(mt_err){MT_EINTERNAL, "serve: cannot start the header watchdog"});
  }
  if (strcmp(listen, "127.0.0.1"))
    fprintf(stderr, "mototake: warning: serving on %s, not loopback: anyone who can reach it and has the token can "
                    "read the takes under %s and run the simulator\n", listen, g_root);
  printf("mototake serve: takes under %s\n  http://%s:%ld/?token=%s\n(Ctrl-C stops)\n", g_root,
         strcmp(listen, "0.0.0.0") ? listen : "127.0.0.1", port, g_token);
  fflush(stdout);
  int sig;
  while (sigwait(&stop, &sig) != 0) {
  }
  g_stopping = 1;   /* MHD_stop_daemon joins every connection thread: their children go first */
  pthread_join(wd, NULL);
  MHD_stop_daemon(d);
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < SV_MAX_JOBS; i++)
    if (g_jobs[i].used && g_jobs[i].state == 0 && g_jobs[i].pid > 0) kill(g_jobs[i].pid, SIGTERM);
  pthread_mutex_unlock(&g_lock);
  return 0;
}
