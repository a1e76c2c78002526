// Random fuzz programs: a pure function of the seed. The generator runs
// each step eagerly as it adds it, so it knows every value's shape, dtype,
// range and exactness: operands are chosen to broadcast (or, now and then,
// not), step functions only see exact values, logs and divisors see values
// kept away from zero, and a step that fails is kept only sometimes (the
// modes must then fail alike).
#pragma once

#include <cstdint>

#include "tests/fuzz/fuzz_program.h"

namespace lzf {

struct GeneratorOptions {
  int max_ops = 12;             // operator steps per program (1..max_ops)
  double keep_errors = 0.1;     // chance to keep a step that raises
  double large_inputs = 0.02;   // chance of an input of ~10^5 elements (threads, vector loops)
  double eager_inputs = 0.15;   // chance an input stays eager in lazy modes
  double syncs = 0.08;          // chance of a materialisation between steps
};

Program generate_program(uint64_t seed, const GeneratorOptions& options = {});

}  // namespace lzf
