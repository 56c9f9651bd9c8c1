/* scene.h — an Assimp aiScene built in C for the exporters, and freed in C.
 *
 * Assimp's exporters take a const aiScene and deep-copy it; they never free it. So every part
 * is calloc'd here and freed by ex_scene_free — never by aiFreeScene/aiReleaseImport, which
 * would run C++ destructors on C allocations. mPrivate stays NULL (calloc), which Assimp
 * allows for user-built scenes. Callers pass values already in the file's axis convention. */
#ifndef EX_SCENE_H
#define EX_SCENE_H

#include "exporters/keys.h"
#include "scene/shapes.h"

typedef struct ex_scene ex_scene;

/* A scene whose root node (identity, never animated) is named name, and whose one animation
 * (if any channel is added) is named anim_name; the glTF writer needs the two to differ. */
ex_scene* ex_scene_new(const char* name, const char* anim_name);
/* Index of the material of colour rgba, added (named name) if the colour is new. */
int ex_scene_material(ex_scene* s, const double rgba[4], const char* name);
/* Add a copy of mesh m with material mat; returns its index. */
int ex_scene_mesh(ex_scene* s, const ex_mesh* m, int mat, const char* name);
/* Make vertices first..first+count-1 of mesh `mesh` follow bone `bone` rigidly (weight 1); bind is
 * the bone's pose in the mesh's space at bind time (x y z qw qx qy qz): its inverse becomes the
 * bone's offset matrix. The bone is the node of that name (glTF joints, FBX limb nodes). */
void ex_scene_mesh_bone(ex_scene* s, int mesh, const char* bone, const double bind[7], int first, int count);
/* The same with a weight per vertex: vertices vid[0..count-1] follow bone with weights w (a vertex
 * moved by several bones gets a weight from each; the caller makes them sum to 1). count may be
 * 0: the node is still a bone of the mesh's skin (a joint in glTF, a cluster in FBX). */
void ex_scene_mesh_bone_weights(ex_scene* s, int mesh, const char* bone, const double bind[7], const unsigned* vid,
                                const float* w, int count);
/* Add a node under node parent (-1: the root) with a local rest pose (x y z qw qx qy qz) and
 * meshes; returns its index. Names must be unique (the glTF writer binds channels by name). */
int ex_scene_node(ex_scene* s, const char* name, int parent, const double local[7], const int* meshes, int nmesh);
/* Animate node with keys (times in seconds; ticks per second is 1, which both writers read
 * correctly). with_scale: also write unit scale keys (FBX needs T, R and S on every channel). */
void ex_scene_channel(ex_scene* s, int node, const ex_keys* k, int with_scale);
/* Scene metadata read by Assimp's FBX writer (GlobalSettings overrides). */
void ex_scene_meta_int(ex_scene* s, const char* key, int v);
void ex_scene_meta_double(ex_scene* s, const char* key, double v);
/* Counts for reports. */
int ex_scene_count(const ex_scene* s, int* nodes, int* meshes, int* materials, int* channels);
/* The finished aiScene (valid until ex_scene_free). */
const struct aiScene* ex_scene_ai(ex_scene* s);
void ex_scene_free(ex_scene* s);

#endif
