#include "lazy/executable.h"

#include <chrono>
#include <cstdio>

#include "absl/container/flat_hash_map.h"
#include "core/dispatcher.h"
#include "core/error.h"
#include "core/local_dispatch_key_set.h"
#include "absl/strings/str_cat.h"
#include "core/factories.h"
#include "core/shape.h"
#include "core/stable_hash.h"
#include "codegen_cuda/device_kernel.h"
#include "codegen_llvm/compiled_kernel.h"
#include "ir/printer.h"
#include "lazy/config.h"
#include "lazy/graph_dump.h"
#include "lazy/kernel_launch.h"
#include "lazy/metrics.h"
#include "passes/fusion.h"
#include "passes/graph_rewriter.h"
#include "passes/pass_manager.h"

namespace lz::lazy {

InputLayout layout_of(uint32_t input_index, const Tensor& t) {
  InputLayout l;
  l.input_index = input_index;
  l.contiguous = t.is_contiguous();
  for (int64_t d = 0; d < t.dim() && d < 64; ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) l.broadcast_dims |= uint64_t{1} << d;
    if (t.size(d) == 1) l.unit_dims |= uint64_t{1} << d;
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

// Builds an executable from a trace: copy, passes, fusion plan, steps.
BuildOptions BuildOptions::from_settings() {
  const Settings s = settings();
  return BuildOptions{s.pipeline, s.fusion};
}

BuildOptions BuildOptions::reference() { return BuildOptions{"none", false}; }

class Executable::Builder {
 public:
  Builder(Executable& exe, const ir::Graph& trace, std::span<const ir::ValueId> outputs, const BuildOptions& options)
      : exe_(exe), trace_(trace), trace_outputs_(outputs), options_(options) {}

  void build();

 private:
  uint32_t slot(ir::ValueId v);
  uint32_t size_source(ir::ValueId v);
  void add_eager_step(ir::NodeId id);
  std::vector<KernelCode> compile_kernels(passes::FusionPlan& plan);
  void add_kernel_step(const passes::FusionGroup& group, KernelCode code);
  void plan_buffers();
  // Where a kernel's outputs live (every value of one graph is on one device).
  Device device_of(const passes::FusionGroup& group) const;
  void plan_in_place(KernelStep& k, const std::vector<int64_t>& last_use, size_t step);

  Executable& exe_;
  const ir::Graph& trace_;
  std::span<const ir::ValueId> trace_outputs_;
  const BuildOptions& options_;
  passes::Program program_;
  std::vector<uint32_t> slot_of_;
  absl::flat_hash_map<ir::NodeId, uint32_t> position_;  // trace node -> post-order position
  absl::flat_hash_map<std::string_view, uint64_t> per_op_;
};

uint32_t Executable::Builder::slot(ir::ValueId v) {
  if (slot_of_[v] != ir::kNone) return slot_of_[v];
  const ir::Node& n = program_.graph.producer(v);
  LZ_INTERNAL_ASSERT(n.is_input(), "value %", v, " used before it is computed");
  slot_of_[v] = exe_.num_slots_++;
  exe_.inputs_.emplace_back(n.input_index, slot_of_[v]);
  exe_.input_layouts_.push_back(layout_of(n.input_index, program_.graph.input_data(n.input_index)));
  return slot_of_[v];
}

uint32_t Executable::Builder::size_source(ir::ValueId v) {
  const ir::ValueId origin = program_.origin.at(v);
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

void Executable::Builder::add_eager_step(ir::NodeId id) {
  static const OperatorHandle reshape_op = Dispatcher::singleton().find(OpId::reshape);
  const ir::Graph& g = program_.graph;
  const ir::Node& n = g.node(id);
  OperatorHandle op(const_cast<OperatorEntry*>(n.op));
  // The graph is pure: a view node means "these values in this shape",
  // which reshape gives for any input layout (view would reject some).
  const bool is_view_op = op.id() == OpId::view;
  Step step;
  step.op = is_view_op ? reshape_op : op;
  step.implicit_generator = n.implicit_generator;
  step.returns_list = returns_tensor_list(op.schema());
  step.allocates = !op.has_tag(Tag::View);
  step.strided_from_base = op.id() == OpId::as_strided;
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
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    slot_of_[n.first_output + k] = exe_.num_slots_++;
    step.output_slots.push_back(slot_of_[n.first_output + k]);
  }
  ++per_op_[op.name()];
  exe_.steps_.push_back(std::move(step));
}

namespace {

// LZ_LOWERING_FAULT: the kernel stores its results plus one (bools
// negated), as a wrong lowering would.
void inject_wrong_lowering(ir::Kernel& k) {
  ir::KernelBuilder b(&k);
  for (ir::Store& store : k.stores) {
    const ScalarType t = b.dtype_of(store.value);
    store.value = t == ScalarType::Bool ? b.unary(ir::ScalarOp::LogicalNot, store.value, t)
                                        : b.binary(ir::ScalarOp::Add, store.value, b.constant(1, t), t);
  }
}

}  // namespace

// Compiles every kernel group (per group: the compiled kernel, or null). A
// kernel the code generator cannot emit becomes eager steps, one per node,
// each saying why, so metrics, LZ_DEBUG and dumps show the fallback.
std::vector<KernelCode> Executable::Builder::compile_kernels(passes::FusionPlan& plan) {
  std::vector<KernelCode> compiled;
  std::vector<passes::FusionGroup> groups;
  for (passes::FusionGroup& group : plan.groups) {
    std::string failure;
    KernelCode c;
    if (group.is_kernel() && detail::lowering_fault(group.kernel.name)) inject_wrong_lowering(group.kernel);
    if (group.is_kernel()) c = compile_kernel(group.kernel, device_of(group), &failure);
    if (failure.empty()) {
      groups.push_back(std::move(group));
      compiled.push_back(std::move(c));
      continue;
    }
    plan.decisions.push_back("kernel " + group.kernel.name + " runs as eager steps: " + failure);
    for (ir::NodeId n : group.nodes) {
      passes::FusionGroup eager;
      eager.nodes = {n};
      eager.reason = "code generator: " + failure;
      groups.push_back(std::move(eager));
      compiled.push_back({});
    }
  }
  plan.groups = std::move(groups);
  return compiled;
}

Device Executable::Builder::device_of(const passes::FusionGroup& group) const {
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    if (group.kernel.buffers[b].output) return program_.graph.value(group.buffer_values[b]).type.device;
  }
  return Device(DeviceType::CPU);
}

void Executable::Builder::add_kernel_step(const passes::FusionGroup& group,
                                          KernelCode code) {
  KernelStep k;
  k.kernel = group.kernel;
  k.code = std::move(code);
  k.device = device_of(group);
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    const ir::ValueId v = group.buffer_values[b];
    if (group.kernel.buffers[b].output) {
      slot_of_[v] = exe_.num_slots_++;
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
      step.args.push_back(std::move(read));  // for the buffer plan only
    }
  }
  exe_.kernels_.push_back(std::move(k));
  exe_.steps_.push_back(std::move(step));
}

