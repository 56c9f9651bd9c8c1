-- hostile: a to-be-closed variable whose __close never returns, inside pcall in a loop
while true do
  pcall(function()
    local x <close> = setmetatable({}, { __close = function() while true do end end })
    error("e")
  end)
end
