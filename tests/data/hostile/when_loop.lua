-- hostile: an event condition (called every step) that empties the channel table, gives it a
-- metatable whose __newindex never returns (the host refills the table every step), then
-- swallows its own instruction limit in pcall, forever
return {
  rig = "sport1000", track = "straight", duration = 2,
  start = { station = 50, speed = 20 }, rider = { line = "centre", speed = 20 },
  events = { { when = function(c)
    for k in pairs(c) do c[k] = nil end
    setmetatable(c, { __newindex = function() while true do end end,
                      __index = function() error("index") end })
    if c.once then return false end
    while true do pcall(function() while true do end end) end
  end, mark = "never" } },
}
