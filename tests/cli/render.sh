# render.sh — `mototake render`: MP4 checked with ffprobe (codec, size, rate, frame count,
# duration), PNG frames (count, determinism), --compare, and bad input (one line, exit 2, no file).
"$MT" run tests/data/render_skid.lua -o "$TMP/s.take" > /dev/null 2>&1 || bad render_take "could not record tests/data/render_skid.lua"

# 1.0 s at 30 fps: 30 frames, 1.000 s; the faststart moov atom before mdat
expect_exit render_mp4 0 "$MT" render "$TMP/s.take" -o "$TMP/a.mp4" --from 0.1 --to 1.1 --size 640x360 --view side
expect_probe render_mp4_probe "$TMP/a.mp4" "h264,640,360,yuv420p,30/1,30" "1.000000"
expect_match render_mp4_summary '30 frames 640x360 at 30 fps' "$TMP/out"
# progress (base/progress.h): none when stderr is not a terminal (as here); the frame bar with
# MOTOTAKE_PROGRESS set, up to the last frame; --quiet silences it
[ ! -s "$TMP/err" ] && ok render_no_progress_off_terminal || bad render_no_progress_off_terminal "$(head -c 200 "$TMP/err")"
expect_exit render_progress 0 env MOTOTAKE_PROGRESS=1 "$MT" render "$TMP/s.take" -o "$TMP/p.mp4" --from 0.1 --to 1.1 --size 320x180
tr '\r' '\n' < "$TMP/err" > "$TMP/prog"
expect_match render_progress_bar '^\[#{30}\] 30/30 frames  [0-9.]+ frames/s  ETA 0\.0 s $' "$TMP/prog"
expect_match render_progress_first '^\[#\.{29}\] 1/30 frames' "$TMP/prog"
expect_exit render_progress_quiet 0 env MOTOTAKE_PROGRESS=1 "$MT" render "$TMP/s.take" -o "$TMP/q.mp4" --from 0.1 --to 0.5 --size 320x180 --quiet
[ ! -s "$TMP/err" ] && [ ! -s "$TMP/out" ] && ok render_progress_quiet_silent || bad render_progress_quiet_silent "$(head -c 200 "$TMP/err")"
if od -An -c -N 64 "$TMP/a.mp4" | tr -d ' \n' | grep -q 'moov'; then ok render_mp4_faststart
else bad render_mp4_faststart "no moov atom in the first 64 bytes"; fi
# 25 fps over 0.5 s at a quarter speed: 0.5·25/0.25 = 50 frames, 2.000 s
expect_exit render_mp4_slow 0 "$MT" render "$TMP/s.take" -o "$TMP/b.mp4" --from 0.2 --to 0.7 --fps 25 --speed 0.25 --size 320x240 --view grid
expect_probe render_mp4_slow_probe "$TMP/b.mp4" "h264,320,240,yuv420p,25/1,50" "2.000000"
# a non-integral count: (1.1 − 0) · 24 = 26.4 → 27 frames at 0, 1/24, … 26/24 < 1.1
expect_exit render_mp4_plan 0 "$MT" render "$TMP/s.take" -o "$TMP/c.mp4" --to 1.1 --fps 24 --size 480x270 --view plan --hud off
expect_probe render_mp4_plan_probe "$TMP/c.mp4" "h264,480,270,yuv420p,24/1,27" "1.125000"
if ffmpeg -v error -i "$TMP/a.mp4" -f null - 2> "$TMP/dec"; then ok render_mp4_decodes; else bad render_mp4_decodes "$(head -3 "$TMP/dec")"; fi

