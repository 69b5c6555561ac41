#!/usr/bin/env bash
# Runs a command with the local stack up and its connection variables exported, then stops the
# stack again if this script started it. Used by `npm run test:integration` and .ci/run.
#   deploy/local/with-stack.sh npm test
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
state="${ANALYST_STACK_DIR:-$here/.stack}"

was_running=0
if [ -f "$state/run/kafka.pid" ] && kill -0 "$(cat "$state/run/kafka.pid")" 2>/dev/null; then was_running=1; fi

"$here/start.sh"
cleanup() { if [ "$was_running" = 0 ]; then "$here/stop.sh" || true; fi; }
trap cleanup EXIT

set -a
# shellcheck disable=SC1091
. "$state/env"
set +a
"$@"
