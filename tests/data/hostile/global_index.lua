-- hostile: a good rig, then `require` hidden behind a _G metatable that never returns (the host
-- looked the global up, outside any pcall, to load the tyre presets)
local rig = require("sport1000")
require = nil
setmetatable(_G, { __index = function() while true do end end })
return rig
