#!/usr/bin/env bash
# npm run test:container: builds the image, runs it and checks the site and its readiness, then
# brings up compose.yaml's stack (Modelyard and PostgreSQL) and checks that a model imported through
# `docker compose exec` shows on its page.
#
# Everything runs on the host's network and listens on 127.0.0.1 at free ports; the stack uses
# compose.yaml with scripts/container/compose.host.yaml on top. Where the base images cannot be
# pulled, scripts/container/standins.sh builds stand-ins under their tags. As root it installs
# docker.io, debootstrap and docker-compose from apt when missing, and starts dockerd when none
# runs (and stops it again at the end). Containers, volumes and the stack are removed on exit.
#
# Environment: MODELYARD_CONTAINER_CACHE (stand-ins' cache, default /var/cache/modelyard-container),
# NODE_EXTRA_CA_CERTS (handed to the build as a secret), MODELYARD_CONTAINER_TIMEOUT (seconds to
# wait for each readiness, default 240).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
HERE="$ROOT/scripts/container"
IMAGE="${MODELYARD_TEST_IMAGE:-modelyard:container-test}"
TIMEOUT="${MODELYARD_CONTAINER_TIMEOUT:-240}"
RUN_ID="modelyardtest$$"
WORK=$(mktemp -d /tmp/modelyard-container.XXXXXX)
PASSED=0
FAILED=0
STARTED_DOCKERD=""
CONTAINER=""
COMPOSE_UP=""
START=$(date +%s)

log() { echo "::: container: $*"; }
ok() { PASSED=$((PASSED + 1)); echo "ok - $*"; }
fail() {
  FAILED=$((FAILED + 1))
  echo "FAILED - $*" >&2
  exit 1
}

# --- clean-up: always, whatever failed ------------------------------------------------------
cleanup() {
  local rc=$?
  set +e
  if [ "$rc" -ne 0 ] && [ "$FAILED" -eq 0 ]; then FAILED=1; echo "FAILED - the script stopped (exit $rc) at line ${FAILED_LINE:-?}" >&2; fi
  if [ "$rc" -ne 0 ]; then
    if [ -n "$CONTAINER" ]; then echo "--- logs of $CONTAINER (last 40 lines)" >&2; "$DOCKER" logs --tail 40 "$CONTAINER" >&2 2>&1; fi
    if [ -n "$COMPOSE_UP" ]; then echo "--- logs of the compose stack (last 40 lines each)" >&2; compose logs --no-color --tail 40 >&2 2>&1; fi
  fi
  if [ -n "$CONTAINER" ]; then "$DOCKER" rm -f -v "$CONTAINER" >/dev/null 2>&1; "$DOCKER" volume rm -f "$RUN_ID-data" >/dev/null 2>&1; fi
  if [ -n "$COMPOSE_UP" ]; then compose down -v --remove-orphans --timeout 10 >/dev/null 2>&1; fi
  if [ -n "$STARTED_DOCKERD" ]; then
    kill -TERM "$STARTED_DOCKERD" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 1; done
    kill -0 "$STARTED_DOCKERD" 2>/dev/null && echo "dockerd ($STARTED_DOCKERD) did not stop in 30 s; left running" >&2
  fi
  rm -rf "$WORK"
  echo "::: container: done in $(($(date +%s) - START)) s"
  echo "container: $PASSED passed, $FAILED failed"
  exit "$rc"
}
trap 'FAILED_LINE=$LINENO' ERR
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Polls a URL until it answers 200 (and, when given, its body holds a string) or the time is up.
wait_http() { # what url [must-contain]
  local what="$1" url="$2" want="${3:-}" deadline=$(($(date +%s) + TIMEOUT)) code
  while :; do
    code=$(curl -s -o "$WORK/body" -w '%{http_code}' --max-time 10 "$url" || true)
    if [ "$code" = 200 ] && { [ -z "$want" ] || grep -qF -- "$want" "$WORK/body"; }; then return 0; fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      fail "$what: $url did not answer 200${want:+ with \"$want\"} within ${TIMEOUT}s (last: HTTP ${code:-none}: $(head -c 300 "$WORK/body" 2>/dev/null))"
    fi
    if [ -n "${4:-}" ] && ! "$DOCKER" inspect -f '{{.State.Running}}' "$4" 2>/dev/null | grep -q true; then
      fail "$what: the container $4 stopped while waiting for $url"
    fi
    sleep 1
  done
}

