#!/usr/bin/env bash
# sanitized_soak.sh [asan|tsan|all]: the soak under the sanitizers, also the CMake target
# `soak-sanitizers`. Each kind builds tessera-soak alone in its own build directory next to the
# source (build-asan: AddressSanitizer + UBSan; build-tsan: ThreadSanitizer), then runs:
#   asan  a 150-phase soak on 3 ranks over the shared-memory rings, and one with 2 worker threads
#         per rank stealing tasks (--tessera_workers=2);
#   tsan  the workers' part: 2 ranks with 3 worker threads each running and stealing a 2^15-task
#         tree every phase for 40 phases (elements' messages kept few: the rank's one thread
#         handles those).
# Any sanitizer report fails the run (halt_on_error / exit code), as does a lost, duplicated or
# corrupted message. Open MPI's own allocations kept until exit are suppressed
# (tests/support/lsan.supp), and so are races inside Open MPI's libraries (tsan.supp), which
# Tessera does not build.
set -euo pipefail
src=$(cd "$(dirname "$0")/../../.." && pwd)
kind=${1:-all}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none)

build() {  # build DIR CMAKE_FLAG
  cmake -S "$src" -B "$src/$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$2" > "$src/$1.configure.log" 2>&1 \
    || { cat "$src/$1.configure.log"; exit 1; }
  cmake --build "$src/$1" -j "${TESSERA_JOBS:-2}" --target tessera-soak
}

if [[ $kind == asan || $kind == all ]]; then
  build build-asan -DTESSERA_ASAN=ON
  export LSAN_OPTIONS="suppressions=$src/tests/support/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
  export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  "${mpirun[@]}" -np 3 "$src/build-asan/bin/tessera-soak" --phases 150 --seed 29 --report=json | tail -1
  "${mpirun[@]}" -np 2 "$src/build-asan/bin/tessera-soak" --phases 60 --seed 3 --tasks 14 --tessera_workers=2 \
    --report=json | tail -1
fi
if [[ $kind == tsan || $kind == all ]]; then
  build build-tsan -DTESSERA_TSAN=ON
  export TSAN_OPTIONS="halt_on_error=1:exitcode=66:suppressions=$src/apps/soak/scripts/tsan.supp"
  "${mpirun[@]}" -np 2 "$src/build-tsan/bin/tessera-soak" --phases 40 --seed 5 --tasks 14 --fanout 1 \
    --spmd_messages 8 --tessera_workers=3 --report=json | tail -1
fi
echo "sanitized_soak: $kind passed"
