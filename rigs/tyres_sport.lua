-- tyres_sport — the sport1000's tyres on their own, for `mototake tyre` and `mototake plot tyre`:
-- Evangelou's Magic Formula fits of the 120/70 ZR17 front and 180/55 ZR17 rear (rigs/tyres/).
return {
  front = { preset = "evangelou_120_70_zr17_front" },
  rear = { preset = "evangelou_180_55_zr17_rear" },
}
