/* scene.c — building and freeing a C-owned aiScene (see scene.h for the ownership rules).
 *
 * Nodes, meshes, materials and channels are collected in growing arrays and linked into the
 * aiScene once, by ex_scene_ai: children lists are only known when every node is in. A
 * material is a short property list (name, diffuse colour, opacity, PBR factors) laid out as
 * Assimp's aiMaterialProperty expects: strings as a uint32 length, the bytes and a NUL. */
#include "exporters/scene.h"

#include <assimp/scene.h>   /* first: it defines ai_real for the others */
#include <assimp/anim.h>
#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/metadata.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mt.h"

struct ex_scene {
  struct aiScene* sc;
  struct aiNode** node;
  int* parent;
  int nnode;
  struct aiMesh** mesh;
  int nmesh;
  struct aiMaterial** mat;
  double (*rgba)[4];
  int nmat;
  struct aiNodeAnim** chan;
  int nchan;
  double duration;
  struct aiString* meta_key;
  struct aiMetadataEntry* meta_val;
  int nmeta;
  char anim_name[256];
  int built;
};

static void set_str(struct aiString* s, const char* v) {
  size_t n = strlen(v);
  if (n >= sizeof s->data) n = sizeof s->data - 1;
  memcpy(s->data, v, n);
  s->data[n] = 0;
  s->length = (ai_uint32)n;
}

#define GROW(arr, n) ((arr) = mt_realloc((arr), ((size_t)(n) + 1) * sizeof *(arr)))

ex_scene* ex_scene_new(const char* name, const char* anim_name) {
  ex_scene* s = mt_alloc(sizeof *s);
  s->sc = mt_alloc(sizeof *s->sc);   /* calloc: mPrivate must be NULL */
  snprintf(s->anim_name, sizeof s->anim_name, "%s", anim_name);
  const double id[7] = {0, 0, 0, 1, 0, 0, 0};
  ex_scene_node(s, name, -2, id, NULL, 0);
  return s;
}

/* Material property helpers. */
static void add_prop(struct aiMaterial* m, const char* key, enum aiPropertyTypeInfo type, const void* data, unsigned len) {
  struct aiMaterialProperty* p = mt_alloc(sizeof *p);
  set_str(&p->mKey, key);
  p->mType = type;
  p->mDataLength = len;
  p->mData = mt_alloc(len);
  memcpy(p->mData, data, len);
  m->mProperties = mt_realloc(m->mProperties, (m->mNumProperties + 1) * sizeof *m->mProperties);
  m->mProperties[m->mNumProperties++] = p;
  m->mNumAllocated = m->mNumProperties;
}

static void add_float(struct aiMaterial* m, const char* key, const float* v, int n) {
  add_prop(m, key, aiPTI_Float, v, (unsigned)(n * (int)sizeof(float)));
}

int ex_scene_material(ex_scene* s, const double rgba[4], const char* name) {
  for (int i = 0; i < s->nmat; i++)
    if (memcmp(s->rgba[i], rgba, 4 * sizeof(double)) == 0) return i;
  struct aiMaterial* m = mt_alloc(sizeof *m);
  char buf[sizeof(uint32_t) + 256] = {0};
  uint32_t n = (uint32_t)strlen(name);
  if (n > 250) n = 250;
  memcpy(buf, &n, sizeof n);
  memcpy(buf + sizeof n, name, n);
  add_prop(m, "?mat.name", aiPTI_String, buf, (unsigned)(sizeof n + n + 1));
  /* alpha goes in opacity only: the glTF writer multiplies the diffuse alpha by it */
  float diffuse[4] = {(float)rgba[0], (float)rgba[1], (float)rgba[2], 1.0f};
  add_float(m, "$clr.diffuse", diffuse, 4);
  float opacity = (float)rgba[3], metallic = 0, rough = 0.6f;
  if (opacity < 1) add_float(m, "$mat.opacity", &opacity, 1);
  add_float(m, "$mat.metallicFactor", &metallic, 1);
  add_float(m, "$mat.roughnessFactor", &rough, 1);
  GROW(s->mat, s->nmat);
  GROW(s->rgba, s->nmat);
  memcpy(s->rgba[s->nmat], rgba, 4 * sizeof(double));
  s->mat[s->nmat] = m;
  return s->nmat++;
}

