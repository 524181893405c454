# Test helpers. Multi-rank tests run under mpirun with --oversubscribe (8 ranks on 2 cores
# must still pass); the environment lets Open MPI run as root in CI containers.
find_package(GTest REQUIRED)
find_program(TESSERA_MPIRUN NAMES mpirun mpiexec REQUIRED)
set(TESSERA_MPIRUN_FLAGS --oversubscribe --bind-to none --mca btl self,vader CACHE STRING "Flags for mpirun in tests")
# For runs that expand (MPI_Comm_spawn): slots for the new processes, tcp to reach them (shared
# memory alone cannot reach another job), and yielding while waiting, as more slots than cores
# would otherwise make Open MPI poll.
set(TESSERA_MPIRUN_SPAWN_FLAGS --oversubscribe --bind-to none --mca btl self,vader,tcp --mca mpi_yield_when_idle 1
  --host localhost:12)
set(TESSERA_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)

# tessera_add_gtest(NAME <name> SOURCES ... LIBS ... [RANKS 1 2 4] [TIMEOUT s] [ARGS ...])
# Builds a GoogleTest executable into build/bin and registers one ctest per rank count,
# named <name>.np<N>. With no RANKS it runs once as a plain process (one rank, no mpirun).
function(tessera_add_gtest)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;RANKS;ARGS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${TESSERA_TIMEOUT_SCALE}")
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest)
  target_compile_options(${T_NAME} PRIVATE -Wall -Wextra)
  if(NOT T_RANKS)
    add_test(NAME ${T_NAME} COMMAND $<TARGET_FILE:${T_NAME}> ${T_ARGS})
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${TESSERA_TEST_ENV}" LABELS "${T_LABELS}")
  else()
    foreach(np ${T_RANKS})
      add_test(NAME ${T_NAME}.np${np}
        COMMAND ${TESSERA_MPIRUN} ${TESSERA_MPIRUN_FLAGS} -np ${np} $<TARGET_FILE:${T_NAME}> ${T_ARGS})
      set_tests_properties(${T_NAME}.np${np} PROPERTIES TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${TESSERA_TEST_ENV}"
        PROCESSORS ${np} LABELS "${T_LABELS}")
    endforeach()
  endif()
endfunction()

# Output-pattern tests run their command through run_checked.sh, whose marker line this pattern
# fails: ctest's PASS_REGULAR_EXPRESSION alone ignores the exit status.
set(TESSERA_RUN_CHECKED ${PROJECT_SOURCE_DIR}/tests/support/run_checked.sh)
set(TESSERA_CHECKED_FAIL_REGEX "TESSERA_COMMAND_FAILED")

# tessera_add_mpi_test(NAME <name> COMMAND <exe> [args...] RANKS <n> [TIMEOUT s]
#                      [PASS_REGEX re] [WILL_FAIL])
# Registers a run of an existing executable under mpirun (for app and error-path tests).
function(tessera_add_mpi_test)
  cmake_parse_arguments(T "WILL_FAIL" "NAME;RANKS;TIMEOUT;PASS_REGEX" "COMMAND;LABELS;MPIRUN_FLAGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(NOT T_MPIRUN_FLAGS)
    set(T_MPIRUN_FLAGS ${TESSERA_MPIRUN_FLAGS})
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${TESSERA_TIMEOUT_SCALE}")
  if(NOT T_RANKS)
    set(T_RANKS 1)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${TESSERA_RUN_CHECKED} ${TESSERA_MPIRUN} ${T_MPIRUN_FLAGS} -np ${T_RANKS}
    ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${TESSERA_TEST_ENV}"
    PROCESSORS ${T_RANKS} LABELS "${T_LABELS}")
  if(T_PASS_REGEX)
    set_tests_properties(${T_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "${T_PASS_REGEX}"
      FAIL_REGULAR_EXPRESSION "${TESSERA_CHECKED_FAIL_REGEX}")
  endif()
  if(T_WILL_FAIL)
    set_tests_properties(${T_NAME} PROPERTIES WILL_FAIL TRUE)
  endif()
endfunction()

# tessera_expect_failure(NAME <test> RANKS <n> REGEX <re> COMMAND <exe> [args...])
# The command must exit non-zero on a run of <n> ranks and print a line matching <re>.
set(TESSERA_EXPECT_FAILURE ${PROJECT_SOURCE_DIR}/tests/support/expect_failure.sh)
function(tessera_expect_failure)
  cmake_parse_arguments(T "" "NAME;RANKS;REGEX;TIMEOUT" "COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${TESSERA_TIMEOUT_SCALE}")
  add_test(NAME ${T_NAME} COMMAND ${TESSERA_EXPECT_FAILURE} "${T_REGEX}"
    ${TESSERA_MPIRUN} ${TESSERA_MPIRUN_FLAGS} -np ${T_RANKS} ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${TESSERA_TEST_ENV}"
    PROCESSORS ${T_RANKS})
endfunction()
