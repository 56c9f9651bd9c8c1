-- weave_payload — the lesson "weave" (takes/lessons/weave.render.lua): takes/weave.lua, the memo's
-- weave test (200 km/h, a 60 kg payload on the rear), with a gentler nudge (5 N·m for 0.1 s, not
-- 25) so the weave is seen growing for two seconds before it throws the machine down, and 5 s
-- long (it has fallen by 4.5 s). At 200 km/h the wobble is well damped and the payload makes the
-- weave (roll, yaw and steer together, about 3 Hz) the one unstable mode (docs/wobble.md).
-- The payload is folded into the frame body: its mass, centre of mass and inertia are
-- recomputed here with the parallel-axis theorem.
local m0, x0, z0 = 165.13, 0.6779, 0.4724          -- stock frame (SEL 2004)
local Ixx0, Iyy0, Izz0, Ixz0 = 11.085, 22.013, 14.982, 3.691
local mp, xp, zp = 60, 0.05, 0.85                   -- payload: over the rear wheel, above the seat
local m = m0 + mp
local x, z = (m0 * x0 + mp * xp) / m, (m0 * z0 + mp * zp) / m
local function shift(I, a, b, mass) return I + mass * (a * a + b * b) end
local Iyy = shift(Iyy0, x0 - x, z0 - z, m0) + mp * ((xp - x) ^ 2 + (zp - z) ^ 2)
local Ixx = shift(Ixx0, 0, z0 - z, m0) + mp * (zp - z) ^ 2
local Izz = shift(Izz0, x0 - x, 0, m0) + mp * (xp - x) ^ 2
local Ixz = Ixz0 + m0 * (x0 - x) * (z0 - z) + mp * (xp - x) * (zp - z)
return {
  rig = "sport1000",
  track = "straight",
  overrides = {
    ["bodies.frame.mass"] = m, ["bodies.frame.com.1"] = x, ["bodies.frame.com.3"] = z,
    ["bodies.frame.inertia.1"] = Ixx, ["bodies.frame.inertia.2"] = Iyy,
    ["bodies.frame.inertia.3"] = Izz, ["bodies.frame.inertia.5"] = Ixz,
  },
  start = { station = 50, speed = 200 / 3.6 },
  duration = 5,
  -- the memo's rider sits still (its analysis assumes a fixed rider): no rider loop, the machine
  -- holds the trim's bar torque and throttle (an active rider damps the weave: docs/takes.md)
  rider = false,
  inputs = { { at = 2.0, steer_torque = 5, hold = 0.1 } },
  events = { { at = 2.0, mark = "steer torque pulse" } },
}
