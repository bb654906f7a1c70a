#!/usr/bin/env bash
# A throwaway Citus cluster on loopback ports, for the Citus tests (CitusClusterTests):
#
#   scripts/citus-cluster.sh start DIR   # prints the coordinator's URL (also written to DIR/url)
#   scripts/citus-cluster.sh stop DIR
#
# Three PostgreSQL 15 servers in DIR (a coordinator and two workers, each with
# shared_preload_libraries=citus), the workers added to the coordinator. Citus is not in
# Debian's packages: it must be installed into PostgreSQL 15 already (citus.control in its
# extension directory); without it, start exits 69 saying so. initdb refuses root: as root the
# servers run as the `postgres` user.
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 64
fi
as_server_user=()
if [ "$(id -u)" -eq 0 ]; then
    as_server_user=(runuser -u postgres --)
fi

if [ "$command" = stop ]; then
    for node in coordinator worker1 worker2; do
        [ -d "$dir/$node" ] && "${as_server_user[@]}" "$PG_BIN/pg_ctl" -D "$dir/$node" -m immediate -w stop >/dev/null 2>&1 || true
    done
    rm -rf "$dir"
    exit 0
fi

sharedir=$("$PG_BIN/pg_config" --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
if [ ! -f "$sharedir/extension/citus.control" ]; then
    echo "the citus extension is not installed into PostgreSQL 15 (no citus.control)" >&2
    exit 69
fi
mkdir -p "$dir"
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
declare -A ports
for node in coordinator worker1 worker2; do
    ports[$node]=$(free_port)
    "${as_server_user[@]}" "$PG_BIN/initdb" -D "$dir/$node" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/$node.initdb.log" 2>&1 \
        || { cat "$dir/$node.initdb.log" >&2; exit 70; }
    "${as_server_user[@]}" "$PG_BIN/pg_ctl" -D "$dir/$node" -l "$dir/$node.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -p ${ports[$node]} -k $dir -c fsync=off -c shared_preload_libraries=citus -c max_connections=200" \
        >/dev/null || { cat "$dir/$node.log" >&2; exit 70; }
    "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "${ports[$node]}" -U postgres -d postgres -c "CREATE EXTENSION citus" >/dev/null
done
coordinator=(psql -X -q -h 127.0.0.1 -p "${ports[coordinator]}" -U postgres -d postgres)
"${coordinator[@]}" -c "SELECT citus_set_coordinator_host('127.0.0.1', ${ports[coordinator]})" >/dev/null
for node in worker1 worker2; do
    "${coordinator[@]}" -c "SELECT citus_add_node('127.0.0.1', ${ports[$node]})" >/dev/null
done
url="postgresql://postgres@127.0.0.1:${ports[coordinator]}/postgres"
echo "$url" > "$dir/url"
echo "$url"
