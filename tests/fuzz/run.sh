#!/bin/sh
# run.sh SECONDS — `make fuzz FUZZ_SECONDS=N`: run every built libFuzzer target bin/fuzz/fuzz_*
# for SECONDS each, from a corpus seeded with shipped files, and print per target the executions,
# the corpus size and the findings (crash-*, leak-*, timeout-*, oom-* files, kept in
# build/fuzz/findings/NAME/). Exit 1 if anything was found.
#
# Seeds: each target's seed corpus is defined once, in tests/fuzz/seeds.sh (a "fuzz-seeds:" comment
# line in the target's source: shipped files by glob, @take, @text WORD...); make test replays the
# same seeds (tests/cli/fuzzregress.sh). Findings become regression inputs by copying them to
# tests/fuzz/regress/NAME/ (fuzzregress.sh replays those too).
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
export MOTOTAKE_ROOT="$ROOT"
SECS=${1:-10}
. tests/fuzz/seeds.sh
W=build/fuzz/work
mkdir -p "$W" build/fuzz/findings
# the small take: recorded by the normal program, once per make fuzz
if [ ! -f "$W/small.take" ] || [ bin/mototake -nt "$W/small.take" ]; then
  rm -f "$W/small.take"
  fuzz_small_take bin/mototake "$W/small.take" || exit 1
fi
found=0; total=0
for bin in bin/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  C=build/fuzz/corpus/$name; F=build/fuzz/findings/$name
  mkdir -p "$C" "$F"
  fuzz_seeds "$name" "$C" "$W/small.take" > /dev/null || exit 1
  [ -d "tests/fuzz/regress/$name" ] && cp tests/fuzz/regress/"$name"/* "$C"/ 2>/dev/null
  before=$(ls "$F" | wc -l)
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$F/" "$C" > "$W/$name.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units:[[:space:]]*//p' "$W/$name.log" | tail -1)
  new=$(( $(ls "$F" | wc -l) - before ))
  echo "$name: ${execs:-0} executions in ${SECS} s, corpus $(ls "$C" | wc -l) inputs, findings: $new (exit $rc)"
  if [ "$new" -gt 0 ] || [ $rc != 0 ]; then
    found=$((found + 1))
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "$W/$name.log" | sed 's/^/  /'
    ls -t "$F" | head -"$((new > 0 ? new : 1))" | sed "s|^|  $F/|"
  fi
  total=$((total + ${execs:-0}))
done
echo "fuzz: $total executions, $found target(s) with findings"
[ "$found" = 0 ]
