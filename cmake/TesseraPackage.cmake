# Debian packages by CPack, one per install component (cmake/TesseraInstall.cmake):
#   libtessera      the shared libraries
#   libtessera-dev  headers, CMake package, tessera.pc (and the static libraries of a static build)
#   tessera-tools   lbsim, the applications, the benchmarks, the LBAF data the benchmarks read
# scripts/package.sh configures a build with TESSERA_SHARED_LIBS=ON and the prefix /usr, builds the
# tessera_packaged target and runs `cpack -G DEB`. The version is the project's; dpkg-shlibdeps
# computes what each package needs from the libraries its files link, and the -dev package names
# the -dev packages whose headers Tessera's public headers include or whose CMake and pkg-config
# files its own name.
set(CPACK_PACKAGE_NAME tessera)
set(CPACK_PACKAGE_VENDOR "Tessera developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "asynchronous many-task runtime with migratable objects over MPI")
set(CPACK_PACKAGE_CONTACT "Tessera developers <tessera@localhost>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Tessera developers <tessera@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL libtessera libtessera-dev tessera-tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The tools link the libraries of libtessera, which no installed package provides while they are
# packaged: shlibdeps finds them in the build tree and libtessera's exact version is named below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_LIBTESSERA_PACKAGE_NAME libtessera)
set(CPACK_DEBIAN_LIBTESSERA_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBTESSERA_DESCRIPTION "Tessera runtime: shared libraries
 The layers of Tessera (runtime, termination, collections, lb, lb_manager, context, keys) as
 shared libraries.")

set(CPACK_DEBIAN_LIBTESSERA-DEV_PACKAGE_NAME libtessera-dev)
set(CPACK_DEBIAN_LIBTESSERA-DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_LIBTESSERA-DEV_PACKAGE_DEPENDS
    "libopenmpi-dev, libfmt-dev, libspdlog-dev, nlohmann-json3-dev, libcereal-dev, libbrotli-dev, libisal-dev, pkg-config")
set(CPACK_DEBIAN_LIBTESSERA-DEV_DESCRIPTION "Tessera runtime: development files
 Headers, the CMake package (find_package(Tessera), target Tessera::tessera) and tessera.pc
 (pkg-config tessera). Applications are C++20 and MPI programs.")

set(CPACK_DEBIAN_TESSERA-TOOLS_PACKAGE_NAME tessera-tools)
set(CPACK_DEBIAN_TESSERA-TOOLS_PACKAGE_SECTION science)
set(CPACK_DEBIAN_TESSERA-TOOLS_PACKAGE_DEPENDS "openmpi-bin")
set(CPACK_DEBIAN_TESSERA-TOOLS_DESCRIPTION "Tessera runtime: lbsim, applications and benchmarks
 lbsim (the offline load-balancing simulator and advisor), tessera-pic, tessera-lulesh and the
 other applications, and the tessera-bench-* benchmarks.")

include(CPack)
cpack_add_component(libtessera DISPLAY_NAME "shared libraries")
cpack_add_component(libtessera-dev DISPLAY_NAME "development files" DEPENDS libtessera)
cpack_add_component(tessera-tools DISPLAY_NAME "tools" DEPENDS libtessera)
