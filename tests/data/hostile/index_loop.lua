-- hostile: the returned table's __index never returns
return setmetatable({}, { __index = function() while true do end end })
