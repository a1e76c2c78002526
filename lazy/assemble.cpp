// The assemble step of the compile pipeline (lazy/compile.h): a compiled
// plan becomes an executable's steps. Every value gets a slot; eager steps
// get their operator and arguments, kernel steps their buffers' slots; and
// every size a run needs is found through a size source: a graph input or
// a node of the traced cone (Executable::SizeSource).
#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/dispatcher.h"
#include "core/error.h"
#include "lazy/compile.h"
#include "lazy/generate_code.h"

namespace lz::lazy {

namespace {

IValue constant_of(const ir::Graph& g, const ir::Arg& a) {
  using K = ir::ArgKind;
  switch (a.kind) {
    case K::None: return IValue();
    case K::Int: return IValue(a.i);
    case K::Double: return IValue(a.d);
    case K::Bool: return IValue(a.i != 0);
    case K::IntList: {
      const auto v = g.int_pool(a);
      return IValue(std::vector<int64_t>(v.begin(), v.end()));
    }
    case K::BoolList: {
      std::vector<bool> v;
      for (int64_t x : g.int_pool(a)) v.push_back(x != 0);
      return IValue(std::move(v));
    }
    case K::DoubleList: {
      const auto v = g.double_pool(a);
      return IValue(std::vector<double>(v.begin(), v.end()));
    }
    case K::String: return IValue(g.string_at(a));
    case K::ScalarType: return IValue(static_cast<ScalarType>(a.i));
    case K::Device: return IValue(Device(static_cast<DeviceType>(a.i), static_cast<int>(a.index)));
    case K::Layout: return IValue(static_cast<Layout>(a.i));
    case K::MemoryFormat: return IValue(static_cast<MemoryFormat>(a.i));
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "argument kind ", ir::to_string(a.kind), " is not a constant");
}

bool returns_tensor_list(const FunctionSchema& s) {
  return s.returns().size() == 1 && s.returns()[0].type.is_list;
}

}  // namespace

class Executable::Builder {
 public:
  Builder(Executable& exe, const ir::Graph& trace, std::span<const ir::ValueId> outputs, const Compilation& c)
      : exe_(exe), trace_(trace), trace_outputs_(outputs), c_(c), g_(c.program.graph) {}

  void build();

 private:
  uint32_t slot(ir::ValueId v);
  uint32_t size_source(ir::ValueId v);
  Step eager_step(ir::NodeId id);
  void add_eager_step(ir::NodeId id);
  void add_eager_instead(const passes::FusionGroup& group, KernelStep& k);
  void add_kernel_step(size_t group_index);