# PNG frames: (E − S)·fps of them, numbered from 0, byte-identical on a second render
mkdir -p "$TMP/f1" "$TMP/f2"
expect_exit render_png_seq 0 "$MT" render "$TMP/s.take" -o "$TMP/f1/%04d.png" --from 0.3 --to 0.5 --fps 50 --size 400x300 --view grid
n=$(ls "$TMP/f1" | wc -l)
[ "$n" = 10 ] && [ -f "$TMP/f1/0000.png" ] && [ -f "$TMP/f1/0009.png" ] && ok render_png_count || bad render_png_count "$n files: $(ls "$TMP/f1" | head -3)"
"$MT" render "$TMP/s.take" -o "$TMP/f2/%04d.png" --from 0.3 --to 0.5 --fps 50 --size 400x300 --view grid --quiet
if diff -r "$TMP/f1" "$TMP/f2" > /dev/null; then ok render_png_deterministic; else bad render_png_deterministic "frames differ"; fi
# an MP4 of the grid (its chase cell's levels of detail and merged fills) twice: the same bytes
"$MT" render "$TMP/s.take" -o "$TMP/d1.mp4" --from 0.3 --to 0.6 --size 480x270 --view grid --quiet
"$MT" render "$TMP/s.take" -o "$TMP/d2.mp4" --from 0.3 --to 0.6 --size 480x270 --view grid --quiet
if [ -s "$TMP/d1.mp4" ] && cmp -s "$TMP/d1.mp4" "$TMP/d2.mp4"; then ok render_mp4_deterministic; else bad render_mp4_deterministic "two renders differ"; fi
# --threads (render/pool.h): frames drawn by three threads at once, each with its own context,
# are the same bytes as one thread's: the grid with captions and every overlay, and the track
# view with a ghost take (two take readers a thread, each re-simulating derived channels: the
# MuJoCo callbacks dispatch per thread, sim/vehicle.c); and a bad count is refused
cat > "$TMP/caps.lua" <<'EOF'
return {
  { t0 = 0.3, t1 = 0.6, style = "lower", text = "Leaned", line = "25 degrees on the skidpad" },
  { t0 = 0.4, t1 = 0.8, style = "subtitle", text = "the front tyre's contact" },
  { t0 = 0.3, t1 = 0.8, style = "callout", text = "contact", at = "front_contact" },
}
EOF
"$MT" render "$TMP/s.take" -o "$TMP/t1.mp4" --from 0.3 --to 0.8 --size 480x270 --view grid --captions "$TMP/caps.lua" --overlays all --threads 1 --quiet
"$MT" render "$TMP/s.take" -o "$TMP/t3.mp4" --from 0.3 --to 0.8 --size 480x270 --view grid --captions "$TMP/caps.lua" --overlays all --threads 3 --quiet
if [ -s "$TMP/t1.mp4" ] && cmp -s "$TMP/t1.mp4" "$TMP/t3.mp4"; then ok render_threads_same_bytes; else bad render_threads_same_bytes "one and three drawing threads differ"; fi
"$MT" render "$TMP/s.take" -o "$TMP/u1.mp4" --from 0.3 --to 0.8 --size 480x270 --view track --compare "$TMP/s.take" --threads 1 --quiet
"$MT" render "$TMP/s.take" -o "$TMP/u4.mp4" --from 0.3 --to 0.8 --size 480x270 --view track --compare "$TMP/s.take" --threads 4 --quiet
if [ -s "$TMP/u1.mp4" ] && cmp -s "$TMP/u1.mp4" "$TMP/u4.mp4"; then ok render_threads_ghost_same_bytes; else bad render_threads_ghost_same_bytes "one and four drawing threads differ"; fi
expect_exit render_threads_bad 2 "$MT" render "$TMP/s.take" -o "$TMP/tb.mp4" --threads 9
expect_match render_threads_bad_msg 'render: --threads: 9 is outside \[1, 8\]' "$TMP/err"
[ ! -e "$TMP/tb.mp4" ] && ok render_threads_bad_no_file || bad render_threads_bad_no_file "a file was left"
if cmp -s "$TMP/f1/0000.png" "$TMP/f1/0009.png"; then bad render_png_frames_move "first and last frame identical"; else ok render_png_frames_move; fi
if head -c 8 "$TMP/f1/0000.png" | od -An -c | grep -q 'P   N   G'; then ok render_png_magic; else bad render_png_magic "not a PNG"; fi
# a still; --compare against itself (ghost drawn, gap 0)
expect_exit render_still 0 "$MT" render "$TMP/s.take" -o "$TMP/still.png" --at 0.6 --view track --compare "$TMP/s.take"
expect_match render_still_one_frame '1 frame 1280x720' "$TMP/out"
[ "$(ls "$TMP"/*.tmp* 2>/dev/null | wc -l)" = 0 ] && ok render_no_temporaries || bad render_no_temporaries "$(ls "$TMP"/*.tmp*)"

