// A differential-fuzzing program: a straight-line list of steps over
// tensors, as data, so it can be generated from a seed, run in every mode
// (eager, lazy through each code generator), printed, parsed back, and cut
// down by the minimiser. Every step that is not a sync defines the value
// named by its index ("%3").
//
// Text form, one step per line (what a failure prints, and what
// `lz_fuzz --replay` and the regression tests read):
//   %0 = input f32[3,4] transposed seed=7 lazy
//   %1 = input i64[4] contiguous seed=3 eager
//   %2 = add %0 %1
//   %3 = sum %2 ints=[1] value=1
//   %4 = transpose %0 ints=[0,1]
//   %5 = add_ %4 %3
//   drop %4
//   sync %2
//   %8 = input f64[5] offset seed=9 lazy special
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <lazuli/lazuli.h>

namespace lzf {

// How an input tensor is laid out in memory.
enum class Layout : uint8_t {
  Contiguous,
  Transposed,  // the last two dims swapped in memory (2-D and up)
  Strided,     // every other element of the last dim
  Expanded,    // dim 0 broadcast from size 1 (stride 0)
  Offset,      // a window of a larger storage, starting past its first element
};

struct Step {
  // Sync: materialise args[0]. Drop: the program lets go of args[0] (a
  // view dropped before its base is read); it is not compared.
  enum class Kind : uint8_t { Input, Op, Sync, Drop };
  Kind kind = Kind::Op;

  // Input: a tensor of deterministic values (multiples of 1/4 in [-4, 4]
  // for floats, small integers, 0/1 for bool) made from `seed`; in a lazy
  // mode it becomes a lazy tensor unless `lazy` is false (mixed inputs).
  lz::SizeVec sizes;
  lz::ScalarType dtype = lz::kFloat32;
  Layout layout = Layout::Contiguous;
  uint32_t seed = 0;
  bool lazy = true;
  // Floats only: about one element in eight is +-0, +-inf or NaN.
  bool special = false;

  // Op: the operator (fuzz_ops.h) applied to earlier values `args`, with
  // its integer attributes and one number (a scalar operand or a fill);
  // `value_is_int` makes the number an integral lz::Scalar.
  std::string op;
  std::vector<int> args;  // Sync: args[0] is the value to materialise
  std::vector<int64_t> ints;
  double value = 0;
  bool value_is_int = false;
  lz::ScalarType cast = lz::kFloat32;  // the target of casting ops
};

struct Program {
  std::vector<Step> steps;
  bool defines_value(size_t i) const { return steps[i].kind == Step::Kind::Input || steps[i].kind == Step::Kind::Op; }
};

// The text form above; parse_program throws lz::ValueError naming the line.
std::string to_text(const Program& p);
std::string to_text(const Step& s, size_t index);
Program parse_program(std::string_view text);

// The eager tensor an input step describes.
lz::Tensor make_input(const Step& input);

// "f32", "bf16", ... and back (nullopt when unknown).
std::string_view dtype_code(lz::ScalarType t);
std::optional<lz::ScalarType> dtype_from_code(std::string_view code);

}  // namespace lzf
