/* takejournal.c — whose journal is it (see takejournal.h). The rollback-journal layout is
 * SQLite's documented file format (https://www.sqlite.org/fileformat2.html, "The Rollback
 * Journal"): a header of 8 magic bytes, then big-endian u32s: record count, checksum nonce,
 * original page count, sector size, page size; records start one sector in, each the page
 * number, the page's original bytes and a checksum (the nonce plus every 200th byte). */
#include "takes/takejournal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char JOURNAL_MAGIC[8] = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};

static uint32_t be32(const unsigned char* p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static int pow2_in(uint32_t v, uint32_t lo, uint32_t hi) { return v >= lo && v <= hi && (v & (v - 1)) == 0; }

/* exactly n bytes at off, or -1 */
static int read_at(int fd, off_t off, void* buf, size_t n) {
  return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

typedef struct jhead { uint32_t nrec, nonce, norig, sector, page; } jhead;

/* The take's page size, page count and application_id from its header (page 1). */
static int take_facts(const char* take, uint32_t* page, uint64_t* npages, uint32_t* appid) {
  int fd = open(take, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  unsigned char h[100];
  struct stat st;
  int bad = read_at(fd, 0, h, sizeof h) || fstat(fd, &st) != 0;
  close(fd);
  if (bad) return -1;
  uint32_t ps = (uint32_t)h[16] << 8 | h[17];
  *page = ps == 1 ? 65536 : ps;
  *npages = *page ? (uint64_t)st.st_size / *page : 0;
  *appid = be32(h + 68);
  return 0;
}

/* SQLite's record checksum: the nonce plus the bytes at page-200, page-400, … (> 0). */
static uint32_t record_sum(uint32_t nonce, const unsigned char* data, uint32_t page) {
  uint32_t s = nonce;
  for (int i = (int)page - 200; i > 0; i -= 200) s += data[i];
  return s;
}

/* Judge the first record (the only one the proof needs). */
static int judge_first(int fd, const jhead* jh, off_t size, const char* take, char* why, size_t n) {
  uint32_t tpage, tappid;
  uint64_t tpages;
  if (take_facts(take, &tpage, &tpages, &tappid))
    return snprintf(why, n, "the take's header cannot be read"), TJ_FOREIGN;
  if (jh->page != tpage)
    return snprintf(why, n, "its page size %u is not the take's %u", jh->page, tpage), TJ_FOREIGN;
  uint64_t rec = 8 + (uint64_t)jh->page;
  /* records SQLite would play back: counted in the header, or (0xffffffff, unsynced) by size */
  uint64_t nrec = jh->nrec == 0xffffffffu ? ((uint64_t)size - jh->sector) / rec : jh->nrec;
  int have = nrec > 0 && (uint64_t)size >= jh->sector + rec;
  unsigned char* r = have ? malloc(rec) : NULL;
  if (have && (!r || read_at(fd, jh->sector, r, rec))) have = 0;
  int valid = have && be32(r + 4 + jh->page) == record_sum(jh->nonce, r + 4, jh->page);
  int k;
  if (!valid) {   /* SQLite would only set the file's length back to the original page count */
    k = jh->norig == tpages ? TJ_OWN : TJ_FOREIGN;
    if (k == TJ_FOREIGN)
      snprintf(why, n, "it holds no page and would cut the take from %llu to %u pages", (unsigned long long)tpages, jh->norig);
  } else if (be32(r) != 1) {
    k = TJ_FOREIGN;
    snprintf(why, n, "its first page is %u, not page 1 with the take's identity", be32(r));
  } else if (tappid == 0) {   /* written before takes carried an identity */
    k = TJ_FOREIGN;
    snprintf(why, n, "the take has no application id to prove it by");
  } else if (be32(r + 4 + 68) != tappid) {
    k = TJ_FOREIGN;
    snprintf(why, n, "its page 1 has application id %08x, the take's is %08x", be32(r + 4 + 68), tappid);
  } else {
    k = TJ_OWN;
  }
  free(r);
  return k;
}

int take_journal_judge(const char* take, const char* journal, char* why, size_t n) {
  if (n) why[0] = 0;
  int fd = open(journal, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return TJ_NONE;
    return snprintf(why, n, "it cannot be read: %s", strerror(errno)), TJ_FOREIGN;
  }
  struct stat st;
  unsigned char h[28];
  int k;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    k = TJ_FOREIGN;
    snprintf(why, n, "it is not a regular file");
  } else if (st.st_size == 0 || read_at(fd, 0, h, 1) || h[0] == 0) {
    k = TJ_INERT;   /* SQLite: not hot */
  } else if (read_at(fd, 0, h, sizeof h) || memcmp(h, JOURNAL_MAGIC, 8) != 0) {
    k = TJ_INERT;   /* SQLite stops at a header it does not recognise, before changing anything */
  } else {
    jhead jh = {be32(h + 8), be32(h + 12), be32(h + 16), be32(h + 20), be32(h + 24)};
    if (!pow2_in(jh.sector, 32, 65536) || !pow2_in(jh.page, 512, 65536)) {   /* SQLite: "malformed" */
      k = TJ_FOREIGN;
      snprintf(why, n, "its header has sector size %u and page size %u", jh.sector, jh.page);
    } else {
      k = judge_first(fd, &jh, st.st_size, take, why, n);
    }
  }
  close(fd);
  return k;
}
