#include "tests/op_table/op_runner.h"

#include <typeinfo>

#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

std::string describe(const std::exception& e) {
  return std::string(typeid(e).name()) + ": " + e.what();
}

// Expected values stored into a tensor of another dtype (in-place/out= casts).
Expected stored_as(const Expected& e, lz::ScalarType dtype) {
  Expected out{e.sizes, dtype, {}};
  for (double v : e.values) out.values.push_back(as_stored(dtype, v));
  return out;
}

lz::Tensor empty_out(const Expected& e, bool transposed) {
  const int64_t nd = static_cast<int64_t>(e.sizes.size());
  if (!transposed || nd < 2) return lz::empty(e.sizes, e.dtype);
  lz::SizeVec swapped = e.sizes;
  std::swap(swapped[nd - 1], swapped[nd - 2]);
  return lz::empty(swapped, e.dtype).transpose(nd - 1, nd - 2);
}

}  // namespace

Tolerance tolerance_of(const OpInfo& op, lz::ScalarType result) {
  return op.tolerance ? op.tolerance(result) : default_tolerance(result);
}

std::string compare_outputs(const OpInfo& op, const std::vector<lz::Tensor>& actual,
                            const std::vector<Expected>& expected) {
  if (actual.size() != expected.size()) {
    return std::to_string(actual.size()) + " outputs, expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const std::string which = actual.size() > 1 ? "output " + std::to_string(i) + ": " : "";
    const lz::Tensor& a = actual[i];
    const Expected& e = expected[i];
    if (!a.defined()) return which + "undefined tensor";
    if (a.sizes() != lz::IntArrayRef(e.sizes)) {
      return which + "shape " + lz::shape_str(a.sizes()) + ", expected " + lz::shape_str(e.sizes);
    }
    if (a.dtype() != e.dtype) {
      return which + "dtype " + std::string(lz::to_string(a.dtype())) + ", expected " +
             std::string(lz::to_string(e.dtype));
    }
    const Tolerance tol = tolerance_of(op, e.dtype);
    const std::string m = mismatch(values(a), e.values, tol.rtol, tol.atol);
    if (!m.empty()) return which + m;
  }
  return "";
}

std::string run_functional(const OpInfo& op, const SampleInput& sample) {
  std::vector<lz::Tensor> results;
  try {
    results = op.op(sample);
  } catch (const std::exception& e) {
    return "threw " + describe(e);
  }
  if (op.check) return op.check(sample, results);
  return compare_outputs(op, results, op.reference(sample));
}

std::string run_inplace(const OpInfo& op, const SampleInput& sample) {
  if (!op.inplace || sample.tensors.empty()) return "";
  const Expected expected = op.reference(sample).at(0);
  lz::Tensor self = sample[0].clone();
  SampleInput with_self = sample;
  with_self.tensors[0] = self;
  const bool fits = self.sizes() == lz::IntArrayRef(expected.sizes);
  const bool castable = lz::can_cast(expected.dtype, self.dtype());
  const uint64_t version = self._version();
  try {
    op.inplace(self, with_self);
  } catch (const lz::ShapeError& e) {
    return fits ? "in-place threw " + describe(e) : "";
  } catch (const lz::TypeError& e) {
    return fits && !castable ? "" : "in-place threw " + describe(e);
  } catch (const std::exception& e) {
    return "in-place threw " + describe(e);
  }
  if (!fits) {
    return "in-place: expected a ShapeError writing a " + lz::shape_str(expected.sizes) +
           " result into self " + lz::shape_str(self.sizes());
  }
  if (!castable) {
    return "in-place: expected a TypeError writing a " + std::string(lz::to_string(expected.dtype)) +
           " result into " + std::string(lz::to_string(self.dtype()));
  }
  if (self.numel() > 0 && self._version() == version) return "in-place: version counter unchanged";
  const std::string m = compare_outputs(op, {self}, {stored_as(expected, self.dtype())});
  return m.empty() ? "" : "in-place: " + m;
}

std::string run_out(const OpInfo& op, const SampleInput& sample) {
  if (!op.out) return "";
  const std::vector<Expected> expected = op.reference(sample);
  for (bool transposed : {false, true}) {
    std::vector<lz::Tensor> outs;
    for (const Expected& e : expected) {
      outs.push_back(transposed ? empty_out(e, true) : lz::empty({0}, e.dtype));
    }
    try {
      op.out(outs, sample);
    } catch (const std::exception& e) {
      return std::string("out= (") + (transposed ? "transposed" : "empty") + ") threw " + describe(e);
    }
    const std::string m = compare_outputs(op, outs, expected);
    if (!m.empty()) return std::string("out= (") + (transposed ? "transposed" : "empty") + "): " + m;
  }
  return "";
}

std::string run_error(const OpInfo& op, const ErrorInput& error) {
  try {
    op.op(error.input);
  } catch (const std::exception& e) {
    if (!error.is_type(e)) return "expected " + error.type_name + ", got " + describe(e);
    if (std::string(e.what()).find(error.message) == std::string::npos) {
      return "message \"" + std::string(e.what()) + "\" lacks \"" + error.message + "\"";
    }
    return "";
  }
  return "expected " + error.type_name + " (\"" + error.message + "\"), nothing was thrown";
}

std::function<std::string(const SampleInput&, const std::vector<lz::Tensor>&)> values_only_check(const OpInfo& op) {
  if (!op.check) return nullptr;
  return [check = op.check](const SampleInput& s, const std::vector<lz::Tensor>& outs) -> std::string {
    const std::string m = check(s, outs);
    const bool about_storage = m.find("aliases the input") != std::string::npos ||
                               m.find("is not a view of the input") != std::string::npos ||
                               m.find("expected the input itself") != std::string::npos;
    return about_storage ? "" : m;
  };
}

}  // namespace lzt