// Release every slot after its last reader, unless it is an output.
void Executable::Builder::plan_buffers() {
  std::vector<int64_t> last_use(exe_.num_slots_, -1);
  for (size_t i = 0; i < exe_.steps_.size(); ++i) {
    for (const StepArg& a : exe_.steps_[i].args) {
      if (a.kind == StepArg::Kind::Slot) last_use[a.index] = static_cast<int64_t>(i);
      for (int32_t s : a.slots) {
        if (s >= 0) last_use[s] = static_cast<int64_t>(i);
      }
    }
  }
  for (uint32_t s : exe_.output_slots_) last_use[s] = -1;
  for (const auto& [input, s] : exe_.inputs_) last_use[s] = -1;  // never written: it is the user's tensor
  for (uint32_t s = 0; s < exe_.num_slots_; ++s) {
    if (last_use[s] >= 0) exe_.steps_[last_use[s]].release_after.push_back(s);
  }
  for (size_t i = 0; i < exe_.steps_.size(); ++i) {
    if (exe_.steps_[i].kernel >= 0) plan_in_place(exe_.kernels_[exe_.steps_[i].kernel], last_use, i);
  }
}

// An output may take over an input's buffer when this kernel is the input's
// last reader, both are of one dtype and shape, every access to them is
// the identity (each point reads and writes its own element), and no stage
// after the store reads the input.
void Executable::Builder::plan_in_place(KernelStep& k, const std::vector<int64_t>& last_use, size_t step) {
  const ir::Kernel& kernel = k.kernel;
  k.reuse.assign(kernel.buffers.size(), -1);
  std::vector<int64_t> last_stage_reading(kernel.buffers.size(), -1);
  std::vector<uint8_t> plain(kernel.buffers.size(), 1);
  for (const ir::Access& a : kernel.accesses) {
    if (!a.views.empty()) plain[a.buffer] = 0;
  }
  for (size_t st = 0; st < kernel.stages.size(); ++st) {
    const ir::Stage& stage = kernel.stages[st];
    const ir::ExprId root = stage.kind == ir::Stage::Kind::Reduce ? kernel.reductions[stage.index].input
                                                                   : kernel.stores[stage.index].value;
    std::vector<uint8_t> in_cone(root + 1, 0);
    in_cone[root] = 1;
    for (size_t e = root + 1; e-- > 0;) {
      if (!in_cone[e]) continue;
      const ir::Expr& x = kernel.exprs[e];
      if (x.op == ir::ScalarOp::Load) last_stage_reading[kernel.accesses[x.index].buffer] = static_cast<int64_t>(st);
      for (int o = 0; o < ir::arity(x.op); ++o) in_cone[x.operands[o]] = 1;
    }
  }
  std::vector<uint8_t> taken(kernel.buffers.size(), 0);
  for (size_t st = 0; st < kernel.stages.size(); ++st) {
    if (kernel.stages[st].kind != ir::Stage::Kind::Store) continue;
    const ir::Store& store = kernel.stores[kernel.stages[st].index];
    const uint32_t out = kernel.accesses[store.access].buffer;
    if (store.reduced || !plain[out]) continue;
    for (uint32_t in = 0; in < kernel.buffers.size(); ++in) {
      const ir::KernelBuffer& b = kernel.buffers[in];
      if (b.output || taken[in] || !plain[in] || b.dtype != kernel.buffers[out].dtype || b.rank != kernel.buffers[out].rank) continue;
      if (last_use[k.buffer_slots[in]] != static_cast<int64_t>(step)) continue;
      if (last_stage_reading[in] > static_cast<int64_t>(st)) continue;
      k.reuse[out] = static_cast<int32_t>(in);
      taken[in] = 1;
      break;
    }
  }
}