# bad input: one line, exit 2, nothing written
expect_error render_unknown_view "--view: unknown view 'top'" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --view top
expect_error render_unknown_grid "--grid: unknown view 'front'" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --view grid --grid plan,side,rear,front
expect_error render_odd_size "needs an even width and height, e.g. 642x360" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --size 641x360
expect_error render_above_8k "--size: expected WxH with each within 64..8192" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --size 9000x4000
expect_error render_fps_zero "--fps: must be > 0 and at most 240, got 0" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --fps 0
expect_error render_fps_absurd "--fps: must be > 0 and at most 240, got 10000" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --fps 10000
expect_error render_speed "--speed: must be within 0.25..4, got 8" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --speed 8
expect_error render_range "--from 0.5 --to 9 is not a range within the take \(0 .. 1.199 s; --to up to one step of 0.001 s past the end is the end\)" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --from 0.5 --to 9
# the take's nominal end (1.2 s; its clock stops at 1.199) is its end, for --to and --at; two steps past is refused
expect_exit render_to_nominal_end 0 "$MT" render "$TMP/s.take" -o "$TMP/end.mp4" --from 1.0 --to 1.2 --size 160x90 --view side --hud off
expect_match render_to_nominal_end_frames '6 frames 160x90 at 30 fps \(0.200 s of video, take 1.000..1.167 s' "$TMP/out"
expect_exit render_at_nominal_end 0 "$MT" render "$TMP/s.take" -o "$TMP/end.png" --at 1.2 --size 160x90 --view side --hud off
expect_match render_at_nominal_end_clamped 'take 1.199..1.199 s' "$TMP/out"
rm -f "$TMP/end.mp4" "$TMP/end.png"
expect_error render_to_past_end "--from 1 --to 1.202 is not a range within the take" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --from 1 --to 1.202
expect_error render_at_outside "--at 5 is outside the take" "$MT" render "$TMP/s.take" -o "$TMP/x.png" --at 5
expect_error render_missing_take "nothere.take: cannot open" "$MT" render "$TMP/nothere.take" -o "$TMP/x.mp4"
cp "$TMP/s.take" "$TMP/inc.take"
sqlite3 "$TMP/inc.take" "update status set complete = 0, reason = 'killed'"
expect_error render_incomplete "incomplete take \(killed\)" "$MT" render "$TMP/inc.take" -o "$TMP/x.mp4"
expect_error render_unwritable "/nonexistent/dir/x.mp4: cannot write" "$MT" render "$TMP/s.take" -o /nonexistent/dir/x.mp4
expect_error render_unwritable_png "/nonexistent/f/0000.png: cannot write" "$MT" render "$TMP/s.take" -o "/nonexistent/f/%04d.png"
expect_error render_unknown_output "unknown output" "$MT" render "$TMP/s.take" -o "$TMP/x.avi"
expect_error render_still_needs_one "one picture but the range has" "$MT" render "$TMP/s.take" -o "$TMP/x.png"
expect_error render_plot_unknown "--plot: .*s.take has no channel 'nope'" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --plot speed,nope
expect_error render_plot_too_many "--plot: at most 6 channels" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --plot speed,lean,rpm,gear,throttle,x,y
"$MT" render "$TMP/s.take" -o "$TMP/plot0.png" --at 0.6 --quiet
"$MT" render "$TMP/s.take" -o "$TMP/plot1.png" --at 0.6 --plot rpm,front_load --quiet
if cmp -s "$TMP/plot0.png" "$TMP/plot1.png"; then bad render_plot_changes_picture "same picture"; else ok render_plot_changes_picture; fi
rm -f "$TMP/plot0.png" "$TMP/plot1.png"
expect_error render_compare_missing "other.take: cannot open" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --compare "$TMP/other.take"
[ -z "$(ls "$TMP"/x.* 2>/dev/null)" ] && ok render_bad_input_leaves_nothing || bad render_bad_input_leaves_nothing "$(ls "$TMP"/x.*)"
# a failure part-way (frame 3's name is taken by a folder) removes the frames already written
mkdir -p "$TMP/p/0003.png"
expect_error render_fails_part_way "0003.png: output is a directory, not a regular file" "$MT" render "$TMP/s.take" -o "$TMP/p/%04d.png" --from 0 --to 0.3 --size 320x240
[ "$(ls "$TMP/p")" = "0003.png" ] && ok render_part_way_leaves_nothing || bad render_part_way_leaves_nothing "$(ls "$TMP/p")"
# interrupted (SIGINT after 2 s of a ~1000-frame render): exit 2, one line, no file and no temporary
timeout --preserve-status -s INT 2 "$MT" render "$TMP/s.take" -o "$TMP/int.mp4" --fps 240 --speed 0.25 --quiet > "$TMP/out" 2> "$TMP/err"; rc=$?
if [ $rc = 2 ] && grep -q 'interrupted at frame' "$TMP/err" && [ -z "$(ls "$TMP" | grep int.mp4)" ]; then ok render_interrupted_leaves_nothing
else bad render_interrupted_leaves_nothing "exit $rc, $(cat "$TMP/err"), $(ls "$TMP" | grep int.mp4)"; fi
expect_exit render_help 0 "$MT" render --help
expect_match render_help_text '--compare TAKE' "$TMP/out"

