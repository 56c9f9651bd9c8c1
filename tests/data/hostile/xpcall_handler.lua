-- hostile: an xpcall message handler that never returns, in a loop
while true do xpcall(function() error("x") end, function() while true do end end) end
