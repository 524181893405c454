# How an application folder is built: one function per part of the layout (apps/README.md).
# Included by apps/CMakeLists.txt, so the functions exist before any app folder is added.
#
#   tessera_add_app_kernel(<name> SOURCES <file>... [LINK <lib>...])
#       tessera_<name>_kernel, the computation, from kernel/ (public headers in kernel/include):
#       no flags and no MPI, so tests and benchmarks link it alone. The work-pools and
#       tessera::Error are header-only: it takes collections' and the runtime's headers, not
#       their libraries (which bring MPI).
#   tessera_add_app_driver(<target> [LINK <lib>...] [PRIVATE_LINK <lib>...])
#       <target>, the program around the kernel of an MPI app, from driver/src/*.cpp (public
#       headers in driver/include/tessera/<name>/driver), on tessera_app_common and
#       tessera::Context; LINK is public, PRIVATE_LINK is not.
#   tessera_add_app(<name> LINK <lib>... [SOURCES <file>...])
#       the executable tessera-<name> from main.cpp and SOURCES (driver/src may hold their
#       private headers).
#   tessera_add_search_app(<name>)
#       tessera-<name> of a search application (UTS, NQueens): main.cpp and driver/src/*.cpp
#       (flags, drivers, report lines) on tessera_<name>_distributed and tessera_app_common.

function(tessera_add_app_kernel name)
  cmake_parse_arguments(K "" "" "SOURCES;LINK" ${ARGN})
  add_library(tessera_${name}_kernel STATIC ${K_SOURCES})
  target_include_directories(tessera_${name}_kernel PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/kernel/include
    ${PROJECT_SOURCE_DIR}/collections/include ${PROJECT_SOURCE_DIR}/runtime/include)
  target_link_libraries(tessera_${name}_kernel PUBLIC ${K_LINK})
  target_compile_options(tessera_${name}_kernel PRIVATE -Wall -Wextra)
endfunction()

function(tessera_add_app_driver target)
  cmake_parse_arguments(D "" "" "LINK;PRIVATE_LINK" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/driver/src/*.cpp)
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/driver/include)
  target_link_libraries(${target} PUBLIC ${D_LINK} tessera_app_common tessera_context MPI::MPI_C
    PRIVATE ${D_PRIVATE_LINK} CLI11::CLI11 fmt::fmt)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
endfunction()

function(tessera_add_app name)
  cmake_parse_arguments(E "" "" "SOURCES;LINK" ${ARGN})
  add_executable(tessera-${name} ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp ${E_SOURCES})
  target_include_directories(tessera-${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/driver/src)
  target_link_libraries(tessera-${name} PRIVATE ${E_LINK})
  target_compile_options(tessera-${name} PRIVATE -Wall -Wextra)
  tessera_install_program(tessera-${name})
endfunction()

function(tessera_add_search_app name)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/driver/src/*.cpp)
  tessera_add_app(${name} SOURCES ${sources} LINK tessera_${name}_distributed tessera_app_common fmt::fmt)
endfunction()
