-- linear_200kph — the memo's "Bode Analysis (Road to Steer)" run (seed 002): 200 km/h at 15° of
-- lean, linearised once under way, with the road height under each tyre as inputs and the steer
-- angle as output (the memo's IMP_ZGND_1, IMP_ZGND_2 and EXP_steer). Upright, a vertical road
-- input does not reach the steering at all (the in-plane and lateral motions decouple); leaning,
-- it does. The machine starts in the solved steady turn and holds its bar torque and throttle
-- (no rider: the memo's analysis assumes a fixed rider). The event writes
-- Linear_200kph_Road_to_Steer.m (MatrixA..MatrixD, every variable named) and .json next to the
-- take; docs/linear.md loads it in GNU Octave. All states are linearised (none chosen).
return {
  rig = "sport1000",
  track = "straight",
  start = { station = 50, speed = 200 / 3.6, lean = 15 },
  duration = 1.2,
  rider = false,
  linear = { inputs = { "road_front", "road_rear" }, outputs = { "steer_angle" } },
  events = { { at = 1.0, linearise = "Linear_200kph_Road_to_Steer" } },
}
