#!/usr/bin/env bash
# Builds the release binary of sdl-gateway with the Swift runtime linked in statically and lays
# out what the container image holds under DEST:
#   DEST/usr/local/bin/sdl-gateway           (public/ and openapi.yaml are embedded in it too)
#   DEST/usr/share/sdl-gateway/public/       (the browser UI, for --public to start from)
#   DEST/usr/share/sdl-gateway/openapi.yaml
# The Dockerfile's build stage runs it; .ci/deploy-check.sh runs it natively the same way.
#   Scripts/build-release.sh DEST [extra swift build arguments]
set -euo pipefail
dest="${1:?usage: build-release.sh DEST [swift build arguments]}"
shift
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product sdl-gateway "$@"
bin="$(swift build -c release --show-bin-path "$@")"
install -D -m 0755 "$bin/sdl-gateway" "$dest/usr/local/bin/sdl-gateway"
strip "$dest/usr/local/bin/sdl-gateway"
mkdir -p "$dest/usr/share/sdl-gateway"
cp -RL public "$dest/usr/share/sdl-gateway/"
cp -L openapi.yaml "$dest/usr/share/sdl-gateway/openapi.yaml"
"$dest/usr/local/bin/sdl-gateway" --help >/dev/null
echo "sdl-gateway staged in $dest ($(du -sh "$dest/usr/local/bin/sdl-gateway" | cut -f1))"
