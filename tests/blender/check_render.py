# check_render.py — `mototake render --engine blender`'s MP4 against the Cairo renderer's frame
# (plain python3 and ffprobe/ffmpeg; run.sh runs it after the render).
#
#   python3 tests/blender/check_render.py OUT.mp4 CAIRO.png FRAME W H VIEW_W VIEW_H FRAMES
#
# OUT.mp4 should be H.264 yuv420p, W x H, FRAMES frames, 2.000 s (run.sh renders 2 s). FRAME of it
# is compared with CAIRO.png, the Cairo chase view of the same take time: outside the view area
# (VIEW_W x VIEW_H at the top left: the instruments and the timeline) the two must agree within
# the MP4's compression; inside it the picture must be Blender's: not flat, not the Cairo view, sky
# (blue over red) along its top. Prints "ok NAME" / "FAIL NAME: why" / "info ..." lines.
import json
import subprocess
import sys

mp4, cairo_png, frame, W, H, VW, VH, NF = sys.argv[1], sys.argv[2], int(sys.argv[3]), *map(int, sys.argv[4:9])


def check(name, cond, why):
    print(("ok blender_render_%s" % name) if cond else ("FAIL blender_render_%s: %s" % (name, why)))


p = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries",
                    "stream=codec_name,width,height,nb_read_frames,pix_fmt:format=duration", "-of", "json", mp4],
                   capture_output=True, text=True)
info = json.loads(p.stdout or "{}")
st = (info.get("streams") or [{}])[0]
dur = float((info.get("format") or {}).get("duration", 0))
check("ffprobe", st.get("codec_name") == "h264" and st.get("pix_fmt") == "yuv420p" and (st.get("width"), st.get("height")) == (W, H)
      and int(st.get("nb_read_frames", 0)) == NF and abs(dur - 2.0) < 0.01,
      "codec %s %s, %sx%s, %s frames, %.3f s; want h264 yuv420p %dx%d, %d frames, 2.000 s" %
      (st.get("codec_name"), st.get("pix_fmt"), st.get("width"), st.get("height"), st.get("nb_read_frames"), dur, W, H, NF))


def rgb(args):
    p = subprocess.run(["ffmpeg", "-v", "error"] + args + ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True)
    return p.stdout


a = rgb(["-i", mp4, "-vf", "select=eq(n\\,%d)" % frame, "-frames:v", "1"])
b = rgb(["-i", cairo_png])
if len(a) != W * H * 3 or len(b) != W * H * 3:
    check("hud", False, "frame %d: %d bytes, Cairo frame %d bytes, want %d" % (frame, len(a), len(b), W * H * 3))
    sys.exit(1)
hud_d, hud_n, view = 0, 0, []
for y in range(H):
    for x in range(W):
        i = 3 * (y * W + x)
        if x >= VW or y >= VH:
            hud_d += sum(abs(a[i + k] - b[i + k]) for k in range(3))
            hud_n += 3
        else:
            view.append((a[i], a[i + 1], a[i + 2], b[i], b[i + 1], b[i + 2]))
hud = hud_d / hud_n
check("hud", hud < 8, "the instruments and timeline differ from the Cairo renderer's by %.1f levels on average" % hud)
lum = [sum(v[:3]) / 3 for v in view]
mean = sum(lum) / len(lum)
sd = (sum((l - mean) ** 2 for l in lum) / len(lum)) ** 0.5
vs_cairo = sum(abs(v[k] - v[k + 3]) for v in view for k in range(3)) / (3 * len(view))
top = view[:VW * max(1, VH // 10)]   # the view's top tenth
blue, red = sum(v[2] for v in top) / len(top), sum(v[0] for v in top) / len(top)
check("picture", sd > 12 and vs_cairo > 12 and blue > red + 5,
      "view area: luminance sd %.1f, %.1f levels from the Cairo view, top rows blue %.0f red %.0f" % (sd, vs_cairo, blue, red))
print("info render: HUD %.1f levels from Cairo's; view luminance sd %.1f, %.1f levels from Cairo's view; sky blue %.0f red %.0f"
      % (hud, sd, vs_cairo, blue, red))
