# `cmake --install build --prefix P` installs headers, libraries and a CMake package so an
# outside project can find_package(Tessera) and link Tessera::tessera.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
get_property(_targets GLOBAL PROPERTY TESSERA_INSTALL_TARGETS)
get_property(_includes GLOBAL PROPERTY TESSERA_INSTALL_INCLUDES)
set_target_properties(tessera PROPERTIES EXPORT_NAME tessera)
install(TARGETS ${_targets} tessera EXPORT TesseraTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(_dir ${_includes})
  install(DIRECTORY ${_dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(EXPORT TesseraTargets NAMESPACE Tessera:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesseraConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TesseraConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TesseraConfig.cmake ${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
