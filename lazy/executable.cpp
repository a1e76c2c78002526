#include "lazy/executable.h"

#include <chrono>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "core/error.h"
#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/shape.h"
#include "lazy/config.h"
#include "lazy/kernel_launch.h"
#include "lazy/metrics.h"

namespace lz::lazy {

InputLayout layout_of(uint32_t input_index, const Tensor& t) {
  InputLayout l;
  l.input_index = input_index;
  if (!t.defined()) return l;  // a graph read from its text (lz-dump) has no data
  l.contiguous = t.is_contiguous();
  for (int64_t d = 0; d < t.dim() && d < 64; ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) l.broadcast_dims |= uint64_t{1} << d;
    if (t.size(d) == 1) l.unit_dims |= uint64_t{1} << d;
  }
  return l;
}

std::vector<ir::NodeId> Executable::post_order(const ir::Graph& g, std::span<const ir::ValueId> outputs) {
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

std::vector<InputLayout> Executable::signature_of(const GraphData& data) const {
  std::vector<InputLayout> sig;
  sig.reserve(inputs_.size());
  for (const auto& [input, slot] : inputs_) sig.push_back(layout_of(input, data.input(input)));
  return sig;
}

class Executable::TraceOrder {
 public:
  TraceOrder(const ir::Graph& g, std::span<const ir::ValueId> outputs) : g_(g), outputs_(outputs) {}
  ir::NodeId operator[](size_t i) {
    if (!order_) order_ = post_order(g_, outputs_);
    return (*order_)[i];
  }

 private:
  const ir::Graph& g_;
  std::span<const ir::ValueId> outputs_;
  std::optional<std::vector<ir::NodeId>> order_;
};

SizeVec Executable::sizes_of(uint32_t source, const ir::Graph& g, const GraphData& data, TraceOrder& order) const {
  const SizeSource& s = size_sources_[source];
  if (s.input) return SizeVec(data.input(s.index).sizes().begin(), data.input(s.index).sizes().end());
  const bool same_node = s.built_node < g.num_nodes() && g.node(s.built_node).hash == s.built_hash;
  const ir::NodeId n = same_node ? s.built_node : order[s.index];
  return g.value(g.node(n).first_output + s.output).type.sizes;
}

bool Executable::sizes_agree(const ir::Graph& g, const GraphData& data, std::span<const ir::ValueId> outputs,
                             std::string* why) const {
  TraceOrder order(g, outputs);
  for (const SizeEquality& e : size_equalities_) {
    const SizeVec domain = sizes_of(e.domain, g, data, order);
    const SizeVec sibling = sizes_of(e.sibling, g, data, order);
    if (domain == sibling) continue;
    *why = absl::StrCat("kernel ", e.kernel, " merged siblings over ", shape_str(domain), " and ",
                        shape_str(sibling));
    return false;
  }
  return true;
}

namespace {
// Points times eager steps beyond which a launch waits for its kernel's
// code rather than running the eager steps (~30 ms of eager work here;
// kernels compile in 5-20 ms).
constexpr int64_t kWaitForCodePointSteps = int64_t{64} << 20;
}  // namespace

uint64_t Executable::bind_buffers(const KernelStep& k, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                                  std::vector<Tensor>& slots, std::vector<SizeVec>* shapes,
                                  std::vector<Tensor>* buffers, std::vector<Scalar>* params) const {
  const auto sizes_of = [&](uint32_t source) { return this->sizes_of(source, g, data, order); };
  shapes->reserve(k.shape_sizes.size());
  for (uint32_t s : k.shape_sizes) shapes->push_back(sizes_of(s));
  // Outputs written in place into an input at its last use, when nothing
  // else can see that input's memory (checked before we take references).
  std::vector<Tensor> reused(k.buffer_slots.size());
  for (size_t b = 0; b < k.reuse.size(); ++b) {
    if (k.reuse[b] < 0) continue;
    const Tensor& in = slots[k.buffer_slots[static_cast<size_t>(k.reuse[b])]];
    if (in.use_count() == 1 && in.unsafe_get_impl()->storage().use_count() == 1 && in.is_contiguous() &&
        in.storage_offset() == 0 && in.sizes() == IntArrayRef(sizes_of(static_cast<uint32_t>(k.output_sizes[b])))) {
      reused[b] = in;
    }
  }
  buffers->reserve(k.buffer_slots.size());
  uint64_t allocated = 0;
  for (size_t b = 0; b < k.buffer_slots.size(); ++b) {
    if (k.output_sizes[b] < 0) {
      buffers->push_back(slots[k.buffer_slots[b]]);
      continue;
    }
    Tensor out = std::move(reused[b]);
    if (!out.defined()) {
      out = empty(sizes_of(static_cast<uint32_t>(k.output_sizes[b])),
                  TensorOptions().dtype(k.kernel.buffers[b].dtype).device(k.device));
      allocated += out.nbytes();
    }
    slots[k.buffer_slots[b]] = out;
    buffers->push_back(std::move(out));
  }
  params->reserve(k.params.size());
  for (uint32_t p : k.params) params->push_back(g.scalar(p));
  return allocated;
}

void Executable::run_kernel_step(const KernelStep& k, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                                 std::vector<Tensor>& slots, Stack& stack, uint64_t* bytes_allocated) const {
  std::vector<SizeVec> shapes;
  std::vector<Tensor> buffers;
  std::vector<Scalar> params;
  const uint64_t allocated = bind_buffers(k, g, data, order, slots, &shapes, &buffers, &params);
  const bool debug = detail::debug_level() >= 2;
  const auto start = debug ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  // A launch whose code is not compiled yet runs as the kernel's eager
  // steps while it compiles in the background, unless those cost more
  // than the compile (W7's eight over 16M points: ~300 ms; its compile
  // ~10 ms): then it waits for the code.
  const int64_t points = ir::num_points(shapes[k.kernel.domain_shape]);
  const bool wait = points * static_cast<int64_t>(k.eager.size()) >= kWaitForCodePointSteps;
  if (!launch_kernel(k.kernel, k.code, buffers, shapes, std::move(params), wait)) {
    // This run takes its eager steps, which make the outputs: the buffers
    // made for the kernel go back to the allocator first, for the steps
    // to reuse (a first call's fresh pages cost more than its compute).
    buffers.clear();
    for (size_t b = 0; b < k.buffer_slots.size(); ++b) {
      if (k.output_sizes[b] >= 0) slots[k.buffer_slots[b]] = Tensor();
    }
    detail::count_run_while_compiling(k.eager.size());
    for (const Step& step : k.eager) {
      run_step(step, g, data, order, slots, stack, bytes_allocated);
      for (uint32_t s : step.release_after) slots[s] = Tensor();
    }
    if (detail::debug_level() >= 1) {
      std::fprintf(stderr, "[lazuli] kernel %s is compiling: ran its %zu eager steps\n", k.kernel.name.c_str(),
                   k.eager.size());
    }
    return;
  }
  *bytes_allocated += allocated;
  if (!debug) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t bytes = 0;
  for (const Tensor& b : buffers) bytes += b.nbytes();
  std::fprintf(stderr, "[lazuli] kernel %s: %.1f us, %.2f GB/s\n", k.kernel.name.c_str(), seconds * 1e6,
               seconds > 0 ? bytes / seconds / 1e9 : 0.0);
}

void Executable::push_args(const Step& step, const ir::Graph& g, const GraphData& data,
                           const std::vector<Tensor>& slots, Stack& stack) const {
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
      case StepArg::Kind::Generator: stack.emplace_back(data.generators.at(a.index)); break;
    }
  }
}

