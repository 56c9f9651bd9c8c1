-- hostile: a table nested a million deep (a recursive copy or reader would overflow the C stack)
local t = {}
for i = 1, 1000000 do t = { t } end
return { name = "nested", segments = t, bodies = t, rig = t }
