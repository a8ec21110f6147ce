#!/bin/sh
# Makes the data folder on the first start, then runs PostgreSQL in the foreground (SIGINT: a fast shutdown).
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
POSTGRES_USER="${POSTGRES_USER:-dialflow}"
POSTGRES_DB="${POSTGRES_DB:-dialflow}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  {
    echo "listen_addresses = '*'"
    echo "max_connections = 200"
  } >> "$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != "postgres" ]; then
    echo "CREATE DATABASE \"$POSTGRES_DB\";" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "PostgreSQL: a new data folder, database $POSTGRES_DB, user $POSTGRES_USER"
fi
exec postgres -D "$PGDATA"
