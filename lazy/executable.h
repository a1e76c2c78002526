// Executable: what a materialised graph becomes (lazy/compile.h makes it).
// It is the fusion plan's ordered steps, each a fused kernel or an
// operator call through the dispatcher below the Lazy key (an eager
// kernel), plus a buffer plan: every intermediate lives in a slot that is
// released right after its last use, so memory is returned to the
// allocator while the graph runs; values inside a kernel never touch
// memory.
//
// An executable is built from one graph and reused for any graph with the
// same structural hash and input signature: it refers to the graph's
// inputs, runtime scalars and generators by index, and reads them from the
// graph it is run with.
#pragma once

#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ivalue.h"
#include "core/operator_handle.h"
#include "ir/graph.h"
#include "ir/kernel_ir.h"
#include "lazy/graph_data.h"
#include "lazy/kernel_launch.h"


namespace lz::lazy {

// How the signature of one used input is described (dtype and rank are in
// the graph hash already; this adds the layout).
struct InputLayout {
  uint32_t input_index = 0;
  bool contiguous = true;
  uint64_t broadcast_dims = 0;  // bit d: stride 0 with size > 1
  // bit d: size 1. Fusion plans rely on which values broadcast against
  // which, so the size-1 pattern is part of the signature (never sizes).
  uint64_t unit_dims = 0;
  bool operator==(const InputLayout&) const = default;
};
InputLayout layout_of(uint32_t input_index, const Tensor& t);

struct Compilation;

class Executable {
 public:
  // The assemble step of the compile pipeline (lazy/compile.h, which is how
  // executables are made): the steps of compilation `c` of the `outputs` of
  // `trace`, with slots for its values and where a run finds their sizes.
  static std::unique_ptr<Executable> assemble(const ir::Graph& trace, const GraphData& data,
                                              std::span<const ir::ValueId> outputs, const Compilation& c);

  // Runs on graph `g` (same structure and outputs as the one built from)
  // with `data` bound to its inputs and generators and returns the outputs, in the order given to compile(); adds the bytes
  // its steps allocated to *bytes_allocated. A step that raises stops the
  // run, unless `errors` is given: then the step's results, and everything
  // computed from them, fail with its error, the other steps still run, and
  // (*errors)[i] is output i's error (its tensor then undefined).
  std::vector<Tensor> run(const ir::Graph& g, const GraphData& data, std::span<const ir::ValueId> outputs,
                          uint64_t* bytes_allocated,
                          std::vector<std::exception_ptr>* errors = nullptr) const;

  // The input signature this executable was built for.
  const std::vector<InputLayout>& input_layouts() const { return input_layouts_; }
  // The signature a graph bound to `data` presents for this executable's inputs.
  std::vector<InputLayout> signature_of(const GraphData& data) const;
  // Whether graph `g` (of the same hash and signature) has the sizes the
  // plan relied on beyond the signature: a kernel merged from independent
  // siblings runs over one domain, so their domains must still be equal.
  // If not, *why says which kernel's differ.
  bool sizes_agree(const ir::Graph& g, const GraphData& data, std::span<const ir::ValueId> outputs,
                   std::string* why) const;
  size_t num_steps() const { return steps_.size(); }
  size_t num_kernels() const { return kernels_.size(); }
  size_t num_eager_steps() const { return steps_.size() - kernels_.size(); }
  // The plan's text (print_plan) and decisions, for LZ_DEBUG and dumps.
  const std::string& plan_text() const { return plan_text_; }
  const std::vector<std::string>& decisions() const { return decisions_; }
  // The traced graph's operators and wiring without attributes or types
  // (equal for graphs that differ only there), and its text (graphs of up
  // to kMaxExplainedNodes nodes): what a miss is compared against to say
  // which node differed.
  uint64_t skeleton_hash() const { return skeleton_hash_; }
  const std::string& traced_text() const { return traced_text_; }
  static constexpr size_t kMaxExplainedNodes = 4096;

