# web.sh — `mototake serve` (docs/web.md): the HTTP API with curl, refusals (token, traversal,
# symlinks out of the root, oversized requests, bad input), runs and saves that never overwrite,
# and the pages in headless Chromium (DOM checked; screenshots in $TMP/*.png).
# The server is started on a free port and always killed at the end, even on failure.
W="$TMP/root"; mkdir -p "$W/sub"
expect_exit web_take_a 0 "$MT" run "$ROOT/takes/chatter.lua" -o "$W/chatter.take" --quiet
expect_exit web_take_b 0 "$MT" run "$ROOT/takes/chatter.lua" -o "$W/sub/chatter_soft.take" --set rear_shock.k=40000 --quiet
ln -s /etc/passwd "$W/evil.take"                # a symlink out of the root
ln -s /etc "$W/outside"                         # a folder symlink out of the root

expect_error web_bad_port "serve: --port: " "$MT" serve --port 99999
expect_error web_bad_root "serve: --root: '$TMP/nosuch' is not a folder" "$MT" serve --root "$TMP/nosuch"
expect_error web_bad_listen "serve: --listen: expected an IPv4 address, got 'everywhere'" "$MT" serve --listen everywhere

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MT" serve --port "$PORT" --root "$W" > "$TMP/serve.out" 2> "$TMP/serve.err" &
SPID=$!
trap 'kill $SPID 2>/dev/null; wait $SPID 2>/dev/null' EXIT
TOK=""
i=0
while [ $i -lt 100 ]; do
  TOK=$(sed -n 's/.*?token=\([0-9a-f]*\).*/\1/p' "$TMP/serve.out")
  [ -n "$TOK" ] && curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break
  sleep 0.1; i=$((i + 1))
done
B="http://127.0.0.1:$PORT"
if [ -n "$TOK" ]; then ok web_started; else bad web_started "no URL printed: $(cat "$TMP/serve.out" "$TMP/serve.err")"; fi
expect_match web_url_loopback "^  http://127\.0\.0\.1:$PORT/\?token=[0-9a-f]{32}$" "$TMP/serve.out"

# code NAME WANT CURL-ARGS...: the HTTP status of one request
code() {
  n=$1; want=$2; shift 2
  got=$(curl -s -o "$TMP/body" -w '%{http_code}' "$@")
  if [ "$got" = "$want" ]; then ok "$n"; else bad "$n" "HTTP $got, wanted $want: $(head -c 200 "$TMP/body")"; fi
}
code web_no_token 403 "$B/api/takes"
code web_wrong_token 403 "$B/api/takes?token=0123456789abcdef0123456789abcdef"
code web_page_no_token 403 "$B/index.html"
code web_index 200 "$B/?token=$TOK"
expect_match web_index_html '<title>mototake</title>' "$TMP/body"
if cmp -s "$TMP/body" "$ROOT/web/index.html"; then ok web_index_is_file; else bad web_index_is_file "differs from web/index.html"; fi
code web_static_js 200 "$B/common.js?token=$TOK"
if cmp -s "$TMP/body" "$ROOT/web/common.js"; then ok web_static_js_is_file; else bad web_static_js_is_file "differs from web/common.js"; fi

code web_takes 200 "$B/api/takes?token=$TOK"
python3 - "$TMP/body" > "$TMP/takes.txt" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in sorted(d["takes"], key=lambda t: t["path"]):
    print(t["path"], t["info"]["complete"], t["info"]["rig"], t["info"]["steps"])
