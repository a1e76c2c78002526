#include "lazy/executable.h"

#include "absl/container/flat_hash_map.h"
#include "core/dispatcher.h"
#include "core/error.h"
#include "core/local_dispatch_key_set.h"
#include "lazy/metrics.h"

namespace lz::lazy {

InputLayout layout_of(uint32_t input_index, const Tensor& t) {
  InputLayout l;
  l.input_index = input_index;
  l.contiguous = t.is_contiguous();
  for (int64_t d = 0; d < t.dim() && d < 64; ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) l.broadcast_dims |= uint64_t{1} << d;
  }
  return l;
}

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

// Nodes of the cone of `outputs`, operands before users (iterative: traces
// may hold 10^5 nodes in one chain).
std::vector<ir::NodeId> post_order(const ir::Graph& g, std::span<const ir::ValueId> outputs) {
  std::vector<uint8_t> state(g.num_nodes(), 0);  // 0 new, 1 on stack, 2 done
  std::vector<ir::NodeId> order;
  std::vector<std::pair<ir::NodeId, uint32_t>> stack;
  for (ir::ValueId out : outputs) {
    const ir::NodeId root = g.value(out).node;
    if (state[root] != 0) continue;
    stack.emplace_back(root, 0);
    state[root] = 1;
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const ir::Node& n = g.node(id);
      if (next < n.operands.size()) {
        const ir::NodeId child = g.value(n.operands[next++]).node;
        if (state[child] == 0) {
          state[child] = 1;
          stack.emplace_back(child, 0);
        }
        continue;
      }
      state[id] = 2;
      order.push_back(id);
      stack.pop_back();
    }
  }
  return order;
}

bool returns_tensor_list(const FunctionSchema& s) {
  return s.returns().size() == 1 && s.returns()[0].type.is_list;
}

}  // namespace

std::unique_ptr<Executable> Executable::build(const ir::Graph& g, std::span<const ir::ValueId> outputs) {
  auto exe = std::unique_ptr<Executable>(new Executable());
  std::vector<uint32_t> slot_of(g.num_values(), ir::kNone);
  auto slot = [&](ir::ValueId v) {
    LZ_INTERNAL_ASSERT(slot_of[v] != ir::kNone, "value %", v, " used before it is computed");
    return slot_of[v];
  };
  static const OperatorHandle reshape_op = Dispatcher::singleton().find_or_throw("reshape");
  absl::flat_hash_map<std::string_view, uint64_t> per_op;

  for (ir::NodeId id : post_order(g, outputs)) {
    const ir::Node& n = g.node(id);
    for (uint32_t k = 0; k < n.num_outputs; ++k) slot_of[n.first_output + k] = exe->num_slots_++;
    if (n.is_input()) {
      exe->inputs_.emplace_back(n.input_index, slot_of[n.first_output]);
      exe->input_layouts_.push_back(layout_of(n.input_index, g.input_data(n.input_index)));
      continue;
    }
    OperatorHandle op(const_cast<OperatorEntry*>(n.op));
    // The graph is pure: a view node means "these values in this shape",
    // which reshape gives for any input layout (view would reject some).
    const bool is_view_op = op.name() == "view";
    Step step{is_view_op ? reshape_op : op, {}, {}, {}, n.implicit_generator,
              returns_tensor_list(op.schema()), !op.has_tag(Tag::View), op.name() == "as_strided"};
    for (const ir::Arg& a : g.args(n)) {
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
          for (int64_t operand : g.int_pool(a)) {
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
        default: s.constant = constant_of(g, a); break;
      }
      step.args.push_back(std::move(s));
    }
    for (uint32_t k = 0; k < n.num_outputs; ++k) step.output_slots.push_back(slot_of[n.first_output + k]);
    ++per_op[op.name()];
    exe->steps_.push_back(std::move(step));
  }
  for (ir::ValueId out : outputs) exe->output_slots_.push_back(slot(out));

  // Buffer plan: release every slot after its last reader, unless it is an output.
  std::vector<int64_t> last_use(exe->num_slots_, -1);
  for (size_t i = 0; i < exe->steps_.size(); ++i) {
    for (const StepArg& a : exe->steps_[i].args) {
      if (a.kind == StepArg::Kind::Slot) last_use[a.index] = static_cast<int64_t>(i);
      for (int32_t s : a.slots) {
        if (s >= 0) last_use[s] = static_cast<int64_t>(i);
      }
    }
  }
  for (uint32_t s : exe->output_slots_) last_use[s] = -1;
  for (uint32_t s = 0; s < exe->num_slots_; ++s) {
    if (last_use[s] >= 0) exe->steps_[last_use[s]].release_after.push_back(s);
  }
  for (const auto& [name, count] : per_op) exe->steps_per_op_.emplace_back(name, count);
  return exe;
}

