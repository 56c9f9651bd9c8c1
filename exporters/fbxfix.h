/* fbxfix.h — detect and repair the one structural defect of Assimp 5.2's binary FBX writer:
 * nested record lists written without their NULL-record sentinel (upstream issue #4686, fixed
 * in Assimp 5.3.0). Readers (Blender, Autodesk's SDK, Assimp itself) reject such files. */
#ifndef EX_FBXFIX_H
#define EX_FBXFIX_H

#include <stddef.h>

enum { EX_FBX_BAD = -1, EX_FBX_WELLFORMED = 0, EX_FBX_NO_SENTINELS = 1 };

/* Classify a binary FBX byte stream: EX_FBX_WELLFORMED (every nested list ends in a sentinel:
 * nothing to do), EX_FBX_NO_SENTINELS (the record tree is consistent only without them: the
 * Assimp 5.2 defect) or EX_FBX_BAD (neither: not a binary FBX we understand). */
int ex_fbx_check(const unsigned char* data, size_t len);
/* The same stream with a sentinel closing every nested list (and the two lists Assimp always
 * declares, References and AnimationLayer), record end offsets and footer alignment
 * recomputed, everything else byte for byte. Returns a malloc'd buffer (caller frees) or NULL
 * if the input is not EX_FBX_NO_SENTINELS. */
unsigned char* ex_fbx_repair(const unsigned char* data, size_t len, size_t* out_len);
/* A well-formed stream whose AnimationLayer objects with an empty name (Assimp writes "") are
 * named after the file's AnimationStack, so that Blender names actions "object|take" instead of
 * "object|take|". Record framing and offsets are recomputed; nothing else changes. Returns a
 * malloc'd buffer, or NULL if the input is not EX_FBX_WELLFORMED or has nothing to rename. */
unsigned char* ex_fbx_name_layers(const unsigned char* data, size_t len, size_t* out_len);

#endif
