# shellcheck shell=bash
# Shared settings and helpers for deploy/local/start.sh and deploy/local/stop.sh.
# Sourced, not run.
# shellcheck disable=SC2034 # the variables are used by the scripts that source this

LOCAL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$LOCAL_DIR/../.." && pwd)"

KAFKA_PORT="${KAFKA_PORT:-19092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-19093}"
FERRETDB_PORT="${FERRETDB_PORT:-27018}"
MONGO_STANDIN_PORT="${MONGO_STANDIN_PORT:-27019}"
POSTGRES_PORT="${POSTGRES_PORT:-55432}"
# Which MongoDB stand-in start.sh runs: mongo-java (mongo-java-server, atomic writes) or ferretdb.
MONGO_STANDIN="${ANALYST_MONGO_STANDIN:-mongo-java}"
# seconds each server gets to become ready, and to stop before SIGKILL
READY_TIMEOUT="${ANALYST_STACK_READY_TIMEOUT:-90}"
STOP_TIMEOUT="${ANALYST_STACK_STOP_TIMEOUT:-30}"

KAFKA_HOME="$LOCAL_DIR/kafka"
KAFKA_LIB="$KAFKA_HOME/lib"
FERRETDB_SRC="$LOCAL_DIR/ferretdb"
FERRETDB_BIN="$FERRETDB_SRC/bin/ferretdb-local"
MONGO_JAVA_HOME="$LOCAL_DIR/mongo-java"
MONGO_JAVA_LIB="$MONGO_JAVA_HOME/lib"
MONGO_JAVA_CLASSES="$MONGO_JAVA_HOME/classes"

# The state dir holds pid files, logs and data. Made absolute so process command
# lines (used to recognise our own processes) name it unambiguously.
_stack_dir="${ANALYST_STACK_DIR:-$LOCAL_DIR/.stack}"
case "$_stack_dir" in
  /*) STACK_DIR="$_stack_dir" ;;
  *) STACK_DIR="$PWD/$_stack_dir" ;;
esac
STACK_DIR="${STACK_DIR%/}"
unset _stack_dir
# marks a directory as one this stack made, so stop.sh --clean never removes anything else
STACK_MARKER="$STACK_DIR/.analyst-local-stack"

RUN_DIR="$STACK_DIR/run"
LOG_DIR="$STACK_DIR/logs"

log() { printf '[local-stack] %s\n' "$*" >&2; }
die() { printf '[local-stack] ERROR: %s\n' "$*" >&2; exit 1; }

pid_file() { printf '%s/%s.pid' "$RUN_DIR" "$1"; }

# What a process of ours has on its command line: the server's name and the state dir.
_marker() {
  case "$1" in
    kafka) printf 'kafka.Kafka' ;;
    ferretdb) printf 'ferretdb-local' ;;
    mongo-java) printf 'analyst.local.MongoStandIn' ;;
    postgres) printf 'bin/postgres' ;;
    *) return 1 ;;
  esac
}

# Prints the pid of service $1 if it is running (and is really ours), else returns 1.
# A stale pid file (dead process, or pid reused by something else) is removed.
running_pid() {
  local name="$1" file pid args
  file="$(pid_file "$name")"
  [[ -f "$file" ]] || return 1
  pid="$(tr -dc '0-9' <"$file")"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    if [[ -r "/proc/$pid/cmdline" ]]; then
      args="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)"
    else
      args="$(ps -ww -o args= -p "$pid" 2>/dev/null || true)"
    fi
    if [[ "$args" == *"$(_marker "$name")"* && "$args" == *"$STACK_DIR"* ]]; then
      printf '%s' "$pid"
      return 0
    fi
  fi
  rm -f "$file"
  return 1
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Describes who listens on 127.0.0.1:$1 (pid and command line), when ss can tell.
port_owner() {
  local pid
  command -v ss >/dev/null 2>&1 || return 0
  pid="$(ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)"
  [[ -n "$pid" ]] || return 0
  printf ' (pid %s: %s)' "$pid" "$(ps -o args= -p "$pid" 2>/dev/null | cut -c1-160)"
}

# Stops service $1: SIGTERM (SIGINT for PostgreSQL, whose SIGTERM waits for every client to leave),
# wait up to STOP_TIMEOUT seconds, then SIGKILL.
stop_service() {
  local name="$1" pid waited=0 signal=TERM
  if ! pid="$(running_pid "$name")"; then
    log "$name: not running"
    return 0
  fi
  [[ "$name" == postgres ]] && signal=INT
  log "$name: stopping (pid $pid)"
  kill "-$signal" "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do
    if ((waited >= STOP_TIMEOUT * 5)); then
      log "$name: still running after ${STOP_TIMEOUT}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
    waited=$((waited + 1))
  done
  rm -f "$(pid_file "$name")"
  log "$name: stopped"
}