std::vector<InputLayout> Executable::signature_of(const ir::Graph& g) const {
  std::vector<InputLayout> sig;
  sig.reserve(inputs_.size());
  for (const auto& [input, slot] : inputs_) sig.push_back(layout_of(input, g.input_data(input)));
  return sig;
}

std::vector<Tensor> Executable::run(const ir::Graph& g, uint64_t* bytes_allocated) const {
  std::vector<Tensor> slots(num_slots_);
  for (const auto& [input, slot] : inputs_) slots[slot] = g.input_data(input);
  ExcludeDispatchKeyGuard below_lazy(DispatchKeySet(DispatchKey::Lazy));
  Stack stack;
  for (const Step& step : steps_) {
    stack.clear();
    for (const StepArg& a : step.args) {
      switch (a.kind) {
        case StepArg::Kind::Constant: stack.push_back(a.constant); break;
        case StepArg::Kind::Slot: stack.emplace_back(slots[a.index]); break;
        case StepArg::Kind::SlotList: {
          std::vector<Tensor> list;
          list.reserve(a.slots.size());
          for (int32_t s : a.slots) list.push_back(slots[s]);
          stack.emplace_back(std::move(list));
          break;
        }
        case StepArg::Kind::OptionalSlotList: {
          std::vector<std::optional<Tensor>> list;
          for (int32_t s : a.slots) list.push_back(s < 0 ? std::nullopt : std::optional<Tensor>(slots[s]));
          stack.emplace_back(std::move(list));
          break;
        }
        case StepArg::Kind::Scalar: stack.emplace_back(g.scalar(a.index)); break;
        case StepArg::Kind::Generator: stack.emplace_back(g.generator(a.index)); break;
      }
    }
    if (step.strided_from_base) {
      // A lazy as_strided addresses its base as a contiguous tensor starting
      // at element 0; the eager input may be strided or start elsewhere.
      const Tensor base = stack[0].to_tensor().contiguous();
      const int64_t offset = stack[3].is_none() ? 0 : stack[3].to_int();
      stack[0] = IValue(base);
      stack[3] = IValue(offset + base.storage_offset());
    }
    if (step.implicit_generator != ir::kNone) {
      DefaultGeneratorGuard replay(g.generator(step.implicit_generator));
      step.op.call_boxed(&stack);
    } else {
      step.op.call_boxed(&stack);
    }
    if (step.returns_list) {
      TensorList list = stack.at(0).to_tensor_list();
      LZ_INTERNAL_ASSERT(list.size() == step.output_slots.size(), step.op.name(), " returned ",
                         list.size(), " tensors, the graph expects ", step.output_slots.size());
      for (size_t k = 0; k < list.size(); ++k) slots[step.output_slots[k]] = list[k];
    } else {
      for (size_t k = 0; k < step.output_slots.size(); ++k) {
        slots[step.output_slots[k]] = std::move(stack.at(k)).to_tensor();
      }
    }
    if (step.allocates) {
      for (uint32_t s : step.output_slots) *bytes_allocated += slots[s].nbytes();
    }
    for (uint32_t s : step.release_after) slots[s] = Tensor();
  }
  detail::count_steps(steps_per_op_);
  std::vector<Tensor> out;
  out.reserve(output_slots_.size());
  for (uint32_t s : output_slots_) out.push_back(slots[s]);
  return out;
}

}  // namespace lz::lazy
