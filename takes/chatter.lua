-- chatter — the memo's chatter test (seed 002, "Chatter"): a steady turn at 216 km/h and
-- about 53° of lean on the 400 m sweeper, with the frame softened at the steering head and
-- in the fork as the memo's run does ("frame stiffness and corresponding damping at the
-- steering head were reduced ... the steer damping was also reduced"): frame twist 10 kN·m/rad
-- (stock 34.1) at 20 N·m·s/rad (99.7), fork bending 10 kN·m/rad (38) at 5 N·m·s/rad (24),
-- steering damper 2 N·m·s/rad (6.944). The front assembly (steer, twist, bend) then rings at
-- about 25 Hz, lightly damped; a spectrum of steer_rate shows it (docs/vehicle.md, Chatter).
-- The stock frame keeps that mode near 45 Hz and well damped:
--   mototake run takes/chatter.lua -o out/chatter.take
--   mototake run takes/chatter.lua -o out/chatter_stock.take --set bodies.steering.joints.twist.spring.k=34100 ...
-- The rider holds the turn (sim/rider.h: above 56 m/s its roll-rate damping grows and its steer
-- stiffness softens, and its outer integrator may add 0.2 rad; with the 48 m/s gains and 0.1 rad
-- it lost the turn after 1.5 s, docs/linear.md): 2.5 s of steady turn before the tap, then 2.5 s
-- of ringing and the turn after it.
return {
  rig = "sport1000",
  track = "sweeper",
  overrides = {
    ["bodies.steering.joints.twist.spring.k"] = 10000, ["bodies.steering.joints.twist.spring.c"] = 20,
    ["bodies.fork_bend.joint.spring.k"] = 10000, ["bodies.fork_bend.joint.spring.c"] = 5,
    ["bodies.steering.joints.steer.spring.c"] = 2,
  },
  start = { station = 100, speed = 60, gear = 6 },  -- trimmed to the 400 m sweeper: 52.9° of lean
  duration = 5,
  rider = { line = "centre", speed = 60, posture = false },   -- the memo's rider sits still (its analysis assumes a fixed rider)
  -- a 10 ms tap of 40 N·m on the bars at 2.5 s (a kick from the road): it rings the front assembly
  inputs = { { steer_torque = 40, at = 2.5, hold = 0.01 } },
  -- linear models of the steady turn just before the tap: open (chatter_lin1) and closed loop
  -- (chatter_lin2, with the rider's loops: the one the recorded ringing follows; docs/linear.md)
  events = { { at = 2.49, linearise = { loop = "open" }, mark = "steady cornering" },
             { at = 2.49, linearise = { loop = "closed" } } },
}
