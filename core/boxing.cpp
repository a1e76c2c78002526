#include "core/boxing.h"

#include "core/error.h"

namespace lz::detail {

namespace {

// Fixed list sizes (int[2]) and alias annotations do not change the C++ type.
bool same_cpp_type(const SchemaType& schema, const SchemaType& cpp) {
  return schema.base == cpp.base && schema.is_list == cpp.is_list &&
         schema.optional == cpp.optional && schema.element_optional == cpp.element_optional;
}

}  // namespace

void check_leading_arguments(const FunctionSchema& schema, const CppSignature& sig,
                             std::string_view what) {
  const auto& args = schema.arguments();
  LZ_CHECK(sig.arguments.size() <= args.size(), SchemaError, "[register] ", schema.full_name(),
           ": ", what, " takes ", sig.arguments.size(), " arguments but the schema has ",
           args.size(), " (", schema.str(), ")");
  for (size_t i = 0; i < sig.arguments.size(); ++i) {
    LZ_CHECK(same_cpp_type(args[i].type, sig.arguments[i]), SchemaError, "[register] ",
             schema.full_name(), ": ", what, " argument ", i, " ('", args[i].name, "') is '",
             sig.arguments[i].str(), "' in C++ but '", args[i].type.str(), "' in the schema");
  }
}

void check_signature(const FunctionSchema& schema, const CppSignature& sig, std::string_view what) {
  const auto& args = schema.arguments();
  LZ_CHECK(args.size() == sig.arguments.size(), SchemaError, "[register] ", schema.full_name(),
           ": ", what, " takes ", sig.arguments.size(), " arguments but the schema has ",
           args.size(), " (", schema.str(), ")");
  check_leading_arguments(schema, sig, what);
  const auto& rets = schema.returns();
  LZ_CHECK(rets.size() == sig.returns.size(), SchemaError, "[register] ", schema.full_name(), ": ",
           what, " returns ", sig.returns.size(), " values but the schema has ", rets.size(),
           " (", schema.str(), ")");
  for (size_t i = 0; i < rets.size(); ++i) {
    LZ_CHECK(same_cpp_type(rets[i].type, sig.returns[i]), SchemaError, "[register] ",
             schema.full_name(), ": ", what, " return ", i, " is '", sig.returns[i].str(),
             "' in C++ but '", rets[i].type.str(), "' in the schema");
  }
}

}  // namespace lz::detail
