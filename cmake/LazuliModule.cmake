# lz_add_module(<name> SOURCES ... [DEPENDS <module> ...] [LIBS <target> ...])
# Declares one module as an OBJECT library. Sources include headers rooted at
# the repository ("core/tensor.h"); which module may include which is checked
# before the module builds (cmake/Layering.cmake).
function(lz_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;LIBS" ${ARGN})
  add_library(lz_${name} OBJECT ${ARG_SOURCES})
  add_dependencies(lz_${name} lz_layering)
  target_include_directories(lz_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  foreach(dep IN LISTS ARG_DEPENDS)
    target_link_libraries(lz_${name} PUBLIC lz_${dep})
  endforeach()
  target_link_libraries(lz_${name} PUBLIC ${ARG_LIBS})
  # -Wno-restrict: GCC 12 reports impossible memcpy overlaps inside
  # std::string concatenation at -O3 (GCC bug 105329).
  target_compile_options(lz_${name} PRIVATE -Wall -Wextra -Wno-unused-parameter -Wno-restrict)
  # Thread-locals (each thread's trace, dispatch key set, reused call stacks)
  # are read on every operator call; initial-exec makes each read one
  # %fs-relative load instead of a __tls_get_addr call. The library holds
  # a few hundred bytes of them, well within the static TLS space glibc
  # keeps for libraries loaded later with dlopen (Python bindings).
  target_compile_options(lz_${name} PRIVATE -ftls-model=initial-exec)
  if(LZ_WERROR)
    target_compile_options(lz_${name} PRIVATE -Werror)
  endif()
endfunction()
