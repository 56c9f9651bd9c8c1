# web_hostile.sh — `mototake serve` over a hostile take library (issue 29 findings 2, 3, 7, 9;
# docs/hardening.md): takes whose meta or columns table is a recursive view are refused and the
# server still stops on SIGTERM; symlinked .mototake-web, overrides and runs folders are never
# written through; a take damaged in place with its mtime restored is not shown as verified;
# 64 idle or trickling connections do not lock a user out. Loopback only; every server started here is
# stopped by SIGTERM (and killed at exit if it did not stop); every wait is bounded.
L="$TMP/lib"; mkdir -p "$L"
expect_exit webh_take 0 "$MT" run "$ROOT/takes/chatter.lua" -o "$L/good.take" --quiet
cp "$L/good.take" "$L/poison_meta.take"; cp "$L/good.take" "$L/poison_columns.take"; cp "$L/good.take" "$L/damaged.take"
python3 - "$L" <<'EOF'
import sqlite3, sys
inf = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"   # rows without end
c = sqlite3.connect(sys.argv[1] + "/poison_meta.take")   # no 'timestep' row ever comes
c.executescript("DROP TABLE meta; CREATE VIEW meta AS %s SELECT 'k' || n AS key, n AS value FROM r;" % inf)
c.close()
c = sqlite3.connect(sys.argv[1] + "/poison_columns.take")   # ORDER BY idx never ends
c.executescript("DROP TABLE columns; CREATE VIEW columns AS %s SELECT 'chan' AS stream, n AS idx, 'c' || n AS name, "
                "'1' AS units FROM r;" % inf)
c.close()
EOF

SPIDS=""
trap 'for p in $SPIDS; do kill -KILL $p 2>/dev/null; done' EXIT
# serve_on ROOT: a server on a free loopback port; sets SPID, TOK, B (empty TOK: it did not start)
serve_on() {
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$MT" serve --port "$port" --root "$1" > "$TMP/serve.out" 2> "$TMP/serve.err" &
  SPID=$!; SPIDS="$SPIDS $SPID"; TOK=""; B="http://127.0.0.1:$port"; i=0
  while [ $i -lt 100 ]; do
    TOK=$(sed -n 's/.*?token=\([0-9a-f]*\).*/\1/p' "$TMP/serve.out")
    [ -n "$TOK" ] && curl -s -o /dev/null --max-time 5 "$B/" && break
    sleep 0.1; i=$((i + 1))
  done
}
# stops NAME: SIGTERM stops the server, with status 0, within 30 s
stops() {
  kill -TERM $SPID 2>/dev/null; i=0
  while [ $i -lt 300 ] && kill -0 $SPID 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
  if kill -0 $SPID 2>/dev/null; then bad "$1" "still running 30 s after SIGTERM"; kill -KILL $SPID; wait $SPID 2>/dev/null
  else wait $SPID; rc=$?; if [ $rc = 0 ]; then ok "$1"; else bad "$1" "exit $rc"; fi; fi
}
# get NAME WANT URL [CURL-ARGS]: one request answered within 30 s with HTTP WANT; the body in $TMP/body
get() {
  n=$1; want=$2; u=$3; shift 3
  got=$(curl -s --max-time 30 -o "$TMP/body" -w '%{http_code}' "$@" "$u")
  if [ "$got" = "$want" ]; then ok "$n"; else bad "$n" "HTTP $got, wanted $want: $(head -c 200 "$TMP/body" | tr -cd "[:print:]")"; fi
}

# ---- finding 2: views are refused through the take reader, and SIGTERM still stops the server
serve_on "$L"
if [ -n "$TOK" ]; then ok webh_started; else bad webh_started "$(cat "$TMP/serve.err")"; fi
for t in meta columns; do
  get "webh_view_${t}_refused" 422 "$B/api/take/info?token=$TOK&path=poison_$t.take"
  expect_match "webh_view_${t}_reason" "^\{\"error\":\"poison_$t\.take: not a take: unexpected view '$t' in the schema\"\}$" "$TMP/body"
done
get webh_view_library 200 "$B/api/takes?token=$TOK"
python3 - "$TMP/body" > "$TMP/lib.txt" <<'EOF'
import json, sys
for t in sorted(json.load(open(sys.argv[1]))["takes"], key=lambda t: t["path"]):
    print(t["path"], t.get("error", "-"), (t["info"] or {}).get("steps"))
