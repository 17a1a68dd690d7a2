# syntax=docker/dockerfile:1
# sdl-gateway: the HTTP, WebSocket and SSE API over SmartDeviceLink app sessions, as a small
# image that runs as a non-root user.
#
#   docker build -t sdl-gateway .
#   docker run --rm -p 8080:8080 -e SDL_GATEWAY_TOKENS="$(openssl rand -hex 32)" \
#       -e SDL_GATEWAY_CORE=tcp://sdl-core:12345 sdl-gateway
#   docker run --rm -p 8080:8080 -e SDL_GATEWAY_TOKENS=... sdl-gateway serve --simulate
#
# It listens on 0.0.0.0:8080 and refuses to start there without a token unless
# SDL_GATEWAY_INSECURE=1. Logs are JSON lines on standard output (SDL_GATEWAY_LOG_FORMAT=text
# for plain ones). .ci/deploy-check.sh lints this file and runs its build and start commands
# natively.

ARG SWIFT_VERSION=6.3
ARG UBUNTU_VERSION=24.04

FROM swift:${SWIFT_VERSION}-noble AS build
WORKDIR /src
COPY . .
# The package cache survives between builds; the binary leaves the cache within the same step.
RUN --mount=type=cache,target=/src/.build \
    Scripts/build-release.sh /staging

FROM ubuntu:${UBUNTU_VERSION}
# The binary needs glibc, libstdc++ and zlib, all in the base image, and libxml2 (FoundationXML reads
# --rpc-spec files); certificates for wss:// to a head unit.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates libxml2 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/sdl-gateway --create-home --shell /usr/sbin/nologin sdl-gateway
COPY --from=build /staging/ /
USER 10001:10001
WORKDIR /var/lib/sdl-gateway
ENV SDL_GATEWAY_LISTEN=0.0.0.0:8080 \
    SDL_GATEWAY_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 CMD ["sdl-gateway", "health"]
# sdl-gateway is PID 1: it handles SIGTERM (and SIGINT) itself with a graceful shutdown.
STOPSIGNAL SIGTERM
ENTRYPOINT ["sdl-gateway"]
CMD ["serve"]
