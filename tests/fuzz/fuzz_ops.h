// The operators the differential fuzzer draws from: for each, how the
// generator picks its operands and attributes, how its rounding behaves
// (which decides what the comparison may tolerate), and how to call it.
// Names are the fuzzer's own (the text form of fuzz_program.h); each calls
// Lazuli's public API.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <lazuli/lazuli.h>

#include "tests/fuzz/fuzz_program.h"
#include "tests/fuzz/fuzz_rng.h"

namespace lzf {

// How the generator chooses operands.
enum class Operands : uint8_t {
  One,         // any tensor
  Two,         // two tensors that broadcast together
  Three,       // three tensors that broadcast together
  Where,       // a bool condition and two tensors, all broadcasting
  Mask,        // a tensor and a bool mask that broadcasts to it
  MatMul,      // [.., n, k] and [.., k, m]
  SameShape,   // two tensors of one shape (cat, stack)
};

// How results round, for the comparison.
enum class Numerics : uint8_t {
  Exact,          // exact when its operands are (add, max, views, sums of small values)
  Rounded,        // rounds (mul, exp, mean): compared within a tolerance
  Discontinuous,  // a step function (floor, compare, argmax, cast to int):
                  // only applied to exact operands, its result is exact
};

struct FuzzOp {
  std::string_view name;
  Operands operands = Operands::One;
  Numerics numerics = Numerics::Rounded;
  bool inplace = false;       // writes args[0] and returns it
  uint8_t positive_args = 0;  // bit i: operand i must be >= 1/4 (log, a divisor)
  // Chooses the step's attributes for these (eager) operands; false when
  // the operator does not apply to them (transpose of a 0-dim tensor).
  bool (*attrs)(Rng& rng, const std::vector<lz::Tensor>& args, Step& s) = nullptr;
  lz::Tensor (*run)(const std::vector<lz::Tensor>& args, const Step& s) = nullptr;
  // Its relative error grows with its operand's magnitude (exp(x): by |x|).
  bool amplifies = false;
  // It sums along a dim without reducing the shape (softmax, cumsum): it
  // rounds once per element summed.
  bool sums_inside = false;
  // Whether its result aliases its operand is unspecified (as in PyTorch:
  // reshape views when the strides allow, contiguous and to() may return
  // self), and lazy tensors' strides are not eager's: programs write
  // neither afterwards.
  bool aliasing_unspecified = false;
  // Bit i: only operand i's sizes and dtype are read (expand_as's other,
  // *_like's self, which give eager results: docs/lazy-mode.md), so a lazy
  // one does not make the result lazy, nor is an eager one captured.
  uint8_t sizes_only_args = 0;
  // Its result is an eager tensor even in the lazy modes (to_eager).
  bool eager_result = false;
  // Its errors depend on the values (an index out of range): eagerly it
  // raises at the call, lazily when its value is materialised, where the
  // other values of the graph are still computed.
  bool data_dependent_error = false;
  // Its `value` is a number passed as a runtime Scalar: a replay may change
  // it without changing the graph's structure (unless it is special).
  bool scalar_value = false;
};

const std::vector<FuzzOp>& fuzz_ops();
// nullptr when unknown.
const FuzzOp* find_fuzz_op(std::string_view name);

// Runs an op step on its operands; lz::ValueError for an unknown operator
// or a wrong operand count (a hand-edited program).
lz::Tensor run_op_step(const Step& s, const std::vector<lz::Tensor>& args);

}  // namespace lzf
