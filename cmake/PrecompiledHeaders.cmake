# Precompiled headers: the standard library and abseil headers that most files
# include (cmake/pch/third_party.h), parsed once per family of targets instead
# of once per file. Parsing them was about 1 s of each file's 1.5-3 s.
#
# A precompiled header only fits code compiled with the same code-generation
# settings (GCC refuses a -fPIC one in a -fPIE file, and falls back to parsing
# with a -Winvalid-pch warning), so each family has one owner that compiles
# it and the rest reuse it:
#   lz_pch_owner(<target> [headers...])  <target> compiles third_party.h and
#                                         the extra headers
#   lz_pch_reuse(<target> <owner>)        <target> uses <owner>'s
# GCC only, where it was measured: the Clang build (libFuzzer) parses them in
# every file as before.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  option(LZ_PRECOMPILED_HEADERS "Precompile the third-party headers (cmake/pch/third_party.h)" ON)
else()
  set(LZ_PRECOMPILED_HEADERS OFF CACHE BOOL "Precompile the third-party headers (cmake/pch/third_party.h)")
endif()

function(lz_pch_owner target)
  if(LZ_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/third_party.h ${ARGN})
  endif()
endfunction()

function(lz_pch_reuse target owner)
  if(LZ_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
