/* outfile.c — the output rule (see outfile.h). */
#include "base/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*---- the inputs of this process ----*/

typedef struct { dev_t dev; ino_t ino; } file_id;
static file_id* inputs;
static int ninputs, cap_inputs;

void outfile_note_input(const char* path) {
  struct stat st;
  if (!path || stat(path, &st) != 0) return;
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) return;
  if (ninputs == cap_inputs) inputs = mt_realloc(inputs, sizeof *inputs * (size_t)(cap_inputs = cap_inputs ? 2 * cap_inputs : 16));
  inputs[ninputs++] = (file_id){st.st_dev, st.st_ino};
}

void outfile_forget_input(const char* path) {
  struct stat st;
  if (!path || stat(path, &st) != 0) return;
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) inputs[i--] = inputs[--ninputs];
}

static int is_input(const struct stat* st) {
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) return 1;
  return 0;
}

static const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISLNK(m)) return "a symbolic link";
  return "not a regular file";
}

int outfile_check(const char* path, mt_err* e) {
  if (!path || !path[0]) return mt_fail(e, MT_EINPUT, "output path is empty; refusing to write");
  size_t n = strlen(path);
  if (n >= 4000) return mt_fail(e, MT_EINPUT, "%.60s...: output path too long", path);
  if (path[n - 1] == '/') return mt_fail(e, MT_EINPUT, "%s: output is a directory; refusing to write", path);
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return MT_OK;
    return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  }
  if (!S_ISREG(st.st_mode))
    return mt_fail(e, MT_EINPUT, "%s: output is %s, not a regular file; refusing to replace it", path, kind_of(st.st_mode));
  if (is_input(&st))
    return mt_fail(e, MT_EINPUT, "%s: output is also an input of this command; refusing to overwrite it", path);
  return MT_OK;
}

/*---- stale temporaries ----*/

static void split(const char* path, char* dir, size_t nd, const char** base) {
  const char* slash = strrchr(path, '/');
  if (slash) {
    snprintf(dir, nd, "%.*s", (int)(slash - path) ? (int)(slash - path) : 1, path);
    *base = slash + 1;
  } else {
    snprintf(dir, nd, ".");
    *base = path;
  }
}

/* Visit every "PATH.tmpN" (and "PATH.tmpN-journal") of another process N beside path: fn gets
 * the folder, the entry's name, N, whether it is a journal, and the process's liveness. */
typedef void (*temp_fn)(const char* dir, const char* name, long pid, int journal, int alive, void* data);
static void each_temporary(const char* path, temp_fn fn, void* data) {
  char dir[4096];
  const char* base;
  split(path, dir, sizeof dir, &base);
  size_t nb = strlen(base);
  if (nb == 0) return;
  DIR* d = opendir(dir);
  if (!d) return;
  struct dirent* de;
  while ((de = readdir(d))) {
    const char* nm = de->d_name;
    if (strncmp(nm, base, nb) != 0 || strncmp(nm + nb, ".tmp", 4) != 0) continue;
    const char* p = nm + nb + 4;
    if (*p < '1' || *p > '9') continue;
    char* end;
    long pid = strtol(p, &end, 10);
    int journal = *end != 0;
    if (journal && strcmp(end, "-journal") != 0) continue;
    if (pid <= 0 || pid == (long)getpid() || pid > 0x7fffffffL) continue;
    int alive = kill((pid_t)pid, 0) == 0 || errno != ESRCH;   /* its writer may still be running */
    fn(dir, nm, pid, journal, alive, data);
  }
  closedir(d);
}

static void remove_dead(const char* dir, const char* name, long pid, int journal, int alive, void* data) {
  (void)pid, (void)journal;
  if (alive) return;
  char full[8192];
  snprintf(full, sizeof full, "%s/%s", dir, name);
  struct stat st;
  if (lstat(full, &st) == 0 && S_ISREG(st.st_mode) && unlink(full) == 0) ++*(int*)data;
}

int outfile_clean_stale(const char* path) {
  int removed = 0;
  each_temporary(path, remove_dead, &removed);
  return removed;
}

typedef struct writers { long below; int n; } writers;
static void count_live(const char* dir, const char* name, long pid, int journal, int alive, void* data) {
  (void)dir, (void)name;
  writers* w = data;
  if (!journal && alive && (w->below <= 0 || pid < w->below)) w->n++;
}

int outfile_other_writers(const char* path, long below_pid) {
  writers w = {below_pid, 0};
  each_temporary(path, count_live, &w);
  return w.n;
}

/*---- interrupted writers ----*/

/* The temporaries being written, so SIGINT, SIGTERM and SIGHUP remove them before the process
 * dies (kill -9 cannot be caught: the next outfile_open cleans those). A new take already
 * published at its path is not listed: it stays, readable and marked incomplete. */
#define ACTIVE_MAX 16
static char active_name[ACTIVE_MAX][2][4300];   /* the temporary and its SQLite journal */
static volatile sig_atomic_t active_used[ACTIVE_MAX];

static void on_signal(int sig) {
  for (int i = 0; i < ACTIVE_MAX; i++)
    if (active_used[i]) {
      unlink(active_name[i][0]);
      unlink(active_name[i][1]);
    }
  signal(sig, SIG_DFL);
  raise(sig);
}

