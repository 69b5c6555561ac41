#!/usr/bin/env bash
# Stops the Docker-less local stack started by deploy/local/start.sh.
#   stop.sh          stop Kafka, PostgreSQL and the MongoDB stand-in (SIGTERM, then SIGKILL after 30 s); keep their data
#   stop.sh --clean  also remove the state dir ($ANALYST_STACK_DIR, default deploy/local/.stack)
#                    and PostgreSQL's data when start.sh placed it outside (postgres-data.sh)
# Stopping a stack that is not running is fine.
set -euo pipefail

# shellcheck source=common.sh source-path=SCRIPTDIR
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.sh"
# shellcheck source=postgres-data.sh source-path=SCRIPTDIR
source "$LOCAL_DIR/postgres-data.sh"

clean=0
for arg in "$@"; do
  case "$arg" in
    --clean) clean=1 ;;
    -h | --help)
      sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "usage: $0 [--clean]" >&2
      exit 2
      ;;
  esac
done

if [[ ! -d "$STACK_DIR" ]]; then
  log "nothing to stop: $STACK_DIR does not exist"
  exit 0
fi

# both stand-ins: the one running may have been started under another ANALYST_MONGO_STANDIN
stop_service mongo-java
stop_service ferretdb
stop_service kafka
stop_service postgres
rm -f "$STACK_DIR/env"

if ((clean)); then
  if [[ -f "$STACK_MARKER" ]]; then
    remove_placed_postgres_data
    rm -rf "$STACK_DIR"
    log "removed $STACK_DIR"
  else
    die "not removing $STACK_DIR: it lacks $(basename "$STACK_MARKER"), so start.sh did not make it"
  fi
fi
