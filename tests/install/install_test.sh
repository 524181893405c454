#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR MPIRUN: installs the build into a scratch prefix, builds the
# consumer project against it with find_package(Tessera), and runs it on 2 ranks.
set -euo pipefail
build=$1 source=$2 mpirun=$3
prefix="$build/install-test/prefix"
work="$build/install-test/consumer"
rm -rf "$build/install-test"
cmake --install "$build" --prefix "$prefix" > /dev/null
cmake -S "$source/tests/install/consumer" -B "$work" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work" -j 2 > /dev/null
"$mpirun" --oversubscribe -np 2 "$work/consumer"
