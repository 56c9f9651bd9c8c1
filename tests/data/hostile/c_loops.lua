-- hostile: loops inside C functions that neither allocate nor call Lua (no hook runs there)
local s = string.rep("", 1e15)        -- bounded: an empty result however many times
table.move({}, 1, 1e15, 1, {})        -- refused: too many elements in one call
