-- hostile: a nested table whose __len raises an error; __index on the segment table too
local segs = setmetatable({}, { __len = function() error("len") end,
                                __index = function() error("index") end })
return { name = "x", segments = segs, rig = "sport1000", track = "straight", duration = 1,
         bodies = segs, wheels = segs }