void Executable::Builder::build() {
  const std::vector<ir::NodeId> order = post_order(trace_, trace_outputs_);
  for (size_t i = 0; i < order.size(); ++i) position_.emplace(order[i], static_cast<uint32_t>(i));

  program_ = passes::copy_cone(trace_, trace_outputs_);
  uint64_t skeleton = stable_hash("skeleton");
  for (ir::NodeId n = 0; n < program_.graph.num_nodes(); ++n) {
    const ir::Node& node = program_.graph.node(n);
    skeleton = hash_combine(skeleton, node.is_input() ? 0 : node.op->name_hash);
    for (ir::ValueId o : node.operands) skeleton = hash_combine(skeleton, o);
  }
  exe_.skeleton_hash_ = skeleton;
  if (program_.graph.num_nodes() <= kMaxExplainedNodes) {
    exe_.traced_text_ = ir::print_graph(program_.graph, program_.outputs);
  }
  const Settings s = settings();
  passes::PassManager pipeline = passes::make_pipeline(options_.pipeline);
  GraphDump dump(s.dump_dir, trace_.hash_of(trace_outputs_));
  dump.program("00_traced", program_);
  int pass_number = 0;
  pipeline.set_dump_hook([&](std::string_view pass, const passes::Program& p) {
    char number[16];
    std::snprintf(number, sizeof number, "%02d_", ++pass_number);
    dump.program(number + std::string(pass), p);
  });
  pipeline.run(program_);
  passes::FusionPlan plan = passes::plan_fusion(program_, {options_.fusion});
  std::vector<KernelCode> compiled = compile_kernels(plan);
  exe_.plan_text_ = passes::print_plan(program_.graph, plan);
  exe_.decisions_ = plan.decisions;
  dump.plan(program_, plan, pipeline.stats());
  if (dump.enabled()) {
    size_t k = 0;
    for (size_t i = 0; i < plan.groups.size(); ++i) {
      if (!plan.groups[i].is_kernel()) continue;
      if (compiled[i].cpu) dump.kernel_code(k, "ll", compiled[i].cpu->llvm_ir());
      if (compiled[i].cuda) dump.kernel_code(k, "cu", compiled[i].cuda->source().code);
      ++k;
    }
  }

  slot_of_.assign(program_.graph.num_values(), ir::kNone);
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const passes::FusionGroup& group = plan.groups[i];
    if (group.is_kernel()) {
      add_kernel_step(group, std::move(compiled[i]));
    } else {
      add_eager_step(group.nodes[0]);
    }
  }
  for (ir::ValueId out : program_.outputs) exe_.output_slots_.push_back(slot(out));
  plan_buffers();
  std::vector<std::string> not_fused;
  for (const passes::FusionGroup& group : plan.groups) {
    if (!group.is_kernel()) not_fused.push_back(program_.graph.node(group.nodes[0]).op->name + ": " + group.reason);
  }
  detail::count_compile(plan.num_kernels(), not_fused);
  if (s.debug_level >= 3) {
    for (const std::string& d : plan.decisions) std::fprintf(stderr, "[lazuli] fusion: %s\n", d.c_str());
  }
  if (s.debug_level >= 4) std::fprintf(stderr, "[lazuli] %s", exe_.plan_text_.c_str());
  for (const auto& [name, count] : per_op_) exe_.steps_per_op_.emplace_back(name, count);
}