EOF
if [ "$(cat "$TMP/takes.txt")" = "chatter.take True sport1000 5000
sub/chatter_soft.take True sport1000 5000" ]; then ok web_takes_listed; else bad web_takes_listed "$(cat "$TMP/takes.txt")"; fi
# issue 37: every listed take's info is exactly what `take info --json` says of that file
WR=$(realpath "$W")
"$MT" take info "$WR/chatter.take" --json > "$TMP/info_a.json"
"$MT" take info "$WR/sub/chatter_soft.take" --json > "$TMP/info_b.json"
python3 - "$TMP/body" "$TMP/info_a.json" "$TMP/info_b.json" > "$TMP/listed.txt" <<'EOF'
import json, sys
got = {t["path"]: t["info"] for t in json.load(open(sys.argv[1]))["takes"]}
want = {"chatter.take": json.load(open(sys.argv[2])), "sub/chatter_soft.take": json.load(open(sys.argv[3]))}
print("same" if got == want else "differs: " + str({k: [f for f in v if (got.get(k) or {}).get(f) != v[f]] for k, v in want.items()}))
EOF
expect_match web_takes_info_is_take_info '^same$' "$TMP/listed.txt"

# traversal and symlinks: every spelling is refused, none reads /etc/passwd
for p in "../chatter.take" "sub/../../etc/passwd" "/etc/passwd" "evil.take" "outside/passwd" "sub/./chatter_soft.take" \
         ".mototake-web" "%2e%2e/%2e%2e/etc/passwd" "sub//chatter_soft.take"; do
  code "web_traversal_refused_$p" 404 "$B/api/take/info?token=$TOK&path=$p"
  if grep -q 'root:' "$TMP/body"; then bad "web_traversal_leak_$p" "body has /etc/passwd"; fi
done
code web_download_traversal 404 "$B/api/take/download?token=$TOK&path=../../../../etc/passwd&format=take"
code web_static_traversal 404 --path-as-is "$B/../../../etc/passwd?token=$TOK"
code web_static_traversal_enc 404 --path-as-is "$B/%2e%2e/%2e%2e/etc/passwd?token=$TOK"
code web_static_dotfile 404 "$B/.git?token=$TOK"

# oversized requests
head -c 100000 /dev/zero | tr '\0' 'x' > "$TMP/big"
code web_body_too_big 413 -X POST --data-binary @"$TMP/big" "$B/api/run?token=$TOK"
LONG=$(head -c 70000 /dev/zero | tr '\0' 'a')
got=$(curl -s -o /dev/null -w '%{http_code}' "$B/api/takes?token=$TOK&x=$LONG")
case $got in 413|414|431) ok web_url_too_long;; *) bad web_url_too_long "HTTP $got";; esac

# one take: channels, events, thumbnail, CSV data, downloads
code web_take_info 200 "$B/api/take/info?token=$TOK&path=chatter.take"
expect_match web_take_channels '"name":"steer_angle","units":"deg"' "$TMP/body"
expect_match web_take_events '"kind":"linearise"' "$TMP/body"
# issue 37: the whole page content against the take itself (python3's sqlite3) and `take info`
python3 - "$TMP/body" "$WR/chatter.take" "$TMP/info_a.json" > "$TMP/detail.txt" <<'EOF'
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
dt = float(c.execute("SELECT value FROM meta WHERE key = 'timestep'").fetchone()[0])
ch = [{"name": n, "units": u} for n, u in c.execute("SELECT name, units FROM columns WHERE stream = 'chan' ORDER BY idx")]
ev = [{"t": s * dt, "kind": k, "data": json.loads(j)} for s, k, j in c.execute("SELECT step, kind, json FROM events ORDER BY id")]
bad = [k for k, want in (("channels", ch), ("events", ev), ("info", json.load(open(sys.argv[3]))), ("path", "chatter.take"))
       if d.get(k) != want]
