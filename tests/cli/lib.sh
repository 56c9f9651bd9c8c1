# lib.sh — helpers for command-line tests (sourced by tests/run.sh before each script).
# $MT is the program, $TMP a scratch folder for this script, $ROOT the project root.
# Each check prints "ok NAME" or "FAIL NAME: why"; the runner counts them. A check that cannot
# run here (a tool it needs is missing) prints "skip NAME: why" and is counted as skipped, never
# as passed and never silently dropped (docs/testing.md, "Skipped checks").

ok()   { echo "ok $1"; }
bad()  { echo "FAIL $1: $2"; }
skip() { echo "skip $1: $2"; }

# plain_pass: true in the plain pass, false in the sanitizer pass (tests/run.sh sets MT_PASS=asan).
# For blocks that are slow under the sanitizers and add no path of their own there (full laps,
# rendering docs' 720p videos): the plain pass runs them, the sanitizer pass runs the same code on
# short inputs elsewhere. Such a block's checks are not in the sanitizer pass's count at all
# (not skipped: the plain pass ran them); run.sh's summary counts each pass apart.
plain_pass() { [ "${MT_PASS:-plain}" != asan ]; }

# pkg_python ARGS...: /usr/bin/python3 with python/mototake importable, over the pass's library:
# bin/libmototake.so, or in the sanitizer pass bin/libmototake_asan.so, with libasan loaded
# first (ASan must be the process's first library; the interpreter is not built with it) and no
# leak check (the interpreter's own allocations left at exit are not the library's). Writes no
# __pycache__ under $ROOT. Killed after 300 s (a hang is a failure, exit 124).
pkg_python() {
  if plain_pass; then
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$ROOT/python" timeout 300 /usr/bin/python3 "$@"
  else
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$ROOT/python" MOTOTAKE_LIB="$ROOT/bin/libmototake_asan.so" \
      LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      timeout 300 /usr/bin/python3 "$@"
  fi
}

# have TOOL... : true when every TOOL is on PATH
have() { for have_t; do command -v "$have_t" > /dev/null 2>&1 || return 1; done; }

probe() {   # probe FILE: codec,width,height,pix_fmt,r_frame_rate,nb_read_frames then the format duration
  ffprobe -v error -count_frames -select_streams v:0 \
    -show_entries stream=codec_name,width,height,pix_fmt,r_frame_rate,nb_read_frames -of csv=p=0 "$1"
  ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"
}
expect_probe() {   # expect_probe NAME FILE STREAM_LINE DURATION
  probe "$2" > "$TMP/probe" 2>&1
  got="$(head -1 "$TMP/probe") $(sed -n 2p "$TMP/probe")"
  if [ "$got" = "$3 $4" ]; then ok "$1"; else bad "$1" "ffprobe says '$got', wanted '$3 $4'"; fi
}

# skip_each WHY NAME... : one skip line for each check a block would have run
skip_each() { skip_why=$1; shift; for skip_n; do skip "$skip_n" "$skip_why"; done; }

# expect_exit NAME CODE CMD... : run CMD, require exit status CODE; stderr kept in $TMP/err
expect_exit() {
  n=$1; want=$2; shift 2
  "$@" > "$TMP/out" 2> "$TMP/err"; got=$?
  if [ "$got" = "$want" ]; then ok "$n"; else bad "$n" "exit $got, wanted $want; stderr: $(head -c 300 "$TMP/err")"; fi
}

# expect_error NAME REGEX CMD... : CMD must exit 2 with exactly one stderr line matching REGEX
expect_error() {
  n=$1; re=$2; shift 2
  "$@" > "$TMP/out" 2> "$TMP/err"; got=$?
  lines=$(wc -l < "$TMP/err")
  if [ "$got" != 2 ]; then bad "$n" "exit $got, wanted 2; stderr: $(head -c 300 "$TMP/err")"
  elif [ "$lines" != 1 ]; then bad "$n" "stderr has $lines lines, wanted 1: $(head -c 300 "$TMP/err")"
  elif ! grep -Eq -- "$re" "$TMP/err"; then bad "$n" "stderr '$(cat "$TMP/err")' does not match /$re/"
  else ok "$n"; fi
}

# expect_match NAME REGEX FILE
expect_match() {
  if grep -Eq -- "$2" "$3"; then ok "$1"; else bad "$1" "no /$2/ in $3: $(head -c 300 "$3")"; fi
}

# xvfb_start: a private X server (1280x800) for the window tests, on the first free display
# (-displayfd); its pid in XPID, DISPLAY exported. The caller kills it at the end.
xvfb_start() {
  rm -f "$TMP/dpy"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3> "$TMP/dpy" 2> /dev/null &
  XPID=$!
  for i in $(seq 50); do [ -s "$TMP/dpy" ] && break; sleep 0.1; done
  DISPLAY=:$(head -1 "$TMP/dpy"); export DISPLAY
}
