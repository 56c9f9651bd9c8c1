-- hostile: an error object whose __tostring never returns (the message handler calls it)
error(setmetatable({}, { __tostring = function() while true do end end }))
