/* frames.c — PNG and MP4 output with an encoding worker thread (see frames.h). The MP4 path
 * follows the shape of FFmpeg's doc/examples (mux.c, encode_video.c): allocate, configure,
 * open, send, receive, flush, free, every return code checked. */
#include "render/frames.h"
#include "base/dynlib.h"
#include "base/outfile.h"

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

struct fo_sink {
  int kind, w, h;
  double fps;
  char path[4096], tmp[4200];
  int nbuf;                     /* the ring: frame i is drawn into buf[i % nbuf] */
  unsigned char* buf[FO_MAX_BUF];
  int full[FO_MAX_BUF];
  long nsub, ndone, nwritten;   /* submitted, processed (frames 0..ndone−1), written successfully */
  pthread_t th;
  int started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int quit, failed;
  mt_err werr;
  double busy;
  /* MP4 */
  AVFormatContext* oc;
  AVStream* st;
  AVCodecContext* c;
  AVFrame* frame;
  AVPacket* pkt;
  struct SwsContext* sws;
  int header_written;
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One %d (optionally %0Nd) and no other % conversion. */
static int one_int_pattern(const char* p) {
  int n = 0;
  for (const char* q = p; *q; q++) {
    if (*q != '%') continue;
    q++;
    while (*q >= '0' && *q <= '9') q++;
    if (*q != 'd') return 0;
    n++;
  }
  return n == 1;
}

int fo_kind(const char* path) {
  size_t n = strlen(path);
  if (n > 4 && !strcasecmp(path + n - 4, ".mp4")) return FO_MP4;
  if (n > 4 && !strcasecmp(path + n - 4, ".png")) {
    if (strchr(path, '%')) return one_int_pattern(path) ? FO_PNG_SEQ : -1;
    return FO_PNG_ONE;
  }
  return -1;
}

/*---- PNG ----*/

typedef struct png_ctx { jmp_buf jb; char msg[256]; } png_ctx;

static void png_err(png_structp p, png_const_charp msg) {
  png_ctx* c = png_get_error_ptr(p);
  snprintf(c->msg, sizeof c->msg, "%s", msg);
  longjmp(c->jb, 1);
}
static void png_warn(png_structp p, png_const_charp msg) { (void)p, (void)msg; }

int fo_write_png(const char* path, const unsigned char* argb, int w, int h, int stride, int level, mt_err* e) {
  /* the output rule (base/outfile.h): only absent or regular targets, never an input; a killed
   * render's temporaries of this path are removed first */
  if (outfile_check(path, e)) return MT_EINPUT;
  outfile_clean_stale(path);
  char tmp[4200];
  mt_tmp_name(tmp, sizeof tmp, path);
  FILE* f = fopen(tmp, "wb");
  if (!f) return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  png_ctx ctx;
  png_structp p = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, png_err, png_warn);
  png_infop info = p ? png_create_info_struct(p) : NULL;
  unsigned char* row = malloc((size_t)w * 3);
  if (!p || !info || !row) {
    png_destroy_write_struct(&p, &info);
    free(row);
    fclose(f);
    remove(tmp);
    return mt_fail(e, MT_EINTERNAL, "%s: libpng could not start", path);
  }
  if (setjmp(ctx.jb)) {
    png_destroy_write_struct(&p, &info);
    free(row);
    fclose(f);
    remove(tmp);
    return mt_fail(e, MT_EINTERNAL, "%s: PNG encoding failed: %s", path, ctx.msg);
  }
  png_init_io(p, f);
  png_set_compression_level(p, level);
  png_set_filter(p, 0, level <= 1 ? PNG_FILTER_SUB : PNG_ALL_FILTERS);
  png_set_IHDR(p, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(p, info);
  for (int y = 0; y < h; y++) {
    const uint32_t* src = (const uint32_t*)(argb + (size_t)y * stride);
    for (int x = 0; x < w; x++) {   /* opaque frames: premultiplied = straight */
      uint32_t v = src[x];
      row[3 * x] = (v >> 16) & 255;
      row[3 * x + 1] = (v >> 8) & 255;
      row[3 * x + 2] = v & 255;
    }
    png_write_row(p, row);
  }
  png_write_end(p, info);
  png_destroy_write_struct(&p, &info);
  free(row);
  int bad = ferror(f);
  if (fclose(f) || bad) {
    remove(tmp);
    return mt_fail(e, MT_EINPUT, "%s: write failed: %s", path, strerror(errno));
  }
  if (rename(tmp, path)) {
    remove(tmp);
    return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  }
  return MT_OK;
}

static void seq_name(const fo_sink* s, long i, char* out, size_t n) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(out, n, s->path, (int)i);
#pragma GCC diagnostic pop
}

