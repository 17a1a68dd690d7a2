#!/usr/bin/env bash
# Builds SDL Core 8.2.0 from its public sources on Debian 12 (bookworm, gcc 12), the steps
# deploy/sdl_core/Dockerfile runs, for machines without Docker. About 20 minutes with 2 cores;
# the work tree (sources and a Release build) takes about 0.5 GB (515 MB measured).
#
#   deploy/sdl_core/build-sdl-core.sh PREFIX
#   deploy/sdl_core/build-sdl-core.sh --show-paths PREFIX   # print where PREFIX and the work tree resolve, and stop
#
# PREFIX ends up holding bin/ (smartDeviceLinkCore, smartDeviceLink.ini, hmi_capabilities.json,
# sdl_preloaded_pt.json and the RPC plugins) and lib/ (the bson libraries). Run Core with
#   cd PREFIX/bin && LD_LIBRARY_PATH=.:PREFIX/lib ./smartDeviceLinkCore smartDeviceLink.ini
#
# Environment:
#   SDL_CORE_GIT_MIRROR  a directory holding git repositories named sdl_core, rpc_spec, jsoncpp and
#                        bson_c_lib (bare or not) to take the sources from instead of github.com
#   SDL_CORE_WORK        where sources and the build tree go (default: PREFIX/work; delete it after);
#                        a relative path is taken from the current directory, as PREFIX is
#   JOBS                 parallel compile jobs (default: the number of processors)
#   SKIP_APT=1           the Debian packages are installed already
#   SDL_CORE_BUILD_TYPE  Release (default) or Debug
set -euo pipefail

show_paths=0
if [ "${1:-}" = --show-paths ]; then show_paths=1; shift; fi
prefix="${1:?usage: build-sdl-core.sh [--show-paths] PREFIX}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
work="${SDL_CORE_WORK:-$prefix/work}"
# Absolute, as PREFIX: the build runs in $work/build and hands cmake $work/sdl_core.
mkdir -p "$work"
work="$(cd "$work" && pwd)"
if [ "$show_paths" = 1 ]; then echo "prefix=$prefix"; echo "work=$work"; exit 0; fi
jobs="${JOBS:-$(nproc)}"
build_type="${SDL_CORE_BUILD_TYPE:-Release}"

# The sources, pinned: Core 8.2.0 and the commits its submodules name; bson_c_lib 1.2.5.
core_commit=7343fc72c12edc8ac42a62556c9e4b29c9408bc3        # tag 8.2.0
rpc_spec_commit=6537500b45f65e02d884da9d73d6820ba7b0b1f5    # submodule tools/rpc_spec
jsoncpp_commit=9e0d70aa66e6ba993dd05723ca64c26ab00f3572     # submodule src/3rd_party-static/jsoncpp
bson_commit=48d38d5b7a9b6cffc8171087b68bee5f4649e67d        # tag 1.2.5

step() { echo "== build-sdl-core: $* ($(date -u +%H:%M:%S))"; }

if [ "${SKIP_APT:-0}" != 1 ]; then
    step "Debian packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        build-essential cmake libboost-all-dev libssl-dev libsqlite3-dev libudev-dev libusb-1.0-0-dev \
        automake autoconf libtool pkg-config python3 python3-xmlschema git ca-certificates curl >/dev/null
fi

# Unpacks repository NAME at COMMIT into DIR.
unpack() {
    local name="$1" commit="$2" dir="$3"
    rm -rf "$dir" && mkdir -p "$dir"
    if [ -n "${SDL_CORE_GIT_MIRROR:-}" ]; then
        git --git-dir="$(git -C "$SDL_CORE_GIT_MIRROR/$name" rev-parse --absolute-git-dir)" archive --format=tar "$commit" | tar -x -C "$dir"
    else
        curl -fsSL "https://github.com/smartdevicelink/$name/archive/$commit.tar.gz" | tar -xz --strip-components=1 -C "$dir"
    fi
}

