-- whipple_benchmark — the Whipple bicycle of the linearised-dynamics benchmark: Meijaard,
-- Papadopoulos, Ruina & Schwab 2007, Proc. R. Soc. A 463:1955-1982, Table 1 (as transcribed in
-- ../shared/data/whipple_benchmark.json). A validation rig for the linear analysis (docs/whipple.md),
-- not a motorcycle to ride.
--
-- The benchmark is four rigid bodies: the rear frame with its rider (B), the front frame —
-- handlebar and fork — (H), and two knife-edge wheels (R, F) rolling without slip on flat ground,
-- no damping, no tyre forces but the rolling constraints. Here:
--   * Axes: the benchmark's are x forward, y right, z down with the rear contact at the origin;
--     ours (docs/conventions.md) are x forward, y left, z up, so z flips sign and so do the
--     x–z products of inertia. Our rig files list products of inertia (∫x·z dm), the benchmark's
--     Table 1 gives the tensor's element (−∫x·z_down dm = ∫x·z_up dm): the same number.
--   * Wheels: the tyre model "rolling" (sim/tyre.h, docs/rig.md): a knife edge (crown 0.1 mm) on a
--     very stiff radial spring (10 MN/m: 0.06 mm of deflection) with a very stiff linear slip force
--     (k_slip, no relaxation, camber thrust or aligning moment): the non-holonomic rolling limit.
--   * The loader's motorcycle parts that the bicycle has not — fork slide, swingarm and its
--     shock linkage, engine and gearbox — are present but locked out of the result: fork and
--     swingarm are massless (1 g) and held by very stiff springs (they move in the symmetry plane
--     only, so about upright running they do not couple into the lateral modes at all), and the
--     engine makes no torque and its crank hardly turns (below).
--   * Timestep 10 µs: the stiff slip force is integrated explicitly (stable while
--     k_slip·h/(|Vx|·m) < 2 for the smallest mass a contact sees: a wheel's spin, I/R² = 1.3 kg).
-- Run it through the linear analysis (tests/unit/test_whipple.c), not with a rider.

local lambda = math.pi / 10                  -- steer axis tilt 18° (Table 1)
local w, c = 1.02, 0.08                      -- wheelbase, trail (m)
local rR, rF = 0.3, 0.35                     -- wheel radii (m)
local s, k = math.sin(lambda), math.cos(lambda)
local steer_axis = { -s, 0, k }              -- up and back along the head tube
-- The steering axis meets the ground one trail ahead of the front contact (x = w + c).
local function on_axis(z) return { w + c - z * s / k, 0, z } end

local gsxr = require("engine_gsxr1000")
-- The engine and gearbox, out of the way: the loader needs them, the bicycle has none. A copy of
-- the GSX-R1000's with no losses (friction, pumping), no air at a shut throttle (no bypass, plate
-- shut at 0°) and no idle governor, so it makes no torque at all; a 1 g·m² crank (the vehicle
-- gives the crank body half its spin inertia about the other two axes: 0.05 kg·m² would add
-- 0.025 to the rear frame's roll and yaw inertias, 0.001 adds 0.0005, 0.005 % of IBxx); and a
-- primary ratio of 0.001, so that in any gear the crank turns at about 1 rpm (its gyroscopic
-- moment is nil) — `mototake modes` chooses a gear, the tests run in neutral; both give the same
-- roots.
local engine = {}
for key, v in pairs(gsxr.engine) do engine[key] = v end
engine.idle_speed = 0
engine.inertia = 0.001
engine.bypass = 0
engine.closed_angle = 0
engine.friction = { 0, 0, 0 }
engine.pumping = { 0, 0 }
local drivetrain = {}
for key, v in pairs(gsxr.drivetrain) do drivetrain[key] = v end
drivetrain.primary = 0.001

-- Static wheel loads (N): the unloaded radius R0 is the benchmark's radius plus the radial spring's
-- deflection under them, so that the loaded rolling radius is the benchmark's.
local k_radial, g = 1e7, 9.80665
local masses = { { 85, 0.3 }, { 4, 0.9 }, { 3, w }, { 2, 0 } }   -- {mass, x}: B, H, F, R
local m_tot, mx = 0, 0
for _, p in ipairs(masses) do m_tot, mx = m_tot + p[1], mx + p[1] * p[2] end
local fz_front = m_tot * g * (mx / m_tot) / w
local fz_rear = m_tot * g - fz_front

local grey, black, blue = { 0.55, 0.55, 0.58, 1 }, { 0.1, 0.1, 0.1, 1 }, { 0.15, 0.25, 0.6, 1 }
local tiny = { 1e-6, 1e-6, 1e-6, 0, 0, 0 }

-- SEL 2004 bell-crank points (as sport1000): only the lock-out needs them to close
local p11 = { 0.549, 0, 0.3608 }             -- swingarm pivot
local linkage = {
  pivot = { 0.539, 0, 0.1878 }, crank_rod = { 0.4946, 0, 0.1522 }, crank_shock = { 0.4443, 0, 0.1782 },
  arm_rod = { 0.3722, 0, 0.2748 }, frame_shock = { 0.487, 0, 0.4888 },
}

return {
  name = "whipple_benchmark",
  timestep = 1e-5,

  bodies = {
    -- B: rear frame and rider, 85 kg at (0.3, 0, 0.9) m; IBxx 9.2, IByy 11, IBzz 2.8, IBxz 2.4 kg·m²
    { name = "frame", parent = "world", joint = { type = "free" },
      mass = 85, com = { 0.3, 0, 0.9 },
      inertia = { 9.2, 11, 2.8, 0, 2.4, 0 },
      shapes = {
        { type = "capsule", from = { 0, 0, rR }, to = on_axis(0.75), radius = 0.02, rgba = grey },
        { type = "capsule", from = { 0.3, 0, 0.55 }, to = { 0.3, 0, 1.2 }, radius = 0.15, rgba = blue },
      } },

    -- H: handlebar and fork, 4 kg at (0.9, 0, 0.7) m; IHxx 0.05892, IHyy 0.06, IHzz 0.00708,
    -- IHxz −0.00756 kg·m²; steering about the 18° axis, no damping
    { name = "steering", parent = "frame",
      joint = { type = "hinge", name = "steer", axis = steer_axis, anchor = on_axis(0.75) },
      mass = 4, com = { 0.9, 0, 0.7 },
      inertia = { 0.05892, 0.06, 0.00708, 0, -0.00756, 0 },
      shapes = {
        { type = "capsule", from = on_axis(0.75), to = { w, 0, rF }, radius = 0.015, rgba = grey },
        { type = "capsule", from = { 0.85, 0.25, 0.8 }, to = { 0.85, -0.25, 0.8 }, radius = 0.015, rgba = black },
      } },

    -- locked: the fork slide (massless, 10 MN/m)
    { name = "fork", parent = "steering",
      joint = { type = "slide", name = "fork", axis = steer_axis, anchor = { w, 0, rF },
                spring = { k = 1e7, c = 2e4 } },
      mass = 1e-3, com = { w, 0, rF }, inertia = tiny },

    -- F: front wheel, 3 kg, radius 0.35 m; IFxx = IFzz 0.1405, IFyy 0.28 kg·m²
    { name = "front_wheel", parent = "fork",
      joint = { type = "hinge", name = "front_spin", axis = { 0, 1, 0 }, anchor = { w, 0, rF } },
      mass = 3, com = { w, 0, rF },
      inertia = { 0.1405, 0.28, 0.1405, 0, 0, 0 },
      shapes = { { type = "torus", centre = { w, 0, rF }, axis = { 0, 1, 0 }, radius = rF - 0.01, minor = 0.01, rgba = black } } },

    -- locked: the swingarm (massless, held by the stiff shock below)
    { name = "swingarm", parent = "frame",
      joint = { type = "hinge", name = "swingarm", axis = { 0, 1, 0 }, anchor = p11 },
      mass = 1e-3, com = { 0.3, 0, 0.33 }, inertia = tiny },

    -- R: rear wheel, 2 kg, radius 0.3 m; IRxx = IRzz 0.0603, IRyy 0.12 kg·m²
    { name = "rear_wheel", parent = "swingarm",
      joint = { type = "hinge", name = "rear_spin", axis = { 0, 1, 0 }, anchor = { 0, 0, rR } },
      mass = 2, com = { 0, 0, rR },
      inertia = { 0.0603, 0.12, 0.0603, 0, 0, 0 },
      shapes = { { type = "torus", centre = { 0, 0, rR }, axis = { 0, 1, 0 }, radius = rR - 0.01, minor = 0.01, rgba = black } } },
  },

  rear_shock = {
    pivot = linkage.pivot, crank_rod = linkage.crank_rod, crank_shock = linkage.crank_shock,
    arm_rod = linkage.arm_rod, frame_shock = linkage.frame_shock,
    k = 1e8, c_comp = 1e5, c_reb = 1e5,
  },

  -- no lock within the benchmark's small motions
  steering = { lock = 1.3, k_lock = 0 },

  wheels = {
    front = { body = "front_wheel", tyre = { model = "rolling", R0 = rF + fz_front / k_radial, crown = 1e-4, k_radial = k_radial, c_radial = 2e4, k_slip = 2e5 } },
    rear  = { body = "rear_wheel",  tyre = { model = "rolling", R0 = rR + fz_rear / k_radial, crown = 1e-4, k_radial = k_radial, c_radial = 2e4, k_slip = 2e5 } },
  },

  engine = engine,
  drivetrain = drivetrain,
}
