#!/usr/bin/env bash
# The Python client's checks, as `npm test` runs them (npm run test:python): a venv in
# clients/python/.venv (git-ignored; remade when pyproject.toml changes) with the package installed
# editable with its dev and pandas extras, then mypy --strict and pytest. The tests start the
# standalone server from dist/ (built by `npm run build` when missing) on a free port.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {
  echo "clients/python needs Python 3.10 or later ($PYTHON is $("$PYTHON" --version 2>&1))" >&2
  exit 1
}
VENV=.venv
STAMP=.venv.stamp
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -x "$VENV/bin/pytest" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
  rm -rf "$VENV" "$STAMP"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -e '.[dev,pandas]'
  echo "$want" >"$STAMP"
fi
"$VENV/bin/mypy"
"$VENV/bin/pytest" -q -p no:cacheprovider
