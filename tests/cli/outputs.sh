# outputs.sh — the output rule (base/outfile.h, docs/hardening.md "Outputs"): an output never
# destroys what is at its path. Non-regular targets, empty paths and outputs equal to inputs are
# refused with one line and exit 2, leaving the target as it was; a failed run keeps the old take;
# stale temporaries of killed writers are removed by the next write; a .gltf and its buffer switch
# together.
O="$TMP/o"; mkdir -p "$O"
cp "$ROOT/takes/wobble.lua" "$O/w.lua"
"$MT" run "$O/w.lua" -o "$O/w.take" --quiet > /dev/null 2>&1 || bad outputs_setup "run w.lua failed"

# a directory (empty), a FIFO, a symbolic link, a device: refused, left as they were
mkdir "$O/emptydir"
expect_error out_dir_refused "emptydir: output is a directory" "$MT" track plan laguna_seca -o "$O/emptydir"
[ -d "$O/emptydir" ] && ok out_dir_kept || bad out_dir_kept "the directory is gone"
expect_error out_dir_slash_refused "output is a directory" "$MT" take channels "$O/w.take" -o "$O/emptydir/"
mkfifo "$O/fifo"
expect_error out_fifo_refused "fifo: output is a FIFO" "$MT" take channels "$O/w.take" -o "$O/fifo"
[ -p "$O/fifo" ] && ok out_fifo_kept || bad out_fifo_kept "the FIFO was replaced"
echo keep > "$O/target.txt"; ln -s target.txt "$O/link.csv"
expect_error out_symlink_refused "link.csv: output is a symbolic link" "$MT" take channels "$O/w.take" -o "$O/link.csv"
[ -L "$O/link.csv" ] && [ "$(cat "$O/target.txt")" = keep ] && ok out_symlink_kept || bad out_symlink_kept "link or its target changed"
# a character device of our own (a second null device) when we may make one: a program that
# replaced devices must not get the chance to do it to the real /dev/null (as root it could);
# without that permission /dev/null itself is safe to use
if mknod "$O/null" c 1 3 2> /dev/null; then DEV="$O/null"; else DEV=/dev/null; fi
expect_error out_device_refused "null: output is a character device" "$MT" run "$O/w.lua" -o "$DEV" --quiet
[ -c "$DEV" ] && ok out_device_kept || bad out_device_kept "$DEV is no longer a character device"
expect_error out_device_plan_refused "null: output is a character device" "$MT" track plan laguna_seca -o "$DEV"
expect_error out_empty_refused "output path is empty" "$MT" track plan laguna_seca -o ''
expect_error out_empty_export_refused "output path is empty|: unknown format" "$MT" export "$O/w.take" -o ''

# output == input: refused, the input unchanged (also through another name)
cp "$O/w.lua" "$O/w.orig"; cp "$O/w.take" "$O/w.take.orig"
expect_error out_run_script_refused "w.lua: output is also an input" "$MT" run "$O/w.lua" -o "$O/w.lua" --quiet
cmp -s "$O/w.lua" "$O/w.orig" && ok out_run_script_kept || bad out_run_script_kept "the script changed"
expect_error out_cut_self_refused "w.take: output is also an input" "$MT" take cut "$O/w.take" --from 0 --to 1 -o "$O/w.take"
expect_error out_cut_self_dotpath_refused "output is also an input" "$MT" take cut "$O/w.take" --from 0 --to 1 -o "$O/./w.take"
expect_error out_channels_self_refused "output is also an input" "$MT" take channels "$O/w.take" -o "$O/w.take"
cp "$O/w.take" "$O/wt.glb"
expect_error out_export_self_refused "wt.glb: output is also an input" "$MT" export "$O/wt.glb" -o "$O/wt.glb"
cmp -s "$O/wt.glb" "$O/w.take" && ok out_export_input_kept || bad out_export_input_kept "the take changed"
ln "$O/w.take" "$O/hard.take"
expect_error out_cut_hardlink_refused "hard.take: output is also an input" "$MT" take cut "$O/w.take" --from 0 --to 1 -o "$O/hard.take"
cmp -s "$O/w.take" "$O/w.take.orig" && ok out_take_input_kept || bad out_take_input_kept "the take changed"

