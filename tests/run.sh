#!/bin/sh
# make test: every unit test (once normally, once under ASan/UBSan), then every CLI test
# script in tests/cli/ (each prints "ok NAME", "FAIL NAME: why" or "skip NAME: why" lines), then
# the Blender import checks where Blender is installed. Closes with a summary (each pass apart,
# and how many distinct checks that is) whose LAST line is "N passed, N failed, N skipped";
# exits non-zero if anything failed.
#
# Skips: a check that cannot run (a tool missing) is counted as skipped, never as passed. Blender
# missing is a skip (only `sh tests/deps.sh blender` installs it); a package that `make deps`
# installs missing is a failure of its own (deps_installed), since make test calls make deps.
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
export MOTOTAKE_ROOT="$ROOT"
OUT=$(mktemp -d /tmp/mototake-test-XXXXXX)
START=$(date +%s)
trap 'rm -rf "$OUT"' EXIT
ASAN_CLI_SKIP=${ASAN_CLI_SKIP-doclines valgrind}
# per section: P_x passed, F_x failed, S_x skipped (unit, uasan, cli, casan, blender, misc)
for s in unit uasan cli casan blender misc; do eval "P_$s=0 F_$s=0 S_$s=0"; done

add() {   # add SECTION PASSED FAILED SKIPPED
  eval "P_$1=\$((P_$1 + $2)) F_$1=\$((F_$1 + $3)) S_$1=\$((S_$1 + $4))"
}
lines() {   # lines LOG: "ok FAIL skip" line counts of a log
  echo "$(grep -c '^ok ' "$1") $(grep -c '^FAIL ' "$1") $(grep -c '^skip ' "$1")"
}
show() {   # show SECTION: "N passed, N failed, N skipped" of a section
  eval "echo \"\$P_$1 passed, \$F_$1 failed, \$S_$1 skipped\""
}

echo "== make deps packages"
if sh tests/deps.sh check > "$OUT/deps.log" 2>&1; then echo "ok deps_installed"; add misc 1 0 0
else echo "FAIL deps_installed: $(tail -1 "$OUT/deps.log")"; add misc 0 1 0; fi

unit_pass() {   # unit_pass SECTION PROGRAM: one run of the unit tests
  t0=$(date +%s)
  "$2" > "$OUT/$1.log" 2>&1; rc=$?
  add "$1" $(lines "$OUT/$1.log")
  grep '^FAIL ' "$OUT/$1.log"
  if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$OUT/$1.log"; then
    echo "FAIL $2: runner exited $rc"; grep -m20 -E 'ERROR|runtime error|SUMMARY' "$OUT/$1.log"
    tail -5 "$OUT/$1.log"; add "$1" 0 1 0; fi
  echo "$(grep -E '^[0-9]+ passed' "$OUT/$1.log") ($(( $(date +%s) - t0 )) s)"
}
echo "== unit tests"
unit_pass unit bin/unit_tests
echo "== unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
MT_TEST_TAG=asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
  unit_pass uasan bin/unit_tests_asan

cli_pass() {   # cli_pass SECTION TAG PROGRAM NOTRUN...: every tests/cli script with MT=PROGRAM
  sec=$1 tag=$2 prog=$3; shift 3
  for t in tests/cli/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -f "$t" ] || continue
    name=$(basename "$t" .sh)
    case " $* " in *" $name "*) echo "$tag$name: not in this pass (ASAN_CLI_SKIP)"; continue;; esac
    t0=$(date +%s)
    MT="$prog" TMP="$OUT/$tag$name" ROOT="$ROOT" sh -c 'mkdir -p "$TMP"; . tests/cli/lib.sh; . "$0"' "$t" \
      > "$OUT/$tag$name.log" 2>&1
    rc=$?
    read -r p f s <<EOF
$(lines "$OUT/$tag$name.log")
EOF
    if [ $rc -ne 0 ] && [ "$f" = 0 ]; then
      echo "FAIL $tag$name: script exited $rc"; tail -5 "$OUT/$tag$name.log"; f=1; fi
    add "$sec" "$p" "$f" "$s"
    grep -E '^(FAIL|skip) ' "$OUT/$tag$name.log" | sed "s/^\(FAIL\|skip\) /\1 $tag/"
    echo "$tag$name: $p passed, $f failed, $s skipped ($(( $(date +%s) - t0 )) s)"
  done
}

