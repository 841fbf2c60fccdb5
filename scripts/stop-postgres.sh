#!/usr/bin/env bash
# Stops the PostgreSQL cluster scripts/ensure-postgres.sh started (recorded in /run/virtseed/postgres.started), and
# nothing else: a cluster that was already running is left alone.
set -euo pipefail
marker=/run/virtseed/postgres.started
[ -f "$marker" ] || { echo "stop-postgres: no cluster was started by ensure-postgres.sh" >&2; exit 0; }
read -r version cluster < "$marker"
pg_ctlcluster "$version" "$cluster" stop >&2 || true
rm -f "$marker"
echo "stop-postgres: stopped cluster $version/$cluster" >&2