  Executable& exe_;
  const ir::Graph& trace_;
  std::span<const ir::ValueId> trace_outputs_;
  const Compilation& c_;
  const ir::Graph& g_;  // the compiled program's graph
  std::vector<uint32_t> slot_of_;
  absl::flat_hash_map<ir::NodeId, uint32_t> position_;  // trace node -> post-order position
  absl::flat_hash_map<std::string_view, uint64_t> per_op_;
};

uint32_t Executable::Builder::slot(ir::ValueId v) {
  if (slot_of_[v] != ir::kNone) return slot_of_[v];
  const ir::Node& n = g_.producer(v);
  LZ_INTERNAL_ASSERT(n.is_input(), "value %", v, " used before it is computed");
  slot_of_[v] = exe_.num_slots_++;
  exe_.inputs_.emplace_back(n.input_index, slot_of_[v]);
  return slot_of_[v];
}

uint32_t Executable::Builder::size_source(ir::ValueId v) {
  const ir::ValueId origin = c_.program.origin.at(v);
  LZ_INTERNAL_ASSERT(origin != ir::kNone, "value %", v, " has no origin in the trace: its sizes are unknown at run time");
  const ir::Value& tv = trace_.value(origin);
  const ir::Node& tn = trace_.node(tv.node);
  SizeSource s;
  if (tn.is_input()) {
    s.input = true;
    s.index = tn.input_index;
  } else {
    s.index = position_.at(tv.node);
    s.output = tv.output_index;
    s.built_node = tv.node;
    s.built_hash = tn.hash;
  }
  exe_.size_sources_.push_back(s);
  return static_cast<uint32_t>(exe_.size_sources_.size() - 1);
}

// The step calling node `id`'s operator; its outputs get new slots.
Executable::Step Executable::Builder::eager_step(ir::NodeId id) {
  static const OperatorHandle reshape_op = Dispatcher::singleton().find(OpId::reshape);
  const ir::Node& n = g_.node(id);
  // Every node's operator is a dispatcher entry: the IR sees only its OperatorInfo part.
  OperatorHandle op(const_cast<OperatorEntry*>(static_cast<const OperatorEntry*>(n.op)));
  // The graph is pure: a view node means "these values in this shape",
  // which reshape gives for any input layout (view would reject some).
  const bool is_view_op = op.id() == OpId::view;
  Step step;
  step.op = is_view_op ? reshape_op : op;
  step.implicit_generator = n.implicit_generator;
  step.returns_list = returns_tensor_list(op.schema());
  step.allocates = !op.has_tag(Tag::View);
  step.strided_from_base = op.id() == OpId::as_strided;
  for (const ir::Arg& a : g_.args(n)) {
    StepArg s;
    switch (a.kind) {
      case ir::ArgKind::Tensor:
        s.kind = StepArg::Kind::Slot;
        s.index = slot(n.operands[a.index]);
        break;
      case ir::ArgKind::TensorList:
        s.kind = StepArg::Kind::SlotList;
        for (uint32_t k = 0; k < a.count; ++k) s.slots.push_back(static_cast<int32_t>(slot(n.operands[a.index + k])));
        break;
      case ir::ArgKind::OptTensorList:
        s.kind = StepArg::Kind::OptionalSlotList;
        for (int64_t operand : g_.int_pool(a)) {
          s.slots.push_back(operand < 0 ? -1 : static_cast<int32_t>(slot(n.operands[operand])));
        }
        break;
      case ir::ArgKind::Scalar:
        s.kind = StepArg::Kind::Scalar;
        s.index = a.index;
        break;
      case ir::ArgKind::Generator:
        s.kind = StepArg::Kind::Generator;
        s.index = a.index;
        break;
      default: s.constant = constant_of(g_, a); break;
    }
    step.args.push_back(std::move(s));
  }
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    slot_of_[n.first_output + k] = exe_.num_slots_++;
    step.output_slots.push_back(slot_of_[n.first_output + k]);
  }
  return step;
}

void Executable::Builder::add_eager_step(ir::NodeId id) {
  ++per_op_[g_.node(id).op->name];  // a view counts as view (its step calls reshape)
  Step step = eager_step(id);
  exe_.steps_.push_back(std::move(step));
}

// The eager steps computing kernel `group`'s outputs, for runs while its
// code compiles: its nodes, and the nodes of values they read that no
// earlier step gives a slot (views folded into its loads, values inside
// another kernel, or temporaries of another kernel's eager steps). Its
// output values take the slots these steps give them; the other values
// they compute are temporaries.
void Executable::Builder::add_eager_instead(const passes::FusionGroup& group, KernelStep& k) {
  std::vector<ir::NodeId> nodes = group.nodes;
  absl::flat_hash_set<ir::NodeId> seen(nodes.begin(), nodes.end());
  for (std::vector<ir::NodeId> stack = nodes; !stack.empty();) {
    const ir::NodeId n = stack.back();
    stack.pop_back();
    for (ir::ValueId o : g_.node(n).operands) {
      const ir::NodeId p = g_.value(o).node;
      if (slot_of_[o] != ir::kNone || g_.node(p).is_input() || !seen.insert(p).second) continue;
      nodes.push_back(p);
      stack.push_back(p);
    }
  }
  std::sort(nodes.begin(), nodes.end());  // node ids are in trace order: producers first
  for (ir::NodeId n : nodes) k.eager.push_back(eager_step(n));
  absl::flat_hash_set<uint32_t> outputs;
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    if (!group.kernel.buffers[b].output) continue;
    const ir::ValueId v = group.buffer_values[b];
    LZ_INTERNAL_ASSERT(slot_of_[v] != ir::kNone, "kernel ", group.kernel.name, ": output %", v,
                       " is not computed by its eager steps");
    outputs.insert(slot_of_[v]);
  }
  // A temporary holds a value only during these steps: later steps (and
  // other kernels' eager steps) do not find it in a slot. It is released
  // after the last step that reads it (or makes it, when none does).
  absl::flat_hash_map<uint32_t, size_t> last_use;  // temporary slot -> step
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& node = g_.node(nodes[i]);
    for (uint32_t o = 0; o < node.num_outputs; ++o) {
      const ir::ValueId v = node.first_output + o;
      if (outputs.contains(slot_of_[v])) continue;
      last_use[slot_of_[v]] = i;
      slot_of_[v] = ir::kNone;
    }
    const auto reads = [&](int64_t slot) {
      if (auto it = last_use.find(static_cast<uint32_t>(slot)); slot >= 0 && it != last_use.end()) it->second = i;
    };
    for (const StepArg& a : k.eager[i].args) {
      if (a.kind == StepArg::Kind::Slot) reads(a.index);
      if (a.kind == StepArg::Kind::SlotList || a.kind == StepArg::Kind::OptionalSlotList) {
        for (int32_t slot : a.slots) reads(slot);
      }
    }
  }
  for (const auto& [slot, step] : last_use) k.eager[step].release_after.push_back(slot);
}

