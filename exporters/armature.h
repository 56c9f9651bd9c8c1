/* armature.h — `mototake export --armature`: the machine as one armature. Every body node is a
 * bone (glTF joint, FBX limb node) and every body's geometry goes into ONE mesh skinned rigidly
 * to it: each vertex follows exactly one bone with weight 1. The bind pose (the armature's rest
 * pose) is the pose the nodes rest in, the first exported frame — the take's start, which takes
 * begin from the trim. Locators and the rider's parts stay nodes parented to their bones.
 *
 * Contract: vertices arrive in their body's frame already in the file's axes; the bind pose of
 * each bone is its node's rest pose composed up to the root, in the same axes. */
#ifndef EX_ARMATURE_H
#define EX_ARMATURE_H

#include "exporters/scene.h"
#include "scene/shapes.h"

typedef struct ex_skin {
  ex_mesh mesh;                  /* every body's vertices in the mesh (root) space, with colours */
  int nbone;
  char** bone;
  double (*bind)[7];
  int *first, *count;
} ex_skin;

/* Append body mesh m (body frame, with colours) as the vertices of bone `bone` at bind pose bind. */
void ex_skin_add(ex_skin* k, const ex_mesh* m, const char* bone, const double bind[7]);
/* Add the skinned mesh (material mat) and its node `name` under node parent (-1: the root).
 * Returns the node index, or -1 if there are no vertices. */
int ex_skin_finish(ex_skin* k, ex_scene* sc, int parent, const char* name, int mat);
void ex_skin_free(ex_skin* k);

#endif
