#include <sstream>
#include <stdexcept>

#include "tests/op_table/op_info.h"

namespace lzt {

const lz::IValue& SampleInput::arg(const std::string& name) const {
  auto it = kwargs.find(name);
  if (it == kwargs.end()) throw std::out_of_range("sample '" + description + "' has no argument '" + name + "'");
  return it->second;
}

std::string SampleInput::str() const {
  std::ostringstream os;
  os << "'" << description << "':";
  for (const lz::Tensor& t : tensors) {
    os << " " << lz::to_string(t.dtype()) << lz::shape_str(t.sizes());
    if (!t.is_contiguous()) os << " strides " << lz::shape_str(t.strides());
  }
  for (const auto& [name, value] : kwargs) os << " " << name << "=" << value.repr();
  return os.str();
}

Tolerance default_tolerance(lz::ScalarType result) {
  switch (result) {
    case lz::kFloat16: return {2e-3, 1e-5};
    case lz::kBFloat16: return {1.6e-2, 1e-4};
    case lz::kFloat32: return {4e-6, 1e-7};
    case lz::kFloat64: return {1e-12, 1e-15};
    default: return {0, 0};
  }
}

const std::vector<OpInfo>& op_table() {
  static const std::vector<OpInfo> table = [] {
    std::vector<OpInfo> t;
    add_unary_ops(t);
    add_binary_ops(t);
    add_reduction_ops(t);
    add_shape_ops(t);
    add_factory_ops(t);
    add_linalg_ops(t);
    add_nn_ops(t);
    return t;
  }();
  return table;
}

const OpInfo& find_op(const std::string& name) {
  for (const OpInfo& op : op_table()) {
    if (op.name == name) return op;
  }
  throw std::out_of_range("no operator table entry named '" + name + "'");
}

}  // namespace lzt
