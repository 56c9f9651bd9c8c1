-- lowside — too much front brake in a corner. The ride is takes/lowside.lua: on the 100 m skidpad
-- at 72 km/h and 23° of lean (a left turn), the front brake grabbed at 2 s. Shown in two parts
-- of the same take, the chase view with the tyre forces against their friction ellipses: the
-- grab and the fall at a quarter speed, then the slide at full speed. The take's channels: the
-- front tyre's braking force −1.71 kN at 2.10 s on a load of 1.78 kN, its side force down from
-- 0.44 kN to 0.23-0.29 kN, its slip angle 28° at 2.4 s (the front slides out), the lean 23° →
-- 39° at 2.25 s, 77° at 2.5 s (on its side), at rest at 6.0 s.
return {
  title = "Lowside",
  about = "the front brake grabbed at 23° of lean: the front tyre slides out and it falls to the inside",
  parts = {
    { ride = "../lowside.lua", captions = "lowside.captions.lua", view = "chase", overlays = "forces",
      from = 1.0, to = 3.0, speed = 0.25, plot = "front_brake,lean,front_fx,front_fy,speed" },
    { ride = "../lowside.lua", captions = "lowside.captions.lua", view = "chase", overlays = "forces",
      from = 3.0, to = 6.5, speed = 1, plot = "front_brake,lean,front_fx,front_fy,speed" },
  },
}
