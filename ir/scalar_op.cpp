#include "ir/scalar_op.h"

#include <array>

#include "core/error.h"

namespace lz::ir {

namespace {

constexpr std::array kTraits = {
#define LZ_SCALAR_OP(id, name, arity, domain, cost) \
  ScalarOpTraits{name, arity, ScalarOpDomain::domain, ScalarOpCost::cost},
#include "ir/scalar_ops.def"
#undef LZ_SCALAR_OP
};

}  // namespace

const ScalarOpTraits& traits(ScalarOp op) {
  static_assert(kTraits.size() == kNumScalarOps, "ScalarOp::Select must stay the last operation");
  LZ_INTERNAL_ASSERT(is_valid(op), "not a scalar operation: ", static_cast<int>(op));
  return kTraits[static_cast<size_t>(op)];
}

}  // namespace lz::ir
