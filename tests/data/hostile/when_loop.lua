-- hostile: an event condition (called every step). First call: empties the channel table and
-- gives it a metatable whose __newindex never returns (the host refills the table every step).
-- Second call: swallows its own instruction limit in pcall, forever.
local calls = 0
return {
  rig = "sport1000", track = "straight", duration = 2,
  start = { station = 50, speed = 20 }, rider = { line = "centre", speed = 20 },
  events = { { when = function(c)
    calls = calls + 1
    if calls == 1 then
      for k in pairs(c) do c[k] = nil end
      setmetatable(c, { __newindex = function() while true do end end })
      return false
    end
    while true do pcall(function() while true do end end) end
  end, mark = "never" } },
}