/*---- MP4 ----*/

/* FFmpeg's encoder and muxer are opened when the first MP4 is written (base/dynlib.h: linked,
 * they cost every command's start); libavutil and libswscale, small, are linked. Each slot has
 * the function's own prototype, so every call below is checked as if linked; a direct call
 * left anywhere would not link. */
#define FF_CODEC(X) \
  X(avcodec_find_encoder_by_name) X(avcodec_alloc_context3) X(avcodec_open2) \
  X(avcodec_parameters_from_context) X(avcodec_send_frame) X(avcodec_receive_packet) \
  X(avcodec_free_context) X(av_packet_alloc) X(av_packet_free) X(av_packet_rescale_ts)
#define FF_FORMAT(X) \
  X(avformat_alloc_output_context2) X(avformat_new_stream) X(avio_open) X(avformat_write_header) \
  X(av_interleaved_write_frame) X(av_write_trailer) X(avio_closep) X(avformat_free_context)
#define FF_SYM(f) {#f, (void**)&ff.f},
static struct {
  FF_CODEC(DL_SLOT)
  FF_FORMAT(DL_SLOT)
} ff;
static dl_lib ff_codec = {"FFmpeg's libavcodec", 0, ""}, ff_format = {"FFmpeg's libavformat", 0, ""};

static int ff_load(mt_err* e) {
  static const dl_sym codec[] = {FF_CODEC(FF_SYM)}, format[] = {FF_FORMAT(FF_SYM)};
  if (dl_open(&ff_codec, MT_SONAME_AVCODEC, codec, DL_LEN(codec), e)) return e->code;
  return dl_open(&ff_format, MT_SONAME_AVFORMAT, format, DL_LEN(format), e);
}

static int averr(mt_err* e, const char* path, const char* what, int rc) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(rc, buf, sizeof buf);
  return mt_fail(e, MT_EINTERNAL, "%s: %s: %s", path, what, buf);
}

static int mp4_drain(fo_sink* s, mt_err* e) {
  for (;;) {
    int rc = ff.avcodec_receive_packet(s->c, s->pkt);
    if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return MT_OK;
    if (rc < 0) return averr(e, s->path, "encoding", rc);
    s->pkt->duration = 1;   /* one frame in the codec's 1/fps time base: correct duration and rate */
    ff.av_packet_rescale_ts(s->pkt, s->c->time_base, s->st->time_base);
    s->pkt->stream_index = s->st->index;
    rc = ff.av_interleaved_write_frame(s->oc, s->pkt);   /* takes the packet's reference */
    if (rc < 0) return averr(e, s->path, "writing", rc);
  }
}

