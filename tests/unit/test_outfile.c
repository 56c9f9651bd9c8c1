/* test_outfile.c — the output rule (base/outfile.h): the old file is kept until commit, abort and
 * failures leave it byte for byte, non-regular targets and inputs are refused, stale temporaries
 * of dead processes are removed and a live one's kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/outfile.h"
#include "tests/unit/test.h"

static const char* op(const char* name) {
  static char buf[4][4096];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/outfile_%s", mt_test_tmpdir(), name);
  return buf[k];
}

/* Read with stdio, not mt_read_file: that would note the file as an input of this process. */
static int file_is(const char* path, const char* text) {
  char d[256];
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(d, 1, sizeof d, f);
  fclose(f);
  return n == strlen(text) && memcmp(d, text, n) == 0;
}

static int write_text(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

MT_TEST(outfile_keeps_the_old_file_until_commit) {
  const char* p = op("keep.txt");
  CHECK(write_text(p, "old") == 0);
  mt_err e = {0};
  outfile o;
  CHECK(outfile_open(&o, p, OUTFILE_TEMP, &e) == MT_OK);
  CHECK(strcmp(o.tmp, p) != 0);
  CHECK(outfile_write(&o, "new content", 11, &e) == MT_OK);
  CHECK(file_is(p, "old"));               /* written, not yet committed */
  outfile_abort(&o);
  CHECK(file_is(p, "old"));               /* aborted: the old file as it was */
  CHECK(access(o.tmp, F_OK) != 0);        /* and no temporary */
  CHECK(outfile_open(&o, p, OUTFILE_TEMP, &e) == MT_OK);
  CHECK(outfile_write(&o, "new", 3, &e) == MT_OK);
  CHECK(outfile_commit(&o, &e) == MT_OK);
  CHECK(file_is(p, "new"));
  CHECK(access(o.tmp, F_OK) != 0);
}

MT_TEST(outfile_refuses_non_regular_targets_and_inputs) {
  mt_err e = {0};
  const char* d = op("dir");
  CHECK(mkdir(d, 0755) == 0);
  CHECK(outfile_check(d, &e) == MT_EINPUT && strstr(e.msg, "is a directory"));
  const char* f = op("fifo");
  CHECK(mkfifo(f, 0644) == 0);
  mt_err_clear(&e);
  CHECK(outfile_check(f, &e) == MT_EINPUT && strstr(e.msg, "is a FIFO"));
  const char* t = op("target.txt");
  const char* l = op("link.txt");
  CHECK(write_text(t, "target") == 0);
  CHECK(symlink(t, l) == 0);
  mt_err_clear(&e);
  CHECK(outfile_check(l, &e) == MT_EINPUT && strstr(e.msg, "symbolic link"));
  mt_err_clear(&e);
  CHECK(outfile_check("", &e) == MT_EINPUT && strstr(e.msg, "empty"));
  /* an input (read through mt_read_file) is refused by any name */
  const char* in = op("input.txt");
  const char* hard = op("hard.txt");
  CHECK(write_text(in, "input") == 0);
  CHECK(link(in, hard) == 0);
  mt_err_clear(&e);
  CHECK(outfile_check(in, &e) == MT_OK);   /* not read yet */
  free(mt_read_file(in, NULL, &e));
  CHECK(outfile_check(in, &e) == MT_EINPUT && strstr(e.msg, "also an input"));
  mt_err_clear(&e);
  CHECK(outfile_write_all(hard, "x", 1, &e) == MT_EINPUT);
  CHECK(file_is(in, "input"));
  CHECK(access(l, F_OK) == 0 && file_is(t, "target"));
}

MT_TEST(outfile_removes_stale_temporaries_of_dead_processes) {
  const char* p = op("stale.png");
  pid_t child = fork();
  if (child == 0) _exit(0);
  CHECK(child > 0);
  waitpid(child, NULL, 0);   /* a pid that no longer runs */
  char dead[4200], deadj[4300], live[4200];
  snprintf(dead, sizeof dead, "%s.tmp%ld", p, (long)child);
  snprintf(deadj, sizeof deadj, "%s-journal", dead);
  snprintf(live, sizeof live, "%s.tmp%ld", p, (long)getppid());   /* alive: our parent */
  CHECK(write_text(dead, "half") == 0 && write_text(deadj, "j") == 0 && write_text(live, "live") == 0);
  mt_err e = {0};
  CHECK(outfile_write_all(p, "png", 3, &e) == MT_OK);
  CHECK(access(dead, F_OK) != 0 && access(deadj, F_OK) != 0);
  CHECK(access(live, F_OK) == 0);
  CHECK(file_is(p, "png"));
}
