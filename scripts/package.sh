#!/usr/bin/env bash
# scripts/package.sh DIR: builds the Debian packages libtessera, libtessera-dev and tessera-tools
# with CPack and writes the .deb files into DIR.
#
# The packages come from a build of their own (TESSERA_PACKAGE_BUILD_DIR, default build-package):
# shared libraries (TESSERA_SHARED_LIBS=ON), prefix /usr, and only the targets the packages hold
# (tessera_packaged: the libraries, the applications, lbsim and the benchmarks; no tests). The
# Debian packages that build needs are installed first (scripts/setup.sh), with dpkg-dev, whose
# dpkg-shlibdeps computes the packages' dependencies.
set -euo pipefail
if (($# != 1)); then
  echo "usage: scripts/package.sh DIR   (writes libtessera, libtessera-dev and tessera-tools .deb files into DIR)" >&2
  exit 2
fi
out=$1
cd "$(dirname "$0")/.."
source=$PWD
if ! dpkg-query -W -f='${Status}' dpkg-dev 2>/dev/null | grep -q "install ok installed"; then
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends dpkg-dev
fi
build=${TESSERA_PACKAGE_BUILD_DIR:-build-package}
# setup.sh installs the build's Debian packages; its own build (build/) is not made here.
TESSERA_SETUP_PACKAGES_ONLY=1 scripts/setup.sh
cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DTESSERA_SHARED_LIBS=ON -DTESSERA_BUILD_TESTS=ON -DTESSERA_BUILD_DOCS=OFF -DTESSERA_CHECK_HEADERS=OFF \
  -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "${TESSERA_JOBS:-$(nproc)}" --target tessera_packaged
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$build" && cpack -G DEB -B "$out/cpack" > "$build/cpack.log" 2>&1) || { cat "$build/cpack.log"; exit 1; }
mv "$out"/cpack/*.deb "$out"/
rm -rf "$out/cpack"
ls "$out"/*.deb
