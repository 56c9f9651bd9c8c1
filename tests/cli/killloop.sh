# killloop.sh — kill -9 at spread moments in every command that writes (docs/hardening.md,
# "Outputs"): nothing is left half-written. After each kill the target is either what was there
# before (byte for byte) or a complete new output (byte-identical to an unkilled reference, or a
# take that opens); a new take killed while being written opens (marked incomplete); a .gltf's
# buffer is always the one it names, whole. The next unkilled write to the same target then
# finishes within a bound and leaves no temporary behind.
#
# The commands: one line each in COMMANDS below, "NAME KIND EXT ARGS..." where @OUT@ is the
# output, @TAKE@ a 6 s take and KIND how an output is judged: take (opens with `take info`),
# same (byte-identical to the reference run), gltf (same, and its buffer too). Add a line to
# cover a new command; `render` is added when `mototake help render` succeeds.
# trials per command (two thirds onto an existing older file): 12 in the plain pass, 4 in the
# sanitizer pass (it looks for memory errors on the same paths; the plain pass counts damage)
if plain_pass; then K=${KILL_TRIALS:-12}; else K=${KILL_TRIALS:-4}; fi
D="$TMP/kill"; mkdir -p "$D"
"$MT" run "$ROOT/takes/wobble.lua" -o "$D/src.take" --quiet > /dev/null 2>&1 || bad kill_setup "run wobble.lua failed"

COMMANDS="run take take run $ROOT/takes/wobble.lua -o @OUT@ --quiet
export_glb same glb export @TAKE@ -o @OUT@
export_gltf gltf gltf export @TAKE@ -o @OUT@
cut take take take cut @TAKE@ --from 1 --to 5 -o @OUT@
channels same csv take channels @TAKE@ -o @OUT@"
if "$MT" help render > /dev/null 2>&1; then
  COMMANDS="$COMMANDS
render same mp4 render @TAKE@ -o @OUT@"
fi
# the older file each target holds before a trial: another output of the same kind
older() {   # older NAME PATH
  case $1 in
    run|cut) "$MT" take cut "$D/src.take" --from 0 --to 2 -o "$2" > /dev/null 2>&1 ;;
    export_glb|export_gltf) "$MT" export "$D/src.take" --fps 10 -o "$2" > /dev/null 2>&1 ;;
    channels) "$MT" take channels "$D/src.take" --rate 10 -o "$2" > /dev/null 2>&1 ;;
    *) rm -f "$2" ;;   # no older file known for this command: only the "absent" case
  esac
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
uri_of() { sed -n 's/.*"uri": "\([^"]*\)".*/\1/p' "$1"; }

echo "$COMMANDS" | while read -r name kind ext args; do
  [ -n "$name" ] || continue
  W="$D/$name"; mkdir -p "$W"
  cmd=$(echo "$args" | sed "s|@TAKE@|$D/src.take|g")
  # the reference: an unkilled run, timed
  t0=$(now_ms)
  # shellcheck disable=SC2086
  timeout 120 "$MT" $(echo "$cmd" | sed "s|@OUT@|$W/ref.$ext|g") > /dev/null 2> "$W/err"
  rc=$?; dur=$(( $(now_ms) - t0 ))
  if [ $rc != 0 ]; then bad "kill_${name}_reference" "exit $rc: $(head -c 200 "$W/err")"; continue; fi
  older "$name" "$W/old.$ext"
  [ "$kind" = gltf ] && [ -f "$W/old.$ext" ] && cp "$W/$(uri_of "$W/old.$ext")" "$W/oldbin"
  bad_here=0; i=0
  while [ $i -lt "$K" ]; do
    out="$W/t.$ext"
    rm -f "$W"/t.*
    if [ $((i % 3)) != 2 ] && [ -f "$W/old.$ext" ]; then
      cp "$W/old.$ext" "$out"; had=1
      [ "$kind" = gltf ] && cp "$W/oldbin" "$W/$(uri_of "$out" | sed 's|^old|t|')"
      # a .gltf copied under another name still names old's buffer: give it t's own
      [ "$kind" = gltf ] && sed -i "s|\"uri\": \"old|\"uri\": \"t|" "$out"
    else had=0; fi
    cp "$out" "$W/before" 2> /dev/null
    # kill at i/K of the reference duration (plus a little: the program must be running)
    delay=$(( 5 + dur * i / K ))
    # shellcheck disable=SC2086
    "$MT" $(echo "$cmd" | sed "s|@OUT@|$out|g") > /dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -9 $pid 2> /dev/null
    wait $pid 2> /dev/null
    why=""
    if [ ! -e "$out" ]; then
      [ $had = 1 ] && why="the older file is gone"
    elif [ $had = 1 ] && cmp -s "$out" "$W/before"; then
      [ "$kind" = gltf ] && [ ! -s "$W/$(uri_of "$out")" ] && why="the older .gltf lost its buffer"
    else
      case $kind in
        take) "$MT" take info "$out" > "$W/info" 2>&1 || why="not a readable take: $(head -c 150 "$W/info")"
              [ $had = 1 ] && grep -q INCOMPLETE "$W/info" && why="an incomplete take replaced the older one" ;;
        same) cmp -s "$out" "$W/ref.$ext" || why="neither the older file nor the complete new one ($(wc -c < "$out") bytes)" ;;
        gltf) b=$(uri_of "$out")
              sed 's|"uri": "t\.|"uri": "ref.|' "$out" > "$W/norm"   # the only place its name appears
              if ! cmp -s "$W/norm" "$W/ref.$ext"; then why="the .gltf is neither the older nor the new one"
              elif ! cmp -s "$W/$b" "$W/$(uri_of "$W/ref.$ext")"; then why="the new .gltf's buffer $b is not whole"; fi ;;
      esac
    fi
    if [ -n "$why" ]; then bad "kill_${name}_$i" "killed after ${delay} ms: $why"; bad_here=1; fi
    i=$((i + 1))
  done
  [ $bad_here = 0 ] && ok "kill_${name}_${K}_trials (reference ${dur} ms, kills spread over it)"
  # the next unkilled write: finishes in bounded time, correct, and cleans every temporary
  # shellcheck disable=SC2086
  timeout 120 "$MT" $(echo "$cmd" | sed "s|@OUT@|$W/t.$ext|g") > /dev/null 2> "$W/err"
  rc=$?
  left=$(ls "$W" | grep -E '\.tmp[0-9]+(-journal)?$')
  [ "$kind" = gltf ] && left="$left$(ls "$W" | grep -E '^t\.[0-9a-f]{8}\.bin$' | grep -vx "$(uri_of "$W/t.$ext")")"
  if [ $rc != 0 ]; then bad "kill_${name}_next_write" "exit $rc: $(head -c 200 "$W/err")"
  elif [ -n "$left" ]; then bad "kill_${name}_next_write_cleans" "left: $(echo $left)"
  else ok "kill_${name}_next_write_cleans"; fi