# the chase view: an MP4 of it (with its ghost) probes right, a grid with another camera draws,
# and an unknown camera is one line. In the ASan pass of make test (bin/mototake_asan, LeakSanitizer
# on) render_chase is also the check that a chase render leaks nothing per frame (issue 29,
# docs/hardening.md "8."): a leak makes it exit non-zero and leaves a report.
expect_exit render_chase 0 "$MT" render "$TMP/s.take" -o "$TMP/ch.mp4" --view chase --from 0 --to 0.5 --size 480x270 --compare "$TMP/s.take"
expect_probe render_chase_probe "$TMP/ch.mp4" "h264,480,270,yuv420p,30/1,15" "0.500000"
expect_exit render_chase_grid 0 "$MT" render "$TMP/s.take" -o "$TMP/chg.png" --view grid --at 0.5 --camera trackside
expect_error render_chase_camera "no camera 'nope'" "$MT" render "$TMP/s.take" -o "$TMP/x.mp4" --view chase --camera nope

# docs/render.md's command lines and the README's render line run in doclines.sh, which also
# probes the videos they write (render_doc_hairpin, render_doc_versus, render_doc_frames,
# render_readme_probe). What follows runs in the plain pass only.
plain_pass || return 0

# --engine blender without Blender (app/render_blender.c; the render itself: tests/blender/run.sh):
# Blender missing from PATH, or MOTOTAKE_BLENDER naming nothing, is one line and exit 2; a
# Blender that fails is exit 1 with its last line, and leaves no output and no temporary folder;
# the Cairo-only options are refused with it
expect_error render_blender_missing "Blender is not installed" env -u MOTOTAKE_BLENDER PATH="$TMP/nobin" \
  "$MT" render "$TMP/s.take" -o "$TMP/bm.mp4" --engine blender
