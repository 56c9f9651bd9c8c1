-- hostile: an event condition (called every step). First call: tries to empty the read-only channel
-- view (caught) and gives it a metatable whose __newindex never returns (the host writes nothing).
-- Second call: swallows its own instruction limit in pcall, forever.
local calls = 0
return {
  rig = "sport1000", track = "straight", duration = 2,
  start = { station = 50, speed = 20 }, rider = { line = "centre", speed = 20 },
  events = { { when = function(c)
    calls = calls + 1
    if calls == 1 then
      pcall(function() for k in pairs(c) do c[k] = nil end end)
      setmetatable(c, { __newindex = function() while true do end end })
      return false
    end
    while true do pcall(function() while true do end end) end
  end, mark = "never" } },
}