void Executable::Builder::add_kernel_step(size_t group_index) {
  const passes::FusionGroup& group = c_.plan.groups[group_index];
  KernelStep k;
  k.kernel = group.kernel;
  k.code = c_.code[group_index];
  k.device = device_of(c_.program, group);
  k.reuse = c_.buffers.reuse[group_index];
  // The step before is the product it is the epilogue of (eager groups are one step each).
  k.product_epilogue = group.product_epilogue && group_index > 0 && !c_.plan.groups[group_index - 1].is_kernel();
  add_eager_instead(group, k);
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    const ir::ValueId v = group.buffer_values[b];
    if (group.kernel.buffers[b].output) {
      k.buffer_slots.push_back(slot_of_[v]);
      k.output_sizes.push_back(static_cast<int32_t>(size_source(v)));
    } else {
      k.buffer_slots.push_back(slot(v));
      k.output_sizes.push_back(-1);
    }
  }
  for (ir::ValueId v : group.shape_refs) k.shape_sizes.push_back(size_source(v));
  if (!group.sibling_domains.empty()) {
    const uint32_t domain = size_source(group.domain);
    for (ir::ValueId sibling : group.sibling_domains) {
      exe_.size_equalities_.push_back(
          SizeEquality{static_cast<uint32_t>(exe_.kernels_.size()), domain, size_source(sibling)});
    }
  }
  k.params = group.params;
  Step step;
  step.kernel = static_cast<int32_t>(exe_.kernels_.size());
  for (size_t b = 0; b < k.buffer_slots.size(); ++b) {
    if (group.kernel.buffers[b].output) {
      step.output_slots.push_back(k.buffer_slots[b]);
    } else {
      StepArg read;
      read.kind = StepArg::Kind::Slot;
      read.index = k.buffer_slots[b];
      step.args.push_back(std::move(read));  // for isolated runs: which slots' errors it inherits
    }
  }
  exe_.kernels_.push_back(std::move(k));
  exe_.steps_.push_back(std::move(step));
}

void Executable::Builder::build() {
  const std::vector<ir::NodeId> order = post_order(trace_, trace_outputs_);
  for (size_t i = 0; i < order.size(); ++i) position_.emplace(order[i], static_cast<uint32_t>(i));
  exe_.skeleton_hash_ = c_.skeleton_hash;
  exe_.traced_text_ = c_.traced_text;
  exe_.plan_text_ = passes::print_plan(g_, c_.plan);
  exe_.decisions_ = c_.plan.decisions;

  slot_of_.assign(g_.num_values(), ir::kNone);
  for (size_t i = 0; i < c_.plan.groups.size(); ++i) {
    if (c_.plan.groups[i].is_kernel()) {
      add_kernel_step(i);
    } else {
      add_eager_step(c_.plan.groups[i].nodes[0]);
    }
    for (ir::ValueId v : c_.buffers.release_after[i]) {
      LZ_INTERNAL_ASSERT(slot_of_[v] != ir::kNone, "value %", v, " is released before it is computed");
      exe_.steps_.back().release_after.push_back(slot_of_[v]);
    }
  }
  for (ir::ValueId out : c_.program.outputs) exe_.output_slots_.push_back(slot(out));
  for (const auto& [name, count] : per_op_) exe_.steps_per_op_.emplace_back(name, count);
}

std::unique_ptr<Executable> Executable::assemble(const ir::Graph& trace, const GraphData& data,
                                                 std::span<const ir::ValueId> outputs, const Compilation& c) {
  auto exe = std::unique_ptr<Executable>(new Executable());
  Builder(*exe, trace, outputs, c).build();
  exe->input_layouts_ = exe->signature_of(data);
  return exe;
}

}  // namespace lz::lazy
