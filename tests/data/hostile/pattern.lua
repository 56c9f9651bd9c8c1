-- hostile: Lua's C pattern matcher backtracks exponentially; no hook runs inside it
return string.find(string.rep("a", 3000), string.rep("a*", 40) .. "b")
