#include "tests/op_table/entry_builders.h"

#include "tests/op_table/reference.h"

namespace lzt {

OpInfo unary_entry(std::string name, std::vector<lz::ScalarType> dtypes, UnaryFns fns,
                   std::function<double(double)> reference, ResultRule result, Domain domain) {
  OpInfo op;
  op.name = std::move(name);
  op.dtypes = std::move(dtypes);
  op.samples = [domain](lz::ScalarType t) { return unary_samples(t, domain); };
  op.op = [f = fns.op](const SampleInput& s) { return std::vector<lz::Tensor>{f(s[0])}; };
  op.reference = [reference, result](const SampleInput& s) {
    return std::vector<Expected>{map_reference(s[0], result(s[0].dtype()), reference)};
  };
  if (fns.inplace) op.inplace = [f = fns.inplace](lz::Tensor& self, const SampleInput&) { f(self); };
  if (fns.out) {
    op.out = [f = fns.out](std::vector<lz::Tensor>& outs, const SampleInput& s) { f(outs[0], s[0]); };
  }
  return op;
}

OpInfo binary_entry(std::string name, std::vector<lz::ScalarType> dtypes, BinaryFns fns,
                    std::function<double(double, double)> reference, ResultRule result, Domain a,
                    Domain b) {
  OpInfo op;
  op.name = std::move(name);
  op.dtypes = dtypes;
  op.samples = [a, b, dtypes](lz::ScalarType t) {
    std::vector<SampleInput> samples = binary_samples(t, a, b);
    uint32_t seed = 500;
    for (lz::ScalarType other : dtypes) {
      if (other == t) continue;
      samples.push_back(SampleInput{{domain_tensor({2, 3}, t, seed, a), domain_tensor({3}, other, seed + 1, b)},
                                    {},
                                    "promotion with " + std::string(lz::to_string(other))});
      seed += 2;
    }
    return samples;
  };
  op.op = [f = fns.op](const SampleInput& s) { return std::vector<lz::Tensor>{f(s[0], s[1])}; };
  op.reference = [reference, result](const SampleInput& s) {
    return std::vector<Expected>{
        map_reference(s[0], s[1], result(lz::promote_types(s[0].dtype(), s[1].dtype())), reference)};
  };
  if (fns.inplace) {
    op.inplace = [f = fns.inplace](lz::Tensor& self, const SampleInput& s) { f(self, s[1]); };
  }
  if (fns.out) {
    op.out = [f = fns.out](std::vector<lz::Tensor>& outs, const SampleInput& s) { f(outs[0], s[0], s[1]); };
  }
  return op;
}

}  // namespace lzt
