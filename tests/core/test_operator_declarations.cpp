// core/operators.def against what the library registers: every declared
// operator is registered with its declared schema, tags and variants, and
// every operator the library registers is declared.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "core/dispatcher.h"
#include "core/op_id.h"
#include "core/schema_parser.h"

namespace {

using lz::OpDecl;
using lz::OpId;

TEST_CASE("operator declarations: every declared operator is registered as declared", "[core]") {
  lz::Dispatcher& d = lz::Dispatcher::singleton();
  for (size_t k = 0; k < lz::kNumOpIds; ++k) {
    const OpId id = static_cast<OpId>(k);
    const OpDecl& decl = lz::op_decl(id);
    INFO(decl.schema);
    const lz::OperatorHandle op = d.find(id);
    CHECK(op.entry().id == id);
    CHECK(op.schema().str() == lz::parse_schema(decl.schema).str());
    CHECK(op.tags().remove(lz::Tag::Composite) == decl.tags);
    if (decl.kind == OpDecl::Kind::Operator) {
      for (OpId v : lz::declared_variants(id)) {
        const std::optional<lz::OperatorHandle> linked =
            lz::op_decl(v).kind == OpDecl::Kind::Inplace ? op.inplace_variant() : op.out_variant();
        REQUIRE(linked.has_value());
        CHECK(linked->entry().id == v);
      }
    } else {
      REQUIRE(op.functional_variant().has_value());
      CHECK(op.functional_variant()->entry().id == decl.functional);
    }
  }
}

TEST_CASE("operator declarations: every operator the library registers is declared", "[core]") {
  size_t registered = 0;
  for (const lz::OperatorHandle& op : lz::Dispatcher::singleton().all_operators()) {
    INFO(op.name());
    CHECK(op.entry().id != OpId::kNone);
    ++registered;
  }
  CHECK(registered == lz::kNumOpIds);
}

TEST_CASE("operator declarations: an id names its operator", "[core]") {
  CHECK(lz::op_name(OpId::add_Tensor) == "add.Tensor");
  CHECK(lz::op_name(OpId::add__Tensor) == "add_.Tensor");
  CHECK(lz::op_decl(OpId::add__Tensor).functional == OpId::add_Tensor);
  CHECK(lz::op_decl(OpId::add__Tensor).tags.has(lz::Tag::Inplace));
  CHECK(lz::op_decl(OpId::exp).tags.has(lz::Tag::Pointwise));
  CHECK(lz::Dispatcher::singleton().find(OpId::softmax_int).name() == "softmax.int");
}

}  // namespace
