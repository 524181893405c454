#!/usr/bin/env bash
# in_tree.sh: the checks packaging_test.sh runs inside the clean Debian tree, as root, with the
# packages in /debs and the consumer project in /consumer. Each step prints one line.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun_2=(mpirun --oversubscribe --bind-to none -np 2)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)

# Bad input: a package installed without its dependencies. dpkg refuses to configure it and names
# what is missing; the half-installed package is then removed again.
if dpkg -i /debs/tessera-tools_*.deb > /tmp/dpkg.log 2>&1; then
  echo "packaging: FAIL: tessera-tools installed without libtessera"; exit 1
fi
grep -q "tessera-tools depends on libtessera" /tmp/dpkg.log \
  || { cat /tmp/dpkg.log; echo "packaging: FAIL: dpkg did not name the missing libtessera"; exit 1; }
echo "packaging: dpkg -i tessera-tools alone refused: $(grep -m1 'depends on libtessera' /tmp/dpkg.log | sed 's/^ *//')"
dpkg --purge tessera-tools > /dev/null

apt-get update -qq > /tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log; exit 1; }
apt-get install -y -qq --no-install-recommends /debs/*.deb g++ cmake make > /tmp/apt-install.log 2>&1 \
  || { tail -30 /tmp/apt-install.log; exit 1; }
echo "packaging: apt-get install ./*.deb: $(dpkg-query -W -f='${Package} ${Version} ' libtessera libtessera-dev tessera-tools)"

check_consumer() {  # check_consumer NAME BINARY: runs it on 2 ranks and checks its answer
  "${mpirun_2[@]}" "$2" > "/tmp/$1.out" 2>&1 || { cat "/tmp/$1.out"; echo "packaging: FAIL: $1 run"; exit 1; }
  grep -q "consumer: total 6, expected 6" "/tmp/$1.out" || { cat "/tmp/$1.out"; echo "packaging: FAIL: $1"; exit 1; }
  echo "packaging: $1: $(grep consumer: "/tmp/$1.out")"
}
build_consumers() {  # build_consumers TAG [CMAKE_PREFIX_PATH]: find_package and pkg-config builds
  local tag=$1 prefix=${2:-}
  rm -rf "/tmp/cmake-$tag"
  cmake -S /consumer -B "/tmp/cmake-$tag" -DCMAKE_BUILD_TYPE=Release ${prefix:+-DCMAKE_PREFIX_PATH=$prefix} \
    > "/tmp/cmake-$tag.log" 2>&1 && cmake --build "/tmp/cmake-$tag" >> "/tmp/cmake-$tag.log" 2>&1 \
    || { cat "/tmp/cmake-$tag.log"; echo "packaging: FAIL: find_package build ($tag)"; exit 1; }
  check_consumer "find_package($tag)" "/tmp/cmake-$tag/consumer"
  # shellcheck disable=SC2046
  g++ -std=c++20 -O2 /consumer/main.cpp $(pkg-config --cflags --libs tessera) -o "/tmp/pc-$tag" \
    || { echo "packaging: FAIL: pkg-config build ($tag)"; exit 1; }
  check_consumer "pkg-config($tag)" "/tmp/pc-$tag"
}
build_consumers installed
mpicxx -std=c++20 -O2 /consumer/main.cpp -ltessera_context -ltessera_lb_manager -ltessera_collections \
  -ltessera_lb -ltessera_termination -ltessera_runtime -ltessera_keys -lfmt -o /tmp/plain \
  || { echo "packaging: FAIL: plain mpicxx build"; exit 1; }
check_consumer "plain mpicxx" /tmp/plain

# The tools from PATH.
command -v lbsim tessera-pic tessera-lulesh tessera-bench-lb > /dev/null
lbsim --synthetic "objects=1000 ranks=64 mapped=8 load=lognormal:1:1 seed=1" --strategy GreedyLB > /tmp/lbsim.out 2>&1 \
  && grep -q "I: .* -> " /tmp/lbsim.out || { cat /tmp/lbsim.out; echo "packaging: FAIL: lbsim"; exit 1; }
echo "packaging: lbsim from PATH: $(grep 'I: ' /tmp/lbsim.out)"
"${mpirun_2[@]}" tessera-pic --mode=amt --L 120 --n 5000 --steps 20 --print_every 0 --tessera_lb_name=TemperedLB \
  > /tmp/pic.out 2>&1 && grep -q "validation *passed" /tmp/pic.out \
  || { tail -20 /tmp/pic.out; echo "packaging: FAIL: tessera-pic"; exit 1; }
echo "packaging: tessera-pic from PATH on 2 ranks, TemperedLB: validation passed"

# Removal leaves nothing: every file the packages held is gone, and so are their own folders.
files=$(for d in /debs/*.deb; do dpkg-deb -c "$d"; done | awk '$1 !~ /^d/ {print $NF}' | sed 's|^\./|/|')
apt-get purge -y -qq libtessera libtessera-dev tessera-tools > /tmp/purge.log 2>&1 || { cat /tmp/purge.log; exit 1; }
left=0
for f in $files; do
  if [[ -e $f || -L $f ]]; then echo "packaging: left behind: $f"; left=1; fi
done
for d in /usr/include/tessera "/usr/lib/$multiarch/cmake/Tessera" /usr/share/tessera /usr/share/doc/libtessera; do
  if [[ -e $d ]]; then echo "packaging: left behind: $d"; left=1; fi
done
((left == 0)) || { echo "packaging: FAIL: files left after apt-get purge"; exit 1; }
echo "packaging: apt-get purge: none of the $(echo "$files" | wc -l) files left"

# Relocated: the libraries and development files unpacked under another prefix, nothing installed.
mkdir -p /opt/elsewhere
dpkg-deb -x /debs/libtessera_*.deb /opt/elsewhere
dpkg-deb -x /debs/libtessera-dev_*.deb /opt/elsewhere
export PKG_CONFIG_PATH=/opt/elsewhere/usr/lib/$multiarch/pkgconfig LD_LIBRARY_PATH=/opt/elsewhere/usr/lib/$multiarch
build_consumers relocated /opt/elsewhere/usr
grep -q /opt/elsewhere "/tmp/cmake-relocated/CMakeCache.txt" || { echo "packaging: FAIL: not the relocated package"; exit 1; }
echo "packaging: in-tree checks passed"
