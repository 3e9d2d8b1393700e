#!/usr/bin/env bash
# A real Redis server for the idempotency store tests (spec §11, issue 7): installs the
# Debian package when redis-server is missing, starts a private daemonized server on
# 127.0.0.1 (first free port from 56379, no persistence, a password) and appends
#   LUMA_TEST_REDIS_URL=redis://:…@127.0.0.1:PORT/0
# to .ci/services.env. Idempotent: when our server already answers it only writes the
# variable again (fast). The server's files live outside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

REDIS_PASSWORD=luma_test_redis_pw
DATA_ROOT="${LUMA_REDIS_ROOT:-/var/tmp/luma-ci-redis}"
PORT_FILE="$DATA_ROOT/port"
PID_FILE="$DATA_ROOT/redis.pid"
LOG_FILE="$DATA_ROOT/server.log"
ENV_FILE=.ci/services.env

if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis: installing the redis-server Debian package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # The package's own service is not needed (and no init system may be running): we start ours.
  apt-get install -y -qq --no-install-recommends redis-server >/dev/null
fi
command -v redis-server >/dev/null 2>&1 || { echo "redis: no redis-server found after install" >&2; exit 1; }

mkdir -p "$DATA_ROOT"

ours_running() {
  [ -f "$PORT_FILE" ] && [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null &&
    redis-cli -h 127.0.0.1 -p "$(cat "$PORT_FILE")" --no-auth-warning -a "$REDIS_PASSWORD" PING 2>/dev/null | grep -q PONG
}

if ! ours_running; then
  port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
  PORT=56379
  while port_in_use "$PORT"; do PORT=$((PORT + 1)); done
  echo "$PORT" > "$PORT_FILE"
  echo "redis: starting on 127.0.0.1:$PORT"
  redis-server --bind 127.0.0.1 --port "$PORT" --requirepass "$REDIS_PASSWORD" \
    --daemonize yes --pidfile "$PID_FILE" --logfile "$LOG_FILE" --dir "$DATA_ROOT" \
    --save "" --appendonly no >/dev/null
  for _ in $(seq 1 100); do ours_running && break; sleep 0.05; done
  ours_running || { echo "redis: the server did not answer; see $LOG_FILE" >&2; exit 1; }
fi
PORT=$(cat "$PORT_FILE")

URL="redis://:$REDIS_PASSWORD@127.0.0.1:$PORT/0"
touch "$ENV_FILE"
# Replace an earlier line for this variable rather than piling up duplicates.
grep -v '^LUMA_TEST_REDIS_URL=' "$ENV_FILE" > "$ENV_FILE.tmp" || true
echo "LUMA_TEST_REDIS_URL=$URL" >> "$ENV_FILE.tmp"
mv "$ENV_FILE.tmp" "$ENV_FILE"
echo "redis: ready on 127.0.0.1:$PORT (LUMA_TEST_REDIS_URL in $ENV_FILE)"
