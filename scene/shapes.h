/* shapes.h — a machine's visual shapes and their triangle meshes (scene layer, shared by
 * exporters/ and render/; the ex_ prefix is the exporter's, kept through the move).
 *
 * Contents:
 *   - ex_shape, ex_body: a visual shape (box, cylinder, capsule, sphere, torus) in its body's
 *     frame, and a body as a name, a parent and a borrowed array of shapes;
 *   - ex_shape_check: is a shape drawable (type known, sizes positive and finite);
 *   - ex_mesh and its builders: the triangles of shapes (at the exporter's tessellation or a
 *     coarser one, ex_tess), of a road surface and of painted lines, with per-vertex normals,
 *     in single precision as files store them.
 * Promises: a mesh grows as shapes are added (a body's shapes of one colour share one mesh);
 * the same shape and segment counts give the same vertices, bit for bit; nothing here reads
 * a file or fails (allocation failure ends the program, base/mt.h). The caller owns a mesh and
 * frees it with ex_mesh_free. */
#ifndef EX_SHAPES_H
#define EX_SHAPES_H

enum { EX_BOX = 1, EX_CYLINDER, EX_CAPSULE, EX_SPHERE, EX_TORUS };

typedef struct ex_shape {        /* visual shape, in the BODY's local frame (metres) */
  int type;                      /* EX_BOX: centre a, full size b (body axes)
                                    EX_CYLINDER, EX_CAPSULE: end points a, b (capsule: centres of
                                      the end hemispheres); radius
                                    EX_SPHERE: centre a; radius
                                    EX_TORUS: centre a; axis (need not be unit); radius = major
                                      (centre to tube centre), minor = tube radius */
  double a[3], b[3], axis[3], radius, minor;
  double rgba[4];                /* linear colour 0..1; alpha < 1 makes a blended material */
} ex_shape;

typedef struct ex_body {
  const char* name;              /* node name (sanitised and made unique on export) */
  int parent;                    /* index of the parent body, or -1 for a top-level body */
  const ex_shape* shapes;
  int nshape;
} ex_body;

/* Tessellation: enough that a wheel reads as round at full-HD close-ups, small enough that a
 * bike of a dozen parts stays around 10k triangles. */
#define EX_SEG_ROUND 48     /* around a torus's axis (a wheel's rim) */
#define EX_SEG_TUBE 16      /* around a torus's tube */
#define EX_SEG_CYL 32       /* around cylinders, capsules and spheres */
#define EX_SEG_CAP 8        /* rings per hemisphere (spheres get twice this) */

typedef struct ex_mesh {
  int nvert, ntri;
  float* pos;        /* nvert × 3 */
  float* nrm;        /* nvert × 3, unit */
  unsigned* idx;     /* ntri × 3 */
  float* col;        /* nvert × 4 linear RGBA vertex colours, or NULL (ex_mesh_paint) */
  float* uv;         /* nvert × 2 texture coordinates, or NULL (ex_mesh_vertex with uv) */
  int vcap, tcap;
} ex_mesh;

/* Check a shape's fields (type known, sizes positive and finite); 0 if valid, else the
 * name of the offending field. */
const char* ex_shape_check(const ex_shape* s);
/* Append the triangles of shape s (body frame). */
void ex_mesh_add_shape(ex_mesh* m, const ex_shape* s);
/* The same with other segment counts (the chase view's coarser solids): each is clamped to
 * [3, its EX_SEG_ default] ([1, EX_SEG_CAP] for cap); t = NULL: the defaults. */
typedef struct ex_tess { int round, tube, cyl, cap; } ex_tess;
void ex_mesh_add_shape_tess(ex_mesh* m, const ex_shape* s, const ex_tess* t);
/* Append a triangle mesh given by double vertices and int indices (normals averaged over the
 * triangles that share a vertex, weighted by area). */
void ex_mesh_add_trimesh(ex_mesh* m, const double* vert, int nvert, const int* tri, int ntri);
/* Append a flat ribbon of the given width along a polyline, lifted by lift along +z. */
void ex_mesh_add_ribbon(ex_mesh* m, const double* pts, int npts, double width, double lift);
/* Append one vertex (normal n need not be unit; uv may be NULL) and return its index; append one
 * triangle of existing vertex indices, anticlockwise seen from the side n points to. */
int ex_mesh_vertex(ex_mesh* m, const double p[3], const double n[3], const double uv[2]);
void ex_mesh_triangle(ex_mesh* m, int a, int b, int c);
/* Append a copy of src's vertices (with its UVs, if any; not its colours) and triangles. */
void ex_mesh_append(ex_mesh* m, const ex_mesh* src);
/* Map every vertex and normal from z-up to y-up: (x, y, z) → (x, z, -y). */
void ex_mesh_to_yup(ex_mesh* m);
/* Colour vertices from..nvert-1 with rgba (a multi-colour part in one mesh); the first call
 * gives the vertices before `from` white. */
void ex_mesh_paint(ex_mesh* m, int from, const double rgba[4]);
void ex_mesh_free(ex_mesh* m);

#endif
