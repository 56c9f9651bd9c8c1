#!/bin/sh
# make test: every unit test (once normally, once under ASan/UBSan), every CLI test script in
# tests/cli/ (each prints "ok NAME", "FAIL NAME: why" or "skip NAME: why" lines) and the Blender
# import checks where Blender is installed, as jobs two at a time (below); then the reports. Closes with a summary (each pass apart,
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
ASAN_CLI_SKIP=${ASAN_CLI_SKIP-doclines valgrind killloop progress}
# The scripts the sanitizer pass runs (ASAN_CLI=all: every script but ASAN_CLI_SKIP's; make
# test-full). make test runs the ones that feed the program what strangers send (hostile takes,
# tracks, rigs, scripts, web requests, MAT and caption files) and the small ones; see below.
ASAN_CLI=${ASAN_CLI-arms captions engine fuzzregress help hostile layers mat rig sim_layer take_hostile take_layers takefile track trim tyre web_hostile when}
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

unit_report() {   # unit_report SECTION PROGRAM: the report of one unit-test run (tests/cli_job.sh ran it)
  rc=1 secs=0
  [ -f "$OUT/$1.rc" ] && read -r rc secs < "$OUT/$1.rc"
  [ -f "$OUT/$1.log" ] || : > "$OUT/$1.log"
  add "$1" $(lines "$OUT/$1.log")
  grep '^FAIL ' "$OUT/$1.log"
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$OUT/$1.log"; then
    echo "FAIL $2: runner exited $rc"; grep -m20 -E 'ERROR|runtime error|SUMMARY' "$OUT/$1.log"
    tail -5 "$OUT/$1.log"; add "$1" 0 1 0; fi
  echo "$(grep -E '^[0-9]+ passed' "$OUT/$1.log") ($secs s)"
}

