# Sanitizer builds (scripts/run_sanitizers.sh) and the libFuzzer build of the
# parser fuzzers (tests/libfuzzer, scripts/run_libfuzzer.sh).
#
#   -DLZ_SANITIZE=address,undefined   ASan + UBSan (GCC or Clang)
#   -DLZ_SANITIZE=thread              TSan
#   -DLZ_LIBFUZZER=ON                 Clang only: everything is built with
#                                     -fsanitize=fuzzer-no-link for coverage,
#                                     the fuzzers link -fsanitize=fuzzer.
#
# The flags go to every target (modules, tests, tools) so that inline code in
# headers is instrumented the same on both sides of the library. Not
# instrumented: libLLVM, OpenBLAS, abseil and the JIT-compiled kernels.
set(LZ_SANITIZE "" CACHE STRING "Sanitizers for every target: '', 'address,undefined' or 'thread'")
set_property(CACHE LZ_SANITIZE PROPERTY STRINGS "" "address,undefined" "thread")

if(LZ_LIBFUZZER)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LZ_LIBFUZZER needs Clang (libFuzzer is part of compiler-rt), "
                        "got ${CMAKE_CXX_COMPILER_ID}: configure with -DCMAKE_CXX_COMPILER=clang++ "
                        "-DCMAKE_C_COMPILER=clang (scripts/run_libfuzzer.sh does)")
  endif()
  if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 15)
    # Clang 14 cannot compile std::source_location (core/tensor.h): see the
    # header. Nor target_clones on templates: the fuzzers only need the
    # operators registered, not fast kernels.
    add_compile_options("SHELL:-include ${PROJECT_SOURCE_DIR}/tests/libfuzzer/clang14_compat.h")
    set(LZ_CPU_CLONES OFF CACHE BOOL "" FORCE)
  endif()
  if(LZ_SANITIZE STREQUAL "")
    # The fuzzers are only useful with ASan + UBSan watching the parsers.
    set(LZ_SANITIZE "address,undefined" CACHE STRING "" FORCE)
  endif()
endif()

if(NOT LZ_SANITIZE STREQUAL "")
  if(NOT LZ_SANITIZE MATCHES "^(address,undefined|undefined,address|address|undefined|thread)$")
    message(FATAL_ERROR "LZ_SANITIZE='${LZ_SANITIZE}': expected 'address,undefined' or 'thread'")
  endif()
  message(STATUS "Sanitizers: ${LZ_SANITIZE}")
  set(lz_san_flags -fsanitize=${LZ_SANITIZE} -fno-omit-frame-pointer)
  if(LZ_SANITIZE MATCHES "undefined")
    # A UBSan report aborts the test instead of printing and passing.
    list(APPEND lz_san_flags -fno-sanitize-recover=undefined)
  endif()
  if(LZ_LIBFUZZER)
    # Coverage counters in the library code the fuzzers reach.
    list(APPEND lz_san_flags -fsanitize=fuzzer-no-link)
  endif()
  add_compile_options(${lz_san_flags})
  add_link_options(${lz_san_flags})
  if(LZ_SANITIZE STREQUAL "thread")
    # target_clones picks a clone through an ifunc resolver that the dynamic
    # loader runs while relocating liblazuli, before the TSan runtime is
    # initialised; the instrumented resolver crashed every TSan test binary
    # at start-up. TSan builds compile the baseline loops only.
    set(LZ_CPU_CLONES OFF CACHE BOOL "" FORCE)
  endif()
endif()