print("same (%d channels, %d events)" % (len(ch), len(ev)) if not bad and len(ch) > 50 and ev else "differs: %s" % bad)
EOF
expect_match web_take_info_is_take '^same \([0-9]+ channels, [0-9]+ events\)$' "$TMP/detail.txt"
code web_thumb 200 "$B/api/take/thumb?token=$TOK&path=chatter.take"
if head -c 8 "$TMP/body" | od -An -c | grep -q 'P   N   G'; then ok web_thumb_png; else bad web_thumb_png "not a PNG"; fi
# issue 37: the thumbnail is the plan view `mototake render` draws at the take's last moment
AT=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["duration_s"]; print("%.3f" % (d - 0.01))' "$TMP/info_a.json")
"$MT" render "$W/chatter.take" --view track --at "$AT" --size 320x240 --hud off --quiet -o "$TMP/ref_thumb.png"
if cmp -s "$TMP/body" "$TMP/ref_thumb.png"; then ok web_thumb_is_render; else bad web_thumb_is_render "differs from render --at $AT"; fi
ls "$W/.mototake-web/"*.png > /dev/null 2>&1 && ok web_thumb_cached_under_root || bad web_thumb_cached_under_root "no PNG in $W/.mototake-web"
code web_data 200 "$B/api/take/data?token=$TOK&path=chatter.take&channels=speed,lean&rate=100"
"$MT" take channels "$W/chatter.take" -o "$TMP/ref.csv" --channels speed,lean --rate 100
if cmp -s "$TMP/body" "$TMP/ref.csv"; then ok web_data_is_take_channels; else bad web_data_is_take_channels "differs from take channels"; fi
code web_data_bad_channel 400 "$B/api/take/data?token=$TOK&path=chatter.take&channels=nosuch"
code web_data_bad_chars 400 "$B/api/take/data?token=$TOK&path=chatter.take&channels=a;rm"
code web_data_bad_rate 400 "$B/api/take/data?token=$TOK&path=chatter.take&channels=speed&rate=nan"
code web_download_take 200 "$B/api/take/download?token=$TOK&path=chatter.take&format=take"
if cmp -s "$TMP/body" "$W/chatter.take"; then ok web_download_take_same; else bad web_download_take_same "differs"; fi
code web_download_glb 200 "$B/api/take/download?token=$TOK&path=chatter.take&format=glb"
if head -c 4 "$TMP/body" | grep -q glTF; then ok web_download_glb_magic; else bad web_download_glb_magic "not GLB"; fi
"$MT" export "$W/chatter.take" -o "$TMP/ref.glb" > /dev/null 2>&1
if cmp -s "$TMP/body" "$TMP/ref.glb"; then ok web_download_glb_is_export; else bad web_download_glb_is_export "differs from mototake export"; fi
code web_download_csv 200 "$B/api/take/download?token=$TOK&path=chatter.take&format=csv"
expect_match web_download_csv_header '^time,' "$TMP/body"
"$MT" take channels "$W/chatter.take" --rate 100 -o "$TMP/ref_all.csv"
if cmp -s "$TMP/body" "$TMP/ref_all.csv"; then ok web_download_csv_is_take_channels; else bad web_download_csv_is_take_channels "differs"; fi
code web_download_mat 200 "$B/api/take/download?token=$TOK&path=chatter.take&format=mat"
"$MT" take channels "$W/chatter.take" --rate 100 -o "$TMP/ref_all.mat"
if cmp -s "$TMP/body" "$TMP/ref_all.mat"; then ok web_download_mat_is_take_channels; else bad web_download_mat_is_take_channels "differs from take channels -o X.mat"; fi
code web_download_bad 400 "$B/api/take/download?token=$TOK&path=chatter.take&format=exe"
code web_verify_get_refused 405 "$B/api/take/verify?token=$TOK&path=chatter.take"
code web_verify 200 -X POST "$B/api/take/verify?token=$TOK&path=chatter.take"
expect_match web_verify_bitexact '"ok":true' "$TMP/body"
# issue 37: the verdict is `take verify`'s own line, and the take's page shows it afterwards
cp "$TMP/body" "$TMP/verify.json"
"$MT" take verify "$WR/chatter.take" > "$TMP/verify_cli.txt" 2>&1
python3 - "$TMP/verify.json" "$TMP/verify_cli.txt" > "$TMP/verify_cmp.txt" <<'EOF'
import json, sys
print("same" if json.load(open(sys.argv[1])) == {"ok": True, "message": open(sys.argv[2]).readline().rstrip("\n")} else "differs")
EOF
expect_match web_verify_is_take_verify '^same$' "$TMP/verify_cmp.txt"
curl -s "$B/api/take/info?token=$TOK&path=chatter.take" > "$TMP/info_after.json"
python3 -c 'import json, sys; print("same" if json.load(open(sys.argv[1]))["verify"] == json.load(open(sys.argv[2])) else "differs")' \
  "$TMP/info_after.json" "$TMP/verify.json" > "$TMP/verify_kept.txt"
