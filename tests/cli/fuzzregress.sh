# fuzzregress.sh — every fuzz target's seed corpus (the seeds make fuzz starts from, defined once
# in tests/fuzz/seeds.sh) and every input kept in tests/fuzz/regress/NAME/ (findings of make fuzz,
# and the cases they taught us) replayed through its target, built with gcc under ASan/UBSan
# against a plain main (bin/fuzz_replay/NAME, tests/fuzz/replay_main.c): each must run clean.
# A target that replays zero inputs, or fewer than it was given, fails: a replay of nothing is
# not a pass.
. "$ROOT/tests/fuzz/seeds.sh"
# the @take seed, recorded by the program under test (plain or ASan pass)
take="$TMP/small.take"
fuzz_small_take "$MT" "$take" 2> "$TMP/take.err" || bad fuzz_seed_take "$(cat "$TMP/take.err")"
for src in "$ROOT"/tests/fuzz/fuzz_*.c; do
  [ -f "$src" ] || { bad fuzz_replay "no target in $ROOT/tests/fuzz"; break; }
  name=$(basename "$src" .c)
  bin="$ROOT/bin/fuzz_replay/$name"
  if [ ! -x "$bin" ]; then bad "fuzz_replay_$name" "$bin not built (make test builds it)"; continue; fi
  dir="$TMP/seeds/$name"
  if ! (cd "$ROOT" && fuzz_seeds "$name" "$dir" "$take") > /dev/null 2> "$TMP/err"; then
    bad "fuzz_replay_$name" "$(head -1 "$TMP/err")"; continue; fi
  set -- "$dir"/*
  [ -e "$1" ] || set --
  seeds=$#
  [ -d "$ROOT/tests/fuzz/regress/$name" ] && set -- "$@" "$ROOT/tests/fuzz/regress/$name"/*
  [ -e "${1:-}" ] || set --
  kept=$(($# - seeds))
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$bin" "$@" > "$TMP/out" 2> "$TMP/err"; then
    got=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$TMP/out")
    if [ "${got:-0}" = 0 ]; then bad "fuzz_replay_$name" "replayed 0 inputs (no seeds, no kept inputs)"
    elif [ "$got" != $# ]; then bad "fuzz_replay_$name" "replayed $got inputs of $#"
    else ok "fuzz_replay_$name (replayed $got inputs: $seeds seeds, $kept kept)"; fi
  else bad "fuzz_replay_$name" "$(grep -m3 -E 'ERROR|runtime error|SUMMARY|Abort|replay:' "$TMP/err" | tr '\n' ' ')"; fi
done
