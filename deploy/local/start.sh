#!/usr/bin/env bash
# Starts the Docker-less local stack on 127.0.0.1:
#   - Apache Kafka 4.1 (single KRaft broker+controller) on $KAFKA_PORT (19092)
#   - a MongoDB stand-in (MongoDB wire protocol), chosen by ANALYST_MONGO_STANDIN:
#       mongo-java (default): mongo-java-server 1.47 on H2, atomic writes, on $MONGO_STANDIN_PORT (27019)
#       ferretdb:             FerretDB 1.24 on SQLite, loses concurrent updates, on $FERRETDB_PORT (27018)
#   - PostgreSQL (Debian's postgresql package), database `analyst`, on $POSTGRES_PORT (55432)
# Idempotent: a server that is already running is left alone (and checked again).
# Downloads the Kafka and mongo-java-server jars (Maven) the first time, and compiles the stand-in's
# main (javac) or builds FerretDB (Go).
# Prints the connection variables and writes them to $ANALYST_STACK_DIR/env.
# See deploy/local/README.md.
set -euo pipefail

# shellcheck source=common.sh source-path=SCRIPTDIR
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.sh"
# shellcheck source=postgres-data.sh source-path=SCRIPTDIR
source "$LOCAL_DIR/postgres-data.sh"

