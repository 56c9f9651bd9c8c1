#!/bin/sh
# tests/one.sh NAME...: run only the named tests/cli scripts against bin/mototake (the edit-test
# loop; `make test` runs them all, twice). Prints each script's ok/FAIL/skip lines and a total
# "N passed, N failed, N skipped" (a skip: a check whose tool is missing here, never a pass).
# MT=bin/mototake_asan sh tests/one.sh take  runs one under the sanitizers.
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd); export MOTOTAKE_ROOT="$ROOT"
MT=${MT:-$ROOT/bin/mototake}
OUT=${KEEP:-$(mktemp -d /tmp/mototake-one-XXXXXX)}; [ -n "$KEEP" ] || trap 'rm -rf "$OUT"' EXIT
pass=0; fail=0; skipped=0
for name in "$@"; do
  t=tests/cli/$name.sh
  [ -f "$t" ] || { echo "FAIL $name: no such script $t"; fail=$((fail + 1)); continue; }
  MT="$MT" TMP="$OUT/$name" ROOT="$ROOT" sh -c 'mkdir -p "$TMP"; . tests/cli/lib.sh; . "$0"' "$t" > "$OUT/$name.log" 2>&1
  rc=$?; grep -E '^(ok|FAIL|skip) ' "$OUT/$name.log"
  p=$(grep -c '^ok ' "$OUT/$name.log"); f=$(grep -c '^FAIL ' "$OUT/$name.log"); s=$(grep -c '^skip ' "$OUT/$name.log")
  if [ $rc -ne 0 ] && [ "$f" = 0 ]; then echo "FAIL $name: script exited $rc"; tail -5 "$OUT/$name.log"; f=1; fi
  pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + s))
done
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
