-- hostile (found by fuzz_rig): 2^20 ways to match the optional items, then 60 literal items
-- compared for each: 27 s of C matching before the item count was part of the bound
return string.match(string.rep("a", 60), string.rep("a?", 20) .. string.rep("a", 60) .. "b")
