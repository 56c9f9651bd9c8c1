#!/bin/sh
# A scripted Laguna Seca lap, recorded, verified and described; its channels as CSV.
bin/mototake run takes/laguna_lap.lua -o out/laguna_lap.take
bin/mototake take verify out/laguna_lap.take
bin/mototake take channels out/laguna_lap.take -o out/laguna_lap.csv --rate 20 \
  --channels station,speed,lean,steer_angle,steer_torque,throttle,front_brake,gear,rpm,front_load,rear_load
bin/mototake plot tyre sport1000 -o out/tyres.png
bin/mototake plot engine sport1000 -o out/engine.png
bin/mototake export out/laguna_lap.take -o out/laguna_lap.glb
