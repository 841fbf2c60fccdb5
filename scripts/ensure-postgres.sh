#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1 with a role and a database for Terraform's `pg` state backend
# (examples/gitops, docs/guides/ci.md):
#  - installs Debian's `postgresql` when it is missing,
#  - creates a cluster when there is none (pg_createcluster) and starts it when it is down (pg_ctlcluster, which needs
#    no systemd), listening on 127.0.0.1 only (conf.d/virtseed-listen.conf); a cluster that already runs is used as it
#    is. A cluster this script started is recorded in /run/virtseed/postgres.started (scripts/stop-postgres.sh),
#  - creates the role and the database NAME (default `virtseed`) when missing; the role's password is generated here
#    and kept in a root-only pgpass file, /etc/virtseed/postgres/NAME.pgpass (0600 in a 0700 folder; libpq and
#    Terraform's pg backend read it through PGPASSFILE). A later run reuses that password and sets it again,
#  - checks that NAME logs in over TCP with that file, then prints on stdout the connection string, which holds no
#    password: postgres://NAME@127.0.0.1:PORT/NAME?sslmode=disable
#    With --env it prints `export PG_CONN_STR=...` and `export PGPASSFILE=...` lines instead, for `eval`.
# The password is never printed or logged (it reaches psql on stdin, never on a command line). Idempotent; runs
# from several checkouts at once are serialized by a lock.
# Usage: scripts/ensure-postgres.sh [--name NAME] [--env]
set -euo pipefail
log() { echo "ensure-postgres: $*" >&2; }
die() { log "$*"; exit 1; }

name=virtseed
env_lines=0
while [ $# -gt 0 ]; do
  case "$1" in
    --name) name="${2:-}"; shift 2 ;;
    --env) env_lines=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (usage: ensure-postgres.sh [--name NAME] [--env])" ;;
  esac
done
[[ "$name" =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || die "--name '$name': expected 1 to 63 lower-case letters, digits or '_', not starting with a digit"
[ "$(id -u)" = 0 ] || die "run as root (it installs packages, starts the cluster as the postgres user and writes /etc/virtseed)"

secrets=/etc/virtseed/postgres
passfile="$secrets/$name.pgpass"
mkdir -p /run/virtseed
exec 9>/run/virtseed/ensure-postgres.lock
flock 9

if ! command -v pg_lsclusters >/dev/null || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
  log "apt-get install postgresql"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >&2
fi

# The first cluster (version, name, port, status) of `pg_lsclusters -h`; a new one when there is none.
read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1) || true
if [ -z "${version:-}" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  log "creating cluster $version/main"
  pg_createcluster "$version" main >&2
  read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
fi

if [ "$status" != online ]; then
  conf=/etc/postgresql/$version/$cluster/conf.d
  mkdir -p "$conf"
  echo "listen_addresses = '127.0.0.1'  # written by virtseed's scripts/ensure-postgres.sh" > "$conf/virtseed-listen.conf"
  log "starting cluster $version/$cluster on 127.0.0.1:$port"
  # The server must not inherit this script's descriptors: the lock (it would hold it for good) and whatever pipes
  # the caller reads (a CI runner would wait for their end). Its output goes to its own log file.
  started=$(mktemp)
  if ! (
    for fd in $(ls "/proc/$BASHPID/fd"); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
    exec pg_ctlcluster "$version" "$cluster" start
  ) </dev/null >"$started" 2>&1; then
    cat "$started" >&2
    rm -f "$started"
    die "pg_ctlcluster $version $cluster start failed (log: /var/log/postgresql/postgresql-$version-$cluster.log)"
  fi
  rm -f "$started"
  echo "$version $cluster" > /run/virtseed/postgres.started
fi
pg_isready -q -h 127.0.0.1 -p "$port" -t 30 || die "cluster $version/$cluster does not answer on 127.0.0.1:$port (is listen_addresses without 127.0.0.1?)"

umask 077
mkdir -p "$secrets"
chmod 0700 "$secrets"
password=""
if [ -f "$passfile" ]; then
  password=$(awk -F: -v n="$name" '$3 == n && $4 == n { print $5; exit }' "$passfile")
fi
if [ -z "$password" ]; then
  password=$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')
fi
printf '127.0.0.1:%s:%s:%s:%s\n' "$port" "$name" "$name" "$password" > "$passfile.tmp"
chmod 0600 "$passfile.tmp"
mv -f "$passfile.tmp" "$passfile"

# As the cluster's superuser over the unix socket (peer authentication); the password only on psql's stdin.
runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres >/dev/null <<SQL
\set name '$name'
\set pw '$password'
SELECT format('CREATE ROLE %I LOGIN', :'name') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'name') \gexec
SELECT format('ALTER ROLE %I LOGIN PASSWORD %L', :'name', :'pw') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'name', :'name') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'name') \gexec
SQL
unset password

conn="postgres://$name@127.0.0.1:$port/$name?sslmode=disable"
PGPASSFILE="$passfile" psql -X -q -w -d "$conn" -c 'SELECT 1' >/dev/null || die "role $name cannot log in to 127.0.0.1:$port with $passfile"
log "database $name ready on 127.0.0.1:$port (cluster $version/$cluster); password in $passfile"
if [ "$env_lines" = 1 ]; then
  printf "export PG_CONN_STR='%s'\nexport PGPASSFILE='%s'\n" "$conn" "$passfile"
else
  echo "$conn"
fi
