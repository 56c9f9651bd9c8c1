/* mototake.h — libmototake's public interface: what programs other than bin/mototake may call.
 *
 * bin/libmototake.so is the same code as bin/mototake (the layers base → sim → takes → scene), with
 * this header as its only door: the library exports the mtk_* functions declared here and nothing
 * else (api/mototake.map). The Python package python/mototake wraps it through ctypes.
 *
 * Conventions, for every function below:
 * - A function that can fail returns MTK_OK (0), MTK_EINPUT (2: the caller's file, script or
 *   arguments are wrong — the CLI's exit status 2) or MTK_EINTERNAL (1), and keeps the one-line
 *   message the CLI would print ("file:line: field: why") for mtk_last_error(). A handle-returning
 *   function returns NULL on failure, with the message there too.
 * - Inputs are untrusted: a take, rig, track or script given here is checked exactly as the CLI
 *   checks it (the same hardened reader, the same sandbox); what the CLI refuses, this refuses.
 * - Strings the library hands out belong to the handle they came from and live until it is closed.
 *   Arrays the caller fills are the caller's, sized by the counts the library reports.
 * - Handles are not thread-safe; distinct handles may be used from distinct threads. The library
 *   writes nothing to stdout or stderr and never exits the process (out of memory aside).
 * - Time is in seconds, angles in radians unless a channel's units say otherwise (the channels
 *   keep the units `mototake take channels` writes), SI units throughout. */
#ifndef MOTOTAKE_H
#define MOTOTAKE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MTK_OK = 0, MTK_EINTERNAL = 1, MTK_EINPUT = 2 };

/* The library's version ("0.x.y") and the git revision it was built from (what takes record). */
const char* mtk_version(void);
const char* mtk_git_revision(void);

/* The message of the last failure in this thread (one line, no newline); "" when none yet. */
const char* mtk_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
