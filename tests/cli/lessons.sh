# lessons.sh — `mototake render --lesson NAME` (app/lesson.h, docs/render.md "Lessons"): the list,
# hostile presets (one stderr line naming FILE:LINE, the part and the field, exit 2, no MP4), the
# takes ridden beside the output and reused while they recorded the same script, and every
# shipped lesson rendered (a tiny size, the first 0.5 s of video of each part) and probed.
cp "$ROOT/tests/data/render_skid.lua" "$TMP/ride.lua"
printf 'return {\n  { t0 = 0, t1 = 1, text = "a subtitle" },\n}\n' > "$TMP/cap.lua"

# every shipped preset is listed, and only those
ls "$ROOT"/takes/lessons/*.render.lua | sed 's|.*/||; s|\.render\.lua$||' > "$TMP/want"
"$MT" render --lesson list > "$TMP/list" 2>&1
awk '{print $1}' "$TMP/list" > "$TMP/got"
if [ "$(wc -l < "$TMP/want")" -ge 6 ] && cmp -s "$TMP/want" "$TMP/got"; then ok lessons_list
else bad lessons_list "listed '$(tr '\n' ' ' < "$TMP/got")', the folder has '$(tr '\n' ' ' < "$TMP/want")'"; fi

# preset NAME BODY: $TMP/NAME.render.lua holding BODY (printf %b)
preset() { printf '%b' "$2" > "$TMP/$1.render.lua"; }
P='  parts = {\n    { ride = "ride.lua", view = "side"'

# the take: ridden beside the output, reused while it recorded the same script, ridden again
# when the script changed (a take is never taken for another script's)
preset mine "return { title = \"Mine\", about = \"a test\",\n$P, captions = \"cap.lua\", to = 1, speed = 2 },\n  },\n}\n"
"$MT" render --lesson "$TMP/mine.render.lua" -o "$TMP/mine.mp4" --size 160x90 > "$TMP/out1" 2>&1
"$MT" render --lesson "$TMP/mine.render.lua" -o "$TMP/mine.mp4" --size 160x90 > "$TMP/out2" 2>&1
if grep -q "riding .*ride.lua into $TMP/ride.lesson.take" "$TMP/out1" && grep -q "reusing $TMP/ride.lesson.take" "$TMP/out2" &&
   ! grep -q riding "$TMP/out2"; then ok lessons_take_reused
else bad lessons_take_reused "first run: $(head -c 200 "$TMP/out1"); second: $(head -c 200 "$TMP/out2")"; fi
sed -i 's/duration = 1.2/duration = 1.1/' "$TMP/ride.lua"
"$MT" render --lesson "$TMP/mine.render.lua" -o "$TMP/mine.mp4" --size 160x90 > "$TMP/out3" 2>&1
if grep -q "riding" "$TMP/out3"; then ok lessons_take_stale; else bad lessons_take_stale "a changed script's take was reused: $(head -c 200 "$TMP/out3")"; fi
expect_match lessons_summary "mine.mp4: lesson mine, 1 part, 15 frames 160x90 at 30 fps" "$TMP/out3"
# two parts drawn by three threads each (render/pool.h): the sink numbers the second part's
# frames after the first's, and the video is the same bytes as one thread's
preset two "return { title = \"Two\", about = \"a test\",\n$P, captions = \"cap.lua\", to = 0.43 },\n    { ride = \"ride.lua\", view = \"grid\", from = 0.2, to = 0.6 },\n  },\n}\n"
"$MT" render --lesson "$TMP/two.render.lua" -o "$TMP/two1.mp4" --size 320x180 --threads 1 --quiet
"$MT" render --lesson "$TMP/two.render.lua" -o "$TMP/two3.mp4" --size 320x180 --threads 3 --quiet
if [ -s "$TMP/two1.mp4" ] && cmp -s "$TMP/two1.mp4" "$TMP/two3.mp4"; then ok lessons_threads_same_bytes
else bad lessons_threads_same_bytes "one and three drawing threads differ"; fi