# --- tools and the Docker engine -----------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if ! command -v docker-compose >/dev/null && ! docker compose version >/dev/null 2>&1; then missing+=(docker-compose); fi
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || fail "missing ${missing[*]} (install them, or run as root so this script can)"
  log "apt-get install ${missing[*]}"
  apt-get update -qq || fail "apt-get update"
  apt-get install -y -qq "${missing[@]}" >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; fail "apt-get install ${missing[*]}"; }
fi

# A client that builds with BuildKit (needed for the build secret): docker with buildx, or
# Debian's docker.io client (20.10), whose DOCKER_BUILDKIT=1 needs no plugin.
DOCKER=""
for c in docker /usr/bin/docker; do
  command -v "$c" >/dev/null || continue
  if "$c" buildx version >/dev/null 2>&1; then DOCKER="$c"; break; fi
  major=$("$c" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1 || true)
  if [ -n "$major" ] && [ "$major" -lt 23 ]; then DOCKER="$c"; break; fi
done
[ -n "$DOCKER" ] || fail "no docker client that builds with BuildKit (install docker-buildx, or Debian's docker.io)"
export DOCKER DOCKER_BUILDKIT=1

if ! "$DOCKER" info >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || fail "the Docker engine is not running and this is not root, so it cannot be started"
  if pgrep -x dockerd >/dev/null; then
    # One is starting, or is stuck: give it 30 s, and never start a second one.
    for _ in $(seq 1 30); do "$DOCKER" info >/dev/null 2>&1 && break; sleep 1; done
    "$DOCKER" info >/dev/null 2>&1 || fail "dockerd runs (pid $(pgrep -x dockerd | tr '\n' ' ')) but does not answer '$DOCKER info' within 30 s"
  fi
fi
if ! "$DOCKER" info >/dev/null 2>&1; then
  # No dockerd runs: a pid file left by one that was killed would stop the new one.
  rm -f /var/run/docker.pid
  log "starting dockerd (host networking only: no bridge, no iptables; log in /var/log/modelyard-dockerd.log)"
  setsid dockerd --bridge=none --iptables=false --ip6tables=false >>/var/log/modelyard-dockerd.log 2>&1 </dev/null &
  STARTED_DOCKERD=$!
  for _ in $(seq 1 60); do "$DOCKER" info >/dev/null 2>&1 && break; kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 1; done
  "$DOCKER" info >/dev/null 2>&1 || { tail -20 /var/log/modelyard-dockerd.log >&2; fail "dockerd did not come up in 60 s (log above)"; }
fi
if docker compose version >/dev/null 2>&1; then COMPOSE=(docker compose); else COMPOSE=(docker-compose); fi
ok "Docker engine $("$DOCKER" version --format '{{.Server.Version}}'), client $DOCKER, ${COMPOSE[*]} $("${COMPOSE[@]}" version --short 2>/dev/null || true)"

# --- base images -----------------------------------------------------------------------------
t=$(date +%s)
"$HERE/standins.sh" node postgres || fail "the base images (node:20-bookworm-slim, postgres:15-bookworm) are neither present nor could be built as stand-ins"
ok "base images present ($(($(date +%s) - t)) s)"

# --- the image -------------------------------------------------------------------------------
t=$(date +%s)
build_args=(build --network host -t "$IMAGE")
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -s "$NODE_EXTRA_CA_CERTS" ]; then build_args+=(--secret "id=extra_ca,src=$NODE_EXTRA_CA_CERTS"); fi
log "docker build (output in $WORK/build.log while it runs)"
if ! "$DOCKER" "${build_args[@]}" --progress plain . >"$WORK/build.log" 2>&1; then
  grep -E 'npm error|ERROR|error:' "$WORK/build.log" | tail -20 >&2 || true
  tail -30 "$WORK/build.log" >&2
  fail "docker build of $IMAGE (its output is above)"
fi
size=$("$DOCKER" image inspect -f '{{.Size}}' "$IMAGE")
ok "docker build $IMAGE in $(($(date +%s) - t)) s: $((size / 1000000)) MB"
"$DOCKER" image prune -f --filter label=org.opencontainers.image.title=modelyard >/dev/null 2>&1 || true

