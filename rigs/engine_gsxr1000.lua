-- engine_gsxr1000.lua — engine and drivetrain of a GSX-R1000-class (K5-type) sports bike.
--
-- Returns { engine = {...}, drivetrain = {...} }: use it on its own
-- (`mototake engine engine_gsxr1000 --rpm 9000 --throttle 1`) or from a rig file
-- (`engine = require("engine_gsxr1000").engine`). All values in SI through `units`.
-- Models and the fit of the maps: docs/engine.md and docs/drivetrain.md.
--
-- Sources. [S] Suzuki data as quoted in shared/notes/slipstream-techne-facts.md §2.3
-- (118 N·m at 9000 rpm, ~130 kW at 11000 rpm; gears 2.562/2.052/1.714/1.500/1.360/1.269,
-- primary 1.553, final 44/17). [T] Techne fourstroke.c defaults (same notes §1.6, §2.4).
-- [SEL] Sharp, Evangelou & Limebeer 2004 geometry, shared/data/sharp_motorcycle.json.
-- [E] our estimate, reasoned in the docs. [F] fitted (docs/engine.md, "Fitting the maps").

return {
  engine = {
    name = "GSX-R1000-class inline four",
    displacement = units.cc(999),          -- [S] 73.4 x 59.0 mm bore x stroke, 4 cylinders
    cylinders = 4,
    inertia = 0.05,                         -- kg·m², crank + clutch primary at crank speed [E]
    throttle_diameter = units.mm(44),       -- per cylinder (K5-type bodies) [E]
    discharge = 0.8,                        -- Cd of the plates [E]
    closed_angle = units.deg(5),            -- [T]
    open_angle = units.deg(90),             -- fully open plate
    bypass = 0.001,                         -- idle air, fraction of the bores' area [E]
    -- eta_v = v0 + v1·w + v2·w² + v3·pm   (w in rad/s, pm in Pa) [F]
    volumetric = { 0.156, 1.6047e-3, -7.5498e-7, 1.0e-6 },
    -- eta_t = t0 + t1·w + t2·w²: 0.28 at rest, peak 0.42 at 9000 rpm [E]
    thermal = { 0.28, 2.9709e-4, -1.5761e-7 },
    -- gas exchange p_me0g = a·(1 − b·pm/p0), Pa: 0.81 bar shut, 0.09 bar wide open [E]
    pumping = { 0.9e5, 0.9 },
    -- friction p_me0f = c + d·w + e·w², Pa: 0.4 bar + 0.04 bar/(m/s)·Sp + 0.0008 bar/(m/s)²·Sp²,
    -- Sp = stroke·w/pi the mean piston speed (59 mm stroke) [E]
    friction = { 4.0e4, 75.121, 0.028216 },
    idle_speed = units.rpm(1200),           -- held by the idle governor
    idle_gain = 4,                          -- governor floor is gone at 1500 rpm
    rev_limit = units.rpm(13500),           -- fuel cut from here ... [E]
    limiter_band = units.rpm(150),          -- ... to all fuel cut 150 rpm higher
    stall_speed = units.rpm(500),           -- firing fades out below this, none below 250 rpm
    ambient_pressure = 1e5,                 -- [T]
    ambient_temperature = 293,              -- K [T]
    manifold_temperature = 303,             -- K [T]
    lhv = 45e6,                             -- J/kg [T]
    afr = 14.7,                             -- [T]
    -- Overrun (throttle shut above 2200 rpm, fading in from 1650): the ECU cuts the fuel and lets
    -- in air (ride-by-wire opening or an air valve) to hold the manifold at 20 kPa, the middle of
    -- the 15-25 kPa of a real overrun [E from workshop-manual vacuum figures, docs/engine.md].
    overrun_pressure = 20000,
    overrun_speed = units.rpm(2200),
  },

  drivetrain = {
    primary = 1.553,                                      -- [S]
    gears = { 2.562, 2.052, 1.714, 1.500, 1.360, 1.269 }, -- [S]
    chain = {
      pitch = units.inch(5 / 8),            -- 530 chain, 15.875 mm
      teeth_output = 17,                    -- [S] final 44/17
      teeth_rear = 44,
      -- Output sprocket on the frame, 66 mm ahead of and 4 mm above the swingarm pivot
      -- p11 = (0.549, 0, 0.3608) [SEL]: anti-squat about 1.1 at the SEL pose [E].
      output_sprocket = { 0.615, 0, 0.365 },
      rear_sprocket = { 0, 0, 0.297 },      -- the rear axle p7 [SEL]
    },
    clutch = {
      capacity = 180,                       -- N·m at the crank, ~1.5 x peak torque [E]
      slip_speed = 30,                      -- rad/s, regularisation (docs/drivetrain.md). Explicit-step
      -- stability needs slip_speed > C·h/(2·J) with J the SMALLER inertia on either side: in first
      -- gear the rear wheel seen from the crank is 0.64/10.3² = 0.006 kg·m², so > 15 rad/s at 1 kHz
    },
    brakes = {
      front = 1600,                         -- N·m at the wheel, lever fully on [E]
      rear = 600,                           -- N·m at the wheel, pedal fully on [E]
      slip_speed = 2.0,                     -- rad/s, regularisation through zero speed. Explicit-step
      -- stability needs slip_speed > C·h/(2·J) for a wheel free of the road (in the air, or lying
      -- on its side): 1600·0.001/(2·0.484) = 1.65 rad/s for the front; at 0.5 a locked wheel in the
      -- air chattered ±1600 N·m every step
    },
  },
}
