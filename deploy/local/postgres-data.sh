# Where PostgreSQL's data lives when the stack directory is out of the PostgreSQL user's reach.
# Sourced by start.sh and stop.sh (after common.sh). As root, PostgreSQL runs as its own user
# (`postgres`, or `nobody`): a stack directory under a folder only root may enter (a 0700 home, a
# private checkout) made initdb fail with "could not access directory ...: Permission denied".
# Then the data goes to a directory of its own under /var/tmp, named after the stack directory and
# recorded in $POSTGRES_DATA_RECORD, so later starts use it again and `stop.sh --clean` removes it.

# shellcheck disable=SC2034 # POSTGRES_DATA_RECORD is read by start.sh and stop.sh
POSTGRES_DATA_RECORD="$STACK_DIR/postgres/data-dir"
# What a directory placed outside the stack is called: a stop.sh --clean removes only such a one.
POSTGRES_DATA_PREFIX="analyst-local-stack-postgres-"

# True when user $1 can enter directory $2 (every parent traversable).
pg_user_reaches() {
  setpriv --reuid="$1" --regid="$(id -g "$1")" --init-groups test -x "$2" 2>/dev/null
}

# Prints the first directory on the way to $2 (from /) that user $1 cannot enter.
pg_blocked_parent() {
  local user="$1" path="$2" walked="" part
  local -a parts
  IFS=/ read -r -a parts <<<"${path#/}"
  for part in "${parts[@]}"; do
    [[ -n "$part" ]] || continue
    walked="$walked/$part"
    [[ -d "$walked" ]] || break
    if ! pg_user_reaches "$user" "$walked"; then
      printf '%s' "$walked"
      return 0
    fi
  done
  printf '%s' "$path"
}

# Prints the data directory PostgreSQL should use, given the one in the stack ($1), the user it runs
# as ($2; empty when it runs as the caller) and the folder to fall back to ($3, /var/tmp).
# Exits through die, naming the directory and what to change, when no place is reachable.
postgres_data_dir() {
  local wanted="$1" user="$2" fallback_root="${3:-/var/tmp}" recorded placed blocked
  if [[ -s "$POSTGRES_DATA_RECORD" ]]; then
    recorded="$(cat "$POSTGRES_DATA_RECORD")"
    if [[ -d "$recorded" ]]; then
      printf '%s' "$recorded"
      return 0
    fi
  fi
  mkdir -p "$(dirname "$wanted")"
  if [[ -z "$user" ]] || pg_user_reaches "$user" "$(dirname "$wanted")"; then
    printf '%s' "$wanted"
    return 0
  fi
  blocked="$(pg_blocked_parent "$user" "$(dirname "$wanted")")"
  placed="$fallback_root/$POSTGRES_DATA_PREFIX$(printf '%s' "$STACK_DIR" | cksum | cut -d' ' -f1)"
  if mkdir -p "$placed" 2>/dev/null && chown "$user:$(id -g "$user")" "$placed" && chmod 700 "$placed" &&
    pg_user_reaches "$user" "$placed"; then
    printf '%s\n' "$placed" >"$POSTGRES_DATA_RECORD"
    log "postgres: $blocked is closed to the $user user PostgreSQL runs as; its data goes to $placed (recorded in $POSTGRES_DATA_RECORD; stop.sh --clean removes it)"
    printf '%s' "$placed"
    return 0
  fi
  rmdir "$placed" 2>/dev/null || true
  die "postgres: runs as user $user, which cannot enter $blocked (on the way to $wanted), and $fallback_root is no place for its data either. Let it in (chmod o+x $blocked), or set ANALYST_STACK_DIR to a directory outside $blocked"
}

# stop.sh --clean: removes a data directory placed outside the stack, when it is one start.sh made.
remove_placed_postgres_data() {
  local placed
  [[ -s "$POSTGRES_DATA_RECORD" ]] || return 0
  placed="$(cat "$POSTGRES_DATA_RECORD")"
  if [[ "$(basename "$placed")" == "$POSTGRES_DATA_PREFIX"* && -d "$placed" ]]; then
    rm -rf "$placed"
    log "removed $placed (PostgreSQL's data, placed outside $STACK_DIR)"
  fi
}
