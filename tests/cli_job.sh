#!/bin/sh
# cli_job.sh PASS SCRIPT — one tests/cli script in one pass of `make test` (tests/run.sh runs
# these jobs two at a time, one a core): PASS is "plain" (bin/mototake) or "asan"
# (bin/mototake_asan, every sanitizer report into $OUT/asan-reports, MT_PASS=asan for lib.sh's
# plain_pass). Writes $OUT/TAGNAME.log (the script's output; TAG is "" or "asan:") and
# $OUT/TAGNAME.rc ("EXIT SECONDS"); run.sh reads them in a fixed order once every job is done,
# so the report does not depend on which job finished first.
# Needs OUT and ROOT in the environment. A job shares nothing with another but the CPU: each has
# its own $TMP, free ports (web.sh), its own Xvfb (ride.sh), and writes nothing under $ROOT.
# `cli_job.sh unit unit` and `cli_job.sh unit uasan` run the unit tests (bin/unit_tests, or
# bin/unit_tests_asan under the sanitizers) the same way, into $OUT/unit.* and $OUT/uasan.*;
# `cli_job.sh blender blender` the Blender import checks (tests/blender/run.sh), into $OUT/blender.*.
pass=$1 t=$2
name=$(basename "$t" .sh)
cd "$ROOT" || exit 1
t0=$(date +%s)
if [ "$pass" = blender ]; then   # the Blender import checks, one job, into $OUT/blender.*
  sh tests/blender/run.sh > "$OUT/blender.log" 2>&1
  echo "$? $(( $(date +%s) - t0 ))" > "$OUT/blender.rc"
  exit 0
fi
if [ "$pass" = unit ]; then
  if [ "$t" = uasan ]; then
    MT_TEST_TAG=asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
      bin/unit_tests_asan > "$OUT/uasan.log" 2>&1
  else
    bin/unit_tests > "$OUT/unit.log" 2>&1
  fi
  echo "$? $(( $(date +%s) - t0 ))" > "$OUT/$t.rc"
  exit 0
fi
if [ "$pass" = asan ]; then
  tag="asan:"
  ASAN_OPTIONS="detect_leaks=1:log_path=$OUT/asan-reports/asan" \
  LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$OUT/asan-reports/ubsan" MT_PASS=asan \
  MT="$ROOT/bin/mototake_asan" TMP="$OUT/$tag$name" sh -c 'mkdir -p "$TMP"; . tests/cli/lib.sh; . "$0"' "$t" \
    > "$OUT/$tag$name.log" 2>&1
else
  tag=""
  MT="$ROOT/bin/mototake" TMP="$OUT/$name" sh -c 'mkdir -p "$TMP"; . tests/cli/lib.sh; . "$0"' "$t" \
    > "$OUT/$name.log" 2>&1
fi
echo "$? $(( $(date +%s) - t0 ))" > "$OUT/$tag$name.rc"
