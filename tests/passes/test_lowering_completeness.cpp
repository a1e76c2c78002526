// Completeness: every element-wise or reduction operator core/operators.def
// declares has a lowering (passes/lowering_*.cpp) or an explicit "not
// lowered: <reason>". Composites decompose before tracing and in-place/out=
// variants are traced as their functional operator: neither needs one.
#include <catch2/catch.hpp>

#include "core/dispatcher.h"
#include "passes/lowering.h"

namespace {

using lz::OpId;
using lz::Tag;

// Whether the tracer can see a node of `id` (composites decompose first).
bool traced_as_itself(OpId id) {
  const lz::OpDecl& d = lz::op_decl(id);
  return !d.tags.has(Tag::Inplace) && !d.tags.has(Tag::Out) &&
         !lz::Dispatcher::singleton().find(id).has_tag(Tag::Composite);
}

}  // namespace

TEST_CASE("every traced element-wise and reduction operator is lowered or says why not", "[lowering][completeness]") {
  const lz::passes::LoweringTable& table = lz::passes::lowering_table();
  for (size_t i = 0; i < lz::kNumOpIds; ++i) {
    const OpId id = static_cast<OpId>(i);
    const lz::TagSet tags = lz::op_decl(id).tags;
    if (!(tags.has(Tag::Pointwise) || tags.has(Tag::Reduction)) || !traced_as_itself(id)) continue;
    INFO(lz::op_name(id));
    CHECK((table.find(id) != nullptr || !table.not_lowered_reason(id).empty()));
  }
}

TEST_CASE("lowering entries name operators the tracer records", "[lowering][completeness]") {
  const lz::passes::LoweringTable& table = lz::passes::lowering_table();
  for (size_t i = 0; i < lz::kNumOpIds; ++i) {
    const OpId id = static_cast<OpId>(i);
    if (table.find(id) == nullptr && table.not_lowered_reason(id).empty()) continue;
    INFO(lz::op_name(id));
    CHECK(traced_as_itself(id));  // an entry for a composite or a variant would never be used
  }
}
