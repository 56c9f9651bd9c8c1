/* armature.h — `mototake export --armature`: the machine as one armature. Every body node is a
 * bone (glTF joint, FBX limb node) and every body's geometry goes into ONE mesh skinned rigidly
 * to it: each vertex follows exactly one bone with weight 1. The bind pose (the armature's rest
 * pose) is the pose the nodes rest in, the first exported frame — the take's start, which takes
 * begin from the trim. Locators and the rider's parts stay nodes parented to their bones.
 *
 * With a character (exporters/character.h) its mesh joins the same skinned mesh, weighted smoothly
 * to its bones, which are bones of the skin like the bodies'.
 *
 * Contract: vertices arrive in their body's frame already in the file's axes; the bind pose of
 * each bone is its node's rest pose composed up to the root, in the same axes. */
#ifndef EX_ARMATURE_H
#define EX_ARMATURE_H

#include "exporters/scene.h"
#include "scene/shapes.h"
#include "exporters/character.h"

typedef struct ex_skin {
  ex_mesh mesh;                  /* every body's vertices in the mesh (root) space, with colours */
  int nbone;
  char** bone;
  double (*bind)[7];
  int *first, *count;            /* a rigid bone's vertices (count 0: none, or weighted ones) */
  long nw;                       /* weighted influences: vertex wv[i] follows bone wb[i] by ww[i] */
  unsigned* wv;
  int* wb;
  float* ww;
} ex_skin;

/* Append body mesh m (body frame, with colours) as the vertices of bone `bone` at bind pose bind. */
void ex_skin_add(ex_skin* k, const ex_mesh* m, const char* bone, const double bind[7]);
/* Register bone `bone` at bind pose bind with no rigid vertices; returns its index (for
 * ex_skin_add_weighted). Every registered bone is a bone of the skin, vertices or not. */
int ex_skin_bone(ex_skin* k, const char* bone, const double bind[7]);
/* Append mesh m, already in the mesh space, each vertex v following the registered bones
 * bones[w[v].bone[j]] (indices into `bones`, -1: unused) by weights w[v].w[j]. */
void ex_skin_add_weighted(ex_skin* k, const ex_mesh* m, const int* bones, const ex_char_weights* w);
/* Add the skinned mesh (material mat) and its node `name` under node parent (-1: the root).
 * Returns the node index, or -1 if there are no vertices. */
int ex_skin_finish(ex_skin* k, ex_scene* sc, int parent, const char* name, int mat);
void ex_skin_free(ex_skin* k);

#endif
