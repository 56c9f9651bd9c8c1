/* armature.c — one rigidly skinned mesh over the body bones (see armature.h). */
#include "exporters/armature.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/xform.h"
#include "base/mt.h"

void ex_skin_add(ex_skin* k, const ex_mesh* m, const char* bone, const double bind[7]) {
  ex_mesh* s = &k->mesh;
  int first = s->nvert;
  /* grow through the shapes' own allocator: a one-triangle trimesh per call would be wasteful,
   * so copy directly with the arrays sized here */
  int nv = s->nvert + m->nvert, nt = s->ntri + m->ntri;
  s->pos = mt_realloc(s->pos, (size_t)(nv > 0 ? nv : 1) * 3 * sizeof(float));
  s->nrm = mt_realloc(s->nrm, (size_t)(nv > 0 ? nv : 1) * 3 * sizeof(float));
  s->col = mt_realloc(s->col, (size_t)(nv > 0 ? nv : 1) * 4 * sizeof(float));
  s->idx = mt_realloc(s->idx, (size_t)(nt > 0 ? nt : 1) * 3 * sizeof(unsigned));
  for (int i = 0; i < m->nvert; i++) {
    double p[3] = {m->pos[3 * i], m->pos[3 * i + 1], m->pos[3 * i + 2]};
    double n[3] = {m->nrm[3 * i], m->nrm[3 * i + 1], m->nrm[3 * i + 2]};
    ex_qrot(bind + 3, p, p);
    ex_qrot(bind + 3, n, n);
    for (int c = 0; c < 3; c++) {
      s->pos[3 * (first + i) + c] = (float)(p[c] + bind[c]);
      s->nrm[3 * (first + i) + c] = (float)n[c];
    }
    for (int c = 0; c < 4; c++) s->col[4 * (first + i) + c] = m->col ? m->col[4 * i + c] : 1.0f;
  }
  for (int t = 0; t < 3 * m->ntri; t++) s->idx[3 * s->ntri + t] = m->idx[t] + (unsigned)first;
  s->nvert = nv, s->ntri = nt;
  s->vcap = nv, s->tcap = nt;
  int b = ex_skin_bone(k, bone, bind);
  k->first[b] = first;
  k->count[b] = m->nvert;
}

int ex_skin_bone(ex_skin* k, const char* bone, const double bind[7]) {
  k->bone = mt_realloc(k->bone, (size_t)(k->nbone + 1) * sizeof *k->bone);
  k->bind = mt_realloc(k->bind, (size_t)(k->nbone + 1) * sizeof *k->bind);
  k->first = mt_realloc(k->first, (size_t)(k->nbone + 1) * sizeof *k->first);
  k->count = mt_realloc(k->count, (size_t)(k->nbone + 1) * sizeof *k->count);
  k->bone[k->nbone] = mt_strdup(bone);
  memcpy(k->bind[k->nbone], bind, sizeof k->bind[0]);
  k->first[k->nbone] = k->count[k->nbone] = 0;
  return k->nbone++;
}

void ex_skin_add_weighted(ex_skin* k, const ex_mesh* m, const int* bones, const ex_char_weights* w) {
  ex_mesh* s = &k->mesh;
  int first = s->nvert, nv = s->nvert + m->nvert, nt = s->ntri + m->ntri;
  s->pos = mt_realloc(s->pos, (size_t)(nv > 0 ? nv : 1) * 3 * sizeof(float));
  s->nrm = mt_realloc(s->nrm, (size_t)(nv > 0 ? nv : 1) * 3 * sizeof(float));
  s->col = mt_realloc(s->col, (size_t)(nv > 0 ? nv : 1) * 4 * sizeof(float));
  s->idx = mt_realloc(s->idx, (size_t)(nt > 0 ? nt : 1) * 3 * sizeof(unsigned));
  memcpy(s->pos + 3 * first, m->pos, (size_t)m->nvert * 3 * sizeof(float));
  memcpy(s->nrm + 3 * first, m->nrm, (size_t)m->nvert * 3 * sizeof(float));
  for (int i = 0; i < m->nvert; i++)
    for (int c = 0; c < 4; c++) s->col[4 * (first + i) + c] = m->col ? m->col[4 * i + c] : 1.0f;
  for (int t = 0; t < 3 * m->ntri; t++) s->idx[3 * s->ntri + t] = m->idx[t] + (unsigned)first;
  s->nvert = nv, s->ntri = nt, s->vcap = nv, s->tcap = nt;
  for (int i = 0; i < m->nvert; i++)
    for (int j = 0; j < 4; j++) {
      if (w[i].bone[j] < 0 || !(w[i].w[j] > 0)) continue;
      k->wv = mt_realloc(k->wv, (size_t)(k->nw + 1) * sizeof *k->wv);
      k->wb = mt_realloc(k->wb, (size_t)(k->nw + 1) * sizeof *k->wb);
      k->ww = mt_realloc(k->ww, (size_t)(k->nw + 1) * sizeof *k->ww);
      k->wv[k->nw] = (unsigned)(first + i), k->wb[k->nw] = bones[w[i].bone[j]], k->ww[k->nw] = w[i].w[j];
      k->nw++;
    }
}

int ex_skin_finish(ex_skin* k, ex_scene* sc, int parent, const char* name, int mat) {
  if (k->mesh.nvert == 0) return -1;
  char mesh_name[256];
  snprintf(mesh_name, sizeof mesh_name, "%s-mesh", name);
  int mi = ex_scene_mesh(sc, &k->mesh, mat, mesh_name);
  unsigned* vid = mt_alloc((size_t)(k->nw + 1) * sizeof *vid);
  float* w = mt_alloc((size_t)(k->nw + 1) * sizeof *w);
  for (int b = 0; b < k->nbone; b++) {
    if (k->count[b] > 0) {   /* a body's vertices, rigidly */
      ex_scene_mesh_bone(sc, mi, k->bone[b], k->bind[b], k->first[b], k->count[b]);
      continue;
    }
    int n = 0;   /* a character bone's weighted vertices (none: still a bone of the skin) */
    for (long i = 0; i < k->nw; i++)
      if (k->wb[i] == b) vid[n] = k->wv[i], w[n++] = k->ww[i];
    ex_scene_mesh_bone_weights(sc, mi, k->bone[b], k->bind[b], vid, w, n);
  }
  free(vid);
  free(w);
  const double id[7] = {0, 0, 0, 1, 0, 0, 0};
  return ex_scene_node(sc, name, parent, id, &mi, 1);
}

void ex_skin_free(ex_skin* k) {
  ex_mesh_free(&k->mesh);
  for (int b = 0; b < k->nbone; b++) free(k->bone[b]);
  free(k->bone);
  free(k->bind);
  free(k->first);
  free(k->count);
  free(k->wv);
  free(k->wb);
  free(k->ww);
  memset(k, 0, sizeof *k);
}
