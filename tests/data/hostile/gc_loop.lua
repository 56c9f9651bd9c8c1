-- hostile: a finalizer that never returns (finalizers run with the hook off)
setmetatable({}, { __gc = function() while true do end end })
return { name = "gc" }
