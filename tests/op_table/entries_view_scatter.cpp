// Table entry: as_strided_scatter, the functional form of writing through a
// view (the lazy layer records it for in-place writes into views). The
// reference writes src's elements at offset + sum(coord * stride) into
// self's row-major values.
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/shape_reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

SampleInput scatter_sample(Tensor self, std::vector<int64_t> size, std::vector<int64_t> stride, int64_t offset,
                           uint32_t seed, std::string description) {
  const Tensor src = domain_tensor(size, self.dtype(), seed);
  return SampleInput{{std::move(self), src},
                     {{"size", IValue(size)}, {"stride", IValue(stride)}, {"offset", IValue(offset)}},
                     std::move(description)};
}

std::vector<SampleInput> scatter_samples(ScalarType t) {
  const Tensor base = domain_tensor({3, 4}, t, 41);
  return {
      scatter_sample(base, {2, 2}, {4, 1}, 1, 42, "a 2x2 block"),
      scatter_sample(base, {4}, {3}, 0, 43, "every third element"),
      scatter_sample(domain_tensor({4, 3}, t, 44).t(), {3}, {1}, 2, 45, "transposed self"),
      scatter_sample(domain_tensor({1, 4}, t, 46).expand({3, 4}), {3}, {4}, 3, 47, "expanded self"),
      scatter_sample(domain_tensor({6}, t, 48), {}, {}, 5, 49, "0-dim src"),
      scatter_sample(domain_tensor({6}, t, 50), {0}, {1}, 0, 51, "0-size src"),
      scatter_sample(domain_tensor({300, 257}, t, 52), {300}, {257}, 7, 53, "a column of a large self"),
  };
}

std::vector<Expected> scatter_reference(const SampleInput& s) {
  std::vector<double> out = values(s[0]);
  const std::vector<double> src = values(s[1]);
  const lz::IntArrayRef size = s.int_list_arg("size");
  const lz::IntArrayRef stride = s.int_list_arg("stride");
  for (size_t flat = 0; flat < src.size(); ++flat) {
    const Coord c = unravel(static_cast<int64_t>(flat), size);
    int64_t k = s.int_arg("offset");
    for (size_t d = 0; d < c.size(); ++d) k += c[d] * stride[d];
    out[static_cast<size_t>(k)] = src[flat];
  }
  return {Expected{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), s[0].dtype(), out}};
}

SampleInput error_sample(Tensor self, Tensor src, std::vector<int64_t> size, std::vector<int64_t> stride,
                         std::string description) {
  return SampleInput{{std::move(self), std::move(src)},
                     {{"size", IValue(size)}, {"stride", IValue(stride)}, {"offset", IValue(int64_t{0})}},
                     std::move(description)};
}

}  // namespace

void add_view_scatter_ops(std::vector<OpInfo>& table) {
  OpInfo op;
  op.name = "as_strided_scatter";
  op.dtypes = all_types();
  op.samples = scatter_samples;
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::as_strided_scatter(s[0], s[1], s.int_list_arg("size"),
                                                      s.int_list_arg("stride"), s.int_arg("offset"))};
  };
  op.reference = scatter_reference;
  op.errors = [] {
    const Tensor self = lz::zeros({3, 4});
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, error_sample(self, lz::zeros({3}), {2}, {1}, "src shape differs from size"),
                         "[as_strided_scatter] src: shape [3] must equal size [2]"),
        LZT_EXPECT_ERROR(TypeError, error_sample(self, lz::zeros({2}, lz::kInt64), {2}, {1}, "src dtype differs"),
                         "[as_strided_scatter] src: dtype int64 must equal self's dtype float32"),
        LZT_EXPECT_ERROR(IndexError, error_sample(self, lz::zeros({4}), {4}, {4}, "past the end of self"),
                         "reaches element 12 of self with only 12 elements"),
    };
  };
  table.push_back(std::move(op));
}

}  // namespace lzt
