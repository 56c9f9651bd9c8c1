-- hostile: grow strings until the memory cap
local t = {}
for i = 1, 1e9 do t[i] = string.rep("x", 1 << 20) .. i end
