#!/usr/bin/env bash
# packaging_test.sh BUILD_DIR SOURCE_DIR: the Debian packages as a new user meets them, in a clean
# Debian 12 tree (debootstrap --variant=minbase, kept as a tarball in BUILD_DIR for the next run):
#   1. scripts/package.sh builds libtessera, libtessera-dev and tessera-tools;
#   2. tessera-tools installed by dpkg without its dependencies is refused, naming libtessera;
#   3. `apt-get install ./*.deb` installs the three with what they depend on (from Debian's registry);
#   4. the C++-only consumer (tests/install/consumer) builds with find_package(Tessera), with
#      `pkg-config tessera` and with plain mpicxx, and each runs on 2 ranks;
#   5. lbsim and tessera-pic run from PATH (tessera-pic validates);
#   6. `apt-get purge` leaves none of the packages' files behind;
#   7. the packages unpacked under another prefix (/opt/elsewhere) still serve find_package and
#      pkg-config.
# Everything runs as root inside a private mount namespace (unshare), so the tree's /proc, /dev and
# /dev/shm mounts vanish with the test whatever happens; the tree itself is removed by its path.
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
if [[ $(id -u) != 0 ]]; then
  echo "packaging test: needs root (debootstrap, chroot, mounts)"
  exit 1
fi
work=$build/packaging-test
cache=$build/packaging-cache
root=$work/root
rm -rf "$work"
mkdir -p "$work" "$cache/apt-archives"

echo "packaging: building the packages (scripts/package.sh)"
TESSERA_PACKAGE_BUILD_DIR=${TESSERA_PACKAGE_BUILD_DIR:-$build/package-build} "$source/scripts/package.sh" "$work/debs" > "$work/package.log" 2>&1 \
  || { tail -40 "$work/package.log"; exit 1; }
for p in libtessera libtessera-dev tessera-tools; do
  ls "$work/debs/${p}_"*.deb > /dev/null || { echo "packaging: no $p package"; exit 1; }
done
ls "$work/debs"

base=$cache/bookworm-minbase.tar
if [[ ! -f $base ]]; then
  echo "packaging: making a clean Debian 12 tree (debootstrap, once per build directory)"
  rm -rf "$cache/base"
  debootstrap --variant=minbase bookworm "$cache/base" http://deb.debian.org/debian > "$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log"; exit 1; }
  tar -C "$cache/base" -cf "$base.partial" . && mv "$base.partial" "$base"
  rm -rf "$cache/base"
fi
mkdir -p "$root"
tar -C "$root" -xf "$base"
# The registry the packages were built against (the host's), and its name server.
rm -f "$root/etc/apt/sources.list"
cp -r /etc/apt/sources.list /etc/apt/sources.list.d "$root/etc/apt/" 2>/dev/null || true
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/debs" "$root/consumer"
cp "$work/debs/"*.deb "$root/debs/"
cp "$source/tests/install/consumer/"* "$root/consumer/"
cp "$source/tests/packaging/in_tree.sh" "$root/in_tree.sh"

unshare --mount --propagation private bash -c '
  set -euo pipefail
  root=$1 cache=$2
  mount -t proc proc "$root/proc"
  mount --bind /dev "$root/dev"
  mount -t tmpfs -o size=256m tmpfs "$root/dev/shm"
  mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 /bin/bash /in_tree.sh
' unshare-packaging "$root" "$cache"
rm -rf "$work"
echo "packaging: all checks passed"
