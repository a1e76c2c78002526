// The workloads of shared/bench/workloads.md, written as a user writes them:
// through <lazuli/lazuli.h> only, the same code for eager and lazy inputs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

namespace lz::bench_runner {

struct Workload {
  std::string id;    // "W1"
  std::string name;  // "gelu_tanh"
  std::string sizes;
  bool bandwidth_bound = true;
  // Inputs (eager, on the CPU, fixed seed) for the dtype; `quick` picks the
  // small sizes of --quick.
  std::function<std::vector<Tensor>(bool quick, ScalarType dtype)> make_inputs;
  // The computation. In-place workloads (W7) update their inputs and return
  // them; the others return fresh tensors.
  std::function<std::vector<Tensor>(std::vector<Tensor>& inputs)> run;
  // Bytes that must move for the inputs `make_inputs` made.
  std::function<double(const std::vector<Tensor>& inputs)> bytes;
  // W8: one timed run is this many trace + materialise rounds.
  int rounds = 1;
  // Lazy agrees with eager when |lazy - eager| <= atol + rtol |eager| (float32).
  double atol = 1e-5, rtol = 1e-5;
  // Training workloads (W10, W11) instead make one training step over their
  // inputs: forward, loss, backward(), optimizer step, returning the loss
  // and the updated parameters. The parameters among the inputs start
  // requiring grad there and the optimizer's state lives in the step, so
  // eager and lazy inputs each train a model of their own.
  using Step = std::function<std::vector<Tensor>()>;
  std::function<Step(std::vector<Tensor>& inputs)> make_step = nullptr;
};

// Every workload, in id order.
const std::vector<Workload>& all_workloads();

// W8's chain of 100 element-wise operators (also timed alone for the
// tracing cost per operator).
inline constexpr int kW8Ops = 100;
Tensor w8_chain(Tensor x);

}  // namespace lz::bench_runner
