-- hostile: pcall inside a loop swallows the instruction-limit error, again and again
while true do pcall(function() while true do end end) end
