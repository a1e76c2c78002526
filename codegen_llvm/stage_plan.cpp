#include "codegen_llvm/stage_plan.h"

#include "core/scalar_type.h"

namespace lz::codegen_llvm {

using ir::ExprId;
using ir::ScalarOp;

namespace {

// Per expression, the reductions (bit r, r < 64) whose results it reads.
std::vector<uint64_t> reduced_dependencies(const ir::Kernel& k) {
  std::vector<uint64_t> deps(k.exprs.size(), 0);
  for (size_t i = 0; i < k.exprs.size(); ++i) {
    const ir::Expr& e = k.exprs[i];
    if (e.op == ScalarOp::Reduced) deps[i] = e.index < 64 ? uint64_t{1} << e.index : ~uint64_t{0};
    for (int o = 0; o < ir::arity(e.op); ++o) deps[i] |= deps[e.operands[o]];
  }
  return deps;
}

// Worth keeping between passes rather than computing twice (softmax's exp).
bool expensive(ScalarOp op) { return ir::traits(op).cost == ir::ScalarOpCost::Transcendental; }

// x86 has no vector integer division: LLVM may divide lane by lane
// (value_ops.cpp), a large body in time and in code.
bool integer_division(const ir::Expr& x) {
  return ir::traits(x.op).cost == ir::ScalarOpCost::Divide && !is_floating_point(x.dtype);
}

}  // namespace

std::vector<StageGroup> group_stages(const ir::Kernel& k) {
  const std::vector<uint64_t> deps = reduced_dependencies(k);
  std::vector<StageGroup> groups;
  uint64_t in_group = 0;
  for (const ir::Stage& s : k.stages) {
    StageGroup::Kind kind = StageGroup::Kind::Reduce;
    if (s.kind == ir::Stage::Kind::Store) {
      kind = k.stores[s.index].reduced ? StageGroup::Kind::ReducedStore : StageGroup::Kind::Store;
    }
    bool joins = !groups.empty() && groups.back().kind == kind;
    if (joins && kind == StageGroup::Kind::Reduce) {
      const uint64_t needs = deps[k.reductions[s.index].input];
      joins = (needs & in_group) == 0 && s.index < 64;
    }
    if (!joins) {
      groups.push_back(StageGroup{kind, {}});
      in_group = 0;
    }
    groups.back().items.push_back(s.index);
    if (kind == StageGroup::Kind::Reduce && s.index < 64) in_group |= uint64_t{1} << s.index;
  }
  return groups;
}



bool cheap_reduction_body(const ir::Kernel& k, const std::vector<uint32_t>& reds) {
  std::vector<bool> seen(k.exprs.size(), false);
  std::vector<ExprId> stack;
  for (uint32_t r : reds) stack.push_back(k.reductions[r].input);
  while (!stack.empty()) {
    const ExprId e = stack.back();
    stack.pop_back();
    if (seen[e]) continue;
    seen[e] = true;
    const ir::Expr& x = k.exprs[e];
    if (expensive(x.op) || integer_division(x)) return false;
    for (int i = 0; i < ir::arity(x.op); ++i) stack.push_back(x.operands[i]);
  }
  return true;
}

StageCache plan_stage_cache(const ir::Kernel& k) {
  constexpr size_t kMaxSlots = 4;
  StageCache c;
  c.slot_of.assign(k.exprs.size(), -1);
  if (!has_reductions(k)) return c;
  const std::vector<StageGroup> groups = group_stages(k);
  // first[e]: the first group whose loops evaluate e.
  std::vector<int32_t> first(k.exprs.size(), -1);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].kind == StageGroup::Kind::ReducedStore) continue;
    std::vector<ExprId> stack;
    for (uint32_t item : groups[g].items) {
      stack.push_back(groups[g].kind == StageGroup::Kind::Reduce ? k.reductions[item].input : k.stores[item].value);
    }
    std::vector<uint8_t> seen(k.exprs.size(), 0);
    while (!stack.empty()) {
      const ExprId e = stack.back();
      stack.pop_back();
      if (seen[e]) continue;
      seen[e] = 1;
      const ir::Expr& x = k.exprs[e];
      if (first[e] < 0) {
        first[e] = static_cast<int32_t>(g);
      } else if (c.slot_of[e] < 0 && expensive(x.op) && is_floating_point(x.dtype) && c.writer.size() < kMaxSlots) {
        c.slot_of[e] = static_cast<int32_t>(c.writer.size());
        c.writer.push_back(static_cast<uint32_t>(first[e]));
        c.offset.push_back(c.bytes_per_point);
        c.bytes_per_point += x.dtype == ScalarType::Double ? 8 : 4;
        continue;  // read back here: its operands are not evaluated again
      }
      for (int o = 0; o < ir::arity(x.op); ++o) stack.push_back(x.operands[o]);
    }
  }
  return c;
}

uint32_t stage_cache_bytes_per_point(const ir::Kernel& k) { return plan_stage_cache(k).bytes_per_point; }

bool is_splittable(const ir::Kernel& k) {
  if (!has_reductions(k)) return false;
  bool seen_store = false;
  for (const ir::Stage& s : k.stages) {
    if (s.kind == ir::Stage::Kind::Store) {
      if (!k.stores[s.index].reduced) return false;
      seen_store = true;
    } else if (seen_store) {
      return false;
    }
  }
  const std::vector<uint64_t> deps = reduced_dependencies(k);
  for (const ir::Reduction& r : k.reductions) {
    if (deps[r.input] != 0) return false;
  }
  return true;
}

}  // namespace lz::codegen_llvm
