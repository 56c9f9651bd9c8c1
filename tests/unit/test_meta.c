/* test_meta.c — the take's name, frame-1 timing and metadata in exported files (exporters/meta.h):
 * the GLB's rewritten JSON chunk keeps the binary chunk and Assimp still reads the animation,
 * now one frame later; the FBX with user properties inserted stays well-formed, 16-byte aligned
 * and readable by Assimp, which finds the properties on the right node. */
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporters/demo.h"
#include "exporters/fbxfix.h"
#include "exporters/meta.h"
#include "exporters/motion.h"
#include "base/outfile.h"
#include "tests/unit/test.h"

static const char* META =
    "{\"name\":\"t7\",\"take_id\":\"0badf00d\",\"fps\":30,\"rig\":\"r\\u00e9\",\"channels\":[\"speed\",\"rpm\"],"
    "\"events\":[{\"time\":0.1,\"frame\":4,\"kind\":\"mark\",\"label\":\"up\"}],\"samples\":{\"speed\":[1.5,2.5]}}";

static const struct aiNode* find(const struct aiNode* n, const char* name) {
  if (strcmp(n->mName.data, name) == 0) return n;
  for (unsigned i = 0; i < n->mNumChildren; i++) {
    const struct aiNode* f = find(n->mChildren[i], name);
    if (f) return f;
  }
  return NULL;
}