expect_match web_verify_kept '^same$' "$TMP/verify_kept.txt"
code web_preview_progress_none 200 "$B/api/take/progress?token=$TOK&path=chatter.take&what=preview"
expect_match web_preview_progress_none_body '^\{"state":"none"\}$' "$TMP/body"
code web_preview 200 "$B/api/take/preview?token=$TOK&path=chatter.take"
if head -c 12 "$TMP/body" | grep -q ftyp; then ok web_preview_mp4; else bad web_preview_mp4 "not an MP4"; fi
# issue 34: the preview's progress (the page's spinner reads it): ready once made; hostile asks refused
code web_preview_progress_ready 200 "$B/api/take/progress?token=$TOK&path=chatter.take&what=preview"
expect_match web_preview_progress_ready_body '^\{"state":"ready"\}$' "$TMP/body"
code web_progress_bad_what 400 "$B/api/take/progress?token=$TOK&path=chatter.take&what=../../etc/passwd"
code web_progress_no_what 400 "$B/api/take/progress?token=$TOK&path=chatter.take"
code web_progress_traversal 404 "$B/api/take/progress?token=$TOK&path=../../etc/passwd&what=preview"
code web_compare_plan 200 "$B/api/compare/plan?token=$TOK&a=chatter.take&b=sub/chatter_soft.take"
"$MT" render "$W/chatter.take" --compare "$W/sub/chatter_soft.take" --view track --at "$AT" --size 800x600 --hud off --quiet \
  -o "$TMP/ref_cmp.png"
if cmp -s "$TMP/body" "$TMP/ref_cmp.png"; then ok web_compare_plan_is_render; else bad web_compare_plan_is_render "differs from render --compare"; fi

# the rig editor: every parameter with units, plots that change with an override
code web_params 200 "$B/api/rig/params?token=$TOK&rig=sport1000"
n_web=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["params"]))' "$TMP/body")
n_cli=$("$MT" rig info sport1000 --params | wc -l)
if [ "$n_web" = "$n_cli" ] && [ "$n_web" -gt 600 ]; then ok "web_params_all ($n_web)"; else bad web_params_all "$n_web vs $n_cli"; fi
expect_match web_params_unit '"key":"rear_shock.k","value":58570(\.0)?,"unit":"N/m"' "$TMP/body"
expect_match web_params_comment '"key":"engine.inertia"[^}]*"comment":"kg·m², crank \+ clutch primary' "$TMP/body"
# issue 37: with an override, every key, value and unit is `rig info --params --json --set` of the same
code web_params_set 200 "$B/api/rig/params?token=$TOK&rig=sport1000&set=rear_shock.k=40000"
"$MT" rig info sport1000 --params --json --set rear_shock.k=40000 > "$TMP/params_cli.json"
python3 - "$TMP/body" "$TMP/params_cli.json" > "$TMP/params_cmp.txt" <<'EOF'
import json, sys
kv = lambda l: [(p["key"], p["value"], p["unit"]) for p in l]
web, cli = kv(json.load(open(sys.argv[1]))["params"]), kv(json.load(open(sys.argv[2])))
print("same (%d)" % len(cli) if web == cli and ("rear_shock.k", 40000, "N/m") in cli else "differs: %s" % [a for a in web if a not in cli][:3])
EOF
expect_match web_params_set_is_rig_info '^same \([0-9]+\)$' "$TMP/params_cmp.txt"
code web_params_unknown_rig 404 "$B/api/rig/params?token=$TOK&rig=../../etc/passwd"
code web_params_bad_set 400 "$B/api/rig/params?token=$TOK&rig=sport1000&set=rear_shock.k=soft"
code web_params_unknown_key 400 "$B/api/rig/params?token=$TOK&rig=sport1000&set=rear_shok.k=1"
expect_match web_params_unknown_key_msg 'no such numeric parameter' "$TMP/body"
for k in tyre_front engine draw; do
  code "web_plot_$k" 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=$k"; cp "$TMP/body" "$TMP/plot_$k.png"
