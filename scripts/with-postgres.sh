#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL 15 server, then stops the server and removes it,
# whatever the command's outcome:
#
#   scripts/with-postgres.sh swift test --skip-build
#
# The server lives in a temporary directory, listens on 127.0.0.1 only, on a free port, and trusts
# local connections. The command sees its address as $SOCLOAD_TEST_POSTGRES
# (postgresql://postgres@127.0.0.1:PORT/postgres). initdb refuses to run as root, so as root the
# server runs as the `postgres` user. Settings:
#   PG_FSYNC=on      keep fsync on (the benchmark's "default settings"); off by default, for tests
#   PG_BIN=DIR       where initdb and pg_ctl are (default: /usr/lib/postgresql/15/bin)
#   PG_OPTIONS=...   more server options, such as "-c log_min_duration_statement=0"
#   PG_LOG=FILE      keep the server's log there
# The command's exit status is the script's.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 64
fi

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL 15 is not installed ($PG_BIN/initdb is missing): run 'make test', which installs postgresql-15" >&2
    exit 69
fi

as_server_user=()
if [ "$(id -u)" -eq 0 ]; then
    as_server_user=(runuser -u postgres --)
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/socload-pg.XXXXXX")
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"

# A free port on the loopback interface.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as_server_user[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    [ -n "${PG_LOG:-}" ] && cp "$dir/server.log" "$PG_LOG" 2>/dev/null
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${as_server_user[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 70; }
fsync=${PG_FSYNC:-off}
"${as_server_user[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=$fsync -c max_connections=200 ${PG_OPTIONS:-}" >/dev/null \
    || { cat "$dir/server.log" >&2; exit 70; }

export SOCLOAD_TEST_POSTGRES="postgresql://postgres@127.0.0.1:$port/postgres"
echo "PostgreSQL test server at $SOCLOAD_TEST_POSTGRES (fsync=$fsync)" >&2
status=0
"$@" || status=$?
exit "$status"
