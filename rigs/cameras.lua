-- cameras.lua — the camera rigs of the renderer's chase view (`mototake render --view chase
-- --camera NAME`; docs/render.md, "Chase view and cameras"). A list, in the order --help shows.
-- Lengths in metres, angles in degrees, times in seconds. Every field but name and kind is
-- optional (the defaults are the values below); a misspelt field is an error.
return {
  -- Behind and above the machine, looking at it along its heading: the velocity's direction
  -- (the frame's own heading when nearly still) smoothed by a Gaussian of `smooth` s, so the
  -- camera swings round a corner instead of snapping to every steering correction.
  { name = "chase", kind = "follow",
    distance = 5.5,          -- behind the frame's origin, along the smoothed heading
    height = 1.9,            -- eye above the frame's origin
    target_height = 0.4,     -- look-at point above the frame's origin
    fov = 50,                -- vertical field of view
    smooth = 0.4,            -- heading smoothing (Gaussian sigma, s; 0: none)
    draw_behind = 20, draw_ahead = 300 },   -- the road drawn around the machine's station

  -- Fixed points beside the track, every `spacing` m from station `first` (or at the listed
  -- `stations`; one station makes one fixed camera), `offset` m beyond the road's edge on the
  -- outside of the curve there, `height` m above the road. The point nearest the machine along
  -- the track is live; it pans to follow the machine and zooms so that a machine `size` m long
  -- fills `frame` of the picture's height, within fov_min..fov_max.
  { name = "trackside", kind = "trackside",
    spacing = 150, first = 0, offset = 6, side = "outside", height = 1.7,
    size = 2.2, frame = 0.3, fov_min = 4, fov_max = 45,
    draw_behind = 250, draw_ahead = 250 },

  -- On the frame, above the clip-ons in front of the rider's tucked helmet (the skeleton's rest
  -- pose, docs/rig.md; the earlier eye at x 0.70 m sat inside its chest), looking forward and a
  -- little down over the bars; the
  -- camera's up is the frame's z, so the horizon tilts as the machine leans. `eye` is in the
  -- rig's coordinates (x forward, y left, z up, from the rear contact), `look` in the body's axes.
  { name = "onboard", kind = "onboard",
    body = "frame", eye = { 1.15, 0.30, 0.72 }, look = { 1, -0.06, -0.04 }, fov = 70,
    draw_behind = 5, draw_ahead = 300 },
}
