# doclines.sh — every command line shown in README.md and docs/*.md runs (docs/hardening.md,
# "Fuzzing and sanitizers"). A line counts when it sits in a code block (indented by 4 spaces or
# fenced) and starts with `mototake ` or `bin/mototake `; it must exit 0. The lines of one
# document run in order in a scratch folder holding copies of rigs/, sim/tracks/, takes/*.lua,
# takes/captions/ (caption files, docs/render.md) and an empty out/, so a document can record a
# take and then use it. A .take the line reads that no earlier line made is first recorded from
# takes/wobble.lua. A fenced `mkdir -p DIR` line
# makes that folder in the scratch folder (for lines that write into it).
# Marks (a trailing shell comment on the line):
#   # doctest: skip REASON    not run (a usage synopsis with placeholders, needs a display, ...)
#   # doctest: fails          a deliberately failing example: must exit 2 with one stderr line
#   # doctest: needs blender  a Blender render: runs in make test-full (MT_FULL=1) where Blender
#                             is installed, else skipped (tests/blender renders the same way)
python3 - "$ROOT" > "$TMP/doclines" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
for path in files:
    rel = os.path.relpath(path, root)
    fenced, prev_blank, in_indent = False, True, False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not line.strip():
            prev_blank = True
            continue
        indented = line.startswith("    ") and (prev_blank or in_indent)
        in_indent = indented
        prev_blank = False
        if not (fenced or indented):
            continue
        cmd = line.strip()
        if re.match(r"(bin/)?mototake ", cmd) or (fenced and re.match(r"mkdir -p [\w./-]+$", cmd)):
            print(f"{rel}:{n}\t{cmd}")
EOF
[ -s "$TMP/doclines" ] || bad doclines_found "no command lines found in README.md and docs/*.md"
"$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/any.take" --quiet > /dev/null 2>&1 || bad doclines_setup "cannot record a take"
last=""
while IFS="$(printf '\t')" read -r where cmd; do
  doc=${where%%:*}
  S="$TMP/doc_$(echo "$doc" | tr '/.' '__')"
  if [ "$doc" != "$last" ]; then
    mkdir -p "$S/rigs" "$S/sim" "$S/takes" "$S/out"
    cp -r "$ROOT/rigs/." "$S/rigs/"; cp -r "$ROOT/sim/tracks" "$S/sim/"; cp "$ROOT"/takes/*.lua "$S/takes/"; cp "$ROOT"/takes/*.json "$S/takes/" 2> /dev/null; cp -r "$ROOT/takes/captions" "$S/takes/"
    last=$doc
  fi
  case $cmd in *"# doctest: skip"*) echo "skip doc $where: ${cmd##*# doctest: skip}"; continue;; esac
  case $cmd in *"# doctest: needs blender"*)
    have blender || { echo "skip doc $where: needs Blender, not installed here"; continue; }
    [ -n "$MT_FULL" ] || { echo "skip doc $where: a Blender render (200 s on the 2-core CI machine): make test-full runs it"; continue; };;
  esac
  case $cmd in "mkdir -p "*) (cd "$S" && $cmd); continue;; esac   # a folder the next lines write into
  want=0; case $cmd in *"# doctest: fails"*) want=2;; esac
  # takes this line reads that no earlier line made (words ending in .take, not after -o)
  prev=""
  for w in $cmd; do
    case $w in \#*) break;; esac
    case $w in *.take) [ "$prev" != -o ] && [ ! -e "$S/$w" ] && mkdir -p "$S/$(dirname "$w")" && cp "$TMP/any.take" "$S/$w";; esac
    prev=$w
  done
  line=$(echo "$cmd" | sed -E 's@^(bin/)?mototake @"$MT" @')
  (cd "$S" && MT="$MT" timeout 600 sh -c "$line") < /dev/null > "$TMP/out" 2> "$TMP/err"
  rc=$?
  if [ "$want" = 0 ] && [ $rc = 0 ]; then ok "doc $where"
  elif [ "$want" = 2 ] && [ $rc = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ]; then ok "doc $where (fails as documented)"
  else bad "doc $where" "'$cmd' exited $rc (wanted $want): $(head -c 300 "$TMP/err")"; fi
done < "$TMP/doclines"

# What docs/render.md's and the README's videos hold, as written by the lines above (render.sh ran
# these lines a second time before): 720p H.264 of the documented lengths, the 15 numbered frames.
R="$TMP/doc_docs_render_md"
[ "$(grep -c '^docs/render.md:[0-9]*	mototake render ' "$TMP/doclines")" -ge 10 ] && ok render_doc_commands_found \
  || bad render_doc_commands_found "$(grep -c '^docs/render.md:' "$TMP/doclines") lines of docs/render.md"
expect_probe render_doc_hairpin "$R/hairpin.mp4" "h264,1280,720,yuv420p,30/1,120" "4.000000"
expect_probe render_doc_versus "$R/versus.mp4" "h264,1280,720,yuv420p,30/1,60" "2.000000"
[ "$(ls "$R/frames" 2>/dev/null | wc -l)" = 15 ] && ok render_doc_frames || bad render_doc_frames "$(ls "$R/frames" 2>/dev/null | wc -l) frames"
expect_probe render_readme_probe "$TMP/doc_README_md/out/lap.mp4" "h264,1280,720,yuv420p,30/1,60" "2.000000"