 private:
  struct StepArg {
    enum class Kind : uint8_t { Constant, Slot, SlotList, OptionalSlotList, Scalar, Generator };
    Kind kind = Kind::Constant;
    IValue constant;
    uint32_t index = 0;          // slot / scalar / generator
    std::vector<int32_t> slots;  // lists; -1 = None
  };
  // Where a run finds the sizes of a value: a graph input's data, or the
  // value of the node at `index` of the traced cone's post order. The
  // node's id and hash in the trace the executable was built from let a
  // run skip the post order: a re-trace of the same program gives the node
  // the same id, and nodes of one graph with equal hashes (operator,
  // operands, attributes and scalar slots) have equal sizes.
  struct SizeSource {
    bool input = false;
    uint32_t index = 0;
    uint32_t output = 0;
    ir::NodeId built_node = ir::kNone;
    uint64_t built_hash = 0;
  };
  class TraceOrder;  // the post order, computed on first use
  SizeVec sizes_of(uint32_t size_source, const ir::Graph& g, const GraphData& data, TraceOrder& order) const;
  // A merged kernel's domain and one sibling's domain (size sources).
  struct SizeEquality {
    uint32_t kernel = 0;
    uint32_t domain = 0;
    uint32_t sibling = 0;
  };
  struct Step {
    int32_t kernel = -1;  // >= 0: kernels_[kernel]; else the operator call below
    std::optional<OperatorHandle> op;
    std::vector<StepArg> args;
    std::vector<uint32_t> output_slots;
    std::vector<uint32_t> release_after;  // slots whose last use is this step
    uint32_t implicit_generator = ir::kNone;
    bool returns_list = false;
    bool allocates = true;  // not a view: its results are new memory
    // as_strided indexes a contiguous base from its start (see run()).
    bool strided_from_base = false;
  };

  struct KernelStep {
    ir::Kernel kernel;
    KernelCode code;
    Device device = Device(DeviceType::CPU);  // where its outputs live (and it runs)
    std::vector<uint32_t> buffer_slots;  // per kernel buffer
    std::vector<int32_t> output_sizes;   // per kernel buffer: a size source (outputs), -1 (inputs)
    std::vector<uint32_t> shape_sizes;   // per shape reference: a size source
    std::vector<uint32_t> params;        // per kernel parameter: a graph scalar
    // Per kernel buffer: for an output, the input buffer whose tensor it may
    // be written into (that input's last use, read point for point), or -1.
    std::vector<int32_t> reuse;
    // Runs on each finished block of the matrix product of the step before
    // it, inside the product (passes/product_epilogue.h), when that product
    // computes through the packed GEMM.
    bool product_epilogue = false;
    // While its code compiles in the background (launch_kernel returns
    // false): the eager steps computing the same values (its nodes and the
    // views folded into its loads). Each releases the temporaries it reads
    // last (Step::release_after), so a later step's result can reuse their
    // memory: a first call's fresh pages are what it pays for most.
    std::vector<Step> eager;
  };
  class Builder;
  // Nodes of the cone of `outputs`, operands before users (iterative: traces
  // may hold 10^5 nodes in one chain).
  static std::vector<ir::NodeId> post_order(const ir::Graph& g, std::span<const ir::ValueId> outputs);
  void run_step(const Step& step, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                std::vector<Tensor>& slots, Stack& stack, uint64_t* bytes_allocated) const;
  void run_kernel_step(const KernelStep& k, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                       std::vector<Tensor>& slots, Stack& stack, uint64_t* bytes_allocated) const;
  // Pushes `step`'s arguments, read from the slots and the graph, on `stack`.
  void push_args(const Step& step, const ir::Graph& g, const GraphData& data, const std::vector<Tensor>& slots,
                 Stack& stack) const;
  // Kernel k's buffers (its outputs allocated into their slots, or written
  // into an input at its last use), shapes and parameters; returns the bytes allocated.
  uint64_t bind_buffers(const KernelStep& k, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                        std::vector<Tensor>& slots, std::vector<SizeVec>* shapes, std::vector<Tensor>* buffers,
                        std::vector<Scalar>* params) const;
  // Product step `product` with kernel step `k` (its epilogue) run on each
  // finished block of the product; false (nothing done) when the product
  // does not compute through the packed GEMM or its sizes are not k's domain.
  bool run_product_with_epilogue(const Step& product, const KernelStep& k, const ir::Graph& g,
                                 const GraphData& data, TraceOrder& order, std::vector<Tensor>& slots, Stack& stack,
                                 uint64_t* bytes_allocated) const;

  std::vector<std::pair<uint32_t, uint32_t>> inputs_;  // (graph input index, slot)
  std::vector<KernelStep> kernels_;
  std::vector<SizeSource> size_sources_;
  std::vector<SizeEquality> size_equalities_;
  std::string plan_text_;
  std::vector<std::string> decisions_;
  uint64_t skeleton_hash_ = 0;
  std::string traced_text_;
  std::vector<InputLayout> input_layouts_;
  std::vector<Step> steps_;
  std::vector<uint32_t> output_slots_;
  std::vector<std::pair<std::string_view, uint64_t>> steps_per_op_;
  uint32_t num_slots_ = 0;
};

}  // namespace lz::lazy
