# tessera_install_program(<target>): `cmake --install` puts the executable in bin/, in the
# tessera-tools component (the tessera-tools Debian package), and the tessera_packaged target
# builds it, so scripts/package.sh builds what the packages hold and nothing else (no tests).
add_custom_target(tessera_packaged)
function(tessera_install_program target)
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tessera-tools)
  add_dependencies(tessera_packaged ${target})
endfunction()
