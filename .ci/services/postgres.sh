#!/usr/bin/env bash
# A real PostgreSQL server for the datasource tests (spec §12): installs the Debian package
# when no server binaries are present, starts a private cluster on 127.0.0.1 (first free
# port from 55432) with a known user, password and database, and appends
#   LUMA_TEST_PG_URL=postgres://luma:…@127.0.0.1:PORT/luma_test
# to .ci/services.env. Idempotent: when the cluster already runs it only checks the login
# and writes the variable again (fast). The cluster lives outside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_USER=luma
PG_PASSWORD=luma_test_pw
PG_DB=luma_test
DATA_ROOT="${LUMA_PG_ROOT:-/var/tmp/luma-ci-postgres}"
DATA_DIR="$DATA_ROOT/data"
LOG_FILE="$DATA_ROOT/server.log"
ENV_FILE=.ci/services.env

find_bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; fi
}

BIN=$(find_bin_dir)
if [ -z "$BIN" ]; then
  echo "postgres: installing the postgresql Debian package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  BIN=$(find_bin_dir)
fi
[ -n "$BIN" ] || { echo "postgres: no initdb found after install" >&2; exit 1; }

# initdb and postgres refuse to run as root: run them as the `postgres` account then.
if [ "$(id -u)" = "0" ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$DATA_ROOT" --shell /bin/bash postgres
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

mkdir -p "$DATA_ROOT"
[ "$(id -u)" = "0" ] && chown postgres "$DATA_ROOT"

if [ ! -f "$DATA_DIR/PG_VERSION" ]; then
  echo "postgres: creating a cluster in $DATA_DIR"
  as_pg "$BIN/initdb" -D "$DATA_DIR" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null
fi

# The port this cluster listens on, remembered across runs.
PORT_FILE="$DATA_ROOT/port"
# "Running" means accepting connections: after a kill -9 (a CI run's processes are ended
# when its session stops) pg_ctl may still see a postmaster.pid whose pid was reused.
running() {
  [ -f "$PORT_FILE" ] && "$BIN/pg_isready" -q -h "$DATA_ROOT" -p "$(cat "$PORT_FILE")" >/dev/null 2>&1
}

if ! running; then
  # A server that is not answering is stopped for good; a leftover pid file would block start.
  as_pg "$BIN/pg_ctl" -D "$DATA_DIR" stop -m immediate >/dev/null 2>&1 || true
  rm -f "$DATA_DIR/postmaster.pid"
  port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
  PORT=55432
  while port_in_use "$PORT"; do PORT=$((PORT + 1)); done
  echo "$PORT" > "$PORT_FILE"
  echo "postgres: starting on 127.0.0.1:$PORT"
  as_pg "$BIN/pg_ctl" -D "$DATA_DIR" -l "$LOG_FILE" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$DATA_ROOT" start >/dev/null
fi
PORT=$(cat "$PORT_FILE")

psql_admin() { as_pg "$BIN/psql" -h "$DATA_ROOT" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'")" != "1" ]; then
  psql_admin -c "CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD'"
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != "1" ]; then
  psql_admin -c "CREATE DATABASE $PG_DB OWNER $PG_USER"
fi

URL="postgres://$PG_USER:$PG_PASSWORD@127.0.0.1:$PORT/$PG_DB"
touch "$ENV_FILE"
# Replace an earlier line for this variable rather than piling up duplicates.
grep -v '^LUMA_TEST_PG_URL=' "$ENV_FILE" > "$ENV_FILE.tmp" || true
echo "LUMA_TEST_PG_URL=$URL" >> "$ENV_FILE.tmp"
mv "$ENV_FILE.tmp" "$ENV_FILE"
echo "postgres: ready on 127.0.0.1:$PORT (LUMA_TEST_PG_URL in $ENV_FILE)"
