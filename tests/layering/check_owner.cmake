# cmake -DROOT=<source dir> -P check_owner.cmake
# The runtime's tables are typed and there is no process-wide runtime. Fails (and
# lists each offence) when
# - a public header of a library layer keeps an untyped table: a container, smart pointer or map
#   of `void*` / `void` (what Runtime's service, target and ownership tables were);
# - a library source or header other than runtime.hpp/runtime.cpp calls this_runtime(): the
#   library binds to the runtime a handler, message or element gives it (the free send/broadcast
#   in runtime.hpp are for application handlers);
# - a library layer includes the entry point <tessera/tessera.hpp> (context/ is above them all);
# - runtime.hpp or runtime.cpp names Collectives' header, or Runtime has a friend other than
#   detail::RuntimeHooks (the layers reach the runtime's parts through the hooks alone, and the
#   runtime owns its collectives without including them: no include cycle between the two).
set(_layers runtime termination collections lb)
set(_headers)
set(_sources)
foreach(_layer IN LISTS _layers)
  file(GLOB_RECURSE _s ${ROOT}/${_layer}/*.hpp ${ROOT}/${_layer}/*.cpp)
  set(_h ${_s})
  list(FILTER _h INCLUDE REGEX "/include/.*\\.hpp$")
  list(APPEND _headers ${_h})
  list(APPEND _sources ${_s})
endforeach()
set(_untyped
  "(map|vector|deque|set|list|array|pair)<[^;]*void[ \t]*\\*"
  "(shared_ptr|unique_ptr|weak_ptr)<[ \t]*(const[ \t]+)?void[ \t]*>"
  "std::any[ \t]")
set(_violations 0)
# Reports every line of FILES matching one of PATTERNS, with WHY.
function(scan files patterns why)
  set(_found ${_violations})
  foreach(_file IN LISTS files)
    file(STRINGS ${_file} _lines)
    set(_n 0)
    foreach(_line IN LISTS _lines)
      math(EXPR _n "${_n} + 1")
      foreach(_pattern IN LISTS patterns)
        if(_line MATCHES "${_pattern}")
          file(RELATIVE_PATH _rel ${ROOT} ${_file})
          message("${_rel}:${_n}: ${why} (found '${CMAKE_MATCH_0}')")
          math(EXPR _found "${_found} + 1")
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(_violations ${_found} PARENT_SCOPE)
endfunction()
scan("${_headers}" "${_untyped}" "an untyped table in a public header; hold detail::Resident")
scan("${_sources}" "#[ \t]*include[ \t]*[<\"]tessera/tessera\\.hpp" "a library layer includes the entry point")
scan("${ROOT}/runtime/include/tessera/runtime/runtime.hpp;${ROOT}/runtime/src/runtime.cpp"
     "#[ \t]*include[ \t]*[<\"]tessera/runtime/collectives\\.hpp;friend[ \t]+(class|struct)[ \t]+[A-Za-z_]+[^A-Za-z_:]"
     "the runtime includes its collectives, or befriends a type other than detail::RuntimeHooks")
# runtime.hpp declares this_runtime() and the free send/broadcast for application handlers.
list(FILTER _sources EXCLUDE REGEX "/runtime/(include/tessera/runtime/runtime\\.hpp|src/runtime\\.cpp)$")
scan("${_sources}" "this_runtime[ \t]*\\(" "the library calls this_runtime(); use the runtime the handler, message or element gives")
list(LENGTH _headers _h_count)
list(LENGTH _sources _s_count)
message("owner: ${_h_count} public headers and ${_s_count} library files checked, ${_violations} violations")
if(_violations GREATER 0)
  message(FATAL_ERROR "untyped runtime tables, this_runtime(), the entry point or a runtime-collectives cycle in the library")
endif()
