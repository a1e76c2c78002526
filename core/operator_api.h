// The C++ signature the generated public API (scripts/gen_operator_api.py)
// calls each operator with. An unboxed kernel is called directly only by a
// call of exactly its C++ type (KernelFunction::call); any other reaches it
// boxed, slower. A test checks that every kernel matches.
#pragma once

#include <span>
#include <string_view>

#include "core/op_id.h"

namespace lz {

struct ApiCallSignature {
  OpId op;
  const void* tag;  // detail::signature_tag<Sig>()
  std::string_view signature;  // "Tensor(const Tensor&, const Scalar&)"
};

// One per declared operator, in declaration order.
std::span<const ApiCallSignature> api_call_signatures();

}  // namespace lz