EOF
if [ "$(cat "$TMP/lib.txt")" = "damaged.take - 5000
good.take - 5000
poison_columns.take poison_columns.take: not a take: unexpected view 'columns' in the schema None
poison_meta.take poison_meta.take: not a take: unexpected view 'meta' in the schema None" ]; then ok webh_view_library_entries
else bad webh_view_library_entries "$(cat "$TMP/lib.txt")"; fi
get webh_view_download_refused 422 "$B/api/take/download?token=$TOK&path=poison_meta.take&format=take"

# ---- finding 7: "verified" follows the content; damage in place with the mtime restored shows
# as not verified, and verifying again finds the damage
get webh_verify 200 "$B/api/take/verify?token=$TOK&path=damaged.take" -X POST
expect_match webh_verify_ok '^\{"ok":true,' "$TMP/body"
get webh_verify_kept 200 "$B/api/take/info?token=$TOK&path=damaged.take"
expect_match webh_verify_kept_ok '"verify":\{"ok":true,' "$TMP/body"
python3 - "$L/damaged.take" > "$TMP/damage.txt" <<'EOF'
import os, sqlite3, sys
p = sys.argv[1]; st = os.stat(p)
c = sqlite3.connect(p)   # one byte of a state chunk's data flipped: same length, same stored CRC
d = bytearray(c.execute("SELECT data FROM chunks WHERE stream = 'state' AND chunk = 1").fetchone()[0])
d[len(d) // 2] ^= 0x5a
c.execute("UPDATE chunks SET data = ? WHERE stream = 'state' AND chunk = 1", (bytes(d),)); c.commit(); c.close()
os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))   # the modification time put back
st2 = os.stat(p)
print("same size and mtime" if (st2.st_size, st2.st_mtime_ns) == (st.st_size, st.st_mtime_ns) else "changed")
EOF
expect_match webh_damage_keeps_size_and_mtime '^same size and mtime$' "$TMP/damage.txt"
get webh_damaged_info 200 "$B/api/take/info?token=$TOK&path=damaged.take"
expect_match webh_damaged_not_verified '"verify":null' "$TMP/body"
get webh_damaged_library 200 "$B/api/takes?token=$TOK"
python3 -c 'import json, sys; print([t["verify"] for t in json.load(open(sys.argv[1]))["takes"] if t["path"] == "damaged.take"])' \
  "$TMP/body" > "$TMP/v.txt"
expect_match webh_damaged_library_not_verified '^\[None\]$' "$TMP/v.txt"
get webh_damaged_verify 200 "$B/api/take/verify?token=$TOK&path=damaged.take" -X POST
expect_match webh_damaged_verify_fails '^\{"ok":false,"message":"[^"]*damaged\.take: chunk 1 of stream state: checksum mismatch' "$TMP/body"

# ---- finding 9: 64 idle connections (the limit) do not lock a user out: a request is answered
# once the idle ones time out (10 s), well within the bound here
python3 - "$B" "$TOK" > "$TMP/idle.txt" <<'EOF'
import socket, subprocess, sys, urllib.parse
b, tok = sys.argv[1], sys.argv[2]
host, port = urllib.parse.urlparse(b).hostname, urllib.parse.urlparse(b).port
idle = [socket.create_connection((host, port), timeout=5) for _ in range(64)]   # connected, silent
r = subprocess.run(["curl", "-s", "--max-time", "60", "-w", " %{http_code}", b + "/api/rigs?token=" + tok],
                   capture_output=True, text=True)
print(r.stdout[-3:], r.returncode)
for s in idle: s.close()
EOF
expect_match webh_idle_connections_no_lockout '^200 0$' "$TMP/idle.txt"
# ... nor do 64 that send a header byte every 2 s (never idle for 10 s): the header watchdog
# shuts each down 15 s after it connected
python3 - "$B" "$TOK" > "$TMP/trickle.txt" <<'EOF'
import socket, subprocess, sys, time, urllib.parse
b, tok = sys.argv[1], sys.argv[2]
host, port = urllib.parse.urlparse(b).hostname, urllib.parse.urlparse(b).port
socks = [socket.create_connection((host, port), timeout=5) for _ in range(64)]
for s in socks: s.sendall(b"GET /api/rigs HTTP/1.1\r\n")
curl = subprocess.Popen(["curl", "-s", "-o", "/dev/null", "--max-time", "60", "-w", "%{http_code}", b + "/api/rigs?token=" + tok],
                        stdout=subprocess.PIPE, text=True)
