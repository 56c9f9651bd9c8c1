-- hostile: 2^60 ways to match optional items
return string.match(string.rep("a", 60), string.rep("a?", 60) .. string.rep("a", 60) .. "b")