step "sources"
mkdir -p "$work"
unpack sdl_core "$core_commit" "$work/sdl_core"
unpack rpc_spec "$rpc_spec_commit" "$work/sdl_core/tools/rpc_spec"
unpack jsoncpp "$jsoncpp_commit" "$work/sdl_core/src/3rd_party-static/jsoncpp"
unpack bson_c_lib "$bson_commit" "$work/bson_c_lib"

step "bson_c_lib (the commands Core's ExternalProject runs)"
(
    cd "$work/bson_c_lib"
    touch aclocal.m4 configure.ac Makefile.am Makefile.in configure config.h.in libbson.pc.in
    ./configure --prefix="$prefix" >/dev/null
    make -j"$jobs" >/dev/null
    make install >/dev/null
)

step "patches for gcc 12"
core="$work/sdl_core"
# The top-level CMakeLists.txt overwrites CMAKE_CXX_FLAGS, so flags given to cmake are lost: append ours there.
sed -i 's|^set(CMAKE_CXX_FLAGS "-fPIC -std=gnu++0x -Wall -fvisibility=hidden -Werror ${EXCLUDE_ERROR_FLAGS} -Wuninitialized -Wvla")|set(CMAKE_CXX_FLAGS "-fPIC -std=gnu++0x -Wall -fvisibility=hidden -Werror ${EXCLUDE_ERROR_FLAGS} -Wuninitialized -Wvla -Wno-error -Wno-deprecated-declarations -include algorithm -include cstdint -include limits -include memory")|' "$core/CMakeLists.txt"
grep -q -- '-include algorithm -include cstdint' "$core/CMakeLists.txt"
# std::atomic is used without its header.
header="$core/src/components/transport_manager/include/transport_manager/transport_manager_impl.h"
grep -q '#include <atomic>' "$header" || sed -i 's|^#include <algorithm>|#include <algorithm>\n#include <atomic>|' "$header"
grep -q '#include <atomic>' "$header"
# When pkg-config finds the installed libbson, the include directories are never set.
third_party="$core/src/3rd_party/CMakeLists.txt"
sed -i 's|^  set(BSON_LIBS_DIRECTORY ${BSON_LIBDIR} CACHE INTERNAL "Installation path of bson libraries" FORCE)|&\n  set(BSON_INCLUDE_DIRECTORY ${BSON_INCLUDEDIR} CACHE INTERNAL "Installation path of bson headers" FORCE)\n  set(EMHASHMAP_INCLUDE_DIRECTORY ${BSON_INCLUDEDIR} CACHE INTERNAL "Installation path of emashmap headers" FORCE)|' "$third_party"
grep -q 'set(BSON_INCLUDE_DIRECTORY ${BSON_INCLUDEDIR}' "$third_party"

step "configure ($build_type)"
mkdir -p "$work/build"
cd "$work/build"
THIRD_PARTY_INSTALL_PREFIX="$prefix" cmake "$core" \
    -DCMAKE_BUILD_TYPE="$build_type" -DLOGGER_NAME=BOOST -DBUILD_TESTS=OFF -DENABLE_SECURITY=OFF \
    -DEXTENDED_MEDIA_MODE=OFF -DBUILD_BT_SUPPORT=OFF -DBUILD_USB_SUPPORT=OFF -DUSE_DISTCC=OFF \
    -DUSE_CCACHE=OFF -DPYTHON_EXECUTABLE=/usr/bin/python3 >/dev/null

step "make -j$jobs"
THIRD_PARTY_INSTALL_PREFIX="$prefix" make -j"$jobs" >/dev/null
THIRD_PARTY_INSTALL_PREFIX="$prefix" make install >/dev/null

step "install into $prefix/bin"
mkdir -p "$prefix/bin"
cp -a "$work/build/bin/." "$prefix/bin/"
test -x "$prefix/bin/smartDeviceLinkCore"
# Core loads every library in bin/ as a possible plugin: the bson libraries stay in lib/.
ls "$prefix/lib"/libbson* >/dev/null
step "done: cd $prefix/bin && LD_LIBRARY_PATH=.:$prefix/lib ./smartDeviceLinkCore smartDeviceLink.ini"
