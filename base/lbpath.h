/* lbpath.h — where user files are found and what a take calls them.
 *
 * The project root is the folder holding rigs/, sim/ and takes/: $MOTOTAKE_ROOT when set, else
 * the folder above the executable's bin/ (from /proc/self/exe), else "."; found once and kept
 * for the process (not thread-safe on the first call). A recorded name never carries the
 * user's folders, so a take shared with others says "rigs/sport1000.lua", not a home path.
 * Both only read the file system (realpath, readlink); neither fails. */
#ifndef LBPATH_H
#define LBPATH_H

#include <stddef.h>

/* The project root (folder holding rigs/, sim/, takes/), found from the executable's place. */
const char* luabox_project_root(void);
/* A library's place for the root instead of the executable's (libmototake: the folder above
 * the bin/ holding the .so, since the executable is then python3 or another program): used when
 * $MOTOTAKE_ROOT is not set; call before the first luabox_project_root. */
void luabox_set_default_root(const char* dir);
/* The name a take records for a user file: relative to the project root when the file is
 * inside it ("rigs/sport1000.lua"), else the file's own name: never the user's folders. */
const char* luabox_recorded_name(const char* path, char* out, size_t n);

#endif
