# fuzzregress.sh — every input kept in tests/fuzz/regress/NAME/ (findings of make fuzz, and the
# cases they taught us) replayed through its target, built with gcc under ASan/UBSan against a
# plain main (bin/fuzz_replay/NAME, tests/fuzz/replay_main.c): each must run clean.
for src in "$ROOT"/tests/fuzz/fuzz_*.c; do
  [ -f "$src" ] || continue
  name=$(basename "$src" .c)
  bin="$ROOT/bin/fuzz_replay/$name"
  if [ ! -x "$bin" ]; then bad "fuzz_replay_$name" "$bin not built (make test builds it)"; continue; fi
  set -- "$ROOT/tests/fuzz/regress/$name"/*
  [ -e "$1" ] || set --
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$bin" "$@" > "$TMP/out" 2> "$TMP/err"; then
    ok "fuzz_replay_$name ($(cat "$TMP/out"))"
  else bad "fuzz_replay_$name" "$(grep -m3 -E 'ERROR|runtime error|SUMMARY|Abort' "$TMP/err" | tr '\n' ' ')"; fi
done
