-- sport1000 — the Sharp–Evangelou–Limebeer (2004) sports motorcycle, GSX-R1000 class.
--
-- Design frame (as in the paper): origin at the rear tyre's ground contact, x forward, y left,
-- z up, metres, the machine upright in its reference (loaded) pose; every joint coordinate is
-- zero there. Geometry points p2…p22, masses and inertias: SEL 2004 as transcribed in
-- ../shared/data/sharp_motorcycle.json (EoM reproduction, secondary). Where that data has gaps
-- (frame twist, aerodynamics, rider lean, crown radii, chain, steering lock) the values below
-- are our choices; each says where it came from. See docs/rig.md.

local caster = 0.4189                          -- rad (24°), steering-axis tilt back from vertical
local s, c = math.sin(caster), math.cos(caster)
local steer_axis = {-s, 0, c}                  -- up along the steering head
local twist_axis = {c, 0, s}                   -- perpendicular to it, in the symmetry plane

-- SEL 2004 geometry points (design frame, metres)
local p2  = {1.173, 0, 0.749}    -- steering head joint (twist axis too)
local p3  = {1.164, 0, 0.770}    -- upper fork (steering body) centre of mass
local p4  = {1.342, 0, 0.426}    -- fork slider joint
local p5  = {1.365, 0, 0.324}    -- lower fork centre of mass
local p6  = {1.410, 0, 0.282}    -- front wheel centre
local p7  = {0.000, 0, 0.297}    -- rear wheel centre
local p8  = {0.6779, 0, 0.4724}  -- main frame centre of mass (frame, engine, lower rider)
local p9  = {0.364, 0, 0.8438}   -- rider upper body to seat joint
local p10 = {0.415, 0, 1.140}    -- rider upper body centre of mass
local p11 = {0.549, 0, 0.3608}   -- swing-arm pivot
local p13 = {0.487, 0, 0.4888}   -- rear shock, frame end
local p14 = {0.196, 0, 0.3113}   -- swing-arm centre of mass
local p19 = {0.539, 0, 0.1878}   -- bell-crank pivot
local p20 = {0.4946, 0, 0.1522}  -- pull rod, bell-crank end
local p21 = {0.4443, 0, 0.1782}  -- rear shock, bell-crank end
local p22 = {0.3722, 0, 0.2748}  -- pull rod, swing-arm end

-- The rider's upper body split (docs/rig.md, "Rider posture"): SEL 2004's upper body (33.68 kg,
-- com p10, inertia about p10) = lower trunk + torso. Lower-trunk share 0.259 = Dempster's abdomen
-- (0.139 of body mass) over abdomen + thorax + head/neck + arms (0.536; Winter's table), the
-- segments SEL's 33.68 kg stands for (about 47 % of a 72 kg rider: the pelvis and legs ride in the
-- frame mass). Its com on the spine line p9 → shoulders, 0.16 m above p9; inertia of a solid
-- 0.20 × 0.34 × 0.16 m block. The torso is the remainder, so the sum is SEL's upper body exactly.
local upper_mass, upper_I = 33.68, { 1.428, 1.347, 0.916, 0, -0.443, 0 }
local function upper_body_split(share, com, box)
  local m = upper_mass * share
  local pel = { mass = m, com = com,
                inertia = { m / 12 * (box[2]^2 + box[3]^2), m / 12 * (box[1]^2 + box[3]^2), m / 12 * (box[1]^2 + box[2]^2), 0, 0, 0 } }
  local mt = upper_mass - m
  local ct = {}
  for k = 1, 3 do ct[k] = (upper_mass * p10[k] - m * com[k]) / mt end
  -- parallel axes about p10: moments m·(d² − d_k²), products m·d_i·d_j (rig inertias list products)
  local function shift(mass, c)
    local d = { c[1] - p10[1], c[2] - p10[2], c[3] - p10[3] }
    return { mass * (d[2]^2 + d[3]^2), mass * (d[1]^2 + d[3]^2), mass * (d[1]^2 + d[2]^2),
             mass * d[1] * d[2], mass * d[1] * d[3], mass * d[2] * d[3] }
  end
  local sp, st = shift(m, com), shift(mt, ct)
  local It = {}
  for k = 1, 6 do It[k] = upper_I[k] - pel.inertia[k] - sp[k] - st[k] end
  return pel, { mass = mt, com = ct, inertia = It }
