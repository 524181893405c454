# cmake -DROOT=<source dir> -P check_entry_points.cmake
# Fails (and lists each offence) when a source under apps/ or tools/ constructs a Runtime or a
# Termination itself, installs a layer's service by hand, or reaches the layers' hooks.
file(GLOB_RECURSE _files ${ROOT}/apps/*.cpp ${ROOT}/apps/*.hpp ${ROOT}/tools/*.cpp ${ROOT}/tools/*.hpp)
# A Runtime or Termination object (not a reference or pointer), made directly or on the heap.
set(_patterns
  "(^|[^A-Za-z0-9_&*:<])(tessera::)?(Runtime|Termination)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*[({]"
  "make_(unique|shared)<(tessera::)?(Runtime|Termination)>"
  "(PhaseManager|StealService)::install"
  "detail::hooks")
set(_violations 0)
foreach(_file IN LISTS _files)
  file(STRINGS ${_file} _lines)
  set(_n 0)
  foreach(_line IN LISTS _lines)
    math(EXPR _n "${_n} + 1")
    foreach(_pattern IN LISTS _patterns)
      if(_line MATCHES "${_pattern}")
        file(RELATIVE_PATH _rel ${ROOT} ${_file})
        message("${_rel}:${_n}: start Tessera through tessera::Context (found '${CMAKE_MATCH_0}')")
        math(EXPR _violations "${_violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
list(LENGTH _files _count)
message("entry points: ${_count} files checked, ${_violations} violations")
if(_violations GREATER 0)
  message(FATAL_ERROR "apps or tools start Tessera other than through tessera::Context")
endif()
