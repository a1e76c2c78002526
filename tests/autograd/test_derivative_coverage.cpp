// Every declared operator is differentiable with a formula, differentiated
// through its decomposition (a composite), or not differentiable with a
// reason; the few still missing are listed here, so a new operator without
// a decision fails this test, and so does a stale entry of the list.
#include <iostream>
#include <set>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "autograd/derivative.h"
#include "core/dispatcher.h"

using lz::OpId;

namespace {

// Differentiable operators whose formulas are still to be written, and why.
const std::set<OpId> kMissing = {
    OpId::as_strided,    // geometry relative to storage; differentiate a view operator instead
};

}  // namespace

TEST_CASE("every operator has a formula, a decomposition or a reason", "[autograd]") {
  size_t formulas = 0, composites = 0, not_differentiable = 0, variants = 0;
  std::set<OpId> missing;
  for (size_t i = 0; i < lz::kNumOpIds; ++i) {
    const auto id = static_cast<OpId>(i);
    const lz::OpDecl& decl = lz::op_decl(id);
    const lz::autograd::Derivative* d = lz::autograd::find_derivative(id);
    const bool own = d != nullptr && d->op == id;
    if (own) {
      ++formulas;
    } else if (d != nullptr) {
      ++variants;  // an in-place variant: its operator's formula
    } else if (lz::autograd::non_differentiable_reason(id)) {
      ++not_differentiable;
    } else if (lz::Dispatcher::singleton().find(id).has_composite()) {
      ++composites;
    } else {
      missing.insert(id);
    }
    if (own) {
      INFO(lz::op_name(id));
      CHECK(decl.kind == lz::OpDecl::Kind::Operator);
      CHECK_FALSE(lz::autograd::non_differentiable_reason(id).has_value());
    }
  }
  for (OpId id : missing) {
    INFO(lz::op_name(id) << " has no derivative formula, no decomposition and no reason");
    CHECK(kMissing.contains(id));
  }
  for (OpId id : kMissing) {
    INFO(lz::op_name(id) << " is listed as missing but is decided");
    CHECK(missing.contains(id));
  }
  std::cout << "derivatives: " << formulas << " operators with formulas, " << variants
            << " in-place variants using them, " << composites << " composites, " << not_differentiable
            << " not differentiable, " << missing.size() << " missing (of " << formulas + missing.size()
            << " differentiable primitives)\n";
}

TEST_CASE("every formula's saved arguments are tensors of its schema", "[autograd]") {
  for (auto table : {lz::autograd::pointwise_derivatives(), lz::autograd::reduction_derivatives(),
                     lz::autograd::shape_derivatives(), lz::autograd::nn_derivatives()}) {
    for (const lz::autograd::Derivative& d : table) {
      const auto& args = lz::Dispatcher::singleton().find(d.op).schema().arguments();
      for (size_t i = 0; i < 32; ++i) {
        if (((d.saved_arguments >> i) & 1u) == 0) continue;
        INFO(lz::op_name(d.op) << " saves argument " << i);
        REQUIRE(i < args.size());
        CHECK(args[i].type.base == lz::BaseType::Tensor);
      }
    }
  }
}