static uint32_t u32(const unsigned char* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

MT_TEST(export_meta_glb_names_extras_and_first_key_one_frame_in) {
  ex_demo d;
  ex_demo_build(&d, 2.0, 0.001);
  ex_options o;
  ex_options_default(&o);
  o.prefix = "t7", o.frame1 = 1, o.extras_json = META;
  d.m.name = "t7";
  ex_report r;
  mt_err e = {0};
  char path[512];
  snprintf(path, sizeof path, "%s/meta.glb", mt_test_tmpdir());
  CHECK(ex_export(&d.m, &o, path, &r, &e) == MT_OK);
  size_t n;
  unsigned char* g = (unsigned char*)mt_read_file(path, &n, &e);
  CHECK(g && n > 28);
  /* GLB framing: total length, a space-padded JSON chunk of a multiple of 4, then the BIN chunk */
  uint32_t jl = u32(g + 12);
  CHECK(u32(g + 8) == n && jl % 4 == 0 && memcmp(g + 16, "JSON", 4) == 0);
  CHECK(20 + jl + 8 <= n && memcmp(g + 20 + jl + 4, "BIN", 3) == 0 && 20 + jl + 8 + u32(g + 20 + jl) == n);
  json_error_t je;
  json_t* doc = json_loadb((const char*)g + 20, jl, 0, &je);
  CHECK_MSG(doc != NULL, "JSON chunk: %s", je.text);
  json_t* m = json_object_get(json_object_get(doc, "extras"), "mototake");
  CHECK(json_is_string(json_object_get(m, "take_id")) && !strcmp(json_string_value(json_object_get(m, "take_id")), "0badf00d"));
  CHECK(json_real_value(json_array_get(json_object_get(json_object_get(m, "samples"), "speed"), 1)) == 2.5);
  json_t* nodes = json_object_get(doc, "nodes");
  json_t* root = json_array_get(nodes, (size_t)json_integer_value(json_array_get(json_object_get(json_array_get(json_object_get(doc, "scenes"), 0), "nodes"), 0)));
  CHECK(!strcmp(json_string_value(json_object_get(root, "name")), "t7"));
  json_t* x = json_object_get(root, "extras");
  CHECK(!strcmp(json_string_value(json_object_get(x, "event_list")), "4 up"));
  CHECK(!strcmp(json_string_value(json_object_get(x, "channel_list")), "speed,rpm"));
  CHECK(!strcmp(json_string_value(json_object_get(x, "rig")), "r\xc3\xa9"));
  CHECK(json_object_get(x, "samples") == NULL);   /* bulk data only at the top level */
  size_t i;
  json_t* nd;
  json_array_foreach(nodes, i, nd) {
    const char* nm = json_string_value(json_object_get(nd, "name"));
    CHECK_MSG(!strcmp(nm, "t7") || !strncmp(nm, "t7_", 3), "node %s is not prefixed", nm);
  }
  CHECK(!strcmp(json_string_value(json_object_get(json_array_get(json_object_get(doc, "animations"), 0), "name")), "t7_take"));
  json_decref(doc);
  free(g);
  /* Assimp reads the animation as before, one frame later: key 30 (t = 1 s, x = 60) at 1 + 1/30 s */
  const struct aiScene* s = aiImportFile(path, 0);
  CHECK_MSG(s != NULL, "Assimp cannot read %s: %s", path, aiGetErrorString());
  CHECK(s->mNumAnimations == 1 && s->mAnimations[0]->mNumChannels == 12);
  const struct aiAnimation* a = s->mAnimations[0];
  int seen = 0;
  for (unsigned c = 0; c < a->mNumChannels; c++) {
    const struct aiNodeAnim* ch = a->mChannels[c];
    CHECK_NEAR(ch->mPositionKeys[0].mTime / a->mTicksPerSecond, 1.0 / 30, 1e-6);
    if (strcmp(ch->mNodeName.data, "t7_chassis") == 0) {
      seen = 1;
      CHECK_NEAR(ch->mPositionKeys[30].mTime / a->mTicksPerSecond, 1.0 + 1.0 / 30, 1e-5);
      CHECK_NEAR(ch->mPositionKeys[30].mValue.x, 60.0, 1e-4);
    }
  }
  CHECK(seen);
  aiReleaseImport(s);
  ex_demo_free(&d);
}

MT_TEST(export_meta_fbx_user_properties_keep_the_stream_well_formed) {
  ex_demo d;
  ex_demo_build(&d, 1.0, 0.001);
  ex_options o;
  ex_options_default(&o);
  o.prefix = "t7", o.frame1 = 1, o.extras_json = META;
  d.m.name = "t7";
  mt_err e = {0};
  char path[512], plain[512];
  snprintf(path, sizeof path, "%s/meta.fbx", mt_test_tmpdir());
  snprintf(plain, sizeof plain, "%s/plain.fbx", mt_test_tmpdir());
  CHECK(ex_export(&d.m, &o, path, NULL, &e) == MT_OK);
  o.extras_json = NULL;
  CHECK(ex_export(&d.m, &o, plain, NULL, &e) == MT_OK);
  size_t n, n0;
  unsigned char* f = (unsigned char*)mt_read_file(path, &n, &e);
  unsigned char* f0 = (unsigned char*)mt_read_file(plain, &n0, &e);
  CHECK(f && f0 && n > n0);
  CHECK(ex_fbx_check(f, n) == EX_FBX_WELLFORMED && n % 16 == 0 && n0 % 16 == 0);
  /* the footer's last 144 bytes (version, zeros, magic) are unchanged */
  CHECK(memcmp(f + n - 144, f0 + n0 - 144, 144) == 0);
  free(f);
  free(f0);
  /* Assimp's FBX importer keeps user properties as node metadata: on the top body (the
   * root "t7" is dropped by Assimp 5.2's FBX writer; kept by a fixed one) */
  const struct aiScene* s = aiImportFile(path, 0);
  CHECK_MSG(s != NULL, "Assimp cannot read the FBX: %s", aiGetErrorString());
  const struct aiNode* holder = find(s->mRootNode, "t7");
  if (!holder) holder = find(s->mRootNode, "t7_chassis");
  CHECK(holder && holder->mMetaData);
  const struct aiMetadata* md = holder->mMetaData;
  int id = 0, fps = 0;
  for (unsigned k = 0; k < md->mNumProperties; k++) {
    if (!strcmp(md->mKeys[k].data, "mototake_take_id") && md->mValues[k].mType == AI_AISTRING)
      id = !strcmp(((const struct aiString*)md->mValues[k].mData)->data, "0badf00d");
    if (!strcmp(md->mKeys[k].data, "mototake_fps"))   /* Assimp reads FBX doubles as float */
      fps = md->mValues[k].mType == AI_DOUBLE ? *(const double*)md->mValues[k].mData == 30.0
            : md->mValues[k].mType == AI_FLOAT ? *(const float*)md->mValues[k].mData == 30.0f : 0;
  }
  CHECK_MSG(id && fps, "take id %d, fps %d among %u properties", id, fps, md->mNumProperties);
  CHECK(find(s->mRootNode, "t7_wheel_rear") != NULL);
  aiReleaseImport(s);
  /* a stream that is not a binary FBX is refused, not rewritten */
  size_t k;
  CHECK(ex_meta_inject_fbx((const unsigned char*)"Kaydara FBX Binary  \0\x1a\0\x4c\x1d\0\0", 27, "t7", NULL, META, &k) == NULL);
  CHECK(ex_meta_inject_gltf((const unsigned char*)"{\"nodes\":[]}", 12, 0, META, &k) == NULL);
  ex_demo_free(&d);
}
