#!/bin/sh
# make test: every unit test (once normally, once under ASan/UBSan), then every CLI test
# script in tests/cli/ (each prints "ok NAME" or "FAIL NAME: why" lines). Closes with the
# line "N passed, N failed" and exits non-zero if anything failed.
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
export MOTOTAKE_ROOT="$ROOT"
OUT=$(mktemp -d /tmp/mototake-test-XXXXXX)
trap 'rm -rf "$OUT"' EXIT
pass=0; fail=0

count() {   # count ok/FAIL lines of a log, echo failures
  p=$(grep -c '^ok ' "$1"); f=$(grep -c '^FAIL ' "$1")
  pass=$((pass + p)); fail=$((fail + f))
  grep '^FAIL ' "$1"
}

echo "== unit tests"
bin/unit_tests > "$OUT/unit.log" 2>&1; rc=$?
count "$OUT/unit.log"
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$OUT/unit.log"; then
  echo "FAIL unit_tests: runner exited $rc"; tail -5 "$OUT/unit.log"; fail=$((fail + 1)); fi
grep -E '^[0-9]+ passed' "$OUT/unit.log"

echo "== unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
MT_TEST_TAG=asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  bin/unit_tests_asan > "$OUT/asan.log" 2>&1; rc=$?
count "$OUT/asan.log"
if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$OUT/asan.log"; then
  echo "FAIL unit_tests_asan: sanitizer report (exit $rc):"; grep -m20 -E 'ERROR|runtime error|SUMMARY' "$OUT/asan.log"
  fail=$((fail + 1)); fi
grep -E '^[0-9]+ passed' "$OUT/asan.log"

echo "== command-line tests"
for t in tests/cli/*.sh; do
  [ "$(basename "$t")" = lib.sh ] && continue
  [ -f "$t" ] || continue
  name=$(basename "$t" .sh)
  MT="$ROOT/bin/mototake" TMP="$OUT/$name" ROOT="$ROOT" sh -c 'mkdir -p "$TMP"; . tests/cli/lib.sh; . "$0"' "$t" \
    > "$OUT/$name.log" 2>&1
  rc=$?
  p=$(grep -c '^ok ' "$OUT/$name.log"); f=$(grep -c '^FAIL ' "$OUT/$name.log")
  if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
    echo "FAIL $name: script exited $rc"; tail -5 "$OUT/$name.log"; f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
  grep '^FAIL ' "$OUT/$name.log"
  echo "$name: $p passed, $f failed"
done
echo "== Blender imports (tests/blender)"
if command -v blender >/dev/null 2>&1; then
  sh tests/blender/run.sh > "$OUT/blender.log" 2>&1
  count "$OUT/blender.log"
  echo "blender: $(grep -c '^ok ' "$OUT/blender.log") passed, $(grep -c '^FAIL ' "$OUT/blender.log") failed"
else
  echo "blender: skipped (not installed; make test-blender installs it and runs these)"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