done
code web_plot_tyre_edited 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=tyre_front&set=wheels.front.tyre.pDy1=0.8"
if cmp -s "$TMP/body" "$TMP/plot_tyre_front.png"; then bad web_plot_tyre_changes "same PNG with pDy1 = 0.8"; else ok web_plot_tyre_changes; fi
"$MT" plot tyre sport1000 --wheel front --quantity fy --size 800x560 -o "$TMP/ref_tyre.png"
if cmp -s "$TMP/ref_tyre.png" "$TMP/plot_tyre_front.png"; then ok web_plot_tyre_is_plot_tyre; else bad web_plot_tyre_is_plot_tyre "differs"; fi
code web_plot_engine_edited 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=engine&set=engine.displacement=0.0008"
if cmp -s "$TMP/body" "$TMP/plot_engine.png"; then bad web_plot_engine_changes "same PNG"; else ok web_plot_engine_changes; fi
code web_plot_draw_edited 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=draw&set=bodies.rider_torso.mass=40"
if cmp -s "$TMP/body" "$TMP/plot_draw.png"; then bad web_plot_draw_changes "same PNG"; else ok web_plot_draw_changes; fi
code web_plot_bad_kind 400 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=shell"

# save as: a new override set, never an overwrite
code web_save 200 -X POST -d '{"name":"soft","rig":"sport1000","sets":["rear_shock.k=40000"]}' "$B/api/rig/save?token=$TOK"
expect_match web_save_file '"rear_shock.k=40000"' "$W/overrides/soft.json"
code web_save_again_refused 409 -X POST -d '{"name":"soft","rig":"sport1000","sets":[]}' "$B/api/rig/save?token=$TOK"
expect_match web_save_kept '"rear_shock.k=40000"' "$W/overrides/soft.json"
# the saved set rides from the command line: mototake run --sets FILE (the take records it)
expect_exit web_saved_set_runs 0 "$MT" run "$ROOT/takes/wobble.lua" --sets "$W/overrides/soft.json" -o "$TMP/sets0.take" --quiet
"$MT" run "$ROOT/takes/wobble.lua" --sets "$W/overrides/soft.json" --set rear_shock.c_comp=1000 -o "$TMP/sets.take" --quiet > /dev/null 2>&1
"$MT" take info "$TMP/sets.take" > "$TMP/setsinfo" 2>&1
expect_match web_saved_set_in_take 'overrides .*"rear_shock.k=40000","rear_shock.c_comp=1000"' "$TMP/setsinfo"
printf '{"sets": [3]}' > "$TMP/badsets.json"
expect_error run_sets_not_strings "badsets.json: field 'sets'\\[0\\]: not a \"KEY=VALUE\" string" "$MT" run "$ROOT/takes/wobble.lua" --sets "$TMP/badsets.json" --dry-run
printf '{"sets": ' > "$TMP/badsets2.json"
expect_error run_sets_bad_json "badsets2.json:1: " "$MT" run "$ROOT/takes/wobble.lua" --sets "$TMP/badsets2.json" --dry-run
code web_save_bad_name 400 -X POST -d '{"name":"../../x","rig":"sport1000","sets":[]}' "$B/api/rig/save?token=$TOK"
code web_save_bad_json 400 -X POST -d '{"name":' "$B/api/rig/save?token=$TOK"
code web_save_bad_set 400 -X POST -d '{"name":"x","rig":"sport1000","sets":["k=1;rm -rf /"]}' "$B/api/rig/save?token=$TOK"
code web_rigs 200 "$B/api/rigs?token=$TOK"
expect_match web_rigs_saved '"name":"soft"' "$TMP/body"
# issue 37: the scripts are the shipped takes/*.lua, the saved sets the files under overrides/
python3 - "$TMP/body" "$ROOT/takes" "$W/overrides" > "$TMP/rigs_cmp.txt" <<'EOF'
import glob, json, os, sys
d = json.load(open(sys.argv[1]))
scripts = sorted(os.path.basename(f)[:-4] for f in glob.glob(sys.argv[2] + "/*.lua"))
saved = sorted((dict(json.load(open(f)), file="overrides/" + os.path.basename(f)) for f in glob.glob(sys.argv[3] + "/*.json")),
               key=lambda o: o["file"])