void Executable::run_step(const Step& step, const ir::Graph& g, const GraphData& data, TraceOrder& order,
                          std::vector<Tensor>& slots, Stack& stack, uint64_t* bytes_allocated) const {
  if (step.kernel >= 0) {
    run_kernel_step(kernels_[step.kernel], g, data, order, slots, stack, bytes_allocated);
    return;
  }
  push_args(step, g, data, slots, stack);
  if (step.strided_from_base) {
    // A lazy as_strided addresses its base as a contiguous tensor starting
    // at element 0; the eager input may be strided or start elsewhere.
    const Tensor base = stack[0].to_tensor().contiguous();
    const int64_t offset = stack[3].is_none() ? 0 : stack[3].to_int();
    stack[0] = IValue(base);
    stack[3] = IValue(offset + base.storage_offset());
  }
  if (step.implicit_generator != ir::kNone) {
    DefaultGeneratorGuard replay(data.generators.at(step.implicit_generator));
    step.op->call_boxed(&stack);
  } else {
    step.op->call_boxed(&stack);
  }
  if (step.returns_list) {
    TensorList list = stack.at(0).to_tensor_list();
    LZ_INTERNAL_ASSERT(list.size() == step.output_slots.size(), step.op->name(), " returned ",
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
}

namespace {

// The first error among the slots a step reads (isolated runs).
template <class Step>
std::exception_ptr first_error_read(const Step& step, const std::vector<std::exception_ptr>& slot_errors) {
  using Kind = std::remove_cvref_t<decltype(step.args[0].kind)>;
  for (const auto& a : step.args) {
    if (a.kind == Kind::Slot && slot_errors[a.index]) return slot_errors[a.index];
    for (int32_t s : a.slots) {
      if (s >= 0 && slot_errors[s]) return slot_errors[s];
    }
  }
  return nullptr;
}

}  // namespace

namespace {

bool is_matrix_product(OpId id) { return id == OpId::mm || id == OpId::bmm || id == OpId::addmm; }

}  // namespace

std::vector<Tensor> Executable::run(const ir::Graph& g, const GraphData& data, std::span<const ir::ValueId> outputs,
                                    uint64_t* bytes_allocated, std::vector<std::exception_ptr>* errors) const {
  std::vector<Tensor> slots(num_slots_);
  for (const auto& [input, slot] : inputs_) slots[slot] = data.inputs.at(input);
  TraceOrder order(g, outputs);
  ExcludeDispatchKeyGuard below_lazy(DispatchKeySet(DispatchKey::Lazy));
  Stack stack;
  std::vector<std::exception_ptr> slot_errors(errors != nullptr ? num_slots_ : 0);
  const bool profile = detail::profile_steps();
  std::vector<std::pair<std::string_view, double>> step_ms;
  for (size_t i = 0; i < steps_.size(); ++i) {
    const Step& step = steps_[i];
    const auto started = profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    // A product with its epilogue kernel: both in one pass, profiled as the
    // product (a run isolating errors takes them one by one).
    const Step* epilogue = i + 1 < steps_.size() && steps_[i + 1].kernel >= 0 &&
                                   kernels_[steps_[i + 1].kernel].product_epilogue && errors == nullptr
                               ? &steps_[i + 1]
                               : nullptr;
    if (epilogue != nullptr && run_product_with_epilogue(step, kernels_[epilogue->kernel], g, data, order, slots,
                                                         stack, bytes_allocated)) {
      for (const Step* done : {&step, epilogue}) {
        for (uint32_t s : done->release_after) slots[s] = Tensor();
      }
      ++i;
      if (profile) {
        const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
        step_ms.emplace_back(LazyMetrics::kMatrixProducts, took.count());
      }
      continue;
    }
    if (errors == nullptr) {
      run_step(step, g, data, order, slots, stack, bytes_allocated);
    } else {
      std::exception_ptr failed = first_error_read(step, slot_errors);
      if (!failed) {
        try {
          run_step(step, g, data, order, slots, stack, bytes_allocated);
        } catch (...) {
          failed = std::current_exception();
        }
      }
      for (uint32_t s : step.output_slots) {
        slot_errors[s] = failed;
        if (failed) slots[s] = Tensor();
      }
    }
    for (uint32_t s : step.release_after) {
      slots[s] = Tensor();
      if (errors != nullptr) slot_errors[s] = nullptr;
    }
    if (profile) {
      const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
      const std::string_view what = step.kernel >= 0                  ? LazyMetrics::kFusedKernels
                                    : is_matrix_product(step.op->id()) ? LazyMetrics::kMatrixProducts
                                                                       : std::string_view(step.op->name());
      step_ms.emplace_back(what, took.count());
    }
  }
  if (profile) detail::count_step_ms(step_ms);
  detail::count_steps(steps_per_op_);
  detail::count_kernels(kernels_.size());
  std::vector<Tensor> out;
  out.reserve(output_slots_.size());
  for (uint32_t s : output_slots_) out.push_back(slots[s]);
  if (errors != nullptr) {
    errors->clear();
    for (uint32_t s : output_slots_) errors->push_back(slot_errors[s]);
  }
  return out;
}

}  // namespace lz::lazy
