# takefile.sh — docs/takefile.md is enough to read a take: tests/takefile_reader.py, written from it
# alone (sqlite3, zlib, zstandard, numpy; no mototake code), decodes every stored stream of a few
# takes and tests/cli/takefile_check.py compares them with mototake's values bit for bit: the state
# with the Python package's Take.state(), the channels, context and inputs with `take channels`.
PY=/usr/bin/python3
if ! $PY -c "import numpy, zstandard" 2> /dev/null; then
  skip_each "no numpy or zstandard for /usr/bin/python3 (make deps installs them)" takefile_reader
else
  "$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/w.take" --quiet > /dev/null 2>&1
  "$MT" run "$ROOT/takes/wobble.lua" -o "$TMP/wc.take" --store-channels --quiet > /dev/null 2>&1
  "$MT" take channels "$TMP/w.take" -o "$TMP/w.csv" > /dev/null 2>&1
  "$MT" take channels "$TMP/wc.take" -o "$TMP/wc.csv" > /dev/null 2>&1
  "$MT" take channels "$ROOT/tests/data/ride_format1.take" -o "$TMP/r.csv" > /dev/null 2>&1
  "$MT" take channels "$ROOT/tests/data/stoppie_format2.take" -o "$TMP/s2.csv" > /dev/null 2>&1
  PYTHONDONTWRITEBYTECODE=1 $PY "$ROOT/tests/cli/takefile_check.py" "$TMP" "$ROOT" 2>&1 || echo "FAIL takefile_check: exited $?"
fi
