#!/usr/bin/env bash
# Schemathesis (PyPI) against the standalone server, every check on, bounded to a few minutes: the
# served OpenAPI document must describe what the server accepts and answers. The demo team's rate
# limits are raised first, and so is the failed-auth limit per address (Schemathesis's auth checks
# send many keyless requests from 127.0.0.1), so the run tests the routes rather than the 429s.
# Exit code: schemathesis's.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.ci/.venv
if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi

PORT=${SCHEMATHESIS_PORT:-18877}
KEY=ak_schemath1.schemathesis-secret-0123
ADMIN=schemathesis-admin-token-0123456789
DATA=$(mktemp -d)
LOG=$(mktemp)
ANALYST_DATA_DIR=$DATA ANALYST_AUTH_FAILURES_PER_MINUTE=1000000 ANALYST_DEMO=1 ANALYST_DEMO_KEY=$KEY ANALYST_ADMIN_TOKEN=$ADMIN LOG_LEVEL=warn LOG_FORMAT=json PORT=$PORT HOST=127.0.0.1 \
  node dist/apps/standalone/src/main.js >"$LOG" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$DATA" "$LOG"' EXIT
# Ready, not only alive: /healthz answers while the app still starts, when /me is still a 503.
for _ in $(seq 1 180); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 1; done

TEAM=$(curl -sf -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/analyst/v1/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["team"]["id"])')
LIMITS=$(python3 -c 'import json; c=["global","comments","analysis_comments","collection_posts","analysis_read","analysis_create","analysis_search","content_add_posts","content_add_accounts","content_refresh","content_jobs","webhooks_write","events_stream"]; print(json.dumps({"limits": {k: {"perMinute": 100000, "perDay": 1000000} for k in c}, "dailyBytes": 100000000000}))')
curl -sf -X PUT -H "Authorization: Bearer $ADMIN" -H 'content-type: application/json' -d "$LIMITS" "http://127.0.0.1:$PORT/admin/v1/teams/$TEAM/limits" >/dev/null

timeout "${SCHEMATHESIS_TIMEOUT:-600}" "$VENV/bin/schemathesis" --config-file .ci/schemathesis.toml run "http://127.0.0.1:$PORT/analyst/v1/openapi.json" --url "http://127.0.0.1:$PORT" \
  -H "Authorization: Bearer $KEY" --checks all --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-20}" --no-color --seed 1
