# `cmake --install build --prefix P` installs headers, libraries, a CMake package and tessera.pc so
# an outside project can find_package(Tessera) and link Tessera::tessera, or use
# `pkg-config tessera`; and the programs that tessera_install_program() named.
#
# Install components, one per Debian package (cmake/TesseraPackage.cmake):
#   libtessera      the shared libraries (TESSERA_SHARED_LIBS=ON)
#   libtessera-dev  headers, the CMake package, tessera.pc, the static libraries
#   tessera-tools   lbsim, the applications, the benchmarks
#
# Both packages are relocatable: TesseraConfig.cmake finds its prefix from its own place, and
# tessera.pc from ${pcfiledir}.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
get_property(_targets GLOBAL PROPERTY TESSERA_INSTALL_TARGETS)
get_property(_includes GLOBAL PROPERTY TESSERA_INSTALL_INCLUDES)
set_target_properties(tessera PROPERTIES EXPORT_NAME tessera)
install(TARGETS ${_targets} tessera EXPORT TesseraTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libtessera-dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libtessera
    NAMELINK_COMPONENT libtessera-dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
add_dependencies(tessera_packaged ${_targets})
foreach(_dir ${_includes})
  install(DIRECTORY ${_dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT libtessera-dev)
endforeach()
set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
install(EXPORT TesseraTargets NAMESPACE Tessera:: DESTINATION ${_cmake_dir} COMPONENT libtessera-dev)
# CLI11 is private to the runtime's sources: only static libraries carry it to their users' links.
set(TESSERA_CONFIG_PRIVATE_DEPENDENCIES "")
if(NOT TESSERA_SHARED_LIBS)
  set(TESSERA_CONFIG_PRIVATE_DEPENDENCIES "find_dependency(CLI11)")
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesseraConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TesseraConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TesseraConfig.cmake ${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
  DESTINATION ${_cmake_dir} COMPONENT libtessera-dev)

# tessera.pc: the libraries in link order, and the pkg-config modules of what the public headers
# include and the libraries call. Layers register in dependency order (each after the layers it
# uses), so the reverse is a link order: each library before the ones it needs.
set(_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH TESSERA_PC_PREFIX_FROM_PCFILEDIR /${_pc_dir} /)
string(REGEX REPLACE "/$" "" TESSERA_PC_PREFIX_FROM_PCFILEDIR "${TESSERA_PC_PREFIX_FROM_PCFILEDIR}")
set(TESSERA_PC_LIBS "")
set(_link_order ${_targets})
list(REVERSE _link_order)
foreach(_target ${_link_order})
  get_target_property(_type ${_target} TYPE)
  if(NOT _type STREQUAL "INTERFACE_LIBRARY")
    string(APPEND TESSERA_PC_LIBS " -l${_target}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tessera.pc.in ${PROJECT_BINARY_DIR}/tessera.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tessera.pc DESTINATION ${_pc_dir} COMPONENT libtessera-dev)

include(TesseraPackage)