[ ! -e "$TMP/bm.mp4" ] && ok render_blender_missing_no_file || bad render_blender_missing_no_file "$TMP/bm.mp4 written"
expect_error render_blender_env_missing "MOTOTAKE_BLENDER=.*/none is not a program" env MOTOTAKE_BLENDER="$TMP/none" \
  "$MT" render "$TMP/s.take" -o "$TMP/bm.mp4" --engine blender
printf '#!/bin/sh\necho "Error: the fake Blender fails"\nexit 1\n' > "$TMP/fake_blender"; chmod +x "$TMP/fake_blender"
mkdir -p "$TMP/btmp"
expect_exit render_blender_fails 1 env MOTOTAKE_BLENDER="$TMP/fake_blender" TMPDIR="$TMP/btmp" \
  "$MT" render "$TMP/s.take" -o "$TMP/bf.mp4" --engine blender --from 0.1 --to 0.5 --size 320x180
if [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q 'exited 1: Error: the fake Blender fails' "$TMP/err" && [ ! -e "$TMP/bf.mp4" ] &&
   [ -z "$(ls -A "$TMP/btmp")" ] && [ -z "$(ls -A "$TMP" | grep '^bf\.mp4')" ]; then ok render_blender_fails_clean
else bad render_blender_fails_clean "stderr '$(head -c 200 "$TMP/err")'; left: $(ls -A "$TMP/btmp") $(ls -A "$TMP" | grep '^bf')"; fi
expect_error render_blender_no_view "--view is for the Cairo views" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --engine blender --view plan
expect_error render_blender_camera "--camera drone: no such camera rig" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --engine blender --camera drone
expect_error render_blender_speed "--engine blender plays the take at --speed 1 \(got 2\)" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --engine blender --speed 2
expect_error render_blender_fps "--fps must be a whole number" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --engine blender --fps 29.97
expect_error render_engine_unknown "--engine: expected cairo or blender" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --engine povray
expect_error render_samples_cairo "--samples is for --engine blender" "$MT" render "$TMP/s.take" -o "$TMP/bv.mp4" --samples 4

# A ridden take's input events on the timeline: one run (an event per pointer move, 60 a second)
# is marked at its two ends with a faint band between, not a line per event (main drew 125 lines
# over the plot and hid its curves). Columns with 20 or more pixels of the marks' colour count:
# the run's two ends and the take's "end" event, 3 (main: 12 of its blurred lines match).
python3 -c 'import json; print(json.dumps([[0, "grab", 500, 300]] + [[s, "move", 500 + s // 100, 280] for s in range(16, 2000, 16)]))' > "$TMP/ev120.json"
"$MT" ride --events "$TMP/ev120.json" --duration 2 --track straight --start 50 -o "$TMP/ride120.take" > /dev/null 2>&1
expect_exit render_ridden_frame 0 "$MT" render "$TMP/ride120.take" --at 1 -o "$TMP/ride120.png" --size 1280x720 --quiet
if python3 - "$ROOT/tests/cli" "$TMP/ride120.png" > "$TMP/chk" 2>&1 <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from ride_tools import read_png
w, h, bpp, rows = read_png(sys.argv[2])
def mark(row, x):   # the marks' colour (0.4, 0.8, 1)
    r, g, b = row[x * bpp:x * bpp + 3]
    return abs(r - 102) <= 8 and abs(g - 204) <= 8 and b >= 247
lines = [x for x in range(w) if sum(mark(rows[y], x) for y in range(h * 3 // 4, h)) >= 20]
print("%d mark lines in the timeline (x %s)" % (len(lines), lines[:6]))
sys.exit(0 if 2 <= len(lines) <= 3 else 1)
PY
then ok "render_ridden_events_one_run: $(cat "$TMP/chk")"; else bad render_ridden_events_one_run "$(cat "$TMP/chk")"; fi
