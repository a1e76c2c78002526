// Random fuzz programs: a pure function of the seed. The generator runs
// each step eagerly as it adds it, so it knows every value's shape, dtype,
// range and exactness: operands are chosen to broadcast (or, now and then,
// not), step functions only see exact values, logs and divisors see values
// kept away from zero, and a step that fails is kept only sometimes (the
// modes must then fail alike). Beside random operators it writes through
// views (and views of views) of inputs and drops the views before their
// base is read, writes eager tensors lazy values have read and tensors
// to_eager() returned, and feeds special values (+-0, +-inf, NaN).
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
  double view_writes = 0.15;    // chance of a write through a view (of a view) that is then dropped
  double drops = 0.04;          // chance the program lets go of a value between steps
  double special_values = 0.1;  // chance a float input holds +-0, +-inf and NaN
};

Program generate_program(uint64_t seed, const GeneratorOptions& options = {});

}  // namespace lzf