print("same" if sorted(d["scripts"]) == scripts and sorted(d["saved"], key=lambda o: o["file"]) == saved and saved and
      d["rigs"] == ["sport1000", "whipple_benchmark"] else "differs")
EOF
expect_match web_rigs_is_folders '^same$' "$TMP/rigs_cmp.txt"

# ride this: a run with the overrides, with progress, into a new take in the library
code web_run_bad_script 400 -X POST -d '{"script":"../../etc/passwd"}' "$B/api/run?token=$TOK"
code web_run 200 -X POST -d '{"script":"chatter","sets":["rear_shock.k=40000"]}' "$B/api/run?token=$TOK"
expect_match web_run_take '"take":"runs/chatter-1.take"' "$TMP/body"
code web_run2 200 -X POST -d '{"script":"chatter","sets":[]}' "$B/api/run?token=$TOK"
expect_match web_run_new_name '"take":"runs/chatter-2.take"' "$TMP/body"
# a racing script practises before its ride (takes/practice.h, about 12 s here): the job says so
# with the practice bar's name and percentage, its ride's total still 0
code web_run_race 200 -X POST -d '{"script":"laguna_race","sets":[]}' "$B/api/run?token=$TOK"
i=0
while [ $i -lt 300 ]; do
  curl -s "$B/api/job?token=$TOK&id=2" > "$TMP/job2"
  grep -q '"stage":"practice laps"' "$TMP/job2" || ! grep -q '"state":"running"' "$TMP/job2" && break
  sleep 0.1; i=$((i + 1))
done
expect_match web_run_practice_stage '"state":"running","t":0\.0,"total":0\.0,.*"stage":"practice laps","pct":[0-9.]+' "$TMP/job2"
i=0; st=""
while [ $i -lt 600 ]; do
  curl -s "$B/api/job?token=$TOK&id=0" > "$TMP/job0"; curl -s "$B/api/job?token=$TOK&id=1" > "$TMP/job1"
  curl -s "$B/api/job?token=$TOK&id=2" > "$TMP/job2"
  grep -q '"state":"running"' "$TMP/job0" "$TMP/job1" "$TMP/job2" || break
  sleep 0.2; i=$((i + 1))
