/* road.h — what a wheel asks of the road: the surface under a point.
 *
 * The tyre module does not know how roads are built; it asks through this interface, which
 * the parametric track (sim/track.h) implements. World frame: x east, y north, z up, metres. */
#ifndef ROAD_H
#define ROAD_H

typedef struct road_point {
  int on_road;        /* 1 if (x, y) lies within the road's edges */
  double z;           /* surface height under (x, y) */
  double n[3];        /* unit surface normal there (z component > 0) */
  double s;           /* station along the centre line (m) */
  double offset;      /* lateral offset from the centre line, positive to the left (m) */
  int segment;        /* 0-based segment index */
  int hint;           /* pass this back as the next query's hint (the road's own index) */
  /* What the ground is under (x, y) (sim/track_surface.h): 0 = the tarmac, where grip and
   * rolling are not read (a zeroed road_point is tarmac); off the road the kerb, grass or
   * gravel with its friction scale and rolling-resistance coefficient. */
  int surface;
  double grip, rolling;
} road_point;

/* Surface under world (x, y). `hint` is the previous answer's `hint` (or -1), for speed.
 * Returns 0 on success (also when off the road: then on_road = 0, z and n describe the
 * nearest road cross-section extended outward and surface says what lies there). */
typedef int (*road_query_fn)(const void* road, double x, double y, int hint, road_point* out);

typedef struct road {
  const void* self;
  road_query_fn query;
} road;

#endif
