/* frames.h — where rendered frames go (module prefix fo_): PNG files through libpng or an H.264
 * MP4 through libavcodec/libavformat, fed by a worker thread so the next frame draws while the
 * last one is converted and encoded.
 *
 * Contract: fo_open checks the output can be written (it creates the temporary file at once) and
 * returns two frame buffers; the caller draws into fo_buffer() (Cairo ARGB32, stride w·4),
 * then fo_submit() hands it to the worker, in order. fo_close(ok = 1) drains the worker, flushes
 * the encoder, writes the trailer and renames the temporary into place; fo_close(ok = 0), or
 * any error, deletes everything this run wrote: a failed render leaves no file behind.
 *   MP4: libx264, preset veryfast, crf 20, yuv420p, time base 1/fps, every packet 1 frame long,
 *        faststart (moov first). Width and height must be even (yuv420p).
 *   PNG: 8-bit RGB, zlib level 1 for sequences (pattern with one %d, numbered from 0) and 6
 *        for a single file; each file written to a temporary and renamed. */
#ifndef FRAMES_H
#define FRAMES_H

#include "base/mt.h"

typedef struct fo_sink fo_sink;

enum { FO_MP4, FO_PNG_SEQ, FO_PNG_ONE };

/* The kind of output path: .mp4 → FO_MP4, .png with one %d → FO_PNG_SEQ, .png → FO_PNG_ONE; −1 unknown. */
int fo_kind(const char* path);
fo_sink* fo_open(const char* path, int w, int h, double fps, mt_err* e);
unsigned char* fo_buffer(fo_sink* s, mt_err* e);   /* waits until a buffer is free */
int fo_submit(fo_sink* s, mt_err* e);
/* Several drawing threads (render/pool.h): a ring of nbuf (2..FO_MAX_BUF) buffers. Frame i
 * (0, 1, ... in the order they reach the output) is drawn into fo_buffer_at(i), which waits
 * until frame i − nbuf has been processed, and handed over by fo_submit_at(i), in any order;
 * the worker takes them in order. fo_buffer/fo_submit are these at the next frame in turn.
 * fo_fail records e as the sink's error and wakes every waiter (their calls then fail): a
 * drawing thread that stops must call it, or the frames after its own would wait forever. */
#define FO_MAX_BUF 16
fo_sink* fo_open_ring(const char* path, int w, int h, double fps, int nbuf, mt_err* e);
unsigned char* fo_buffer_at(fo_sink* s, long i, mt_err* e);
int fo_submit_at(fo_sink* s, long i, mt_err* e);
void fo_fail(fo_sink* s, const mt_err* e);
/* busy (may be NULL): seconds the worker spent converting and encoding, for the speed figures. */
int fo_close(fo_sink* s, int ok, double* busy, mt_err* e);

/* One PNG (8-bit RGB) from an ARGB32 buffer, atomically; level 0..9. */
int fo_write_png(const char* path, const unsigned char* argb, int w, int h, int stride, int level, mt_err* e);

#endif
