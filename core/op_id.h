// OpId: the typed id of each operator core/operators.def declares, and what
// the declaration says of it (its schema, its tags, the operator a variant
// belongs to). Every layer refers to operators by these ids and their
// traits, never by comparing names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/op_tags.h"

namespace lz {

enum class OpId : uint16_t {
#define LZ_OPERATOR(id, schema, api, ...) id,
#define LZ_INPLACE(id, functional, schema, api) id,
#define LZ_OUT(id, functional, schema) id,
#include "core/operators.def"
#undef LZ_OPERATOR
#undef LZ_INPLACE
#undef LZ_OUT
  kNone,  // an operator registered outside the list (tests define their own)
};
inline constexpr size_t kNumOpIds = static_cast<size_t>(OpId::kNone);

struct OpDecl {
  enum class Kind : uint8_t { Operator, Inplace, Out };
  Kind kind = Kind::Operator;
  std::string_view schema;
  TagSet tags;                   // a variant's: its operator's, and Inplace or Out
  OpId functional = OpId::kNone;  // a variant's operator
};

// What core/operators.def declares for `id` (not kNone).
const OpDecl& op_decl(OpId id);
// The in-place and out= variants declared for operator `id`.
std::span<const OpId> declared_variants(OpId id);
// "add.Tensor": the declared schema's name and overload.
std::string_view op_name(OpId id);
// The position of argument `name` in id's declared schema (InternalError
// when it has none); callers resolve it once, into a static.
size_t argument_position(OpId id, std::string_view name);

}  // namespace lz
