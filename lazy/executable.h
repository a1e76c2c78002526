// Executable: what a materialised graph becomes. An ordered list of steps,
// each an operator call through the dispatcher below the Lazy key (an eager
// kernel), plus a buffer plan: every intermediate lives in a slot that is
// released right after its last use, so memory is returned to the
// allocator while the graph runs. Later issues replace runs of steps with
// compiled kernels; the executable's interface stays.
//
// An executable is built from one graph and reused for any graph with the
// same structural hash and input signature: it refers to the graph's
// inputs, runtime scalars and generators by index, and reads them from the
// graph it is run with.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ivalue.h"
#include "core/operator_handle.h"
#include "ir/graph.h"

namespace lz::lazy {

// How the signature of one used input is described (dtype and rank are in
// the graph hash already; this adds the layout).
struct InputLayout {
  uint32_t input_index = 0;
  bool contiguous = true;
  uint64_t broadcast_dims = 0;  // bit d: stride 0 with size > 1
  bool operator==(const InputLayout&) const = default;
};
InputLayout layout_of(uint32_t input_index, const Tensor& t);

class Executable {
 public:
  // Plans the steps computing `outputs` (in that order) of graph `g`.
  static std::unique_ptr<Executable> build(const ir::Graph& g, std::span<const ir::ValueId> outputs);

  // Runs on graph `g` (same structure as the one built from) and returns
  // the outputs, in the order given to build(); adds the bytes its steps
  // allocated to *bytes_allocated.
  std::vector<Tensor> run(const ir::Graph& g, uint64_t* bytes_allocated) const;

  // The input signature this executable was built for.
  const std::vector<InputLayout>& input_layouts() const { return input_layouts_; }
  // The signature graph `g` presents for this executable's inputs.
  std::vector<InputLayout> signature_of(const ir::Graph& g) const;
  size_t num_steps() const { return steps_.size(); }

 private:
  struct StepArg {
    enum class Kind : uint8_t { Constant, Slot, SlotList, OptionalSlotList, Scalar, Generator };
    Kind kind = Kind::Constant;
    IValue constant;
    uint32_t index = 0;          // slot / scalar / generator
    std::vector<int32_t> slots;  // lists; -1 = None
  };
  struct Step {
    OperatorHandle op;
    std::vector<StepArg> args;
    std::vector<uint32_t> output_slots;
    std::vector<uint32_t> release_after;  // slots whose last use is this step
    uint32_t implicit_generator = ir::kNone;
    bool returns_list = false;
    bool allocates = true;  // not a view: its results are new memory
    // as_strided indexes a contiguous base from its start (see run()).
    bool strided_from_base = false;
  };

  std::vector<std::pair<uint32_t, uint32_t>> inputs_;  // (graph input index, slot)
  std::vector<InputLayout> input_layouts_;
  std::vector<Step> steps_;
  std::vector<uint32_t> output_slots_;
  std::vector<std::pair<std::string_view, uint64_t>> steps_per_op_;
  uint32_t num_slots_ = 0;
};

}  // namespace lz::lazy