done
expect_match web_run_race_done '"state":"done",.*"stage":""' "$TMP/job2"
# issue 34: the run's bar starts at its first step, so a job reports the script's duration at once
MOTOTAKE_PROGRESS=1 "$MT" run "$ROOT/takes/chatter.lua" -o "$TMP/bar.take" > /dev/null 2> "$TMP/bar.err"
tr '\r' '\n' < "$TMP/bar.err" | grep -m1 '^\[' > "$TMP/bar1.txt"
expect_match web_run_bar_from_first_step '^\[\.+\] +0\.0 / 5\.0 s' "$TMP/bar1.txt"
expect_match web_run_done '"state":"done","t":(5\.0|4\.999+)[0-9]*,"total":(5\.0|4\.999+)' "$TMP/job0"   # the progress bar's total: the script's 5 s
expect_match web_run2_done '"state":"done"' "$TMP/job1"
"$MT" take info "$W/runs/chatter-1.take" > "$TMP/run_info" 2>&1
expect_match web_run_override_recorded 'rear_shock.k=40000' "$TMP/run_info"
expect_exit web_run_take_verifies 0 "$MT" take verify "$W/runs/chatter-1.take"
code web_takes_after_run 200 "$B/api/takes?token=$TOK"
expect_match web_run_in_library '"path":"runs/chatter-1.take"' "$TMP/body"
code web_job_unknown 404 "$B/api/job?token=$TOK&id=63"

# the pages in headless Chromium: the DOM after the scripts ran, and screenshots; tests/web/pages.js drives them
if command -v chromium > /dev/null 2>&1; then
  chrome() {   # chrome NAME URL: dump the DOM and save a screenshot
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chrome" \
      --virtual-time-budget=20000 --window-size=1400,1000 --dump-dom "$2" > "$TMP/$1.html" 2> /dev/null
    timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chrome" \
      --virtual-time-budget=20000 --window-size=1400,1000 --screenshot="$TMP/$1.png" "$2" > /dev/null 2>&1
  }
  chrome library "$B/?token=$TOK"
  expect_match web_page_library 'href="take.html\?path=sub%2Fchatter_soft.take&amp;token=' "$TMP/library.html"
  chrome take "$B/take.html?path=chatter.take&token=$TOK"
  expect_match web_page_take_ready 'data-ready="1"' "$TMP/take.html"
  expect_match web_page_take_plots '<canvas width="900" height="190" data-channel="steer_angle">' "$TMP/take.html"
  expect_match web_page_take_events '<td>linearise</td>' "$TMP/take.html"
  chrome rig "$B/rig.html?rig=sport1000&set=wheels.front.tyre.pDy1%3D0.8&token=$TOK"
  expect_match web_page_rig_ready 'data-ready="1"' "$TMP/rig.html"
  expect_match web_page_rig_edited '<tr class="edited"><td class="k">wheels.front.tyre.pDy1</td>' "$TMP/rig.html"
  expect_match web_page_rig_groups 'data-group="Masses and inertias"' "$TMP/rig.html"
  expect_match web_page_rig_plot 'data-kind="tyre_front"[^>]*src="/api/rig/plot\?rig=sport1000&amp;set=wheels.front.tyre.pDy1%3D0.8' "$TMP/rig.html"
  # a user's edit in the live page (DevTools protocol): the front tyre plot is redrawn and differs
  node --experimental-websocket "$ROOT/tests/web/edit.js" "$B/rig.html?rig=sport1000&token=$TOK" "$TMP/rig_edit.png" > "$TMP/edit.json" 2> "$TMP/edit.err"
  expect_match web_page_rig_edit_redraws '"changed":true,"bytesDiffer":true' "$TMP/edit.json"
  expect_match web_page_rig_edit_url '"after":"[^"]*set=wheels\.front\.tyre\.pDy1%3D0\.8' "$TMP/edit.json"
  # issue 34: the pages' behaviour (stale replies, preview spinner, ride bar, locus scale, console) in one session
  # (plain pass only: the pages' scripts are the same in both passes, and the server's routes they
  # call run under the sanitizers in the checks above)
  if plain_pass; then
    node --experimental-websocket "$ROOT/tests/web/pages.js" "$B" "$TOK" "$TMP" 2> "$TMP/pages.err"   # exit 1: a FAIL line printed
    rc=$?; [ $rc -le 1 ] || bad web_pages_script "exit $rc: $(tail -c 300 "$TMP/pages.err")"
  fi
  chrome compare "$B/compare.html?a=chatter.take&b=sub%2Fchatter_soft.take&axis=time&token=$TOK"
  expect_match web_page_compare_ready 'data-ready="1"' "$TMP/compare.html"
  expect_match web_page_compare_gap 'final gap -?[0-9.]+ s at [0-9]+ m' "$TMP/compare.html"
  for p in library take rig compare; do
    if [ -s "$TMP/$p.png" ] && head -c 8 "$TMP/$p.png" | od -An -c | grep -q 'P   N   G'; then ok "web_screenshot_$p"; else bad "web_screenshot_$p" "no PNG"; fi
  done