static int mp4_open(fo_sink* s, mt_err* e) {
  if (ff_load(e)) return e->code;
  av_log_set_level(AV_LOG_ERROR);
  int rc = ff.avformat_alloc_output_context2(&s->oc, NULL, "mp4", s->tmp);
  if (rc < 0 || !s->oc) return averr(e, s->path, "no mp4 muxer", rc);
  const AVCodec* codec = ff.avcodec_find_encoder_by_name("libx264");
  if (!codec) return mt_fail(e, MT_EINTERNAL, "%s: libavcodec has no libx264 encoder", s->path);
  s->st = ff.avformat_new_stream(s->oc, NULL);
  s->c = ff.avcodec_alloc_context3(codec);
  s->pkt = ff.av_packet_alloc();
  s->frame = av_frame_alloc();
  if (!s->st || !s->c || !s->pkt || !s->frame) return mt_fail(e, MT_EINTERNAL, "%s: out of memory", s->path);
  AVRational fr = s->fps == (int)s->fps ? (AVRational){(int)s->fps, 1} : av_d2q(s->fps, 1000000);
  s->c->width = s->w;
  s->c->height = s->h;
  s->c->time_base = av_inv_q(fr);
  s->c->framerate = fr;
  s->c->pix_fmt = AV_PIX_FMT_YUV420P;
  s->c->gop_size = (int)(2 * s->fps) > 1 ? (int)(2 * s->fps) : 1;
  if (s->oc->oformat->flags & AVFMT_GLOBALHEADER) s->c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* opt = NULL;
  av_dict_set(&opt, "preset", "veryfast", 0);
  av_dict_set(&opt, "crf", "20", 0);
  rc = ff.avcodec_open2(s->c, codec, &opt);
  av_dict_free(&opt);
  if (rc < 0) return averr(e, s->path, "cannot open the H.264 encoder", rc);
  rc = ff.avcodec_parameters_from_context(s->st->codecpar, s->c);
  if (rc < 0) return averr(e, s->path, "stream parameters", rc);
  s->st->time_base = s->c->time_base;
  s->st->avg_frame_rate = fr;
  rc = ff.avio_open(&s->oc->pb, s->tmp, AVIO_FLAG_WRITE);
  if (rc < 0) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(rc, buf, sizeof buf);
    return mt_fail(e, MT_EINPUT, "%s: cannot write: %s", s->path, buf);
  }
  AVDictionary* mopt = NULL;
  av_dict_set(&mopt, "movflags", "+faststart", 0);
  rc = ff.avformat_write_header(s->oc, &mopt);
  av_dict_free(&mopt);
  if (rc < 0) return averr(e, s->path, "writing the header", rc);
  s->header_written = 1;
  s->frame->format = AV_PIX_FMT_YUV420P;
  s->frame->width = s->w;
  s->frame->height = s->h;
  rc = av_frame_get_buffer(s->frame, 0);
  if (rc < 0) return averr(e, s->path, "frame buffer", rc);
  s->sws = sws_getContext(s->w, s->h, AV_PIX_FMT_BGRA, s->w, s->h, AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
  if (!s->sws) return mt_fail(e, MT_EINTERNAL, "%s: no BGRA → YUV420P conversion", s->path);
  return MT_OK;
}

static int mp4_frame(fo_sink* s, const unsigned char* argb, long pts, mt_err* e) {
  int rc = av_frame_make_writable(s->frame);
  if (rc < 0) return averr(e, s->path, "frame not writable", rc);
  const uint8_t* src[1] = {argb};
  int stride[1] = {4 * s->w};
  sws_scale(s->sws, src, stride, 0, s->h, s->frame->data, s->frame->linesize);
  s->frame->pts = pts;
  rc = ff.avcodec_send_frame(s->c, s->frame);
  if (rc < 0) return averr(e, s->path, "encoding", rc);
  return mp4_drain(s, e);
}

static int mp4_finish(fo_sink* s, mt_err* e) {
  int rc = ff.avcodec_send_frame(s->c, NULL);
  if (rc < 0) return averr(e, s->path, "flushing the encoder", rc);
  if (mp4_drain(s, e)) return e->code;
  rc = ff.av_write_trailer(s->oc);
  if (rc < 0) return averr(e, s->path, "writing the trailer", rc);
  rc = ff.avio_closep(&s->oc->pb);
  if (rc < 0) return averr(e, s->path, "closing", rc);
  return MT_OK;
}