usage() {
  cat <<EOF
usage: $0

Environment:
  KAFKA_PORT             Kafka client port (default 19092)
  KAFKA_CONTROLLER_PORT  Kafka KRaft controller port (default 19093)
  KAFKA_HEAP_OPTS        Kafka JVM heap (default "-Xms256m -Xmx512m")
  ANALYST_MONGO_STANDIN  mongo-java (default) or ferretdb: the MongoDB-protocol server to run
  MONGO_STANDIN_PORT     mongo-java-server port (default 27019)
  MONGO_STANDIN_HEAP_OPTS  its JVM heap (default "-Xms64m -Xmx512m")
  FERRETDB_PORT          FerretDB port (default 27018)
  FERRETDB_LOG_LEVEL     debug|info|warn|error (default warn)
  POSTGRES_PORT          PostgreSQL port (default 55432)
  POSTGRES_BIN_DIR       where initdb and postgres are (default: the newest /usr/lib/postgresql/*/bin)
  ANALYST_STACK_DIR      state dir: pids, logs, data (default deploy/local/.stack)
  ANALYST_STACK_READY_TIMEOUT  seconds each server may take to get ready (default 90)
EOF
}

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  "") ;;
  *) usage >&2; exit 2 ;;
esac
case "$MONGO_STANDIN" in
  mongo-java | ferretdb) ;;
  *) die "ANALYST_MONGO_STANDIN must be mongo-java or ferretdb, not $MONGO_STANDIN" ;;
esac

mkdir -p "$STACK_DIR" "$RUN_DIR" "$LOG_DIR"
touch "$STACK_MARKER"

# One start.sh at a time per state dir.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$RUN_DIR/start.lock"
  if ! flock -n 9; then
    log "waiting for another start.sh (lock $RUN_DIR/start.lock) ..."
    flock -w 300 9 || die "another start.sh still holds $RUN_DIR/start.lock after 300s"
  fi
fi

# ---------------------------------------------------------------- prerequisites

need() { command -v "$1" >/dev/null 2>&1 || die "$1 is required ($2)"; }

check_java() {
  need java "Java 17+ runs Kafka"
  local v
  v="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -1)"
  v="${v#1.}"
  if ! [[ "$v" =~ ^[0-9]+$ ]] || ((v < 17)); then
    die "Kafka 4.1 needs Java 17 or newer (found java.specification.version=${v:-unknown})"
  fi
}

# Fetch the Kafka jars into deploy/local/kafka/lib when absent or older than pom.xml.
ensure_kafka_jars() {
  local stamp="$KAFKA_LIB/.fetched"
  if [[ -f "$stamp" && ! "$KAFKA_HOME/pom.xml" -nt "$stamp" ]] && compgen -G "$KAFKA_LIB/kafka_2.13-*.jar" >/dev/null; then
    return 0
  fi
  need mvn "Maven fetches the Kafka jars from Maven Central"
  log "kafka: fetching jars from Maven Central into $KAFKA_LIB (first run only) ..."
  rm -rf "$KAFKA_LIB"
  mkdir -p "$KAFKA_LIB"
  if ! (cd "$KAFKA_HOME" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib >"$LOG_DIR/kafka-mvn.log" 2>&1); then
    tail -n 30 "$LOG_DIR/kafka-mvn.log" >&2 || true
    rm -rf "$KAFKA_LIB"
    die "kafka: maven could not fetch the jars (full log: $LOG_DIR/kafka-mvn.log)"
  fi
  touch "$stamp"
  log "kafka: $(find "$KAFKA_LIB" -name '*.jar' | wc -l | tr -d ' ') jars fetched"
}

# Build deploy/local/ferretdb/bin/ferretdb-local when absent or older than its sources.
ensure_ferretdb_binary() {
  local f stale=0
  if [[ -x "$FERRETDB_BIN" ]]; then
    for f in main.go go.mod go.sum; do
      [[ "$FERRETDB_SRC/$f" -nt "$FERRETDB_BIN" ]] && stale=1
    done
    ((stale == 0)) && return 0
  fi
  need go "Go 1.24+ builds FerretDB"
  log "ferretdb: building $FERRETDB_BIN (first run only, ~1 min) ..."
  mkdir -p "$(dirname "$FERRETDB_BIN")"
  if ! (cd "$FERRETDB_SRC" && CGO_ENABLED=0 go build -trimpath -o "$FERRETDB_BIN.tmp" . >"$LOG_DIR/ferretdb-build.log" 2>&1); then
    tail -n 30 "$LOG_DIR/ferretdb-build.log" >&2 || true
    rm -f "$FERRETDB_BIN.tmp"
    die "ferretdb: go build failed (full log: $LOG_DIR/ferretdb-build.log; go.mod needs Go >= 1.24 — with an older go, GOTOOLCHAIN=auto fetches one)"
  fi
  mv -f "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
}

# Fetch the mongo-java-server jars into deploy/local/mongo-java/lib when absent or older than pom.xml.
ensure_mongo_java_jars() {
  local stamp="$MONGO_JAVA_LIB/.fetched"
  if [[ -f "$stamp" && ! "$MONGO_JAVA_HOME/pom.xml" -nt "$stamp" ]] &&
    compgen -G "$MONGO_JAVA_LIB/mongo-java-server-core-*.jar" >/dev/null; then
    return 0
  fi
  need mvn "Maven fetches the mongo-java-server jars from Maven Central"
  log "mongo-java: fetching jars from Maven Central into $MONGO_JAVA_LIB (first run only) ..."
  rm -rf "$MONGO_JAVA_LIB"
  mkdir -p "$MONGO_JAVA_LIB"
  if ! (cd "$MONGO_JAVA_HOME" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib >"$LOG_DIR/mongo-java-mvn.log" 2>&1); then
    tail -n 30 "$LOG_DIR/mongo-java-mvn.log" >&2 || true
    rm -rf "$MONGO_JAVA_LIB"
    die "mongo-java: maven could not fetch the jars (full log: $LOG_DIR/mongo-java-mvn.log)"
  fi
  touch "$stamp"
}

# Compile our main (src/) against the jars when the classes are absent or older than a source or the jars.
ensure_mongo_java_classes() {
  local stamp="$MONGO_JAVA_CLASSES/.compiled" f stale=0 sources=()
  mapfile -t sources < <(find "$MONGO_JAVA_HOME/src" -name '*.java')
  if [[ -f "$stamp" ]]; then
    for f in "${sources[@]}" "$MONGO_JAVA_LIB/.fetched"; do
      [[ "$f" -nt "$stamp" ]] && stale=1
    done
    ((stale == 0)) && return 0
  fi
  need javac "a JDK 17+ compiles the stand-in's main"
  log "mongo-java: compiling $MONGO_JAVA_HOME/src"
  rm -rf "$MONGO_JAVA_CLASSES"
  mkdir -p "$MONGO_JAVA_CLASSES"
  if ! javac -d "$MONGO_JAVA_CLASSES" -cp "$MONGO_JAVA_LIB/*" "${sources[@]}" >"$LOG_DIR/mongo-java-build.log" 2>&1; then
    tail -n 30 "$LOG_DIR/mongo-java-build.log" >&2 || true
    rm -rf "$MONGO_JAVA_CLASSES"
    die "mongo-java: javac failed (full log: $LOG_DIR/mongo-java-build.log)"
  fi
  touch "$stamp"
}

# ---------------------------------------------------------------- helpers

# Runs "$@" detached from this shell (own session, no stdin), output to $log_file;
# records its pid in the pid file of service $name.
spawn() {
  local name="$1" log_file="$2"
  shift 2
  local pidf
  pidf="$(pid_file "$name")"
  rm -f "$pidf"
  # shellcheck disable=SC2016 # $$, $0 and $@ belong to the inner shell
  # the inner shell writes its own pid and then execs the server, so the pid is the server's;
  # fd 9 (start.sh's lock) is closed so the server does not hold the lock for its lifetime
  if command -v setsid >/dev/null 2>&1; then
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" </dev/null >>"$log_file" 2>&1 9>&- &
  else
    nohup bash -c 'echo $$ >"$0"; exec "$@"' "$pidf" "$@" </dev/null >>"$log_file" 2>&1 9>&- &
  fi
  local _
  for _ in $(seq 1 50); do
    [[ -s "$pidf" ]] && return 0
    sleep 0.1
  done
  die "$name: could not start (no pid file $pidf)"
}

# Fails with the tail of the logs when service $1 died or never got ready.
fail_service() {
  local name="$1" why="$2"
  shift 2
  local f
  for f in "$@"; do
    if [[ -s "$f" ]]; then
      printf '\n----- last lines of %s -----\n' "$f" >&2
      tail -n 40 "$f" >&2
      printf -- '-----\n\n' >&2
    fi
  done
  if [[ "$why" == timeout ]]; then
    # leave no half-started server behind
    stop_service "$name" || true
    die "$name: not ready after ${READY_TIMEOUT}s (logs above; stopped it again; deploy/local/stop.sh stops the rest)"
  fi
  die "$name: $why (logs above)"
}

# ---------------------------------------------------------------- kafka

KAFKA_STATE="$STACK_DIR/kafka"
KAFKA_DATA="$KAFKA_STATE/data"
KAFKA_CONFIG="$KAFKA_STATE/server.properties"
KAFKA_OUT="$LOG_DIR/kafka.out"
KAFKA_SERVER_LOG="$LOG_DIR/kafka-server.log"

kafka_java() {
  # JVM for the Kafka command-line tools: small heap, warnings only
  java -Xmx256m -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_HOME/tools-log4j2.properties" \
    -cp "$KAFKA_LIB/*" "$@"
}

write_kafka_config() {
  mkdir -p "$KAFKA_STATE" "$KAFKA_DATA"
  sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" \
    -e "s|@KAFKA_CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
    -e "s|@KAFKA_LOG_DIR@|$KAFKA_DATA|g" \
    "$KAFKA_HOME/server.properties" >"$KAFKA_CONFIG.tmp"
  mv -f "$KAFKA_CONFIG.tmp" "$KAFKA_CONFIG"
}

format_kafka_storage() {
  [[ -f "$KAFKA_DATA/meta.properties" ]] && return 0
  local cluster_id
  if [[ -s "$KAFKA_STATE/cluster.id" ]]; then
    cluster_id="$(cat "$KAFKA_STATE/cluster.id")"
  else
    cluster_id="$(kafka_java kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka-tools.log" | tail -n 1)"
    [[ -n "$cluster_id" ]] || fail_service kafka "could not generate a cluster id" "$LOG_DIR/kafka-tools.log"
    printf '%s\n' "$cluster_id" >"$KAFKA_STATE/cluster.id"
  fi
  log "kafka: formatting $KAFKA_DATA (cluster id $cluster_id)"
  kafka_java kafka.tools.StorageTool format --standalone -t "$cluster_id" -c "$KAFKA_CONFIG" \
    >>"$LOG_DIR/kafka-tools.log" 2>&1 ||
    fail_service kafka "StorageTool format failed" "$LOG_DIR/kafka-tools.log"
}

kafka_ready() {
  # a client can create (or finds) a topic: the broker, the controller and metadata all work
  local t=()
  command -v timeout >/dev/null 2>&1 && t=(timeout 30)
  ${t[@]+"${t[@]}"} java -Xmx256m -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_HOME/tools-log4j2.properties" \
    -cp "$KAFKA_LIB/*" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "127.0.0.1:$KAFKA_PORT" \
    --create --if-not-exists --topic analyst.readiness --partitions 1 --replication-factor 1 \
    >>"$LOG_DIR/kafka-readiness.log" 2>&1
}

start_kafka() {
  local pid
  if pid="$(running_pid kafka)"; then
    log "kafka: already running (pid $pid)"
  else
    if port_open "$KAFKA_PORT"; then
      die "kafka: port $KAFKA_PORT is in use by another process$(port_owner "$KAFKA_PORT"), not by the stack in $STACK_DIR; stop it (a stack of another checkout: its deploy/local/stop.sh) or set KAFKA_PORT"
    fi
    if port_open "$KAFKA_CONTROLLER_PORT"; then
      die "kafka: controller port $KAFKA_CONTROLLER_PORT is in use by another process$(port_owner "$KAFKA_CONTROLLER_PORT"); stop it or set KAFKA_CONTROLLER_PORT"
    fi
    check_java
    ensure_kafka_jars
    write_kafka_config
    format_kafka_storage
    log "kafka: starting on 127.0.0.1:$KAFKA_PORT (logs: $KAFKA_SERVER_LOG)"
    # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of JVM flags
    spawn kafka "$KAFKA_OUT" java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} \
      -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
      -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
      -Dlog4j2.configurationFile="$KAFKA_HOME/log4j2.properties" \
      -Dkafka.logs.dir="$LOG_DIR" \
      -cp "$KAFKA_LIB/*" kafka.Kafka "$KAFKA_CONFIG"
  fi
}

wait_kafka() {
  local deadline=$((SECONDS + READY_TIMEOUT))
  : >"$LOG_DIR/kafka-readiness.log"
  while :; do
    running_pid kafka >/dev/null || fail_service kafka "exited during start-up" "$KAFKA_OUT" "$KAFKA_SERVER_LOG"
    if port_open "$KAFKA_PORT" && kafka_ready; then
      log "kafka: ready on 127.0.0.1:$KAFKA_PORT"
      return 0
    fi
    ((SECONDS < deadline)) || fail_service kafka timeout "$KAFKA_OUT" "$KAFKA_SERVER_LOG" "$LOG_DIR/kafka-readiness.log"
    sleep 1
  done
}

# ---------------------------------------------------------------- mongodb stand-ins

FERRETDB_DATA="$STACK_DIR/ferretdb/data"
FERRETDB_LOG="$LOG_DIR/ferretdb.log"
MONGO_JAVA_DATA="$STACK_DIR/mongo-java/analyst.mv.db"
MONGO_JAVA_LOG="$LOG_DIR/mongo-java.log"

start_ferretdb() {
  local pid
  if pid="$(running_pid ferretdb)"; then
    log "ferretdb: already running (pid $pid)"
  else
    if port_open "$FERRETDB_PORT"; then
      die "ferretdb: port $FERRETDB_PORT is in use by another process$(port_owner "$FERRETDB_PORT"), not by the stack in $STACK_DIR; stop it (a stack of another checkout: its deploy/local/stop.sh) or set FERRETDB_PORT"
    fi
    ensure_ferretdb_binary
    mkdir -p "$FERRETDB_DATA"
    log "ferretdb: starting on 127.0.0.1:$FERRETDB_PORT (logs: $FERRETDB_LOG)"
    spawn ferretdb "$FERRETDB_LOG" "$FERRETDB_BIN" \
      -listen "127.0.0.1:$FERRETDB_PORT" -dir "$FERRETDB_DATA" -log-level "${FERRETDB_LOG_LEVEL:-warn}"
  fi
}

start_mongo_java() {
  local pid
  if pid="$(running_pid mongo-java)"; then
    log "mongo-java: already running (pid $pid)"
  else
    if port_open "$MONGO_STANDIN_PORT"; then
      die "mongo-java: port $MONGO_STANDIN_PORT is in use by another process$(port_owner "$MONGO_STANDIN_PORT"), not by the stack in $STACK_DIR; stop it (a stack of another checkout: its deploy/local/stop.sh) or set MONGO_STANDIN_PORT"
    fi
    check_java
    ensure_mongo_java_jars
    ensure_mongo_java_classes
    mkdir -p "$(dirname "$MONGO_JAVA_DATA")"
    log "mongo-java: starting on 127.0.0.1:$MONGO_STANDIN_PORT (logs: $MONGO_JAVA_LOG)"
    # shellcheck disable=SC2086 # MONGO_STANDIN_HEAP_OPTS is a list of JVM flags
    spawn mongo-java "$MONGO_JAVA_LOG" java ${MONGO_STANDIN_HEAP_OPTS:--Xms64m -Xmx512m} -XX:+UseSerialGC \
      -Djava.awt.headless=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -cp "$MONGO_JAVA_CLASSES:$MONGO_JAVA_LIB/*" analyst.local.MongoStandIn \
      127.0.0.1 "$MONGO_STANDIN_PORT" "$MONGO_JAVA_DATA"
  fi
}

# A MongoDB `ping` through the official driver from the repo's node_modules (which also checks that
# the driver accepts the server's wire version); without node or the driver, a TCP connect has to do.
mongo_ping() {
  local port="$1" readiness_log="$2"
  if command -v node >/dev/null 2>&1 &&
    (cd "$REPO_ROOT" && node -e "require.resolve('mongodb')" >/dev/null 2>&1); then
    (cd "$REPO_ROOT" && MONGO_URL="mongodb://127.0.0.1:$port/" node -e '
      const { MongoClient } = require("mongodb");
      const c = new MongoClient(process.env.MONGO_URL, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000 });
      c.connect()
        .then(() => c.db("admin").command({ ping: 1 }))
        .then((r) => c.close().then(() => process.exit(r && r.ok === 1 ? 0 : 1)))
        .catch((e) => { console.error(String(e)); process.exit(1); });
    ') >>"$readiness_log" 2>&1
  else
    if [[ -z "${_warned_ping:-}" ]]; then
      log "node or the mongodb driver not found in $REPO_ROOT/node_modules; checking TCP only"
      _warned_ping=1
    fi
    port_open "$port"
  fi
}

# Waits until stand-in $1 (listening on port $2, logging to $3) answers a ping.
wait_mongo() {
  local name="$1" port="$2" server_log="$3"
  local readiness_log="$LOG_DIR/$name-readiness.log"
  local deadline=$((SECONDS + READY_TIMEOUT))
  : >"$readiness_log"
  while :; do
    running_pid "$name" >/dev/null || fail_service "$name" "exited during start-up" "$server_log"
    if port_open "$port" && mongo_ping "$port" "$readiness_log"; then
      log "$name: ready on 127.0.0.1:$port"
      return 0
    fi
    ((SECONDS < deadline)) || fail_service "$name" timeout "$server_log" "$readiness_log"
    sleep 0.5
  done
}

# ---------------------------------------------------------------- postgresql

POSTGRES_STATE="$STACK_DIR/postgres"
# In the stack, unless the PostgreSQL user cannot reach it there (postgres_data_dir, set at start).
POSTGRES_DATA="$POSTGRES_STATE/data"
POSTGRES_LOG="$LOG_DIR/postgres.log"

# Debian installs the server outside PATH, one directory per major version.
postgres_bin_dir() {
  local dir="${POSTGRES_BIN_DIR:-}"
  [[ -n "$dir" ]] || dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "$dir" ]] || dir="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
  [[ -x "$dir/postgres" && -x "$dir/initdb" ]] || return 1
  printf '%s' "$dir"
}

# PostgreSQL refuses to run as root: as root, run it as the package's `postgres` user (or `nobody`).
# setpriv execs the server in place, so the pid file holds the postmaster's pid.
PG_USER=""
PG_AS=()
if [[ "$(id -u)" == 0 ]]; then
  PG_USER=postgres
  id "$PG_USER" >/dev/null 2>&1 || PG_USER=nobody
  PG_AS=(setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --init-groups)
fi

init_postgres() {
  [[ -f "$POSTGRES_DATA/PG_VERSION" ]] && return 0
  mkdir -p "$POSTGRES_DATA"
  [[ -n "$PG_USER" ]] && chown "$PG_USER:$(id -g "$PG_USER")" "$POSTGRES_DATA"
  chmod 700 "$POSTGRES_DATA"
  log "postgres: initdb into $POSTGRES_DATA"
  ${PG_AS[@]+"${PG_AS[@]}"} "$PG_BIN/initdb" -D "$POSTGRES_DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$LOG_DIR/postgres-initdb.log" 2>&1 ||
    fail_service postgres "initdb failed" "$LOG_DIR/postgres-initdb.log"
}

start_postgres() {
  local pid
  if pid="$(running_pid postgres)"; then
    log "postgres: already running (pid $pid)"
  else
    if port_open "$POSTGRES_PORT"; then
      die "postgres: port $POSTGRES_PORT is in use by another process$(port_owner "$POSTGRES_PORT"), not by the stack in $STACK_DIR; stop it or set POSTGRES_PORT"
    fi
    POSTGRES_DATA="$(postgres_data_dir "$POSTGRES_STATE/data" "$PG_USER")"
    init_postgres
    log "postgres: starting on 127.0.0.1:$POSTGRES_PORT (logs: $POSTGRES_LOG)"
    # TCP on 127.0.0.1 only (no Unix socket to place); fsync off: a test stack trades durability
    # for speed, the adapter's correctness does not depend on it. analyst.local_stack names the stack
    # on the command line, where running_pid looks for it, when the data is placed outside it.
    spawn postgres "$POSTGRES_LOG" ${PG_AS[@]+"${PG_AS[@]}"} "$PG_BIN/postgres" -D "$POSTGRES_DATA" \
      -c analyst.local_stack="$STACK_DIR" \
      -c listen_addresses=127.0.0.1 -c port="$POSTGRES_PORT" -c unix_socket_directories= \
      -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200
  fi
}

wait_postgres() {
  local deadline=$((SECONDS + READY_TIMEOUT))
  local readiness_log="$LOG_DIR/postgres-readiness.log"
  : >"$readiness_log"
  while :; do
    running_pid postgres >/dev/null || fail_service postgres "exited during start-up" "$POSTGRES_LOG"
    if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$POSTGRES_PORT" >>"$readiness_log" 2>&1; then break; fi
    ((SECONDS < deadline)) || fail_service postgres timeout "$POSTGRES_LOG" "$readiness_log"
    sleep 0.3
  done
  if [[ "$("$PG_BIN/psql" -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'analyst'" 2>>"$readiness_log")" != 1 ]]; then
    "$PG_BIN/psql" -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -qc 'CREATE DATABASE analyst' \
      >>"$readiness_log" 2>&1 || fail_service postgres "could not create database analyst" "$readiness_log"
  fi
  log "postgres: ready on 127.0.0.1:$POSTGRES_PORT"
}

# ---------------------------------------------------------------- main

started_at=$SECONDS
# The stand-in first: fetching or building it is the slow part of a first run, and it comes up in
# a moment; Kafka's JVM then warms up while we wait for it.
if [[ "$MONGO_STANDIN" == ferretdb ]]; then
  MONGO_URL="mongodb://127.0.0.1:$FERRETDB_PORT/"
  start_ferretdb
else
  MONGO_URL="mongodb://127.0.0.1:$MONGO_STANDIN_PORT/"
  start_mongo_java
fi
start_kafka
# PostgreSQL is optional: only libs/adapter-postgres's suites need it, and they skip without POSTGRES_URL.
if PG_BIN="$(postgres_bin_dir)"; then
  start_postgres
elif [[ -n "${POSTGRES_BIN_DIR:-}" ]]; then
  die "postgres: no postgres and initdb in POSTGRES_BIN_DIR=$POSTGRES_BIN_DIR"
else
  log "postgres: no PostgreSQL server found (apt-get install postgresql, or set POSTGRES_BIN_DIR); starting without it"
fi
if [[ "$MONGO_STANDIN" == ferretdb ]]; then
  wait_mongo ferretdb "$FERRETDB_PORT" "$FERRETDB_LOG"
else
  wait_mongo mongo-java "$MONGO_STANDIN_PORT" "$MONGO_JAVA_LOG"
fi
wait_kafka

# FerretDB scans a collection for any filter but a bare _id and does not apply an update
# atomically anyway: there the read store checks conditional writes client-side.
conditional_writes=server
if [[ "$MONGO_STANDIN" == ferretdb ]]; then conditional_writes=client; fi

stack_env="KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT
MONGO_URL=$MONGO_URL
MONGO_CONDITIONAL_WRITES=$conditional_writes"
if [[ -n "$PG_BIN" ]]; then
  wait_postgres
  stack_env+="
POSTGRES_URL=postgres://postgres@127.0.0.1:$POSTGRES_PORT/analyst"
fi

{
  echo "# Written by deploy/local/start.sh — connection settings of the local stack."
  echo "# Use: set -a; . $STACK_DIR/env; set +a"
  printf '%s\n' "$stack_env"
} >"$STACK_DIR/env.tmp"
mv -f "$STACK_DIR/env.tmp" "$STACK_DIR/env"

log "stack ready in $((SECONDS - started_at))s; state in $STACK_DIR"
printf '%s\n' "$stack_env"
