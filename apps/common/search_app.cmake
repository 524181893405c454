# tessera_add_search_app(<name>): the executable tessera-<name> of a search application (UTS,
# NQueens): its main.cpp and driver/src/*.cpp (flags, drivers, report lines) on its distributed search library
# tessera_<name>_distributed and on tessera_app_common (main skeleton, shared flags and report
# lines). Included by apps/CMakeLists.txt, so it exists before any app folder is added.
function(tessera_add_search_app name)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/driver/src/*.cpp)
  add_executable(tessera-${name} ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp ${sources})
  target_include_directories(tessera-${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/driver/src)
  target_link_libraries(tessera-${name} PRIVATE tessera_${name}_distributed tessera_app_common fmt::fmt)
  target_compile_options(tessera-${name} PRIVATE -Wall -Wextra)
endfunction()
