# notebook.sh — examples/researcher.ipynb runs headless from top to bottom (jupyter nbconvert
# --execute: any cell that raises fails it, and the notebook asserts its own results: the sweep's
# two dampers, the weave's fitted frequency against mototake.modes within 3 %). The plain pass
# only (it runs the Python package over bin/libmototake.so, not the sanitizer build).
if ! plain_pass; then
  :
elif ! have jupyter || ! jupyter nbconvert --version > /dev/null 2>&1; then
  skip notebook_runs "no jupyter nbconvert (make deps installs jupyter-nbconvert, python3-ipykernel)"
else
  if PYTHONDONTWRITEBYTECODE=1 MOTOTAKE_ROOT="$ROOT" PYTHONPATH="$ROOT/python" jupyter nbconvert --to notebook --execute \
      --ExecutePreprocessor.timeout=120 --output-dir "$TMP" "$ROOT/examples/researcher.ipynb" > "$TMP/nb.log" 2>&1; then
    ok notebook_runs
  else
    bad notebook_runs "$(sed 's/\x1b\[[0-9;]*m//g' "$TMP/nb.log" | grep -E '^[A-Za-z]*Error' | tail -2 | tr '\n' ' ' | head -c 400)"
  fi
fi