std::unique_ptr<Executable> Executable::build(const ir::Graph& g, std::span<const ir::ValueId> outputs,
                                              const BuildOptions& options) {
  auto exe = std::unique_ptr<Executable>(new Executable());
  Builder(*exe, g, outputs, options).build();
  return exe;
}

std::vector<InputLayout> Executable::signature_of(const ir::Graph& g) const {
  std::vector<InputLayout> sig;
  sig.reserve(inputs_.size());
  for (const auto& [input, slot] : inputs_) sig.push_back(layout_of(input, g.input_data(input)));
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

SizeVec Executable::sizes_of(uint32_t source, const ir::Graph& g, TraceOrder& order) const {
  const SizeSource& s = size_sources_[source];
  if (s.input) return SizeVec(g.input_data(s.index).sizes().begin(), g.input_data(s.index).sizes().end());
  const bool same_node = s.built_node < g.num_nodes() && g.node(s.built_node).hash == s.built_hash;
  const ir::NodeId n = same_node ? s.built_node : order[s.index];
  return g.value(g.node(n).first_output + s.output).type.sizes;
}

bool Executable::sizes_agree(const ir::Graph& g, std::span<const ir::ValueId> outputs, std::string* why) const {
  TraceOrder order(g, outputs);
  for (const SizeEquality& e : size_equalities_) {
    const SizeVec domain = sizes_of(e.domain, g, order);
    const SizeVec sibling = sizes_of(e.sibling, g, order);
    if (domain == sibling) continue;
    *why = absl::StrCat("kernel ", e.kernel, " merged siblings over ", shape_str(domain), " and ",
                        shape_str(sibling));
    return false;
  }
  return true;
}

void Executable::run_kernel_step(const KernelStep& k, const ir::Graph& g, TraceOrder& order, std::vector<Tensor>& slots,
                                 uint64_t* bytes_allocated) const {
  const auto sizes_of = [&](uint32_t source) { return this->sizes_of(source, g, order); };
  std::vector<SizeVec> shapes;
  shapes.reserve(k.shape_sizes.size());
  for (uint32_t s : k.shape_sizes) shapes.push_back(sizes_of(s));
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
  std::vector<Tensor> buffers;
  buffers.reserve(k.buffer_slots.size());
  for (size_t b = 0; b < k.buffer_slots.size(); ++b) {
    if (k.output_sizes[b] < 0) {
      buffers.push_back(slots[k.buffer_slots[b]]);
      continue;
    }
    Tensor out = std::move(reused[b]);
    if (!out.defined()) {
      out = empty(sizes_of(static_cast<uint32_t>(k.output_sizes[b])),
                  TensorOptions().dtype(k.kernel.buffers[b].dtype).device(k.device));
      *bytes_allocated += out.nbytes();
    }
    slots[k.buffer_slots[b]] = out;
    buffers.push_back(std::move(out));
  }
  std::vector<Scalar> params;
  params.reserve(k.params.size());
  for (uint32_t p : k.params) params.push_back(g.scalar(p));
  if (detail::debug_level() < 2) {
    launch_kernel(k.kernel, k.code, buffers, shapes, std::move(params));
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  launch_kernel(k.kernel, k.code, buffers, shapes, std::move(params));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t bytes = 0;
  for (const Tensor& b : buffers) bytes += b.nbytes();
  std::fprintf(stderr, "[lazuli] kernel %s: %.1f us, %.2f GB/s\n", k.kernel.name.c_str(), seconds * 1e6,
               seconds > 0 ? bytes / seconds / 1e9 : 0.0);
}

void Executable::run_step(const Step& step, const ir::Graph& g, TraceOrder& order, std::vector<Tensor>& slots,
                          Stack& stack, uint64_t* bytes_allocated) const {
  if (step.kernel >= 0) {
    run_kernel_step(kernels_[step.kernel], g, order, slots, bytes_allocated);
    return;
  }
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

std::vector<Tensor> Executable::run(const ir::Graph& g, std::span<const ir::ValueId> outputs,
                                    uint64_t* bytes_allocated, std::vector<std::exception_ptr>* errors) const {
  std::vector<Tensor> slots(num_slots_);
  for (const auto& [input, slot] : inputs_) slots[slot] = g.input_data(input);
  TraceOrder order(g, outputs);
  ExcludeDispatchKeyGuard below_lazy(DispatchKeySet(DispatchKey::Lazy));
  Stack stack;
  std::vector<std::exception_ptr> slot_errors(errors != nullptr ? num_slots_ : 0);
  const bool profile = detail::profile_steps();
  std::vector<std::pair<std::string_view, double>> step_ms;
  for (const Step& step : steps_) {
    const auto started = profile ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    if (errors == nullptr) {
      run_step(step, g, order, slots, stack, bytes_allocated);
    } else {
      std::exception_ptr failed = first_error_read(step, slot_errors);
      if (!failed) {
        try {
          run_step(step, g, order, slots, stack, bytes_allocated);
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
      step_ms.emplace_back(step.kernel >= 0 ? LazyMetrics::kFusedKernels : std::string_view(step.op->name()),
                           took.count());
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
