#include "passes/buffer_plan.h"

#include <sstream>

namespace lz::passes {

namespace {

// Calls f(value) for every value group `group` reads.
template <class F>
void for_each_read(const Program& p, const FusionGroup& group, F&& f) {
  if (!group.is_kernel()) {
    for (ir::ValueId v : p.graph.node(group.nodes[0]).operands) f(v);
    return;
  }
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    if (!group.kernel.buffers[b].output) f(group.buffer_values[b]);
  }
}

// An output may take over an input's buffer when this kernel is the input's
// last reader, both are of one dtype and rank, every access to them is the
// identity (each point reads and writes its own element), and no stage
// after the store reads the input. (The executor also checks at run time
// that nothing else holds the input's memory and that the sizes match.)
std::vector<int32_t> plan_in_place(const FusionGroup& group, const std::vector<int64_t>& last_use, size_t index) {
  const ir::Kernel& kernel = group.kernel;
  std::vector<int32_t> reuse(kernel.buffers.size(), -1);
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
      if (b.output || taken[in] || !plain[in] || b.dtype != kernel.buffers[out].dtype ||
          b.rank != kernel.buffers[out].rank) {
        continue;
      }
      if (last_use[group.buffer_values[in]] != static_cast<int64_t>(index)) continue;
      if (last_stage_reading[in] > static_cast<int64_t>(st)) continue;
      reuse[out] = static_cast<int32_t>(in);
      taken[in] = 1;
      break;
    }
  }
  return reuse;
}

}  // namespace

BufferPlan plan_buffers(const Program& p, const FusionPlan& plan) {
  std::vector<int64_t> last_use(p.graph.num_values(), -1);
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    for_each_read(p, plan.groups[i], [&](ir::ValueId v) { last_use[v] = static_cast<int64_t>(i); });
  }
  for (ir::ValueId v : p.outputs) last_use[v] = -1;
  for (ir::ValueId v = 0; v < p.graph.num_values(); ++v) {
    if (p.graph.producer(v).is_input()) last_use[v] = -1;  // the user's tensor: never released or written
  }
  BufferPlan buffers;
  buffers.release_after.resize(plan.groups.size());
  buffers.reuse.resize(plan.groups.size());
  for (ir::ValueId v = 0; v < p.graph.num_values(); ++v) {
    if (last_use[v] >= 0) buffers.release_after[static_cast<size_t>(last_use[v])].push_back(v);
  }
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    if (plan.groups[i].is_kernel()) buffers.reuse[i] = plan_in_place(plan.groups[i], last_use, i);
  }
  return buffers;
}

std::string print_buffer_plan(const FusionPlan& plan, const BufferPlan& buffers) {
  std::ostringstream os;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const FusionGroup& group = plan.groups[i];
    os << "group " << i << (group.is_kernel() ? " kernel " + group.kernel.name : std::string(" eager")) << "\n";
    os << "  release after:";
    for (ir::ValueId v : buffers.release_after[i]) os << " %" << v;
    os << "\n";
    for (size_t b = 0; b < buffers.reuse[i].size(); ++b) {
      if (buffers.reuse[i][b] < 0) continue;
      const ir::ValueId in = group.buffer_values[static_cast<size_t>(buffers.reuse[i][b])];
      os << "  b" << b << " may be written into b" << buffers.reuse[i][b] << " (%" << in << ")\n";
    }
  }
  return os.str();
}

}  // namespace lz::passes
