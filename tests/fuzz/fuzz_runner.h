// Running a fuzz program in one mode, and comparing two runs.
//
// Modes: eager (the reference), and lazily through each way fused kernels
// run: the reference interpreter, LLVM (every kernel compiled at its first
// launch), no fusion (every node its eager kernel), and the CUDA emulator
// (the generated CUDA C++ compiled by the host compiler; slow).
//
// Results must agree exactly where exact arithmetic is guaranteed (integers,
// bools, and floats computed only by exact operations on values of 1/4
// steps), and within a bound grown from the rounding of every inexact step
// elsewhere; errors must agree in type and message.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <lazuli/lazuli.h>

#include "tests/fuzz/fuzz_program.h"

namespace lzf {

enum class Mode : uint8_t { Eager, Interp, Llvm, NoFusion, CudaEmu };
std::string_view mode_name(Mode m);
std::optional<Mode> mode_from_name(std::string_view name);

struct Outcome {
  std::vector<lz::Tensor> values;   // per step: the eager result (undefined for syncs and errors)
  std::vector<std::string> errors;  // per step: "" or "<ErrorType>: <message>"
  // Per step, taken right after it ran (later in-place steps may change
  // the value). Magnitude and storage only in eager mode: the largest
  // finite magnitude, and the storage (to find what an in-place step writes).
  struct Meta {
    int64_t numel = 0;
    lz::ScalarType dtype = lz::kFloat32;
    double magnitude = 0;
    const void* storage = nullptr;
  };
  std::vector<Meta> meta;
};

// Runs a program's steps one at a time (the generator adds a step, looks
// at it, and may take it back), then materialises every value.
class StepRunner {
 public:
  explicit StepRunner(Mode m) : mode_(m) {}
  // Runs step outcome().errors.size() of `p`: an error is recorded on the
  // step; a step whose operand failed is skipped (recorded as such).
  void run(const Program& p);
  // Forgets the last step.
  void pop();
  // The tensor of value i as the program holds it (lazy in lazy modes).
  const lz::Tensor& live(size_t i) const { return live_.at(i); }
  const Outcome& outcome() const { return out_; }
  // Materialises every value into the outcome's values.
  Outcome finish() &&;

 private:
  Mode mode_;
  std::vector<lz::Tensor> live_;
  Outcome out_;
};

// Every step in mode m (with m's settings), then every value materialised.
Outcome run_program(const Program& p, Mode m);

// What the comparison may assume of each value, from the reference run.
struct ValueNumerics {
  bool exact = true;       // no rounding anywhere in its computation
  bool reliable = true;    // false below a step function of an inexact value
  double scale = 0;        // the largest magnitude in its computation
  double unit = 0;         // the coarsest unit roundoff in its computation
  double rounding = 0;     // rounding steps (a reduction of n values: n)
};

// Follows the program's steps, in order, over the reference run's values.
class NumericsTracker {
 public:
  // Step i of `p` (steps 0..i-1 already added), from the eager run `ref`
  // (which has run step i).
  void add(const Program& p, const Outcome& ref);
  // Takes back the last step (one that wrote no earlier value).
  void pop() { info_.pop_back(); }
  const ValueNumerics& at(size_t i) const { return info_.at(i); }
  // Whether a step function may be applied to value i.
  bool exact(size_t i) const { return info_.at(i).exact && info_.at(i).reliable; }

 private:
  std::vector<ValueNumerics> info_;
};

// "" when `actual` agrees with the reference `expected`, else the first
// disagreement, "<kind>: <step>: <what>" with kind error, shape or value.
std::string compare_outcomes(const Program& p, const Outcome& expected, const Outcome& actual);

// Runs `p` eagerly and in each mode: "" when all agree, else
// "<mode>: <disagreement>" for the first mode that does not. Each mode then
// replays the program `replays` times with new input values and runtime
// numbers (and, every other replay, other sizes), each compared with its
// own eager run: the replays run the executables the first run cached,
// the path every training loop takes.
std::string check_program(const Program& p, const std::vector<Mode>& modes, int replays = 2);

// The text of the lazy trace of `p` (its IR, before any pass), for a report.
std::string trace_text(const Program& p);

}  // namespace lzf