end
local pelvis, torso = upper_body_split(0.139 / 0.536, {0.40, 0, 1.00}, {0.20, 0.34, 0.16})
-- the torso's moment of inertia about the pitch axis through p9 (for the pitch muscle's gains)
local torso_pitch_inertia = torso.inertia[2] + torso.mass * ((torso.com[1] - p9[1])^2 + (torso.com[3] - p9[3])^2)

local black, grey, red, blue, skin =
  {0.1, 0.1, 0.1, 1}, {0.55, 0.55, 0.58, 1}, {0.75, 0.1, 0.1, 1}, {0.15, 0.25, 0.6, 1}, {0.85, 0.7, 0.55, 1}

return {
  name = "sport1000",
  timestep = 0.001,

  bodies = {
    { name = "frame", parent = "world", joint = { type = "free" },
      mass = 165.13, com = p8,
      inertia = { 11.085, 22.013, 14.982, 0, 3.691, 0 },     -- Ixx Iyy Izz Ixy Ixz Iyz
      shapes = {
        { type = "box", centre = {0.62, 0, 0.50}, size = {0.62, 0.30, 0.30}, rgba = red },      -- engine + tank
        { type = "capsule", from = p11, to = p2, radius = 0.04, rgba = grey },                   -- spar
        { type = "box", centre = {0.30, 0, 0.74}, size = {0.45, 0.26, 0.10}, rgba = black },     -- seat
        { type = "capsule", from = {0.42, 0, 0.84}, to = {0.62, 0, 0.36}, radius = 0.07, rgba = blue }, -- rider's legs
      } },

    -- The rider's upper body (SEL 2004: 33.68 kg, com p10, inertia about p10 as below; the legs and
    -- pelvis are in the frame's mass), split in two so that posture moves mass (docs/rig.md):
    -- rider_pelvis, the lower trunk, slides across the seat (hip_shift) and leans at the seat
    -- joint p9 (rider_lean, SEL's lean freedom); rider_torso (chest, head, arms) pitches forward on
    -- it at p9 (torso_pitch, the tuck). The torso's mass, com and inertia are whatever makes the
    -- pair add up to SEL's upper body exactly at neutral posture (upper_body_split below).
    -- Each posture joint is a "muscle": a spring-damper toward a moving set-point the rider
    -- decides (veh_input.posture, sim/posture.c); at ωn = 30 rad/s, ζ = 0.707 (the neuromuscular
    -- figures of Hess/Moore, ../shared/notes/virtual-rider.md), except the lean, kept at SL2001's.
    { name = "rider_pelvis", parent = "frame",
      joints = {
        { type = "slide", name = "hip_shift", axis = {0, -1, 0}, anchor = p9,   -- positive: to the right
          spring = { k = upper_mass * 30^2, c = 2 * 0.707 * 30 * upper_mass, target = "hip_shift" } },
        { type = "hinge", name = "rider_lean", axis = {1, 0, 0}, anchor = p9,   -- positive: leans right
          -- SEL 2004 gives no rider restraint; Sharp & Limebeer 2001's rider (Kp 10 kN·m/rad,
          -- Cp 85.2 N·m·s/rad) puts the lean mode near the 11.7 Hz the thesis quotes.
          spring = { k = 10000, c = 85.2, target = "torso_lean" } },
      },
      mass = pelvis.mass, com = pelvis.com, inertia = pelvis.inertia,
      shapes = {
        { type = "capsule", from = {0.36, -0.11, 0.86}, to = {0.36, 0.11, 0.86}, radius = 0.10, rgba = blue },   -- hips
        { type = "capsule", from = {0.37, 0, 0.88}, to = {0.40, 0, 1.02}, radius = 0.13, rgba = blue },          -- lower trunk
      } },

    { name = "rider_torso", parent = "rider_pelvis",
      joint = { type = "hinge", name = "torso_pitch", axis = {0, 1, 0}, anchor = p9,   -- positive: forward (tuck)
                spring = { k = torso_pitch_inertia * 30^2, c = 2 * 0.707 * 30 * torso_pitch_inertia, target = "torso_pitch" } },
      mass = torso.mass, com = torso.com, inertia = torso.inertia,
      shapes = {
        { type = "capsule", from = {0.41, 0, 1.02}, to = {0.47, 0, 1.30}, radius = 0.16, rgba = blue },      -- chest
        { type = "sphere", centre = {0.52, 0, 1.42}, radius = 0.12, rgba = grey },                -- helmet
        { type = "capsule", from = {0.50, 0, 1.24}, to = {0.98, 0, 0.86}, radius = 0.05, rgba = blue }, -- arms
      } },

    { name = "steering", parent = "frame",
      joints = {
        -- Frame twist at the steering head (Sharp & Limebeer 2001: 34.1 kN·m/rad, 99.7 N·m·s/rad;
        -- the 2004 data omits it): needed for wobble and chatter.
        { type = "hinge", name = "twist", axis = twist_axis, anchor = p2,
          spring = { k = 34100, c = 99.7 } },
        { type = "hinge", name = "steer", axis = steer_axis, anchor = p2,
          -- steering damper 6.944 N·m·s/rad (Evangelou thesis §9.1, secondary)
          spring = { k = 0, c = 6.944 } },
      },
      mass = 9.99, com = p3,
      inertia = { 1.341, 1.548, 0.4125, 0, 0, 0 },
      shapes = {
        { type = "capsule", from = {1.09, 0, 0.93}, to = p4, radius = 0.028, rgba = grey },       -- stanchions
        { type = "box", centre = {1.16, 0, 0.80}, size = {0.10, 0.62, 0.05}, rgba = black },      -- clip-ons
      } },

    -- The lower fork (SEL: 7.25 kg at p5, inertia 0.25/0.25/0.05 kg·m² about p5) is split in two:
    -- the sliders (5.25 kg) on the fork slide, and 2 kg of axle clamps and calipers below the
    -- bending hinge; together they keep SEL's mass, centre of mass and inertia exactly (docs/rig.md).
    { name = "fork", parent = "steering",
      joint = { type = "slide", name = "fork", axis = steer_axis, anchor = p4,
                -- x = compression along the steering axis (the slider moves up).
                spring = { k = 25000, preload = 300, c_comp = 2134, c_reb = 2134,
                           travel = { -0.045, 0.075 }, k_stop = 2.0e6 } },
      mass = 5.25, com = {(7.25 * p5[1] - 2.0 * 1.40) / 5.25, 0, (7.25 * p5[3] - 2.0 * 0.30) / 5.25},
      inertia = { 0.2384091, 0.2350258, 0.0416167, 0, 0.00232, 0 },
      shapes = {
        { type = "capsule", from = p4, to = p6, radius = 0.035, rgba = grey },                    -- sliders
      } },

    { name = "fork_bend", parent = "fork",
      -- Lateral bending compliance of the fork: a hinge perpendicular to the steering axis, in the
      -- symmetry plane, 0.30 m above the axle along the fork (0.58 m above the road). Stiffness
      -- 38 kN·m/rad (Cossalter, Motorcycle Dynamics, 2nd ed., Table 7.2, via a secondary
      -- transcription); damping 24 N·m·s/rad, our estimate for about 5 % of critical.
      joint = { type = "hinge", name = "fork_bend", axis = twist_axis, anchor = {1.276424, 0, 0.582},
                spring = { k = 38000, c = 24 } },
      mass = 2.0, com = {1.40, 0, 0.30},
      inertia = { 0.01, 0.01, 0.005, 0, 0, 0 },
      shapes = {
        { type = "box", centre = {1.40, 0, 0.30}, size = {0.08, 0.20, 0.06}, rgba = grey },     -- axle clamps
      } },

    { name = "front_wheel", parent = "fork_bend",
      joint = { type = "hinge", name = "front_spin", axis = {0, 1, 0}, anchor = p6 },
      mass = 11.9, com = p6,
      inertia = { 0.27, 0.484, 0.27, 0, 0, 0 },
      shapes = { { type = "torus", centre = p6, axis = {0, 1, 0}, radius = 0.24, minor = 0.06, rgba = black } } },

    { name = "swingarm", parent = "frame",
      joint = { type = "hinge", name = "swingarm", axis = {0, 1, 0}, anchor = p11 },
      mass = 8.0, com = p14,
      inertia = { 0.02, 0.259, 0.259, 0, 0, 0 },
      shapes = {
        { type = "box", centre = {0.27, 0, 0.33}, size = {0.58, 0.22, 0.06}, rgba = grey },
      } },

    { name = "rear_wheel", parent = "swingarm",
      joint = { type = "hinge", name = "rear_spin", axis = {0, 1, 0}, anchor = p7 },
      mass = 14.7, com = p7,
      inertia = { 0.383, 0.638, 0.383, 0, 0, 0 },
      shapes = { { type = "torus", centre = p7, axis = {0, 1, 0}, radius = 0.225, minor = 0.09, rgba = black } } },
  },

  -- Rear suspension: bell crank and pull rod at the SEL 2004 points; the shock acts between p13
  -- (frame) and p21 (crank). Spring 55 kN/m + 3.57 kN/m damper gas spring, damping 9.6 kN·s/m
  -- bump / 13.7 kN·s/m rebound (Evangelou thesis §9.1 via the secondary source).
  rear_shock = {
    pivot = p19, crank_rod = p20, crank_shock = p21, arm_rod = p22, frame_shock = p13,
    k = 58570, preload = 800, c_comp = 9600, c_reb = 13700,
    travel = { -0.025, 0.045 },        -- shock compression from the reference length (m)
    k_stop = 5.0e6,
    link_mass = 1.2,
  },

  steering = { lock = math.rad(28), k_lock = 2000 },
  -- The rider's hands on the bars: the passive steering impedance of arms and hands reduced to
  -- the steering axis (sim/rig.h rig_arms; sources and values in docs/rider_arms.md).
  rider = { arms = { inertia = 0.10, k = 20, c = 5 } },
  -- The ride window's hand controls (sim/controls.h, docs/ride.md): bar torque per pixel of the
  -- rubber band = (sens_const + sens_speed·V)·(1 + sens_lean·3|θ|/π), Slipstream manual §2 read
  -- as a product (sens_sum = 1: the sum as printed); pixels for full throttle and full brake.
  controls = { sens_const = 0.0005, sens_speed = 0.004, sens_lean = 1.35, sens_sum = 0,
               throttle_px = 200, brake_px = 200, rear_brake = 0.3, max_torque = 150,
               assist_lean = 0.004, pad_torque = 30 },

  -- Payload on the pillion seat (none by default): `--set payload.mass=60` loads the memo's "weave
  -- w/ payload" case (seed 002: 60 kg on the back seat). Our placement: a 0.35 × 0.40 × 0.40 m
  -- load whose centre is 0.2 m above the pillion seat's top (x 0.15, z 1.00); docs/rig.md.
  payload = { mass = 0, x = 0.15, y = 0, z = 1.00, size = { 0.35, 0.40, 0.40 } },

  wheels = {
    front = { body = "front_wheel", tyre = { preset = "evangelou_120_70_zr17_front" } },
    rear  = { body = "rear_wheel",  tyre = { preset = "evangelou_180_55_zr17_rear" } },
  },

  -- Aerodynamics: Cd·A 0.312 m² and Cl·A 0.114 m² (Sharp & Limebeer 2001 parameter file, the same
  -- class of machine); centre of pressure there at (0.77, 0.582) m. We take 0.312 for the rider's
  -- neutral (SEL) posture. Tucked (torso 30° forward) 0.30 m², sitting up (10° back) 0.38 m²:
  -- tucked is 21 % below sitting up, inside the 15–30 % quoted in ../shared/notes/model-data.md §d,
  -- and both within Katz's 0.30–0.50 m² for motorcycles (Automotive Aerodynamics, 2016, p.302).
  aero = { cd_area = 0.312, cl_area = 0.114, centre = {0.77, 0, 0.582}, rho = 1.2,
           posture = { tucked = { pitch = math.rad(30), cd_area = 0.30 },
                       upright = { pitch = math.rad(-10), cd_area = 0.38 } } },

  -- Contact spheres: what touches the road when the machine falls (sim/contact.h, docs/rig.md).
  -- Centres in the design frame; friction against asphalt: metal parts 0.45 (Day & Smith 1984:
  -- downed unfaired machines 0.45–0.58 g on asphalt), fairing plastic 0.3 (Raftery 1995: faired
  -- machine 0.26 g, 0.33 g with the fairing off), rider's leathers 0.55 and helmet 0.3 (our
  -- estimates). Penalty stiffness 150 kN/m and damping 1.5 kN·s/m by default: a machine lying on
  -- three or four of them sinks 4–6 mm (our choice; see docs/rig.md).
  contacts = {
    { name = "left_peg",       body = "frame",    point = {0.30,  0.20, 0.32}, radius = 0.02,  mu = 0.45 },
    { name = "right_peg",      body = "frame",    point = {0.30, -0.20, 0.32}, radius = 0.02,  mu = 0.45 },
    { name = "left_case",      body = "frame",    point = {0.55,  0.16, 0.36}, radius = 0.05,  mu = 0.45 },
    { name = "right_case",     body = "frame",    point = {0.55, -0.16, 0.36}, radius = 0.05,  mu = 0.45 },
    { name = "left_fairing",   body = "frame",    point = {1.00,  0.17, 0.60}, radius = 0.06,  mu = 0.3 },
    { name = "right_fairing",  body = "frame",    point = {1.00, -0.17, 0.60}, radius = 0.06,  mu = 0.3 },
    { name = "left_tail",      body = "frame",    point = {0.02,  0.10, 0.78}, radius = 0.05,  mu = 0.3 },
    { name = "right_tail",     body = "frame",    point = {0.02, -0.10, 0.78}, radius = 0.05,  mu = 0.3 },
    { name = "left_knee",      body = "frame",    point = {0.58,  0.20, 0.52}, radius = 0.05,  mu = 0.55 },
    { name = "right_knee",     body = "frame",    point = {0.58, -0.20, 0.52}, radius = 0.05,  mu = 0.55 },
    { name = "left_bar_end",   body = "steering", point = {1.16,  0.31, 0.80}, radius = 0.025, mu = 0.45 },
    { name = "right_bar_end",  body = "steering", point = {1.16, -0.31, 0.80}, radius = 0.025, mu = 0.45 },
    { name = "left_shoulder",  body = "rider_torso",point = {0.46,  0.19, 1.24}, radius = 0.07,  mu = 0.55 },
    { name = "right_shoulder", body = "rider_torso",point = {0.46, -0.19, 1.24}, radius = 0.07,  mu = 0.55 },
    { name = "helmet",         body = "rider_torso",point = {0.52,  0.00, 1.42}, radius = 0.12,  mu = 0.3 },
  },

  engine = require("engine_gsxr1000").engine,
  drivetrain = require("engine_gsxr1000").drivetrain,
}