else
  bad web_chromium "chromium is not installed (make deps)"
fi

# issue 34: the pages' axis tick chooser (web/common.js MT.ticks) under node
if have node; then node "$ROOT/tests/web/ticks.js"; rc=$?; [ $rc -le 1 ] || bad web_ticks_script "exit $rc"; else skip_each "node is not installed" web_ticks_speed web_ticks_small web_ticks_zero web_ticks_round_everywhere web_event_labels_apart; fi

# a new build of the program never serves the old build's products (a plot drawn differently):
# every cache name hashes the executable's size and time. The same build asked again makes no new
# file; a copy of the program (another time) serving the same root makes the plot anew.
ncache() { ls "$W/.mototake-web" | grep -c '\.png$'; }
code web_cache_plot 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=engine"
n1=$(ncache)
code web_cache_plot_again 200 "$B/api/rig/plot?token=$TOK&rig=sport1000&kind=engine"
n2=$(ncache)
cp "$MT" "$TMP/mt_build2" && touch -d '2001-01-01 00:00:00' "$TMP/mt_build2"
PORT3=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TMP/mt_build2" serve --port "$PORT3" --root "$W" > "$TMP/serve3.out" 2> "$TMP/serve3.err" &
SPID3=$!
i=0; TOK3=""
while [ $i -lt 100 ]; do
  TOK3=$(sed -n 's/.*?token=\([0-9a-f]*\).*/\1/p' "$TMP/serve3.out")
  [ -n "$TOK3" ] && curl -s -o /dev/null "http://127.0.0.1:$PORT3/" && break
  sleep 0.1; i=$((i + 1))
done
code web_cache_plot_new_build 200 "http://127.0.0.1:$PORT3/api/rig/plot?token=$TOK3&rig=sport1000&kind=engine"
n3=$(ncache)
kill $SPID3; wait $SPID3 2>/dev/null
if [ "$n2" = "$n1" ] && [ "$n3" = $((n2 + 1)) ]; then ok web_cache_per_build
else bad web_cache_per_build "PNG files in the cache: $n1, $n2 asked again, $n3 from another build (wanted $n1, $n1, $((n1 + 1)))"; fi

# --listen: a warning on any address but loopback
PORT2=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MT" serve --port "$PORT2" --root "$W" --listen 0.0.0.0 > "$TMP/serve2.out" 2> "$TMP/serve2.err" &
SPID2=$!
i=0; while [ $i -lt 50 ] && ! grep -q token "$TMP/serve2.out"; do sleep 0.1; i=$((i + 1)); done
kill $SPID2; wait $SPID2 2>/dev/null
expect_match web_listen_warning '^mototake: warning: serving on 0\.0\.0\.0, not loopback' "$TMP/serve2.err"

# nothing shipped was written, and the server stops cleanly
kill $SPID; wait $SPID; rc=$?
if [ $rc = 0 ]; then ok web_stops_cleanly; else bad web_stops_cleanly "exit $rc"; fi
trap - EXIT
if git -C "$ROOT" status --porcelain rigs takes | grep -q .; then bad web_no_shipped_writes "$(git -C "$ROOT" status --porcelain rigs takes)"; else ok web_no_shipped_writes; fi
