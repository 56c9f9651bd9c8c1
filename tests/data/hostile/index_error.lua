-- hostile: the returned table's __index raises an error (read outside pcall aborted the process)
return setmetatable({}, { __index = function(t, k) error("no field " .. tostring(k)) end })
