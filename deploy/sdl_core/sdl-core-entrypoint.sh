#!/usr/bin/env bash
# Starts SDL Core in /opt/sdl_core/bin with its HMI port on SDL_CORE_HMI_ADDRESS.
# SDL_CORE_CLEAN_STORAGE=1 deletes the policy database and resumption data first (a clean first
# start, as Core's own notes advise between runs).
set -euo pipefail
cd /opt/sdl_core/bin
sed -i "s|^ServerAddress = .*|ServerAddress = ${SDL_CORE_HMI_ADDRESS:-127.0.0.1}|" smartDeviceLink.ini
if [ "${SDL_CORE_CLEAN_STORAGE:-0}" = 1 ]; then
    # The folder's contents: the folder itself may be a mounted volume.
    mkdir -p storage
    find storage -mindepth 1 -delete
    rm -f app_info.dat
fi
exec ./smartDeviceLinkCore smartDeviceLink.ini
