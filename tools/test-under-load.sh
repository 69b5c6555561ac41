#!/usr/bin/env bash
# Runs a command with N CPU hogs beside it, to show that tests do not race the clock on a busy machine:
#   tools/test-under-load.sh [-n HOGS] -- COMMAND [ARGS...]
#   tools/test-under-load.sh -n 2 -- npm test
# Each hog is `yes > /dev/null` (one busy core each). They are stopped when the command ends, however
# it ends, and the script exits with the command's status. The load average seen at the end is printed.
set -euo pipefail

hogs=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) hogs="$2"; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if [[ $# -eq 0 || ! "$hogs" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [-n HOGS] -- COMMAND [ARGS...]" >&2
  exit 2
fi

pids=()
stop_hogs() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_hogs EXIT
for ((i = 0; i < hogs; i++)); do
  yes > /dev/null &
  pids+=("$!")
done

echo "test-under-load: $hogs hog(s) running (pids ${pids[*]:-none}); load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)" >&2
started=$(date +%s)
status=0
"$@" || status=$?
echo "test-under-load: exit $status after $(($(date +%s) - started)) s; load at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)" >&2
exit "$status"
