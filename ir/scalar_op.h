// ScalarOp: the operations of the kernel IR's scalar expressions, and their
// traits, all declared once in ir/scalar_ops.def.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lz::ir {

enum class ScalarOp : uint8_t {
#define LZ_SCALAR_OP(id, name, arity, domain, cost) id,
#include "ir/scalar_ops.def"
#undef LZ_SCALAR_OP
};

// The dtypes an operation is defined on (the verifier checks them).
enum class ScalarOpDomain : uint8_t { Any, Floating, Integral };
// Relative cost per element: the planner's recompute rule sums it over the
// operators of a producer, the LLVM stage planner keeps Transcendental
// values between passes instead of recomputing them.
enum class ScalarOpCost : uint8_t { Cheap = 1, Divide = 2, Root = 4, Transcendental = 8 };

struct ScalarOpTraits {
  std::string_view name;  // as the kernel IR prints it
  int arity;              // operands: 0 for leaves, 1..3
  ScalarOpDomain domain;
  ScalarOpCost cost;
};

inline constexpr size_t kNumScalarOps = static_cast<size_t>(ScalarOp::Select) + 1;
// Whether `op` is one of the declared operations (a corrupt kernel's may not be).
inline bool is_valid(ScalarOp op) { return static_cast<size_t>(op) < kNumScalarOps; }

// InternalError for an operation that is not valid.
const ScalarOpTraits& traits(ScalarOp op);
// "?" and -1 for an operation that is not valid (printing a corrupt kernel).
inline std::string_view to_string(ScalarOp op) { return is_valid(op) ? traits(op).name : "?"; }
inline int arity(ScalarOp op) { return is_valid(op) ? traits(op).arity : -1; }
inline int cost(ScalarOp op) { return static_cast<int>(traits(op).cost); }

}  // namespace lz::ir