static void pose_matrix(const double p[7], struct aiMatrix4x4* m) {
  double w = p[3], x = p[4], y = p[5], z = p[6];
  m->a1 = (ai_real)(1 - 2 * (y * y + z * z)), m->a2 = (ai_real)(2 * (x * y - w * z)), m->a3 = (ai_real)(2 * (x * z + w * y));
  m->b1 = (ai_real)(2 * (x * y + w * z)), m->b2 = (ai_real)(1 - 2 * (x * x + z * z)), m->b3 = (ai_real)(2 * (y * z - w * x));
  m->c1 = (ai_real)(2 * (x * z - w * y)), m->c2 = (ai_real)(2 * (y * z + w * x)), m->c3 = (ai_real)(1 - 2 * (x * x + y * y));
  m->a4 = (ai_real)p[0], m->b4 = (ai_real)p[1], m->c4 = (ai_real)p[2];
  m->d1 = m->d2 = m->d3 = 0, m->d4 = 1;
}

void ex_scene_mesh_bone(ex_scene* s, int mesh, const char* bone, const double bind[7], int first, int count) {
  struct aiMesh* a = s->mesh[mesh];
  struct aiBone* b = mt_alloc(sizeof *b);
  set_str(&b->mName, bone);
  b->mNumWeights = (unsigned)count;
  b->mWeights = mt_alloc((size_t)(count > 0 ? count : 1) * sizeof *b->mWeights);
  for (int i = 0; i < count; i++) b->mWeights[i].mVertexId = (unsigned)(first + i), b->mWeights[i].mWeight = 1;
  /* offset = bind⁻¹: rotation Rᵀ, translation −Rᵀ p */
  double inv[7] = {0, 0, 0, bind[3], -bind[4], -bind[5], -bind[6]};
  struct aiMatrix4x4 r;
  pose_matrix(inv, &r);
  double p[3] = {bind[0], bind[1], bind[2]};
  r.a4 = (ai_real)(-(r.a1 * p[0] + r.a2 * p[1] + r.a3 * p[2]));
  r.b4 = (ai_real)(-(r.b1 * p[0] + r.b2 * p[1] + r.b3 * p[2]));
  r.c4 = (ai_real)(-(r.c1 * p[0] + r.c2 * p[1] + r.c3 * p[2]));
  b->mOffsetMatrix = r;
  a->mBones = mt_realloc(a->mBones, (a->mNumBones + 1) * sizeof *a->mBones);
  a->mBones[a->mNumBones++] = b;
}

int ex_scene_mesh(ex_scene* s, const ex_mesh* m, int mat, const char* name) {
  struct aiMesh* a = mt_alloc(sizeof *a);
  a->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  a->mNumVertices = (unsigned)m->nvert;
  a->mVertices = mt_alloc((size_t)m->nvert * sizeof *a->mVertices);
  a->mNormals = mt_alloc((size_t)m->nvert * sizeof *a->mNormals);
  for (int i = 0; i < m->nvert; i++) {
    a->mVertices[i].x = m->pos[3 * i], a->mVertices[i].y = m->pos[3 * i + 1], a->mVertices[i].z = m->pos[3 * i + 2];
    a->mNormals[i].x = m->nrm[3 * i], a->mNormals[i].y = m->nrm[3 * i + 1], a->mNormals[i].z = m->nrm[3 * i + 2];
  }
  if (m->uv) {   /* one 2-component UV channel (the glTF writer flips v; its importers flip it back) */
    a->mNumUVComponents[0] = 2;
    a->mTextureCoords[0] = mt_alloc((size_t)m->nvert * sizeof *a->mTextureCoords[0]);
    for (int i = 0; i < m->nvert; i++) a->mTextureCoords[0][i].x = m->uv[2 * i], a->mTextureCoords[0][i].y = m->uv[2 * i + 1];
  }
  if (m->col) {
    a->mColors[0] = mt_alloc((size_t)m->nvert * sizeof *a->mColors[0]);
    for (int i = 0; i < m->nvert; i++) {
      a->mColors[0][i].r = m->col[4 * i], a->mColors[0][i].g = m->col[4 * i + 1];
      a->mColors[0][i].b = m->col[4 * i + 2], a->mColors[0][i].a = m->col[4 * i + 3];
    }
  }
  a->mNumFaces = (unsigned)m->ntri;
  a->mFaces = mt_alloc((size_t)m->ntri * sizeof *a->mFaces);
  /* one index block for all faces: faces[0].mIndices owns it (freed once) */
  unsigned* idx = mt_alloc((size_t)m->ntri * 3 * sizeof *idx);
  memcpy(idx, m->idx, (size_t)m->ntri * 3 * sizeof *idx);
  for (int f = 0; f < m->ntri; f++) {
    a->mFaces[f].mNumIndices = 3;
    a->mFaces[f].mIndices = idx + 3 * f;
  }
  a->mMaterialIndex = (unsigned)mat;
  set_str(&a->mName, name);
  GROW(s->mesh, s->nmesh);
  s->mesh[s->nmesh] = a;
  return s->nmesh++;
}


