#include "core/op_tags.h"

namespace lz {

std::string_view to_string(Tag t) {
  switch (t) {
    case Tag::Pointwise: return "pointwise";
    case Tag::Reduction: return "reduction";
    case Tag::View: return "view";
    case Tag::Factory: return "factory";
    case Tag::Inplace: return "inplace";
    case Tag::Out: return "out";
    case Tag::Random: return "random";
    case Tag::Composite: return "composite";
    case Tag::NonTensorResult: return "non_tensor_result";
    case Tag::StepFunction: return "step_function";
    case Tag::DataDependentShape: return "data_dependent_shape";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, TagSet tags) {
  os << "{";
  bool first = true;
  for (int i = 0; i < 32; ++i) {
    const auto t = static_cast<Tag>(i);
    if (i > static_cast<int>(Tag::StepFunction) || !tags.has(t)) continue;
    os << (first ? "" : ", ") << to_string(t);
    first = false;
  }
  return os << "}";
}

}  // namespace lz
