#include "core/op_id.h"

#include <array>
#include <vector>

#include "core/error.h"
#include "core/schema_parser.h"

namespace lz {

namespace {

struct Declarations {
  std::array<OpDecl, kNumOpIds> decls;
  std::array<std::vector<OpId>, kNumOpIds> variants;

  Declarations() {
    size_t i = 0;
// `api` (which C++ forms the public API has) is read by the generator of
// the public API (scripts/gen_operator_api.py) only.
#define LZ_OPERATOR(id, schema, api, ...) \
  decls[i++] = OpDecl{OpDecl::Kind::Operator, schema, TagSet{__VA_ARGS__}, OpId::kNone};
#define LZ_INPLACE(id, functional, schema, api) \
  decls[i++] = OpDecl{OpDecl::Kind::Inplace, schema, TagSet(), OpId::functional};
#define LZ_OUT(id, functional, schema) decls[i++] = OpDecl{OpDecl::Kind::Out, schema, TagSet(), OpId::functional};
#include "core/operators.def"
#undef LZ_OPERATOR
#undef LZ_INPLACE
#undef LZ_OUT
    for (size_t k = 0; k < kNumOpIds; ++k) {
      OpDecl& d = decls[k];
      if (d.kind == OpDecl::Kind::Operator) continue;
      const size_t f = static_cast<size_t>(d.functional);
      d.tags = decls[f].tags.add(d.kind == OpDecl::Kind::Inplace ? Tag::Inplace : Tag::Out);
      variants[f].push_back(static_cast<OpId>(k));
    }
  }
};

const Declarations& declarations() {
  static const Declarations d;
  return d;
}

}  // namespace

const OpDecl& op_decl(OpId id) {
  LZ_INTERNAL_ASSERT(id != OpId::kNone, "op_decl of an undeclared operator");
  return declarations().decls[static_cast<size_t>(id)];
}

std::span<const OpId> declared_variants(OpId id) {
  LZ_INTERNAL_ASSERT(id != OpId::kNone, "declared_variants of an undeclared operator");
  return declarations().variants[static_cast<size_t>(id)];
}

std::string_view op_name(OpId id) {
  const std::string_view s = op_decl(id).schema;
  return s.substr(0, s.find('('));
}

size_t argument_position(OpId id, std::string_view name) {
  const std::optional<size_t> i = parse_schema(op_decl(id).schema).argument_index(name);
  LZ_INTERNAL_ASSERT(i.has_value(), op_name(id), " has no argument '", name, "'");
  return *i;
}

}  // namespace lz
