-- hostile: a track 1e12 m long (the road mesh counted its vertices in an int)
return { name = "huge", segments = { { length = 1e12, left_half_width = 6, right_half_width = 6,
  curvature = 0, slope = 0, superelevation = 0 } } }
