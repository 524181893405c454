# tessera_add_layer(NAME <layer> SOURCES ... USES <targets...>)
# Creates library tessera_<layer> (alias Tessera::<layer>) with public headers under
# <layer>/include. USES lists what the layer may link: keep it to the layers the
# architecture allows, so a forbidden dependency fails to link instead of creeping in.
# The library is static, or shared (libtessera_<layer>.so.MAJOR.MINOR) with TESSERA_SHARED_LIBS=ON,
# as the Debian packages build it (scripts/package.sh).
option(TESSERA_SHARED_LIBS "Build the layers as shared libraries (the Debian packages do)" OFF)
function(tessera_add_layer)
  cmake_parse_arguments(L "PUBLIC_LAYER" "NAME" "SOURCES;USES" ${ARGN})
  set(target tessera_${L_NAME})
  if(L_SOURCES)
    if(TESSERA_SHARED_LIBS)
      add_library(${target} SHARED ${L_SOURCES})
      set_target_properties(${target} PROPERTIES VERSION ${PROJECT_VERSION}
        SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
      # Calls inside one library stay direct and inlinable, as in the static build.
      target_compile_options(${target} PRIVATE -fno-semantic-interposition)
    else()
      add_library(${target} STATIC ${L_SOURCES})
    endif()
    target_include_directories(${target} PUBLIC
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:include>
      PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
    target_link_libraries(${target} PUBLIC ${L_USES})
    target_compile_options(${target} PRIVATE -Wall -Wextra)
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME ${L_NAME})
    # A sanitizer build's static libraries need the sanitizer's runtime wherever they are linked,
    # the installed package's consumers included.
    if(TESSERA_SANITIZER_FLAGS)
      target_link_options(${target} PUBLIC ${TESSERA_SANITIZER_FLAGS})
    endif()
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE
      $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:include>)
    target_link_libraries(${target} INTERFACE ${L_USES})
    set_target_properties(${target} PROPERTIES EXPORT_NAME ${L_NAME})
  endif()
  add_library(Tessera::${L_NAME} ALIAS ${target})
  tessera_check_headers(${target})
  set_property(GLOBAL APPEND PROPERTY TESSERA_INSTALL_TARGETS ${target})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    set_property(GLOBAL APPEND PROPERTY TESSERA_INSTALL_INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}/include/)
  endif()
  if(L_PUBLIC_LAYER)
    set(TESSERA_PUBLIC_LAYERS ${TESSERA_PUBLIC_LAYERS} ${target} PARENT_SCOPE)
  endif()
endfunction()

# tessera_add_subdirectories(): add every immediate subfolder that has a CMakeLists.txt,
# so apps, tools and test folders can be added without editing a shared file.
macro(tessera_add_subdirectories)
  file(GLOB _tessera_children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
  list(SORT _tessera_children)
  foreach(_child ${_tessera_children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${_child} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_child}/CMakeLists.txt)
      add_subdirectory(${_child})
    endif()
  endforeach()
endmacro()

# tessera_check_headers(<target>): every public header under include/ compiles on its own, as the
# first and only include of a translation unit (a header that leans on an include its user happens
# to make first fails the build here, not in an application).
option(TESSERA_CHECK_HEADERS "Compile every public header on its own" ON)
function(tessera_check_headers target)
  if(NOT TESSERA_CHECK_HEADERS OR NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    return()
  endif()
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/include
       ${CMAKE_CURRENT_SOURCE_DIR}/include/*.hpp)
  set(sources)
  foreach(header ${headers})
    string(MAKE_C_IDENTIFIER ${header} id)
    set(source ${CMAKE_CURRENT_BINARY_DIR}/header_check/${id}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT "#include <${header}>  // must compile on its own\n")
    list(APPEND sources ${source})
  endforeach()
  if(sources)
    add_library(${target}_header_check OBJECT ${sources})
    target_link_libraries(${target}_header_check PRIVATE ${target})
    target_compile_options(${target}_header_check PRIVATE -Wall -Wextra)
    tessera_check_no_flag_parser(${target} ${headers})
  endif()
endfunction()

# tessera_check_no_flag_parser(<target> <headers...>): a test, <target>_headers_without_flag_parser,
# that runs the compiler's -M on each public header alone (with the include directories and
# definitions the header check compiles it with) and fails naming every header whose dependencies
# include a command-line parser (CLI11's CLI/ and the like). Flags are parsed in .cpp files only
# (runtime/src/flags.cpp); headers describe them in plain structs, so a user never compiles CLI11.
set(TESSERA_FLAG_PARSER_REGEX "/CLI/|/cxxopts\\.hpp|/boost/program_options|/argparse/|/gflags/"
    CACHE INTERNAL "what a public header's dependencies may not match")
function(tessera_check_no_flag_parser target)
  if(NOT TESSERA_BUILD_TESTS)
    return()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/header_check)
  set(paths)
  foreach(header ${ARGN})
    list(APPEND paths ${CMAKE_CURRENT_SOURCE_DIR}/include/${header})
  endforeach()
  list(JOIN paths "\n" listed)
  file(CONFIGURE OUTPUT ${dir}/headers.txt CONTENT "${listed}\n")
  # Everything that reaches the header check's compile lines: the transitive include directories
  # and definitions of ${target}, and the language standard.
  set(check ${target}_header_check)
  set(includes "$<REMOVE_DUPLICATES:$<TARGET_PROPERTY:${check},INCLUDE_DIRECTORIES>>")
  set(definitions "$<REMOVE_DUPLICATES:$<TARGET_PROPERTY:${check},COMPILE_DEFINITIONS>>")
  file(GENERATE OUTPUT ${dir}/compile_args.txt CONTENT
"${CMAKE_CXX20_STANDARD_COMPILE_OPTION}
$<$<BOOL:${includes}>:-I$<JOIN:${includes},\n-I>>
$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},\n-D>>
")
  add_test(NAME ${target}_headers_without_flag_parser
    COMMAND ${CMAKE_COMMAND} -DARGS=${dir}/compile_args.txt -DHEADERS=${dir}/headers.txt
            -DCXX=${CMAKE_CXX_COMPILER} "-DFORBIDDEN=${TESSERA_FLAG_PARSER_REGEX}"
            -P ${PROJECT_SOURCE_DIR}/cmake/TesseraHeaderDeps.cmake)
  set_tests_properties(${target}_headers_without_flag_parser PROPERTIES LABELS headers)
endfunction()