static void mp4_free(fo_sink* s) {
  if (s->oc && s->oc->pb) ff.avio_closep(&s->oc->pb);
  if (s->oc) ff.avformat_free_context(s->oc);
  if (s->c) ff.avcodec_free_context(&s->c);   /* set only once ff_load succeeded */
  av_frame_free(&s->frame);
  if (s->pkt) ff.av_packet_free(&s->pkt);
  sws_freeContext(s->sws);
  s->oc = NULL;
  s->sws = NULL;
}

/*---- the worker ----*/

static int process(fo_sink* s, const unsigned char* buf, long i, mt_err* e) {
  if (s->kind == FO_MP4) return mp4_frame(s, buf, i, e);
  char name[4200];
  if (s->kind == FO_PNG_SEQ) seq_name(s, i, name, sizeof name);
  else snprintf(name, sizeof name, "%s", s->path);
  return fo_write_png(name, buf, s->w, s->h, 4 * s->w, s->kind == FO_PNG_SEQ ? 1 : 6, e);
}

static void* worker(void* arg) {
  fo_sink* s = arg;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    int idx = (int)(s->ndone % s->nbuf);
    while (!s->full[idx] && !s->quit) pthread_cond_wait(&s->cv, &s->mu);
    if (!s->full[idx]) {
      pthread_mutex_unlock(&s->mu);
      break;
    }
    int failed = s->failed;
    pthread_mutex_unlock(&s->mu);
    int rc = MT_OK;
    mt_err e = {0};
    if (!failed) {
      double t0 = now();
      rc = process(s, s->buf[idx], s->ndone, &e);
      if (!rc) s->nwritten++;
      s->busy += now() - t0;
    }
    pthread_mutex_lock(&s->mu);
    if (rc && !s->failed) {
      s->failed = 1;
      s->werr = e;
    }
    s->full[idx] = 0;
    s->ndone++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
  }
  return NULL;
}

static void cleanup_files(fo_sink* s) {
  if (s->kind == FO_MP4) {
    remove(s->tmp);
  } else if (s->kind == FO_PNG_SEQ) {
    char name[4200];
    for (long i = 0; i < s->nwritten; i++) {   /* only what this run wrote */
      seq_name(s, i, name, sizeof name);
      unlink(name);
    }
  } else if (s->nwritten > 0) {
    unlink(s->path);
  }
}

fo_sink* fo_open(const char* path, int w, int h, double fps, mt_err* e) { return fo_open_ring(path, w, h, fps, 2, e); }

