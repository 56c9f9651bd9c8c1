# captions.sh — `mototake render --captions FILE --overlays LIST` (render/teach.h, issue 36):
# hostile caption files (one stderr line naming FILE:LINE, the caption and the field, exit 2,
# no output written), bad overlay lists, and a caption at the right frames of an MP4 (decoded
# with FFmpeg: the subtitle's region darkens in exactly the frames of [t0, t1)).
"$MT" run tests/data/render_skid.lua -o "$TMP/s.take" > /dev/null 2>&1 || bad captions_take "could not record tests/data/render_skid.lua"

# hostile NAME REGEX LUA-TEXT: the file refused with one line matching REGEX, exit 2, no PNG
hostile() {
  printf '%b' "$3" > "$TMP/$1.lua"
  expect_error "captions_$1" "$2" "$MT" render "$TMP/s.take" -o "$TMP/$1.png" --at 0.5 --captions "$TMP/$1.lua"
  [ ! -e "$TMP/$1.png" ] || bad "captions_$1_no_file" "$TMP/$1.png was written"
}
F="$TMP/"
hostile syntax "^mototake: ${F}syntax.lua:3: " 'return {\n  { t0 = 0, t1 = 1, text = "a" }\n'
hostile not_list "${F}not_list.lua: a caption file returns a list" 'return 5\n'
hostile named "${F}named.lua:1: field .title.: unexpected" 'return { title = "x", { t0 = 0, t1 = 1, text = "a" } }\n'
hostile unknown "${F}unknown.lua:2: caption 1: field .colour.: unknown field" 'return {\n  { t0 = 0, t1 = 1, text = "a", colour = "red" },\n}\n'
hostile order "${F}order.lua:3: caption 2: field .t1.: must be after t0" 'return {\n  { t0 = 0, t1 = 1, text = "a" },\n  { t0 = 0.5, t1 = 0.5, text = "b" },\n}\n'
hostile nan "${F}nan.lua:2: caption 1: field .t0." 'return {\n  { t0 = 0/0, t1 = 1, text = "a" },\n}\n'
hostile style "${F}style.lua:2: caption 1: field .style.: unknown style .banner." 'return {\n  { t0 = 0, t1 = 1, text = "a", style = "banner" },\n}\n'
hostile utf8 "${F}utf8.lua:2: caption 1: field .text.: is not valid UTF-8" 'return {\n  { t0 = 0, t1 = 1, text = "caf\\xe9" },\n}\n'
hostile control "${F}control.lua:2: caption 1: field .line.: has a control character" 'return {\n  { t0 = 0, t1 = 1, text = "a", line = "b\\nc" },\n}\n'
hostile empty "${F}empty.lua:2: caption 1: field .text.: must not be empty" 'return {\n  { t0 = 0, t1 = 1, text = "" },\n}\n'
hostile long "${F}long.lua:2: caption 1: field .text.: longer than 200 bytes" 'return {\n  { t0 = 0, t1 = 1, text = string.rep("x", 201) },\n}\n'
hostile no_at "${F}no_at.lua:2: caption 1: field .at.: a callout needs" 'return {\n  { t0 = 0, t1 = 1, text = "a", style = "callout" },\n}\n'
hostile at_point "${F}at_point.lua:2: caption 1: field .at.: a point needs 3 numbers" 'return {\n  { t0 = 0, t1 = 1, text = "a", style = "callout", at = {1, 2} },\n}\n'
hostile at_body "${F}at_body.lua:3: caption 2: field .at.: no body .gearbox. in this take" 'return {\n  { t0 = 0, t1 = 1, text = "a", style = "callout", at = "rider" },\n  { t0 = 0, t1 = 1, text = "b", style = "callout", at = "gearbox" },\n}\n'
hostile at_style "${F}at_style.lua:2: caption 1: field .at.: only a callout" 'return {\n  { t0 = 0, t1 = 1, text = "a", at = "bars" },\n}\n'
hostile late "${F}late.lua:2: caption 1: field .t0.: 5 s is not within the take" 'return {\n  { t0 = 5, t1 = 6, text = "a" },\n}\n'
hostile mark "${F}mark.lua:2: caption 1: field .mark.: no mark .push right. in this take" 'return {\n  { mark = "push right", t0 = 0, t1 = 1, text = "a" },\n}\n'
hostile mark_early "${F}mark_early.lua:2: caption 1: field .t0.: -0.4 s is not within the take" 'return {\n  { mark = "half way", t0 = -1, t1 = 1, text = "a" },\n}\n'
hostile loop "${F}loop.lua:1: script did not finish" 'while true do end\n'
hostile memory "${F}memory.lua: script exceeded its memory limit" 'local t = {} for i = 1, 1e8 do t[i] = i end return t\n'
expect_error captions_missing "nothere.lua: cannot open" "$MT" render "$TMP/s.take" -o "$TMP/m.png" --at 0.5 --captions "$TMP/nothere.lua"
expect_error captions_overlays_unknown "--overlays: unknown overlay 'arrows'" "$MT" render "$TMP/s.take" -o "$TMP/o.png" --at 0.5 --overlays bars,arrows
expect_error captions_overlays_blender "--overlays belongs to the Cairo views" "$MT" render "$TMP/s.take" -o "$TMP/o.png" --at 0.5 --engine blender --overlays all

# The MP4 below: the plain pass only (under the sanitizers the hostile files above and the unit
# tests' frames run the same drawing code).
plain_pass || return 0
# a subtitle from 0.3 s to 0.7 s in a 1 s MP4 at 30 fps: frames 9 to 20 (t = 9/30 .. 20/30) show
# it. The box's region (60×8 px in the subtitle's box at 320×180), averaged per frame by FFmpeg,
# is compared with the same render without captions: darker by 6 grey levels or more inside
# (8 at the first, faded-in frame; 27 at full opacity when measured), within 3 outside.
printf 'return {\n  { t0 = 0.3, t1 = 0.7, style = "subtitle", text = "PUSH THE RIGHT BAR" },\n}\n' > "$TMP/sub.lua"
expect_exit captions_mp4 0 "$MT" render "$TMP/s.take" -o "$TMP/c.mp4" --from 0 --to 1 --size 320x180 --hud off --quiet --captions "$TMP/sub.lua"
expect_exit captions_mp4_plain 0 "$MT" render "$TMP/s.take" -o "$TMP/p.mp4" --from 0 --to 1 --size 320x180 --hud off --quiet
if have ffmpeg; then
  for f in c p; do
    ffmpeg -v error -i "$TMP/$f.mp4" -vf "crop=60:8:130:164,scale=1:1:flags=area,format=gray" -f rawvideo - | od -An -tu1 -v -w1 | tr -d ' ' > "$TMP/$f.txt"
  done
  verdict=$(paste "$TMP/c.txt" "$TMP/p.txt" | awk '{ i = NR - 1; d = $1 - $2; inside = (i >= 9 && i <= 20)
      if (inside && d > -6) bad = bad " frame " i " (inside) " d; if (!inside && (d > 3 || d < -3)) bad = bad " frame " i " (outside) " d }
      END { if (NR != 30) print "decoded " NR " frames, wanted 30"; else if (bad) print bad; else print "ok" }')
  [ "$verdict" = ok ] && ok captions_mp4_frames || bad captions_mp4_frames "$verdict"
else
  skip captions_mp4_frames "ffmpeg is not installed"
fi
