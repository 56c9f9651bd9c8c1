# sim_layer.sh — the shape of the sim/ layer (issue 30, "The house"): static checks of the source,
# no program run.

# The contact spheres' physics depends on the road alone, and the rig reader (sim/rig_read.c)
# reads their parameters, so rig and contact form no circle: the project headers sim/contact.c
# and sim/contact.h include are these two and no others.
inc=$(grep -ho '^#include *"[^"]*"' "$ROOT/sim/contact.c" "$ROOT/sim/contact.h" | sed 's/.*"\(.*\)"/\1/' | sort -u | tr '\n' ' ')
if [ "$inc" = "base/vec3.h sim/contact.h sim/road.h " ]; then ok sim_contact_one_way
else bad sim_contact_one_way "sim/contact.[ch] include $inc(want only sim/contact.h sim/road.h and the small-vector base/vec3.h)"; fi

# No function in sim/ over 150 lines (app/serve.c excepted: it is being split on its own).
# Universal Ctags gives each function's first and last line.
if have ctags && ctags --version 2>/dev/null | grep -q Universal; then
  long=$(ls "$ROOT"/sim/*.c | grep -v '/serve\.c$' | xargs ctags --fields=+ne --c-kinds=f -o - |
    awk -F'\t' '{ s = e = 0; for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) s = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
                  if (s && e && e - s + 1 > 150) printf "%s %s (%d lines); ", $2, $1, e - s + 1 }')
  n=$(ls "$ROOT"/sim/*.c | grep -v '/serve\.c$' | xargs ctags --fields=+ne --c-kinds=f -o - | grep -c 'end:')
  if [ "$n" -lt 100 ]; then bad sim_functions_short "ctags found only $n functions with an end line in sim/"
  elif [ -z "$long" ]; then ok sim_functions_short
  else bad sim_functions_short "over 150 lines: ${long%; }"; fi
else
  skip sim_functions_short "Universal Ctags is not installed"
fi
