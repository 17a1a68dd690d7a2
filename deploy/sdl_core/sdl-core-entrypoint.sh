#!/usr/bin/env bash
# Starts SDL Core in /opt/sdl_core/bin with its HMI port on SDL_CORE_HMI_ADDRESS.
# SDL_CORE_CLEAN_STORAGE=1 deletes the policy database and resumption data first (a clean first
# start, as Core's own notes advise between runs).
set -euo pipefail
cd /opt/sdl_core/bin
sed -i "s|^ServerAddress = .*|ServerAddress = ${SDL_CORE_HMI_ADDRESS:-127.0.0.1}|" smartDeviceLink.ini
if [ "${SDL_CORE_CLEAN_STORAGE:-0}" = 1 ]; then
    rm -rf storage app_info.dat
fi
exec ./smartDeviceLinkCore smartDeviceLink.ini