int ex_scene_node(ex_scene* s, const char* name, int parent, const double local[7], const int* meshes, int nmesh) {
  struct aiNode* n = mt_alloc(sizeof *n);
  set_str(&n->mName, name);
  pose_matrix(local, &n->mTransformation);
  if (nmesh > 0) {
    n->mNumMeshes = (unsigned)nmesh;
    n->mMeshes = mt_alloc((size_t)nmesh * sizeof *n->mMeshes);
    for (int i = 0; i < nmesh; i++) n->mMeshes[i] = (unsigned)meshes[i];
  }
  GROW(s->node, s->nnode);
  GROW(s->parent, s->nnode);
  s->node[s->nnode] = n;
  s->parent[s->nnode] = parent == -2 ? -1 : parent < 0 ? 0 : parent;
  return s->nnode++;
}

void ex_scene_channel(ex_scene* s, int node, const ex_keys* k, int with_scale) {
  struct aiNodeAnim* c = mt_alloc(sizeof *c);
  c->mNodeName = s->node[node]->mName;
  unsigned n = (unsigned)k->n;
  c->mNumPositionKeys = c->mNumRotationKeys = n;
  c->mPositionKeys = mt_alloc(n * sizeof *c->mPositionKeys);
  c->mRotationKeys = mt_alloc(n * sizeof *c->mRotationKeys);
  for (unsigned i = 0; i < n; i++) {
    c->mPositionKeys[i].mTime = k->t[i];
    c->mPositionKeys[i].mValue.x = (ai_real)k->p[3 * i];
    c->mPositionKeys[i].mValue.y = (ai_real)k->p[3 * i + 1];
    c->mPositionKeys[i].mValue.z = (ai_real)k->p[3 * i + 2];
    c->mRotationKeys[i].mTime = k->t[i];
    c->mRotationKeys[i].mValue.w = (ai_real)k->q[4 * i];
    c->mRotationKeys[i].mValue.x = (ai_real)k->q[4 * i + 1];
    c->mRotationKeys[i].mValue.y = (ai_real)k->q[4 * i + 2];
    c->mRotationKeys[i].mValue.z = (ai_real)k->q[4 * i + 3];
  }
  if (with_scale) {
    c->mNumScalingKeys = n;
    c->mScalingKeys = mt_alloc(n * sizeof *c->mScalingKeys);
    for (unsigned i = 0; i < n; i++) {
      c->mScalingKeys[i].mTime = k->t[i];
      c->mScalingKeys[i].mValue.x = c->mScalingKeys[i].mValue.y = c->mScalingKeys[i].mValue.z = 1;
    }
  }
  if (n > 0 && k->t[n - 1] > s->duration) s->duration = k->t[n - 1];
  GROW(s->chan, s->nchan);
  s->chan[s->nchan++] = c;
}

static void add_meta(ex_scene* s, const char* key, enum aiMetadataType type, const void* v, size_t len) {
  GROW(s->meta_key, s->nmeta);
  GROW(s->meta_val, s->nmeta);
  set_str(&s->meta_key[s->nmeta], key);
  s->meta_val[s->nmeta].mType = type;
  s->meta_val[s->nmeta].mData = mt_alloc(len);
  memcpy(s->meta_val[s->nmeta].mData, v, len);
  s->nmeta++;
}