done

# Kill, run again, read, on the same path (issue 29 finding 1). A run killed inside a commit of
# a new take leaves it with a hot -journal; the next run to the same path writes a temporary
# and renames it over the killed take. That journal belongs to the killed take, not to the new
# one: the new take must read complete (the old program rolled the journal into it: "database
# disk image is malformed" or chunks missing) and no -journal may be left beside it. Each kill
# lands while the journal is hot (tests/kill_when_hot.py); trials where no commit was caught
# are counted and must stay a minority, so the check cannot pass without the case it tests.
if plain_pass; then R=${RERUN_TRIALS:-30}; else R=${RERUN_TRIALS:-6}; fi   # the sanitizer pass: 6
W="$D/rerun"; mkdir -p "$W"
i=0; corrupt=0; hot=0; t0=$(now_ms)
while [ $i -lt "$R" ]; do
  rm -f "$W"/t.take*
  how=$(python3 "$ROOT/tests/kill_when_hot.py" "$W/t.take-journal" 20000 \
        "$MT" run "$ROOT/takes/wobble.lua" -o "$W/t.take" --quiet)
  [ "$how" = hot ] && [ -e "$W/t.take-journal" ] && hot=$((hot + 1))
  "$MT" run "$ROOT/takes/wobble.lua" -o "$W/t.take" --quiet > /dev/null 2> "$W/err" \
    || { bad "kill_rerun_$i" "the second run failed: $(head -c 200 "$W/err")"; corrupt=$((corrupt + 1)); i=$((i + 1)); continue; }
  why=""
  if ! "$MT" take info "$W/t.take" > "$W/info" 2>&1; then why="unreadable: $(head -c 150 "$W/info")"
  elif ! grep -q 'complete — ' "$W/info"; then why="not the complete new take: $(head -c 150 "$W/info")"
  elif [ -e "$W/t.take-journal" ]; then why="a -journal is left beside the new take"; fi
  if [ -n "$why" ]; then bad "kill_rerun_$i" "($how) $why"; corrupt=$((corrupt + 1)); fi
  i=$((i + 1))
done
if [ $((2 * hot)) -lt "$R" ]; then bad kill_rerun_hot "only $hot of $R kills landed inside a commit"
elif [ $corrupt = 0 ]; then ok "kill_rerun_read_${R}_trials_0_corrupt ($hot killed inside a commit, $(( ($(now_ms) - t0) / 1000 )) s)"
else bad kill_rerun_read "$corrupt of $R new takes not read as complete ($hot killed inside a commit)"; fi
# ... while a new take killed inside a commit, with its own hot journal, still opens (marked
# incomplete): the journal is proven the take's own and rolled back (takes/takejournal.h). Only
# the trials whose kill landed inside a commit count, and they must be a majority, as above: a
# run that ended before its journal was seen hot leaves a complete take, which says nothing here
# (a fresh clone's `make test` once counted 4 of 5; its log does not say which trial missed or
# why, and a run that ended first is the one way to miss with nothing wrong).
i=0; own=0; hot=0
while [ $i -lt 5 ]; do
  rm -f "$W"/t.take*
  how=$(python3 "$ROOT/tests/kill_when_hot.py" "$W/t.take-journal" 20000 "$MT" run "$ROOT/takes/wobble.lua" -o "$W/t.take" --quiet)
  if [ "$how" = hot ]; then
    hot=$((hot + 1))
    "$MT" take info "$W/t.take" > "$W/info" 2>&1 && grep -q INCOMPLETE "$W/info" && [ ! -e "$W/t.take-journal" ] && own=$((own + 1))
  fi
  i=$((i + 1))
done
if [ $((2 * hot)) -lt 5 ]; then bad kill_in_commit_new_take_opens "only $hot of 5 kills landed inside a commit"
elif [ $own = $hot ]; then ok "kill_in_commit_new_take_opens ($own of the $hot of 5 killed inside a commit)"
else bad kill_in_commit_new_take_opens "$own of the $hot killed inside a commit: $(head -c 200 "$W/info")"; fi
