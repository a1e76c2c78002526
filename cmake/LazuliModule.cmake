include(PrecompiledHeaders)

# lz_add_module(<name> SOURCES ... [DEPENDS <module> ...] [LIBS <target> ...]
#               [OWN_PCH <header> ...] [NO_UNITY])
# Declares one module as an OBJECT library. Sources include headers rooted at
# the repository ("core/tensor.h"); which module may include which is checked
# before the module builds (cmake/Layering.cmake). A module uses the modules'
# shared precompiled header, or with OWN_PCH one of its own that adds the
# given third-party headers. Its files compile in batches of eight (CMake's
# unity build: the headers they share are compiled once per batch, so names
# local to a file must be unique within its module), unless NO_UNITY.
option(LZ_UNITY_MODULES "Compile each module's files in batches" ON)
function(lz_add_module name)
  cmake_parse_arguments(ARG "NO_UNITY" "" "SOURCES;DEPENDS;LIBS;OWN_PCH" ${ARGN})
  add_library(lz_${name} OBJECT ${ARG_SOURCES})
  add_dependencies(lz_${name} lz_layering)
  target_include_directories(lz_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  foreach(dep IN LISTS ARG_DEPENDS)
    target_link_libraries(lz_${name} PUBLIC lz_${dep})
  endforeach()
  target_link_libraries(lz_${name} PUBLIC ${ARG_LIBS})
  lz_module_compile_options(lz_${name})
  if(LZ_UNITY_MODULES AND NOT ARG_NO_UNITY)
    set_target_properties(lz_${name} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  if(ARG_OWN_PCH)
    lz_pch_owner(lz_${name} ${ARG_OWN_PCH})
  else()
    lz_pch_reuse(lz_${name} lz_module_pch)
  endif()
endfunction()

# The compile options every module shares (and so its precompiled header).
function(lz_module_compile_options target)
  # -Wno-restrict, -Wno-stringop-overflow, -Wno-array-bounds: GCC 12 reports
  # impossible memcpy overlaps, sizes and offsets inside std::string's
  # inlined code at -O3 (GCC bug 105329); the last two only once <string>
  # comes from a precompiled header, which stops hiding them as a system
  # header's.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter -Wno-restrict
                                           -Wno-stringop-overflow -Wno-array-bounds)
  # Thread-locals (each thread's trace, dispatch key set, reused call stacks)
  # are read on every operator call; initial-exec makes each read one
  # %fs-relative load instead of a __tls_get_addr call. The library holds
  # a few hundred bytes of them, well within the static TLS space glibc
  # keeps for libraries loaded later with dlopen (Python bindings).
  target_compile_options(${target} PRIVATE -ftls-model=initial-exec)
  # The library's calls to its own functions bind to them (with the link's
  # -Bsymbolic-functions, CMakeLists.txt): GCC may inline an exported
  # function into its callers and calls it directly, not through the PLT,
  # since no other library is allowed to replace it. A traced operator
  # crosses dozens of such small functions (dispatch, recording, metas).
  target_compile_options(${target} PRIVATE -fno-semantic-interposition)
  if(LZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