echo "== command-line tests"
cli_pass cli "" "$ROOT/bin/mototake"

# The same scripts again with the program built under ASan/UBSan (bin/mototake_asan). Every
# sanitizer report goes to a file in $OUT/asan-reports (so the scripts' stderr checks are
# unchanged), and each report is a failure of its own. Not in this pass (ASAN_CLI_SKIP= runs them
# too): doclines (the same commands as the other scripts, with two 90 s laps) and valgrind (it
# needs the plain build). MT_PASS=asan tells the scripts which pass this is: blocks that are slow
# under the sanitizers and add no code path of their own there run in the plain pass only
# (`plain_pass`, tests/cli/lib.sh: full laps, docs' 720p videos), and the loops that repeat one
# path run fewer times (the kill loop's trials, the hostile-take corpus's commands per take);
# the sanitizer pass looks for memory errors on the same paths, the plain pass counts damage.
echo "== command-line tests under AddressSanitizer and UndefinedBehaviorSanitizer (bin/mototake_asan)"
mkdir -p "$OUT/asan-reports"
ASAN_OPTIONS="detect_leaks=1:log_path=$OUT/asan-reports/asan" LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0" \
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$OUT/asan-reports/ubsan" MT_PASS=asan \
  cli_pass casan "asan:" "$ROOT/bin/mototake_asan" $ASAN_CLI_SKIP
n=0
for r in "$OUT"/asan-reports/*; do
  [ -f "$r" ] && grep -qE 'ERROR|runtime error' "$r" || continue
  n=$((n + 1))
  echo "FAIL asan_report_$n: $(grep -m1 -E 'ERROR|runtime error' "$r") [$(grep -m1 -E 'SUMMARY' "$r")]"
  grep -m1 -E '#[0-9]+ .* in [a-z_]+ .*/(sim|takes|exporters|render|rigs)/' "$r" | sed 's/^/  /'
done
if [ $n = 0 ]; then echo "ok asan_no_reports"; add misc 1 0 0; else add misc 0 $n 0; fi

echo "== Blender imports (tests/blender)"
if command -v blender >/dev/null 2>&1; then
  sh tests/blender/run.sh > "$OUT/blender.log" 2>&1; rc=$?
  add blender $(lines "$OUT/blender.log")
  grep -E '^(FAIL|skip) ' "$OUT/blender.log"
  if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$OUT/blender.log"; then
    echo "FAIL blender: tests/blender/run.sh exited $rc"; tail -5 "$OUT/blender.log"; add blender 0 1 0; fi
else
  # how many checks it would have run is not known without Blender (its Python scripts name them
  # as they go), so the whole block counts as one skipped check
  echo "skip blender: Blender is not installed (sh tests/deps.sh blender or make test-blender installs it)"
  add blender 0 0 1
fi
echo "blender: $(show blender)"

summary() {   # the closing block; its last line is the total
  echo "== summary"
  echo "unit tests, plain:                $(show unit)"
  echo "unit tests, ASan/UBSan:           $(show uasan)"
  echo "command-line checks, plain:       $(show cli)"
  echo "command-line checks, ASan/UBSan:  $(show casan)"
  echo "Blender import checks:            $(show blender)"
  echo "deps and sanitizer-report checks: $(show misc)"
  # the ASan/UBSan passes repeat the plain passes' checks (minus ASAN_CLI_SKIP's scripts), so
  # the distinct checks are the plain passes, Blender and the two checks of their own
  d=$((P_unit + F_unit + S_unit + P_cli + F_cli + S_cli + P_blender + F_blender + S_blender + P_misc + F_misc))
  echo "$d distinct checks; the ASan/UBSan passes ran $((P_uasan + F_uasan + S_uasan + P_casan + F_casan + S_casan)) of them again"
  echo "the tests took $(( ($(date +%s) - START) / 60 )) min $(( ($(date +%s) - START) % 60 )) s (the builds before them not counted)"
  pass=$((P_unit + P_uasan + P_cli + P_casan + P_blender + P_misc))
  fail=$((F_unit + F_uasan + F_cli + F_casan + F_blender + F_misc))
  skipped=$((S_unit + S_uasan + S_cli + S_casan + S_blender + S_misc))
  echo "$pass passed, $fail failed, $skipped skipped"
}
summary
[ $((F_unit + F_uasan + F_cli + F_casan + F_blender + F_misc)) = 0 ]