# The CLI scripts run as jobs, two at a time (xargs -P 2: one a core on the 2-core CI machine):
# every script in the plain pass (bin/mototake) and again under ASan/UBSan (bin/mototake_asan), a
# script's two passes side by side. ride.sh drives a real-time window with xdotool and sleeps, so
# its passes never run beside each other (CLI_SOLO; the pool's order below). Each job writes its
# log and exit code (tests/cli_job.sh); the report below reads them in a fixed order, pass by
# pass, as if the passes had run one after the other.
#
# The sanitizer pass: every sanitizer report goes to a file in $OUT/asan-reports (so the
# scripts' stderr checks are unchanged), and each report is a failure of its own. make test runs
# ASAN_CLI's scripts in it: those that feed the program what strangers send (hostile takes,
# tracks, rigs, scripts, web requests, MAT and caption files) and the short ones. The others run
# in the plain pass only (the sanitizer unit run covers much of their code); `make test-full`
# (ASAN_CLI=all) runs every one under the sanitizers too. Why: on the 2-core CI machine a
# sanitized start costs 0.03-1.1 s (the plain one 0.01-0.6 s); the whole pass took 1 932 s of
# the CLI jobs' 5 013 s in a full run on it, and CI's make test took 63 min. Never in this pass
# (ASAN_CLI_SKIP):
# doclines (the same commands as the other scripts), valgrind (it needs the plain build),
# killloop (it counts damage after kills at random points; the writer, journal and reader paths
# it drives run under the sanitizers in take_hostile.sh, when.sh and fuzzregress.sh) and
# progress (the terminal bar). MT_PASS=asan tells the scripts which pass this is: blocks that
# are slow under the sanitizers and add no code path of their own there run in the plain pass
# only (`plain_pass`, tests/cli/lib.sh: full laps), and the loops that repeat
# one path run fewer times (the hostile-take corpus's commands per take); the sanitizer pass
# looks for memory errors on the same paths, the plain pass counts damage.
CLI_SOLO=${CLI_SOLO-ride}
cli_scripts() {   # the CLI test scripts, by name
  for t in tests/cli/*.sh; do [ "$(basename "$t")" = lib.sh ] || { [ -f "$t" ] && echo "$t"; }; done
}
in_list() { case " $2 " in *" $1 "*) return 0;; esac; return 1; }   # in_list WORD "LIST"
asan_runs() {   # asan_runs NAME: whether the sanitizer pass runs this script
  in_list "$1" "$ASAN_CLI_SKIP" && return 1
  [ "$ASAN_CLI" = all ] || in_list "$1" "$ASAN_CLI"
}
# The longest scripts (a full run's job times) start first, so that the pool does not end with
# one core idle beside a long job that started late; the others follow in name order.
CLI_LONG=${CLI_LONG-doclines killloop take render web take_hostile}
cli_ordered() {   # the CLI scripts, CLI_LONG's first
  for n in $CLI_LONG; do [ -f "tests/cli/$n.sh" ] && echo "tests/cli/$n.sh"; done
  for t in $(cli_scripts); do in_list "$(basename "$t" .sh)" "$CLI_LONG" || echo "$t"; done
}
cli_jobs() {   # cli_jobs SOLO: "PASS SCRIPT" lines, the pooled jobs (SOLO=0) or the solo ones (1)
  for t in $(cli_ordered); do
    name=$(basename "$t" .sh)
    if in_list "$name" "$CLI_SOLO"; then [ "$1" = 1 ] || continue; else [ "$1" = 0 ] || continue; fi
    echo "plain $t"
    asan_runs "$name" && echo "asan $t"
  done
}
cli_report() {   # cli_report SECTION TAG: the pass's scripts in name order, from their job files
  sec=$1 tag=$2
  for t in $(cli_scripts); do
    name=$(basename "$t" .sh)
    if [ -n "$tag" ] && ! asan_runs "$name"; then
      if in_list "$name" "$ASAN_CLI_SKIP"; then echo "$tag$name: not in this pass (ASAN_CLI_SKIP)"
      else echo "$tag$name: not in this pass (make test-full runs it)"; fi
      continue
    fi
    rc=1 secs=0
    [ -f "$OUT/$tag$name.rc" ] && read -r rc secs < "$OUT/$tag$name.rc"
    [ -f "$OUT/$tag$name.log" ] || : > "$OUT/$tag$name.log"
    read -r p f s <<EOF
$(lines "$OUT/$tag$name.log")
EOF
    if [ "$rc" -ne 0 ] && [ "$f" = 0 ]; then
      echo "FAIL $tag$name: script exited $rc"; tail -5 "$OUT/$tag$name.log"; f=1; fi
    add "$sec" "$p" "$f" "$s"
    grep -E '^(FAIL|skip) ' "$OUT/$tag$name.log" | sed "s/^\(FAIL\|skip\) /\1 $tag/"
    echo "$tag$name: $p passed, $f failed, $s skipped ($secs s)"
  done
}

mkdir -p "$OUT/asan-reports"
t0=$(date +%s)
export OUT ROOT
# The pool, longest first: the Blender import checks where Blender is installed (one job, its
# own temporary folder), and beside them ride.sh (a real-time window driven with xdotool and
# sleeps: one other job beside it, never two); then the two unit-test runs and every CLI job;
# xargs keeps both cores busy to the end.
# A solo script's second pass comes after the sanitizer unit run, so the two never run together.
solo=$(cli_jobs 1)
{ if command -v blender > /dev/null 2>&1; then echo "blender blender"; fi
  echo "$solo" | head -1; echo "unit uasan"; echo "$solo" | tail -n +2; echo "unit unit"; cli_jobs 0
} | grep . | xargs -P 2 -L 1 sh tests/cli_job.sh
cli_secs=$(( $(date +%s) - t0 ))
echo "== unit tests"
unit_report unit bin/unit_tests
echo "== unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
unit_report uasan bin/unit_tests_asan
echo "== command-line tests"
cli_report cli ""
echo "== command-line tests under AddressSanitizer and UndefinedBehaviorSanitizer (bin/mototake_asan)"
cli_report casan "asan:"
echo "(the unit runs, the two CLI passes and Blender took $cli_secs s together, two jobs at a time)"
n=0
for r in "$OUT"/asan-reports/*; do
  [ -f "$r" ] && grep -qE 'ERROR|runtime error' "$r" || continue
  n=$((n + 1))
  echo "FAIL asan_report_$n: $(grep -m1 -E 'ERROR|runtime error' "$r") [$(grep -m1 -E 'SUMMARY' "$r")]"
  grep -m1 -E '#[0-9]+ .* in [a-z_]+ .*/(sim|takes|exporters|render|rigs)/' "$r" | sed 's/^/  /'
done
if [ $n = 0 ]; then echo "ok asan_no_reports"; add misc 1 0 0; else add misc 0 $n 0; fi

echo "== Blender imports (tests/blender)"
secs=""
if command -v blender >/dev/null 2>&1; then
  rc=1 secs=0
  [ -f "$OUT/blender.rc" ] && read -r rc secs < "$OUT/blender.rc"
  [ -f "$OUT/blender.log" ] || : > "$OUT/blender.log"
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
echo "blender: $(show blender)${secs:+ ($secs s)}"

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