for _ in range(40):   # at most 80 s; curl gives up after 60
    if curl.poll() is not None: break
    for s in socks:
        try: s.sendall(b"X")
        except OSError: pass
    time.sleep(2)
print(curl.communicate()[0], curl.returncode)
for s in socks: s.close()
EOF
expect_match webh_trickling_connections_no_lockout '^200 0$' "$TMP/trickle.txt"
stops webh_stops_after_views

# ---- finding 3: nothing is written outside the root through a symlinked folder
O="$TMP/outside"; mkdir -p "$O/cache" "$O/overrides" "$O/runs"
echo '{"name":"planted","rig":"sport1000","sets":[]}' > "$O/overrides/planted.json"
R1="$TMP/root_cache"; mkdir -p "$R1"; cp "$L/good.take" "$R1/"; ln -s "$O/cache" "$R1/.mototake-web"
expect_error webh_symlinked_cache_refused "^mototake: serve: --root: $R1/\.mototake-web leads outside the root \(to $O/cache\): refused$" \
  timeout 20 "$MT" serve --port "$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" --root "$R1"
R2="$TMP/root_dirs"; mkdir -p "$R2"; cp "$L/good.take" "$R2/"
ln -s "$O/overrides" "$R2/overrides"; ln -s "$O/runs" "$R2/runs"
serve_on "$R2"
get webh_symlinked_overrides_save_refused 403 "$B/api/rig/save?token=$TOK" -X POST -d '{"name":"soft","rig":"sport1000","sets":[]}'
expect_match webh_symlinked_overrides_reason "^\{\"error\":\"overrides leads outside the root \(to $O/overrides\): refused\"\}$" "$TMP/body"
get webh_symlinked_runs_refused 403 "$B/api/run?token=$TOK" -X POST -d '{"script":"chatter","sets":[]}'
expect_match webh_symlinked_runs_reason "runs leads outside the root" "$TMP/body"
get webh_symlinked_overrides_list 200 "$B/api/rigs?token=$TOK"
expect_match webh_symlinked_overrides_not_listed '"saved":\[\]' "$TMP/body"
get webh_symlinked_thumb 200 "$B/api/take/thumb?token=$TOK&path=good.take"
stops webh_stops_after_symlinks
if [ "$(cd "$O" && find . ! -type d)" = "./overrides/planted.json" ]; then ok webh_nothing_written_outside
else bad webh_nothing_written_outside "outside the root now: $(cd "$O" && find . ! -type d | tr '\n' ' ')"; fi
# A folder swapped for a symlink while a command the server runs is writing in it: the server's
# folders are pinned when checked, so the products still land in the folders checked (renamed, now
# cache.moved and runs.moved), never outside. A run job and a preview render each outlast the swap.
O3="$TMP/outside3"; mkdir -p "$O3/cache" "$O3/runs"
R3="$TMP/root_swap"; mkdir -p "$R3"; cp "$L/good.take" "$R3/"
serve_on "$R3"
swap() { mv "$R3/$1" "$R3/$2" && ln -s "$O3/$3" "$R3/$1"; }
get webh_swap_run_started 200 "$B/api/run?token=$TOK" -X POST -d '{"script":"wheelie","sets":[]}'
swap runs runs.moved runs
curl -s --max-time 60 -o "$TMP/preview.mp4" "$B/api/take/preview?token=$TOK&path=good.take" &
CURL=$!; sleep 0.5; swap .mototake-web cache.moved cache
wait $CURL
i=0; while [ $i -lt 600 ] && curl -s --max-time 5 "$B/api/job?token=$TOK&id=0" | grep -q '"running"'; do sleep 0.1; i=$((i + 1)); done
curl -s --max-time 5 "$B/api/job?token=$TOK&id=0" > "$TMP/job.json"
expect_match webh_swap_run_done '"state": *"done"' "$TMP/job.json"
stops webh_stops_after_swap
if [ -z "$(cd "$O3" && find . ! -type d)" ]; then ok webh_swap_nothing_written_outside
else bad webh_swap_nothing_written_outside "outside the root now: $(cd "$O3" && find . ! -type d | tr '\n' ' ')"; fi
expect_exit webh_swap_run_take_in_checked_folder 0 "$MT" take verify "$R3/runs.moved/wheelie-1.take"
if ls "$R3/cache.moved/"*.mp4 > /dev/null 2>&1; then ok webh_swap_preview_in_checked_folder
else bad webh_swap_preview_in_checked_folder "no preview in the folder checked: $(ls "$R3/cache.moved" | tr '\n' ' ')"; fi
trap - EXIT