void ex_scene_meta_int(ex_scene* s, const char* key, int v) { add_meta(s, key, AI_INT32, &v, sizeof v); }
void ex_scene_meta_double(ex_scene* s, const char* key, double v) { add_meta(s, key, AI_DOUBLE, &v, sizeof v); }

int ex_scene_count(const ex_scene* s, int* nodes, int* meshes, int* materials, int* channels) {
  if (nodes) *nodes = s->nnode;
  if (meshes) *meshes = s->nmesh;
  if (materials) *materials = s->nmat;
  if (channels) *channels = s->nchan;
  return s->nnode;
}

const struct aiScene* ex_scene_ai(ex_scene* s) {
  struct aiScene* sc = s->sc;
  if (s->built) return sc;
  s->built = 1;
  for (int i = 1; i < s->nnode; i++) {
    struct aiNode* p = s->node[s->parent[i]];
    p->mChildren = mt_realloc(p->mChildren, (p->mNumChildren + 1) * sizeof *p->mChildren);
    p->mChildren[p->mNumChildren++] = s->node[i];
    s->node[i]->mParent = p;
  }
  sc->mRootNode = s->node[0];
  sc->mNumMeshes = (unsigned)s->nmesh;
  sc->mMeshes = s->mesh;
  sc->mNumMaterials = (unsigned)s->nmat;
  sc->mMaterials = s->mat;
  if (s->nchan > 0) {
    struct aiAnimation* a = mt_alloc(sizeof *a);
    set_str(&a->mName, s->anim_name);
    a->mTicksPerSecond = 1.0;   /* times are seconds: the FBX writer ignores any other rate */
    a->mDuration = s->duration;
    a->mNumChannels = (unsigned)s->nchan;
    a->mChannels = s->chan;
    sc->mNumAnimations = 1;
    sc->mAnimations = mt_alloc(sizeof *sc->mAnimations);
    sc->mAnimations[0] = a;
  }
  if (s->nmeta > 0) {
    struct aiMetadata* md = mt_alloc(sizeof *md);
    md->mNumProperties = (unsigned)s->nmeta;
    md->mKeys = s->meta_key;
    md->mValues = s->meta_val;
    sc->mMetaData = md;
  }
  return sc;
}

void ex_scene_free(ex_scene* s) {
  if (!s) return;
  for (int i = 0; i < s->nnode; i++) {
    free(s->node[i]->mChildren);
    free(s->node[i]->mMeshes);
    free(s->node[i]);
  }
  for (int i = 0; i < s->nmesh; i++) {
    struct aiMesh* m = s->mesh[i];
    free(m->mVertices);
    free(m->mNormals);
    free(m->mColors[0]);
    free(m->mTextureCoords[0]);
    for (unsigned b = 0; b < m->mNumBones; b++) {
      free(m->mBones[b]->mWeights);
      free(m->mBones[b]);
    }
    free(m->mBones);
    if (m->mNumFaces) free(m->mFaces[0].mIndices);
    free(m->mFaces);
    free(m);
  }
  for (int i = 0; i < s->nmat; i++) {
    for (unsigned p = 0; p < s->mat[i]->mNumProperties; p++) {
      free(s->mat[i]->mProperties[p]->mData);
      free(s->mat[i]->mProperties[p]);
    }
    free(s->mat[i]->mProperties);
    free(s->mat[i]);
  }
  for (int i = 0; i < s->nchan; i++) {
    free(s->chan[i]->mPositionKeys);
    free(s->chan[i]->mRotationKeys);
    free(s->chan[i]->mScalingKeys);
    free(s->chan[i]);
  }
  for (int i = 0; i < s->nmeta; i++) free(s->meta_val[i].mData);
  if (s->sc->mAnimations) free(s->sc->mAnimations[0]);
  free(s->sc->mAnimations);
  free(s->sc->mMetaData);
  free(s->node);
  free(s->parent);
  free(s->mesh);
  free(s->mat);
  free(s->rgba);
  free(s->chan);
  free(s->meta_key);
  free(s->meta_val);
  free(s->sc);
  free(s);
}
