#!/usr/bin/env bash
# Starts, stops or kills ONE Kafka broker (KRaft, broker + controller) of the local stack, without
# the MongoDB stand-in: for fault tests that take a broker away and bring it back (libs/adapter-kafka/test/kafka-outage.int.spec.ts).
#   kafka-only.sh start    start (or check) the broker; returns once a client can create a topic
#   kafka-only.sh stop     SIGTERM (controlled shutdown), SIGKILL after ANALYST_STACK_STOP_TIMEOUT s; keeps data
#   kafka-only.sh kill     SIGKILL at once (a crash); keeps data
#   kafka-only.sh status   exit 0 and print the pid when running, else exit 1
#   kafka-only.sh clean    stop, then remove the state dir (only one this script or start.sh made)
# Same settings as start.sh (KAFKA_PORT, KAFKA_CONTROLLER_PORT, KAFKA_HEAP_OPTS, ANALYST_STACK_DIR,
# ANALYST_STACK_READY_TIMEOUT). Use another ANALYST_STACK_DIR and other ports than the shared stack:
#   ANALYST_STACK_DIR=/tmp/kafka-outage KAFKA_PORT=29092 KAFKA_CONTROLLER_PORT=29093 deploy/local/kafka-only.sh start
# Data survives stop/kill, so a restarted broker keeps its topics and committed offsets.
set -euo pipefail

# shellcheck source=common.sh source-path=SCRIPTDIR
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.sh"

KAFKA_STATE="$STACK_DIR/kafka"
KAFKA_DATA="$KAFKA_STATE/data"
KAFKA_CONFIG="$KAFKA_STATE/server.properties"
KAFKA_OUT="$LOG_DIR/kafka.out"

tools_java() {
  java -Xmx256m -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_HOME/tools-log4j2.properties" -cp "$KAFKA_LIB/*" "$@"
}

start() {
  compgen -G "$KAFKA_LIB/kafka_2.13-*.jar" >/dev/null || die "no Kafka jars in $KAFKA_LIB: run deploy/local/start.sh once"
  mkdir -p "$STACK_DIR" "$RUN_DIR" "$LOG_DIR" "$KAFKA_DATA"
  touch "$STACK_MARKER"
  local pid
  if pid="$(running_pid kafka)"; then
    log "kafka: already running (pid $pid)"
  else
    port_open "$KAFKA_PORT" && die "kafka: port $KAFKA_PORT is in use$(port_owner "$KAFKA_PORT")"
    port_open "$KAFKA_CONTROLLER_PORT" && die "kafka: controller port $KAFKA_CONTROLLER_PORT is in use$(port_owner "$KAFKA_CONTROLLER_PORT")"
    sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" -e "s|@KAFKA_CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
      -e "s|@KAFKA_LOG_DIR@|$KAFKA_DATA|g" "$KAFKA_HOME/server.properties" >"$KAFKA_CONFIG"
    if [[ ! -f "$KAFKA_DATA/meta.properties" ]]; then
      [[ -s "$KAFKA_STATE/cluster.id" ]] ||
        tools_java kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka-tools.log" | tail -n 1 >"$KAFKA_STATE/cluster.id"
      tools_java kafka.tools.StorageTool format --standalone -t "$(cat "$KAFKA_STATE/cluster.id")" -c "$KAFKA_CONFIG" \
        >>"$LOG_DIR/kafka-tools.log" 2>&1 || die "kafka: StorageTool format failed (see $LOG_DIR/kafka-tools.log)"
    fi
    log "kafka: starting on 127.0.0.1:$KAFKA_PORT (state $STACK_DIR)"
    # the inner shell writes its pid and execs the JVM, so the pid file names the broker itself
    # shellcheck disable=SC2016,SC2086
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$(pid_file kafka)" java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} \
      -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
      -Dlog4j2.configurationFile="$KAFKA_HOME/log4j2.properties" -Dkafka.logs.dir="$LOG_DIR" \
      -cp "$KAFKA_LIB/*" kafka.Kafka "$KAFKA_CONFIG" </dev/null >>"$KAFKA_OUT" 2>&1 &
  fi
  local deadline=$((SECONDS + READY_TIMEOUT))
  while :; do
    sleep 0.5
    running_pid kafka >/dev/null || { tail -n 30 "$KAFKA_OUT" >&2 || true; die "kafka: exited during start-up"; }
    if port_open "$KAFKA_PORT" && tools_java org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" \
      --create --if-not-exists --topic analyst.readiness --partitions 1 --replication-factor 1 >>"$LOG_DIR/kafka-readiness.log" 2>&1; then
      log "kafka: ready on 127.0.0.1:$KAFKA_PORT"
      return 0
    fi
    ((SECONDS < deadline)) || { stop_service kafka; die "kafka: not ready after ${READY_TIMEOUT}s (logs in $LOG_DIR)"; }
  done
}

kill_now() {
  local pid
  if pid="$(running_pid kafka)"; then
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    rm -f "$(pid_file kafka)"
    log "kafka: killed (pid $pid)"
  else
    log "kafka: not running"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) [[ -d "$STACK_DIR" ]] && stop_service kafka || log "kafka: not running" ;;
  kill) [[ -d "$STACK_DIR" ]] && kill_now || log "kafka: not running" ;;
  status) running_pid kafka && echo ;;
  clean)
    [[ -d "$STACK_DIR" ]] || exit 0
    stop_service kafka
    [[ -f "$STACK_MARKER" ]] || die "not removing $STACK_DIR: it lacks $(basename "$STACK_MARKER")"
    rm -rf "$STACK_DIR"
    log "removed $STACK_DIR"
    ;;
  -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' ;;
  *)
    echo "usage: $0 start|stop|kill|status|clean" >&2
    exit 2
    ;;
esac
