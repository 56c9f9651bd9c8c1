# layers.sh — the house (issue 30, docs/architecture.md): one folder a layer, every include
# pointing down. base/ (errors, allocation, output files, CSV/JSON, small maths, the command-line
# and number parsing, the Lua sandbox) → sim/ (physics) → takes/ (scripts, the take file, replay,
# verify, sweep) → scene/ (body shapes, the linkage, a take's motion, cameras) → render/ and
# exporters/ (siblings: neither includes the other) → app/ (main, the command table, every
# command, the web server, the ride window). Also: MuJoCo's header only inside sim/, no circle of
# includes between files of different modules, no function over 150 lines. Reads the sources
# only ($ROOT); no program is run.
layer_bad() {   # layer_bad FOLDER ALLOWED_REGEX: FOLDER's quoted includes that match no ALLOWED prefix
  grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$ROOT/$1"/*.c "$ROOT/$1"/*.h 2> /dev/null |
    sed "s|^$ROOT/||" | grep -Ev "#[[:space:]]*include[[:space:]]*\"($2)"
}
layer_check() {   # layer_check NAME FOLDER ALLOWED_REGEX
  if [ ! -d "$ROOT/$2" ] || [ -z "$(ls "$ROOT/$2"/*.c 2> /dev/null)" ]; then bad "$1" "no sources in $2/"; return; fi
  layer_bad "$2" "$3" > "$TMP/layer_$1"
  if [ -s "$TMP/layer_$1" ]; then bad "$1" "includes from above: $(head -3 "$TMP/layer_$1" | tr '\n' ' ')"; else ok "$1"; fi
}
layer_check layers_base_includes_only_base base 'base/|build/gitrev.h'
layer_check layers_sim_includes_only_below sim 'sim/|base/'
layer_check layers_takes_includes_only_below takes 'takes/|sim/|base/'
layer_check layers_scene_includes_only_below scene 'scene/|takes/|sim/|base/'
layer_check layers_render_does_not_include_exporters render 'render/|scene/|takes/|sim/|base/'
layer_check layers_exporters_do_not_include_render exporters 'exporters/|scene/|takes/|sim/|base/|build/blender'
layer_check layers_app_on_top app 'app/|render/|exporters/|scene/|takes/|sim/|base/|build/'
# the library's door (api/mototake.h, bin/libmototake.so) sits beside app/: below it nothing, and
# neither includes the other
layer_check layers_api_beside_app api 'api/|render/|exporters/|scene/|takes/|sim/|base/|build/gitrev.h'
# nothing above the layers: the program is these folders (the Makefile builds exactly them)
extra=$(cd "$ROOT" && ls -d */ | tr -d / | grep -Exv 'base|sim|takes|scene|render|exporters|app|api|python|rigs|tests|docs|web|blender|build|bin' | tr '\n' ' ')
for d in $extra; do
  if ls "$ROOT/$d"/*.c > /dev/null 2>&1; then bad layers_no_other_code "C sources in $d/, outside the layers"; extra=bad; fi
done
[ "$extra" = bad ] || ok layers_no_other_code
# MuJoCo's types stay inside sim/: no file of another layer includes mujoco.h, directly or
# through a project header
python3 - "$ROOT" > "$TMP/mj.txt" << 'PY'
import os, re, sys
root = sys.argv[1]
inc = {}
for d in ("base", "sim", "takes", "scene", "render", "exporters", "app", "api"):
    for f in os.listdir(os.path.join(root, d)):
        if f.endswith((".c", ".h")):
            p = d + "/" + f
            inc[p] = re.findall(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', open(os.path.join(root, p)).read(), re.M)
def reaches(p, seen):
    for i in inc.get(p, ()):
        if i == "mujoco/mujoco.h" or i == "mujoco.h":
            return True
        if i in inc and i not in seen:
            seen.add(i)
            if reaches(i, seen):
                return True
    return False
for p in sorted(inc):
    if not p.startswith("sim/") and reaches(p, set()):
        print(p)
# circles between modules (a module: NAME.c with NAME.h): an include path from a module back to itself.
# Two files that are one idea count as one module: a module's private header (the vehicle's MuJoCo
# side, sim/vehicle_mj.h; the chase view's scene, render/chase_scene.h shared by its two stages).
ONE = {"sim/vehicle_mj": "sim/vehicle", "render/chase_scene": "render/chase"}
mod = lambda p: ONE.get(p.rsplit(".", 1)[0], p.rsplit(".", 1)[0])
edges = {}
for p, l in inc.items():
    for i in l:
        if i in inc and mod(i) != mod(p):
            edges.setdefault(mod(p), set()).add(mod(i))
state, stack, circles = {}, [], []
def dfs(u):
    state[u] = 1
    stack.append(u)
    for v in sorted(edges.get(u, ())):
        if state.get(v) == 1:
            circles.append(stack[stack.index(v):] + [v])
        elif not state.get(v):
            dfs(v)
    stack.pop()
    state[u] = 2
for u in sorted(edges):
    if not state.get(u):
        dfs(u)
for c in circles:
    print("circle: " + " -> ".join(c))
PY
if grep -qv '^circle' "$TMP/mj.txt"; then bad layers_mujoco_only_in_sim "reach mujoco.h: $(grep -v '^circle' "$TMP/mj.txt" | head -5 | tr '\n' ' ')"
else ok layers_mujoco_only_in_sim; fi
if grep -q '^circle' "$TMP/mj.txt"; then bad layers_no_include_circles "$(grep '^circle' "$TMP/mj.txt" | head -3 | tr '\n' ' ')"
else ok layers_no_include_circles; fi
# No function over 150 lines in the program (Universal Ctags gives each function's first and last line)
if have ctags && ctags --version 2>/dev/null | grep -q Universal; then
  long=$(ls "$ROOT"/base/*.c "$ROOT"/sim/*.c "$ROOT"/takes/*.c "$ROOT"/scene/*.c "$ROOT"/render/*.c "$ROOT"/exporters/*.c "$ROOT"/app/*.c |
    xargs ctags --fields=+ne --c-kinds=f -o - |
    awk -F'\t' '{ s = e = 0; for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) s = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
                  if (s && e && e - s + 1 > 150) printf "%s %s (%d lines); ", $2, $1, e - s + 1 }')
  if [ -z "$long" ]; then ok layers_functions_short; else bad layers_functions_short "over 150 lines: $long"; fi
else
  skip layers_functions_short "Universal Ctags is not installed"
fi
# No call up either: an object of a layer uses no symbol defined by a layer above it (or by its
# sibling), as nm reads the objects the build made of today's sources (build/FOLDER/NAME.o).
objs=$(for d in base sim takes scene render exporters app; do
  for c in "$ROOT/$d"/*.c; do o="$ROOT/build/$d/$(basename "${c%.c}").o"; [ -f "$o" ] && echo "$o"; done; done)
if have nm && [ -f "$ROOT/build/app/main.o" ]; then
  { nm -A -g --defined-only $objs | sed 's/^/D /'; nm -A -u $objs | sed 's/^/U /'; } |
    sed "s|$ROOT/build/||" |
    awk 'BEGIN { r["base"] = 1; r["sim"] = 2; r["takes"] = 3; r["scene"] = 4; r["render"] = 5; r["exporters"] = 5; r["app"] = 6 }
         { split($2, p, "/"); layer = p[1]; file = p[2]; sub(/:.*/, "", file); sym = $NF }
         $1 == "D" { def[sym] = layer; next }
         { n++; us[n] = sym; ul[n] = layer; uf[n] = file }
         END { for (i = 1; i <= n; i++) { up = def[us[i]]; if (up == "") continue
                 if (r[up] > r[ul[i]] || (r[up] == r[ul[i]] && up != ul[i])) print ul[i] "/" uf[i] " calls " us[i] " (" up "/)" } }' > "$TMP/calls_up"
  if [ -s "$TMP/calls_up" ]; then bad layers_no_calls_up "$(head -3 "$TMP/calls_up" | tr '\n' ' ')"; else ok layers_no_calls_up; fi
else
  skip layers_no_calls_up "nm or the build's objects are missing (make all first)"
fi