static int active_add(const char* tmp) {
  static int installed;
  if (!installed) {
    installed = 1;
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
      struct sigaction old, sa;
      memset(&sa, 0, sizeof sa);
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      /* only where nobody chose otherwise (an ignored SIGHUP under nohup stays ignored) */
      if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(sigs[k], &sa, NULL);
    }
  }
  for (int i = 0; i < ACTIVE_MAX; i++)
    if (!active_used[i]) {
      snprintf(active_name[i][0], sizeof active_name[i][0], "%s", tmp);
      snprintf(active_name[i][1], sizeof active_name[i][1], "%s-journal", tmp);
      active_used[i] = 1;
      return i;
    }
  return -1;   /* more at once than we track: the next outfile_open cleans it after a signal */
}

static void active_drop(outfile* o) {
  if (o->slot >= 0 && o->slot < ACTIVE_MAX) active_used[o->slot] = 0;
  o->slot = -1;
}

/*---- writing ----*/

int outfile_open(outfile* o, const char* path, int mode, mt_err* e) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->slot = -1;
  if (outfile_check(path, e)) return e->code;
  snprintf(o->path, sizeof o->path, "%s", path);
  o->mode = mode;
  outfile_clean_stale(path);
  mt_tmp_name(o->tmp, sizeof o->tmp, path);
  unlink(o->tmp);   /* our own pid's name: a leftover of an earlier process with this pid */
  int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  o->fd = fd;
  o->active = 1;
  o->slot = active_add(o->tmp);
  return MT_OK;
}

int outfile_publish(outfile* o) {
  if (!o->active || o->inplace || o->mode != OUTFILE_INPLACE_IF_ABSENT) return 0;
  if (o->fd >= 0 && fsync(o->fd) != 0) return 0;
  /* link() never replaces: if anything appeared at the path meanwhile, stay a temporary */
  if (link(o->tmp, o->path) != 0) return 0;
  active_drop(o);   /* from now on a signal leaves it: a readable incomplete take */
  unlink(o->tmp);
  snprintf(o->tmp, sizeof o->tmp, "%s", o->path);
  o->inplace = 1;
  return 1;
}

int outfile_write(outfile* o, const void* data, size_t len, mt_err* e) {
  const char* p = data;
  while (len) {
    ssize_t w = write(o->fd, p, len);
    if (w < 0) {
      if (errno == EINTR) continue;
      return mt_fail(e, MT_EINPUT, "%s: write failed: %s", o->path, strerror(errno));
    }
    p += w;
    len -= (size_t)w;
  }
  return MT_OK;
}

void outfile_abort(outfile* o) {
  if (!o->active) return;
  if (o->fd >= 0) close(o->fd);
  o->fd = -1;
  unlink(o->tmp);
  active_drop(o);
  o->active = 0;
}

int outfile_commit(outfile* o, mt_err* e) {
  if (!o->active) return mt_fail(e, MT_EINTERNAL, "%s: commit without open", o->path);
  int fd = o->fd >= 0 ? o->fd : open(o->tmp, O_RDONLY | O_CLOEXEC);
  int bad = fd < 0 || fsync(fd) != 0;
  int er = errno;
  if (fd >= 0 && close(fd) != 0 && !bad) bad = 1, er = errno;
  o->fd = -1;
  if (bad) {
    outfile_abort(o);
    return mt_fail(e, MT_EINPUT, "%s: write failed: %s", o->path, strerror(er));
  }
  if (!o->inplace) {
    if (outfile_check(o->path, e)) {   /* something else appeared at the target meanwhile */
      outfile_abort(o);
      return e->code;
    }
    if (rename(o->tmp, o->path) != 0) {
      er = errno;
      outfile_abort(o);
      return mt_fail(e, MT_EINPUT, "%s: cannot rename into place: %s", o->path, strerror(er));
    }
  }
  active_drop(o);
  o->active = 0;
  char dir[4096];
  const char* base;
  split(o->path, dir, sizeof dir, &base);
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);   /* make the rename durable */
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  return MT_OK;
}

int outfile_write_all(const char* path, const void* data, size_t len, mt_err* e) {
  outfile o;
  if (outfile_open(&o, path, OUTFILE_TEMP, e)) return e->code;
  if (outfile_write(&o, data, len, e)) {
    outfile_abort(&o);
    return e->code;
  }
  return outfile_commit(&o, e);
}

/*---- whole files: an input read (and noted), an output written under the rule ----*/

char* mt_read_file(const char* path, size_t* len, mt_err* e) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, MT_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  outfile_note_input(path);   /* an input is never an output (outfile_check) */
  size_t cap = 4096, n = 0;
  char* buf = mt_alloc(cap);
  for (;;) {
    if (n + 1 >= cap) buf = mt_realloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
    if (n > MT_READ_MAX) {   /* /dev/zero, a runaway generated file: refuse, do not eat memory */
      fclose(f);
      free(buf);
      mt_fail(e, MT_EINPUT, "%s: larger than %d MiB (not a source file?)", path, MT_READ_MAX >> 20);
      return NULL;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    mt_fail(e, MT_EINPUT, "%s: read error", path);
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

int mt_write_file_atomic(const char* path, const void* data, size_t len, mt_err* e) {
  return outfile_write_all(path, data, len, e);
}
