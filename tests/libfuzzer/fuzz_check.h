// What both fuzzers check: the parser either returns or throws an lz::Error
// with a message. Anything else escaping (std::out_of_range, bad_alloc,
// length_error, ...) is a parser bug: abort so libFuzzer saves the input.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "core/error.h"

namespace lz_fuzz {

template <class Parse>
void expect_value_or_lz_error(Parse&& parse) {
  try {
    parse();
  } catch (const lz::Error& e) {
    if (e.what()[0] == '\0') {
      std::fprintf(stderr, "lz::Error without a message\n");
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "non-lz exception escaped the parser: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "non-std exception escaped the parser\n");
    std::abort();
  }
}

}  // namespace lz_fuzz