user=$("$DOCKER" image inspect -f '{{.Config.User}}' "$IMAGE")
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as root (User: '$user')"
uid=$("$DOCKER" run --rm --network none --entrypoint id "$IMAGE" -u)
[ "$uid" != 0 ] || fail "the image's user $user is uid 0"
ok "runs as $user (uid $uid)"

"$DOCKER" image inspect -f '{{json .Config.Volumes}}' "$IMAGE" | grep -q '"/app/data"' || fail "no VOLUME /app/data in the image"
"$DOCKER" image inspect -f '{{json .Config.Healthcheck}}' "$IMAGE" | grep -q '/healthz' || fail "the image's HEALTHCHECK does not call /healthz"
# npm start's flags: the image's command must be package.json's start script, without npm.
start_script=$(node -p 'require("./package.json").scripts.start')
image_env=$("$DOCKER" image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
# The start script's leading VAR=value words, each as the image's environment sets it.
image_cmd=""
for word in $start_script; do
  case "$word" in
    *=*) name=${word%%=*}; image_cmd="$image_cmd$name=$(printf '%s\n' "$image_env" | sed -n "s/^$name=//p") " ;;
    *) break ;;
  esac
done
image_cmd="$image_cmd$("$DOCKER" image inspect -f '{{join .Config.Cmd " "}}' "$IMAGE")"
[ "$image_cmd" = "$start_script" ] || fail "the image's command '$image_cmd' differs from npm start's '$start_script' (Dockerfile CMD and ENV)"
ok "VOLUME /app/data, HEALTHCHECK on /healthz, command = npm start's"

# The build secret stays out of the image: no layer holds /run/secrets, and no history line names it.
if "$DOCKER" run --rm --network none --entrypoint sh "$IMAGE" -c 'test -e /run/secrets/extra_ca'; then fail "the image holds /run/secrets/extra_ca"; fi
if "$DOCKER" history --no-trunc --format '{{.CreatedBy}}' "$IMAGE" | grep -q 'BEGIN CERTIFICATE'; then fail "a certificate is in the image's history"; fi
ok "no certificate authority baked into the image"

# --- one container, SQLite in a volume ---------------------------------------------------------
port=$(free_port)
CONTAINER="$RUN_ID-app"
log "docker run $IMAGE on 127.0.0.1:$port (SQLite in volume $RUN_ID-data)"
"$DOCKER" run -d --name "$CONTAINER" --network host -e HOST=127.0.0.1 -e PORT="$port" \
  -v "$RUN_ID-data:/app/data" "$IMAGE" >/dev/null || fail "docker run $IMAGE"
wait_http "liveness" "http://127.0.0.1:$port/healthz" '"ok":true' "$CONTAINER"
ok "GET /healthz: $(cat "$WORK/body")"
wait_http "readiness" "http://127.0.0.1:$port/readyz" "" "$CONTAINER"
ok "GET /readyz: 200 ($(grep -o '"status":"[a-z]*"' "$WORK/body" | head -1))"
wait_http "home page" "http://127.0.0.1:$port/" "Modelyard" "$CONTAINER"
wait_http "models listing" "http://127.0.0.1:$port/models?search=Yi-1.5-34B" "Yi-1.5-34B-32K" "$CONTAINER"
wait_http "a model page" "http://127.0.0.1:$port/01-ai/Yi-1.5-34B-32K" "Yi-1.5-34B-32K" "$CONTAINER"
ok "home page, listing and a model page of the bundled catalogue"
"$DOCKER" exec "$CONTAINER" test -s /app/data/modelyard.db || fail "no SQLite database at /app/data/modelyard.db (the volume) in the container"
deadline=$(($(date +%s) + TIMEOUT))
until [ "$("$DOCKER" inspect -f '{{.State.Health.Status}}' "$CONTAINER")" = healthy ]; do
  [ "$(date +%s)" -lt "$deadline" ] || fail "Docker's HEALTHCHECK did not report healthy within ${TIMEOUT}s ($("$DOCKER" inspect -f '{{json .State.Health}}' "$CONTAINER" | head -c 400))"
  sleep 1
done
ok "Docker reports the container healthy"
"$DOCKER" stop -t 20 "$CONTAINER" >/dev/null
code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$CONTAINER")
[ "$code" = 0 ] || fail "the server exited with $code on docker stop (SIGTERM)"
ok "stops cleanly on SIGTERM"
"$DOCKER" rm -f -v "$CONTAINER" >/dev/null; "$DOCKER" volume rm -f "$RUN_ID-data" >/dev/null; CONTAINER=""

