#!/bin/sh
# Checks a running deploy/compose.yaml from outside, through its proxy (docs/deploy.md, "Check it"): ready with
# PostgreSQL and Redis, the console's page, and, when the demo data was seeded (SEED_DEMO=true in .env), a
# three-hop USSD session on the demo app's live URL, which the proxy sends to a runtime process.
#
#   deploy/smoke.sh [http://localhost:8080]
#   COMPOSE=podman-compose deploy/smoke.sh     # the command that runs `exec` in the compose project
set -eu
URL="${1:-http://localhost:8080}"
COMPOSE="${COMPOSE:-docker compose}"
cd "$(dirname "$0")"
fail() { echo "FAIL: $*" >&2; exit 1; }

ready=$(curl -sS -m 5 "$URL/readyz") || fail "no answer from $URL/readyz"
case "$ready" in *'"database":"up"'*'"redis":"up"'*'"migrations":"applied"'*) echo "ok: ready ($ready)" ;; *) fail "not ready: $ready" ;; esac

page=$(curl -sS -m 5 -o /dev/null -w '%{http_code}' "$URL/") || fail "no answer from $URL/"
[ "$page" = 200 ] || fail "the console's page answered $page"
echo "ok: the console's page"

app=$($COMPOSE exec -T postgres psql -U dialflow -d dialflow -Atc "select id from apps where app_name = 'Mensah Airtime' limit 1" | grep -E '^[A-Za-z0-9_-]{6,}$' | head -1 || true)
if [ -z "$app" ]; then
  echo "skipped: the USSD session (no demo app: set SEED_DEMO=true in .env before the first start)"
  exit 0
fi
session="smoke-$(date +%s)"
hop() {
  curl -sS -m 5 -X POST "$URL/ussd/$app/live" \
    --data-urlencode "sessionId=$session" --data-urlencode "serviceCode=*920*1#" \
    --data-urlencode "phoneNumber=233240000001" --data-urlencode "text=$1"
}
first=$(hop "") || fail "the first hop got no answer"
case "$first" in CON*) ;; *) fail "the first hop answered: $first" ;; esac
second=$(hop "1") || fail "the second hop got no answer"
case "$second" in CON*|END*) ;; *) fail "the second hop answered: $second" ;; esac
[ "$second" != "$first" ] || fail "the second hop did not move on (the session was not kept): $second"
echo "ok: a USSD session through the proxy to the runtime"
printf '  %s\n' "$(echo "$first" | head -3)" "..." "$(echo "$second" | head -3)"
