# layers.sh — the includes between the layers that share the scene point down (issue 30,
# "The house"): scene/ (body shapes, the linkage's bars, a take's motion, the camera rigs)
# includes only itself and the layers below it (takes/, sim/, base/); render/ and exporters/,
# siblings above it, include neither each other. Reads the sources only ($ROOT).
layer_bad() {   # layer_bad FOLDER ALLOWED_REGEX: FOLDER's quoted includes that match no ALLOWED prefix
  grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$ROOT/$1"/*.c "$ROOT/$1"/*.h 2> /dev/null |
    sed "s|^$ROOT/||" | grep -Ev "#[[:space:]]*include[[:space:]]*\"($2)"
}
layer_check() {   # layer_check NAME FOLDER ALLOWED_REGEX
  if [ ! -d "$ROOT/$2" ] || [ -z "$(ls "$ROOT/$2"/*.c 2> /dev/null)" ]; then bad "$1" "no sources in $2/"; return; fi
  layer_bad "$2" "$3" > "$TMP/layer_$1"
  if [ -s "$TMP/layer_$1" ]; then bad "$1" "includes from above: $(head -3 "$TMP/layer_$1" | tr '\n' ' ')"; else ok "$1"; fi
}
layer_check layers_scene_includes_only_below scene 'scene/|takes/|sim/|base/'
layer_check layers_render_does_not_include_exporters render 'render/|scene/|takes/|sim/|base/|build/'
layer_check layers_exporters_do_not_include_render exporters 'exporters/|scene/|takes/|sim/|base/|build/'