# --- compose: Modelyard and PostgreSQL ---------------------------------------------------------
pg_port=$(free_port)
app_port=$(free_port)
while [ "$app_port" = "$pg_port" ]; do app_port=$(free_port); done
# Compose's own variables (its --env-file, so no .env of the checkout is read) and the app's env
# file, which compose.yaml hands to the container through MODELYARD_ENV_FILE.
cat >"$WORK/app.env" <<EOF
MODELYARD_PROPOSE_URL_TEMPLATE=https://example.invalid/container-check/{task}/{file}
EOF
cat >"$WORK/compose.env" <<EOF
MODELYARD_IMAGE=$IMAGE
MODELYARD_ENV_FILE=$WORK/app.env
MODELYARD_PORT=$app_port
POSTGRES_HOST=127.0.0.1
POSTGRES_PORT=$pg_port
POSTGRES_PASSWORD=ci-$RUN_ID
EOF
# Host networking publishes no ports, and Compose 1 refuses a service that has both, so the stack
# runs compose.yaml less its one `ports:` list (relative paths still resolve against the checkout).
[ "$(grep -c '^    ports:' compose.yaml)" = 1 ] || fail "compose.yaml should have exactly one 'ports:' list (the test takes it out for host networking)"
awk '/^    ports:/ {skip = 1; next} skip && /^      - / {next} {skip = 0; print}' compose.yaml >"$WORK/compose.yaml"
[ "$(diff compose.yaml "$WORK/compose.yaml" | grep -c '^<')" = 2 ] || fail "taking 'ports:' out of compose.yaml removed other lines too"
compose() { "${COMPOSE[@]}" --project-name "$RUN_ID" --project-directory "$ROOT" --env-file "$WORK/compose.env" \
  -f "$WORK/compose.yaml" -f "$HERE/compose.host.yaml" "$@"; }
log "${COMPOSE[*]} up (project $RUN_ID: PostgreSQL on 127.0.0.1:$pg_port, Modelyard on 127.0.0.1:$app_port)"
COMPOSE_UP=1
compose up -d --no-build >"$WORK/compose-up.log" 2>&1 || { cat "$WORK/compose-up.log" >&2; fail "compose up (output above)"; }
pg_health=$("$DOCKER" inspect -f '{{.State.Health.Status}}' "$(compose ps -q postgres)")
[ "$pg_health" = healthy ] || fail "Modelyard was started while PostgreSQL was '$pg_health', not healthy"
ok "compose up: PostgreSQL healthy (pg_isready) before Modelyard started"
app_id=$(compose ps -q modelyard)
[ -n "$app_id" ] || fail "compose has no modelyard container"
wait_http "compose readiness" "http://127.0.0.1:$app_port/readyz" "" "$app_id"
wait_http "compose liveness on PostgreSQL" "http://127.0.0.1:$app_port/healthz" '"dialect":"postgres"' "$app_id"
ok "Modelyard on PostgreSQL: $(cat "$WORK/body")"
wait_http "a setting from the env file" "http://127.0.0.1:$app_port/tasks/text-classification" \
  "https://example.invalid/container-check/text-classification/" "$app_id"
ok "settings from the env file reach the server (MODELYARD_PROPOSE_URL_TEMPLATE on /tasks/text-classification)"

model="modelyard-ci/container-check-$RUN_ID"
printf '{"id":"%s","pipeline_tag":"text-classification","library_name":"transformers","tags":["transformers","text-classification"],"downloads":7,"likes":1,"createdAt":"2024-06-01T00:00:00.000Z"}\n' "$model" >"$WORK/import.jsonl"
"$DOCKER" cp "$WORK/import.jsonl" "$app_id:/tmp/container-check.jsonl" || fail "docker cp of the import file"
log "compose exec modelyard modelyard import"
compose exec -T modelyard modelyard import /tmp/container-check.jsonl >"$WORK/import.log" 2>&1 \
  || { cat "$WORK/import.log" >&2; fail "modelyard import through compose exec (output above)"; }
ok "compose exec modelyard modelyard import: $(grep -o 'Imported [^"]*' "$WORK/import.log" | tail -1)"
wait_http "the imported model's page" "http://127.0.0.1:$app_port/$model" "container-check-$RUN_ID" "$app_id"
ok "the imported model shows on its page /$model"