# a run that fails after loading keeps an existing take
cat > "$O/fail.lua" <<'EOF'
return {
  rig = "sport1000", track = "straight", start = { station = 50, speed = 20 }, duration = 2,
  rider = { line = "centre", speed = 20 },
  events = { { when = function(c) if c.time > 0.3 then error("boom") end return false end, mark = "x" } },
}
EOF
cp "$O/w.take" "$O/old.take"
expect_error out_failed_run_reported "fail.lua:4: boom \(the existing .*old.take was kept\)" "$MT" run "$O/fail.lua" -o "$O/old.take" --quiet
cmp -s "$O/old.take" "$O/w.take" && ok out_failed_run_keeps_take || bad out_failed_run_keeps_take "the old take was replaced"
ls "$O" | grep -q 'old.take.tmp' && bad out_failed_run_no_temp "$(ls "$O")" || ok out_failed_run_no_temp
# into a new path it leaves the readable incomplete take (as a killed run does)
"$MT" run "$O/fail.lua" -o "$O/new.take" --quiet > /dev/null 2>&1
"$MT" take info "$O/new.take" 2>&1 | grep -q INCOMPLETE && ok out_failed_run_new_incomplete || bad out_failed_run_new_incomplete "no incomplete take"

# a replaced output is replaced whole (the old one kept until then), and reads back
expect_exit out_replace_take 0 "$MT" take cut "$O/w.take" --from 0 --to 1 -o "$O/old.take"
"$MT" take info "$O/old.take" | grep -q '1000 steps' && ok out_replaced_take_reads || bad out_replaced_take_reads "$("$MT" take info "$O/old.take" 2>&1 | head -2)"

# stale temporaries of a dead writer are removed by the next write to the same target; a live
# writer's are not
sh -c 'exit 0' & dead=$!; wait $dead
echo half > "$O/plan.png.tmp$dead"; echo half > "$O/plan.png.tmp$dead-journal"
echo live > "$O/plan.png.tmp$$"; echo other > "$O/plan.png.tmpx"
expect_exit out_plan 0 "$MT" track plan laguna_seca -o "$O/plan.png" --size 320x240
[ ! -e "$O/plan.png.tmp$dead" ] && [ ! -e "$O/plan.png.tmp$dead-journal" ] && ok out_stale_temp_removed || bad out_stale_temp_removed "$(ls "$O" | grep tmp)"
[ -e "$O/plan.png.tmp$$" ] && [ -e "$O/plan.png.tmpx" ] && ok out_live_temp_kept || bad out_live_temp_kept "$(ls "$O" | grep tmp)"
rm -f "$O/plan.png.tmp$$" "$O/plan.png.tmpx"

# glTF: the buffer is named by its content; a new export switches the pair and removes the old buffer
expect_exit out_gltf1 0 "$MT" export-demo -o "$O/p.gltf"
b1=$(sed -n 's/.*"uri": "\([^"]*\)".*/\1/p' "$O/p.gltf")
expect_exit out_gltf2 0 "$MT" export-demo -o "$O/p.gltf" --camera
b2=$(sed -n 's/.*"uri": "\([^"]*\)".*/\1/p' "$O/p.gltf")
case "$b2" in p.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f].bin) ok "out_gltf_bin_by_content ($b2)";;
  *) bad out_gltf_bin_by_content "uri '$b2'";; esac
[ "$b1" != "$b2" ] && [ -s "$O/$b2" ] && [ ! -e "$O/$b1" ] && ok out_gltf_pair_switched || bad out_gltf_pair_switched "$b1 → $b2: $(ls "$O" | grep '^p\.')"
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["buffers"][0]["byteLength"])' "$O/p.gltf")
[ "$(wc -c < "$O/$b2")" = "$want" ] && ok out_gltf_pair_length || bad out_gltf_pair_length "$(wc -c < "$O/$b2") != $want"

# SIGTERM / SIGHUP (and SIGINT) during a long run over an existing take: the old take stays and the
# temporary (and its journal) is removed at once; the run dies by the signal
for sig in TERM HUP; do   # (a background job of a script ignores INT; the handler is the same)
  cp "$O/w.take" "$O/sig.take"
  "$MT" run "$ROOT/tests/data/long_ride.lua" -o "$O/sig.take" --quiet > /dev/null 2>&1 &
  pid=$!
  n=0; while [ $n -lt 100 ] && ! ls "$O" | grep -q '^sig\.take\.tmp'; do sleep 0.1; n=$((n + 1)); done
  sleep 1.5
  kill -$sig $pid; wait $pid; rc=$?
  left=$(ls "$O" | grep '^sig\.take\.tmp')
  if [ $n -ge 100 ]; then bad "out_sig${sig}_cleans" "the run never started writing"
  elif [ -n "$left" ]; then bad "out_sig${sig}_cleans" "left: $left"
  elif ! cmp -s "$O/sig.take" "$O/w.take"; then bad "out_sig${sig}_cleans" "the old take changed"
  elif [ $rc -lt 128 ]; then bad "out_sig${sig}_cleans" "exit $rc, not killed by the signal"
  else ok "out_sig${sig}_cleans (exit $rc)"; fi
done
