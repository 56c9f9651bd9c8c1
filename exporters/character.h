/* character.h — the default character of `mototake export --armature`: a humanoid skeleton's
 * bones among the motion's bodies, and ONE mesh skinned smoothly to them (issue 32).
 *
 * The skeleton is the rider's (scene/skeleton.h); this module knows nothing of the rider's pose,
 * only of a rest skeleton in the rig's coordinates (x forward, y left, z up, m):
 *  - every bone gets a capsule along head → tail of its radius (the head bone a sphere, the
 *    helmet; the root also a capsule across its children's heads, the hips);
 *  - a vertex near a joint is shared between the two bones that meet there: within the end
 *    EX_CHAR_BLEND of a bone (as a fraction of its length), weight going linearly from 1/2 at
 *    the joint to 0, the rest to the bone itself. A bone blends toward its parent at its head
 *    (when the parent is a character bone) and toward its child at its tail when it has exactly
 *    one child that starts there. So weights sum to 1, at most 3 bones move a vertex (the file
 *    formats' limit is 4), and the two capsules meeting at a joint deform alike there.
 * The mesh is built in the rest pose; export.c places it where the bones rest. */
#ifndef EX_CHARACTER_H
#define EX_CHARACTER_H

#include "scene/shapes.h"

#define EX_CHAR_MAX_BONE 32
#define EX_CHAR_BLEND 0.25

typedef struct ex_char_bone {
  const char* name;      /* the bone's name in the file, kept as is (no take prefix) */
  int parent;            /* another character bone (< own index), or -1: the body `parent_body` */
  double head[3], tail[3];
  double q[4];           /* rest orientation (w x y z), rig coordinates */
  double radius;         /* m; the capsule (or the head's sphere) */
  double rgba[4];
  int sphere;            /* 1: a sphere at the bone's middle instead of a capsule (the helmet) */
} ex_char_bone;

typedef struct ex_character {
  int first_body;        /* bone k is the motion's body first_body + k (the last bodies) */
  int nbone;
  ex_char_bone bone[EX_CHAR_MAX_BONE];
  double base[7];        /* rest pose (rig coordinates) of the body bone 0 hangs from */
} ex_character;

/* Up to 4 influences of one vertex: character bone indices (-1: none) and weights (sum 1). */
typedef struct ex_char_weights { int bone[4]; float w[4]; } ex_char_weights;

/* The character's mesh in the rest pose (rig coordinates, vertex colours from the bones) and one
 * ex_char_weights per vertex (*w, caller frees). */
void ex_character_mesh(const ex_character* c, ex_mesh* out, ex_char_weights** w);
/* Bone b's rest pose relative to its parent (a bone, or `base`), rig coordinates. */
void ex_character_rest_local(const ex_character* c, int b, double local[7]);
/* NULL if c is usable with a motion of nbody bodies, else the name of the bad field. */
const char* ex_character_check(const ex_character* c, int nbody);

#endif
