// OperatorInfo: what an operator is, apart from how it runs: its schema,
// declaration id, name and tags. The IR and the passes know operators only
// through it (a graph node points at one), so they depend on schemas and
// dtypes, never on tensors or kernels; OperatorEntry (core/operator_entry.h)
// adds the dispatcher's kernels and meta function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/function_schema.h"
#include "core/op_id.h"
#include "core/op_tags.h"
#include "core/stable_hash.h"

namespace lz {

struct OperatorInfo {
  explicit OperatorInfo(FunctionSchema s)
      : schema(std::move(s)), name(schema.full_name()), name_hash(stable_hash(name)) {}

  FunctionSchema schema;
  OpId id = OpId::kNone;  // its declaration in core/operators.def (kNone: a test's own)
  std::string name;
  uint64_t name_hash;  // stable_hash(name): graph hashing reads it per node
  TagSet tags;
  bool registered = true;  // false once deregistered (handles stay valid)
};

// The registered operator declared as `id` (InternalError when there is none).
const OperatorInfo& operator_info(OpId id);
// The registered operator named `full_name` ("add.Tensor"), or null.
const OperatorInfo* find_operator_info(std::string_view full_name);

}  // namespace lz
