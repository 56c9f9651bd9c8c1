# help.sh — the command surface: help lists commands, --help on every command, bad commands.
expect_exit help_lists 0 "$MT" help
expect_match help_names_commands '^  rig info' "$TMP/out"
expect_exit no_args_is_bad_input 2 "$MT"
expect_error unknown_command "unknown command 'frobnicate'" "$MT" frobnicate
expect_error help_unknown "help: unknown command" "$MT" help frobnicate
"$MT" help | sed -n 's/^  \([a-z]*\( [a-z]*\)\?\)  .*/\1/p' | sed 's/ *$//' > "$TMP/cmds"
n=0
while read -r c; do
  # shellcheck disable=SC2086
  if "$MT" $c --help > "$TMP/h" 2>&1 && grep -q '^usage: mototake' "$TMP/h"; then n=$((n+1))
  else bad "help_flag_$c" "'mototake $c --help' did not print usage"; fi
done < "$TMP/cmds"
[ "$n" -ge 2 ] && ok "every_command_has_help ($n commands)"
expect_exit version 0 "$MT" version
expect_match version_has_git 'git ' "$TMP/out"
# FFmpeg's encoder and muxer, matio and SDL2 are opened when a command first writes an MP4 or a
# MAT file or opens the ride window (base/dynlib.h), not at every start: a command that does none
# of these maps none of them (render.sh, mat.sh and ride.sh check that those that do still work).
if (LD_DEBUG=files "$MT" version > /dev/null 2> "$TMP/ldfiles"); then
  if grep -qE 'file=lib(avcodec|avformat|matio|hdf5|SDL2)' "$TMP/ldfiles"; then
    bad start_loads_no_encoder "mototake version loaded $(grep -oE 'file=lib(avcodec|avformat|matio|hdf5|SDL2)[^ ]*' "$TMP/ldfiles" | sort -u | tr '\n' ' ')"
  elif grep -q 'file=libcairo' "$TMP/ldfiles"; then ok start_loads_no_encoder
  else bad start_loads_no_encoder "LD_DEBUG=files printed no libraries: $(head -c 200 "$TMP/ldfiles")"; fi
else bad start_loads_no_encoder "mototake version failed"; fi