fo_sink* fo_open_ring(const char* path, int w, int h, double fps, int nbuf, mt_err* e) {
  if (nbuf < 2 || nbuf > FO_MAX_BUF) {
    mt_fail(e, MT_EINTERNAL, "%s: a sink holds 2..%d frames, not %d", path, FO_MAX_BUF, nbuf);
    return NULL;
  }
  int kind = fo_kind(path);
  if (kind < 0) {
    mt_fail(e, MT_EINPUT, "%s: unknown output (use OUT.mp4, FRAMES/%%05d.png or ONE.png)", path);
    return NULL;
  }
  if (kind == FO_MP4 && (w % 2 || h % 2)) {
    mt_fail(e, MT_EINPUT, "--size %dx%d: an MP4 (yuv420p) needs an even width and height, e.g. %dx%d", w, h, w + w % 2, h + h % 2);
    return NULL;
  }
  fo_sink* s = mt_alloc(sizeof *s);
  s->kind = kind;
  s->nbuf = nbuf;
  s->w = w;
  s->h = h;
  s->fps = fps;
  snprintf(s->path, sizeof s->path, "%s", path);
  mt_tmp_name(s->tmp, sizeof s->tmp, path);
  if (kind == FO_MP4) {
    if (outfile_check(path, e)) {   /* the output rule (base/outfile.h) */
      free(s);
      return NULL;
    }
    outfile_clean_stale(path);   /* a killed render's temporary */
    if (mp4_open(s, e)) {
      mp4_free(s);
      remove(s->tmp);
      free(s);
      return NULL;
    }
  } else {
    /* prove the folder is writable now, not after the first frame has been drawn */
    char probe[4200], first[4200];
    if (kind == FO_PNG_SEQ) seq_name(s, 0, first, sizeof first);
    else snprintf(first, sizeof first, "%s", path);
    mt_tmp_name(probe, sizeof probe, first);
    FILE* f = fopen(probe, "wb");
    if (!f) {
      mt_fail(e, MT_EINPUT, "%s: cannot write: %s", first, strerror(errno));
      free(s);
      return NULL;
    }
    fclose(f);
    remove(probe);
  }
  for (int i = 0; i < nbuf; i++) s->buf[i] = mt_alloc((size_t)4 * w * h);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  if (pthread_create(&s->th, NULL, worker, s)) {
    mt_fail(e, MT_EINTERNAL, "%s: cannot start the encoding thread", path);
    fo_close(s, 0, NULL, e);
    return NULL;
  }
  s->started = 1;
  return s;
}

/* Invariant (under mu): frame i's slot is free once every frame before i − nbuf + 1 has been
 * processed, i.e. i < ndone + nbuf; the worker takes frames strictly in order, so a frame
 * submitted early waits in its slot until those before it are done. */
unsigned char* fo_buffer_at(fo_sink* s, long i, mt_err* e) {
  pthread_mutex_lock(&s->mu);
  while (i >= s->ndone + s->nbuf && !s->failed) pthread_cond_wait(&s->cv, &s->mu);
  int failed = s->failed;
  if (failed) *e = s->werr;
  pthread_mutex_unlock(&s->mu);
  return failed ? NULL : s->buf[i % s->nbuf];
}

int fo_submit_at(fo_sink* s, long i, mt_err* e) {
  pthread_mutex_lock(&s->mu);
  int rc = MT_OK;
  if (s->failed) {
    *e = s->werr;
    rc = e->code ? e->code : MT_EINTERNAL;
  } else {
    s->full[i % s->nbuf] = 1;
    s->nsub++;
    pthread_cond_broadcast(&s->cv);
  }
  pthread_mutex_unlock(&s->mu);
  return rc;
}

unsigned char* fo_buffer(fo_sink* s, mt_err* e) { return fo_buffer_at(s, s->nsub, e); }
int fo_submit(fo_sink* s, mt_err* e) { return fo_submit_at(s, s->nsub, e); }

void fo_fail(fo_sink* s, const mt_err* e) {
  pthread_mutex_lock(&s->mu);
  if (!s->failed) {
    s->failed = 1;
    s->werr = *e;
  }
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

int fo_close(fo_sink* s, int ok, double* busy, mt_err* e) {
  if (!s) return MT_OK;
  if (s->started) {
    pthread_mutex_lock(&s->mu);
    s->quit = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    pthread_join(s->th, NULL);
  }
  int rc = MT_OK;
  if (s->failed) {
    if (!e->code) *e = s->werr;
    rc = e->code ? e->code : MT_EINTERNAL;
  }
  if (ok && !rc && s->kind == FO_MP4) {
    rc = mp4_finish(s, e);
    if (!rc && rename(s->tmp, s->path)) rc = mt_fail(e, MT_EINPUT, "%s: cannot write: %s", s->path, strerror(errno));
  }
  if (busy) *busy = s->busy;
  if (s->kind == FO_MP4) mp4_free(s);
  if (!ok || rc) cleanup_files(s);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
  for (int i = 0; i < s->nbuf; i++) free(s->buf[i]);
  free(s);
  return ok ? rc : (e->code ? e->code : MT_OK);
}
