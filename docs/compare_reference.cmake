# The committed docs/flags.md must be what this build generates.
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GENERATED} ${COMMITTED} RESULT_VARIABLE _differs)
if(_differs)
  message(FATAL_ERROR "docs/flags.md differs from the flags this build has (${GENERATED}); "
                      "copy the generated file over docs/flags.md")
endif()
message(STATUS "docs/flags.md matches this build's flags")