# hostile NAME REGEX BODY: refused with one line matching REGEX, exit 2, no MP4 written
hostile() {
  preset "$1" "$3"
  expect_error "lessons_$1" "$2" "$MT" render --lesson "$TMP/$1.render.lua" -o "$TMP/$1.mp4" --size 160x90 --quiet
  [ ! -e "$TMP/$1.mp4" ] || bad "lessons_$1_no_file" "$TMP/$1.mp4 was written"
}
F="$TMP/"
hostile unknown "${F}unknown.render.lua:1: field .colour.: unknown field" 'return { title = "t", colour = "red",\n  parts = { { ride = "ride.lua" } } }\n'
hostile no_title "${F}no_title.render.lua:1: field .title.: missing" 'return { parts = { { ride = "ride.lua" } } }\n'
hostile part_key "${F}part_key.render.lua:4: part 1: field .fast.: unknown field" "return { title = \"t\",\n$P,\n      fast = true },\n  },\n}\n"
hostile absolute "${F}absolute.render.lua:3: part 1: field .ride.: a path relative to the lesson's folder" 'return { title = "t",\n  parts = {\n    { ride = "/etc/passwd" },\n  },\n}\n'
hostile missing "${F}missing.render.lua:3: part 1: field .captions.: no such file" "return { title = \"t\",\n$P, captions = \"nothere.lua\" },\n  },\n}\n"
hostile view "${F}view.render.lua:3: part 1: field .view.: unknown view .top." 'return { title = "t",\n  parts = {\n    { ride = "ride.lua", view = "top" },\n  },\n}\n'
hostile speed "${F}speed.render.lua:3: part 1: field .speed.: must be within 0.25..4" "return { title = \"t\",\n$P, speed = 10 },\n  },\n}\n"
hostile size "${F}size.render.lua:1: field .size.: expected WxH, even" 'return { title = "t", size = "641x360",\n  parts = { { ride = "ride.lua" } } }\n'
hostile no_parts "${F}no_parts.render.lua:1: field .parts.: needs 1 to 4 parts, got 0" 'return { title = "t", parts = {} }\n'
hostile loop "${F}loop.render.lua:1: script did not finish" 'while true do end\n'
hostile late "${F}late.render.lua:4: part 2: field .to.: 5 s is not within the take" 'return { title = "t",\n  parts = {\n    { ride = "ride.lua", to = 1 },\n    { ride = "ride.lua", to = 5 },\n  },\n}\n'
hostile plot "${F}plot.render.lua:3: part 1: field .plot.: .*no channel .nothere." "return { title = \"t\",\n$P, to = 1, plot = \"speed,nothere\" },\n  },\n}\n"
hostile overlays "${F}overlays.render.lua:3: part 1: field .overlays.: unknown overlay .arrows." "return { title = \"t\",\n$P, to = 1, overlays = \"arrows\" },\n  },\n}\n"
expect_error lessons_unknown_name "no lesson 'nothere' \\(the lessons: .*countersteering" "$MT" render --lesson nothere -o "$TMP/n.mp4"
expect_error lessons_name_path "no lesson '../lessons/countersteering'" "$MT" render --lesson ../lessons/countersteering -o "$TMP/n.mp4"
expect_error lessons_not_mp4 "a lesson is an MP4" "$MT" render --lesson countersteering -o "$TMP/n.png"
[ ! -e "$TMP/n.mp4" ] && [ ! -e "$TMP/n.png" ] && ok lessons_refused_no_file || bad lessons_refused_no_file "a refused lesson wrote a file"

# every shipped lesson (plain pass only: the racing lap under the sanitizers is minutes, and the
# code paths are the ones above): the first 0.5 s of each part at 160x90, probed.
plain_pass || return 0
if ! have ffprobe; then skip_each "ffprobe is not installed" $(sed 's/^/lessons_mp4_/' "$TMP/want"); return 0; fi
mkdir -p "$TMP/all"
for name in $(cat "$TMP/want"); do
  parts=$(grep -c 'ride = ' "$ROOT/takes/lessons/$name.render.lua")
  if ! "$MT" render --lesson "$name" -o "$TMP/all/$name.mp4" --size 160x90 --preview 0.5 --quiet > "$TMP/out" 2>&1; then
    bad "lessons_mp4_$name" "exit $?: $(head -c 300 "$TMP/out")"; continue
  fi
  got=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$TMP/all/$name.mp4")
  dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$TMP/all/$name.mp4")
  want="h264,160,90,$((15 * parts)) $(awk -v n="$parts" 'BEGIN { printf "%.6f", n * 0.5 }')"
  if [ "$got $dur" = "$want" ]; then ok "lessons_mp4_$name"; else bad "lessons_mp4_$name" "ffprobe says '$got $dur', wanted '$want' ($parts parts)"; fi
done

# two lessons riding the same script into one folder at once (`make -j lessons`: racing_line and
# trail_braking both ride laguna_race.lua): the take's writer refuses the second run, which waits
# for the first and reuses its take; both MP4s are written and the take is whole.
mkdir -p "$TMP/par"
for k in a b; do
  ( "$MT" render --lesson countersteering -o "$TMP/par/$k.mp4" --size 160x90 --preview 0.5 > "$TMP/par/$k.log" 2>&1
    echo "exit $?" >> "$TMP/par/$k.log" ) &
done
wait
if grep -q "^exit 0" "$TMP/par/a.log" && grep -q "^exit 0" "$TMP/par/b.log" && [ -s "$TMP/par/a.mp4" ] && [ -s "$TMP/par/b.mp4" ] &&
   "$MT" take verify "$TMP/par/countersteer.lesson.take" > /dev/null 2>&1; then ok lessons_same_take_at_once
else bad lessons_same_take_at_once "a: $(tr '\n' ' ' < "$TMP/par/a.log" | head -c 300); b: $(tr '\n' ' ' < "$TMP/par/b.log" | head -c 300)"; fi
