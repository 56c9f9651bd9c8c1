# seeds.sh — the seed corpus of each fuzz target: ONE definition, sourced by make fuzz
# (tests/fuzz/run.sh, which starts libFuzzer from it) and by make test (tests/cli/fuzzregress.sh,
# which replays it through bin/fuzz_replay/NAME), so the two cannot drift apart.
# Run from the project root.
#
# A target names its seeds in a comment line of its source tests/fuzz/NAME.c (a // line: a glob's
# "/*" inside a /* comment is a -Wcomment error):
#   // fuzz-seeds: GLOB... [@take] [@text WORD...]
# GLOBs are shipped files relative to the project root (each must match at least one file: a glob
# that matches nothing is an error, not a smaller corpus); @take is the small take recorded by
# fuzz_small_take; @text makes one seed per WORD (it takes every word after it). A target without
# the line gets every shipped Lua file (FUZZ_DEFAULT_SEEDS).

FUZZ_DEFAULT_SEEDS="rigs/*.lua rigs/tyres/*.lua sim/tracks/*.lua takes/*.lua"

# fuzz_seed_spec NAME: print the seed spec of target NAME
fuzz_seed_spec() {
  fs_spec=$(sed -n 's/.*fuzz-seeds:[[:space:]]*//p' "tests/fuzz/$1.c" 2>/dev/null | head -1 | sed 's|\*/.*||')
  echo "${fs_spec:-$FUZZ_DEFAULT_SEEDS}"
}

# fuzz_small_take PROGRAM OUT: record the @take seed (takes/wobble.lua cut to its first 0.2 s)
# with PROGRAM into OUT; one stderr line and status 1 when it cannot.
fuzz_small_take() {
  "$1" run takes/wobble.lua -o "$2.full" --quiet > /dev/null &&
    "$1" take cut "$2.full" --from 0 --to 0.2 -o "$2" > /dev/null
  fs_rc=$?; rm -f "$2.full"
  [ $fs_rc = 0 ] || { echo "fuzz seeds: could not record the seed take with $1" >&2; return 1; }
}

# fuzz_seeds NAME DIR TAKE: copy the seeds of target NAME into the folder DIR (created), TAKE being
# the small take for @take. Prints the number of seeds; status 1 (reason on stderr) when a glob
# matches nothing, @take has no take, or the spec yields no seed at all.
fuzz_seeds() {
  mkdir -p "$2" || return 1
  set -f   # the spec's words are expanded one at a time below, never by the shell here
  fs_words=$(fuzz_seed_spec "$1"); fs_text=0; fs_n=0; fs_err=0
  for fs_g in $fs_words; do
    if [ $fs_text = 1 ]; then fs_n=$((fs_n + 1)); printf '%s' "$fs_g" > "$2/seed_text_$fs_n"; continue; fi
    case $fs_g in
      @text) fs_text=1 ;;
      @take) if [ -f "$3" ]; then cp "$3" "$2/seed_small.take"; fs_n=$((fs_n + 1))
             else echo "fuzz seeds: $1: @take but no take at '$3'" >&2; fs_err=1; fi ;;
      *) set +f; fs_m=0
         for fs_f in $fs_g; do [ -f "$fs_f" ] && { cp "$fs_f" "$2/seed_$(echo "$fs_f" | tr / _)"; fs_m=$((fs_m + 1)); }; done
         set -f; fs_n=$((fs_n + fs_m))
         [ $fs_m -gt 0 ] || { echo "fuzz seeds: $1: '$fs_g' matches no file" >&2; fs_err=1; } ;;
    esac
  done
  set +f
  [ $fs_n -gt 0 ] || { echo "fuzz seeds: $1: no seeds" >&2; fs_err=1; }
  echo $fs_n
  return $fs_err
}
