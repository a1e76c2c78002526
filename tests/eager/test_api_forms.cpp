// The generated forms of one operator (scripts/gen_operator_api.py) run the
// same operator: a method against its free function, an in-place form against
// the functional one, and the argument forms only the generator's type
// mapping gives (braced dim lists, TensorOptions, outs first). The operators
// themselves are tested by the operator table.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

namespace {

using lz::Tensor;

Tensor ints() { return lz::arange(-4, 8, lz::kInt64).view({3, 4}); }
Tensor floats() { return lz::arange(-2.0, 4.0, 0.5, lz::kFloat32).view({3, 4}); }

TEST_CASE("api forms: a method runs its operator's free function", "[eager]") {
  const Tensor x = ints();
  const Tensor f = floats();
  CHECK(lz::equal(x.bitwise_and(6), lz::bitwise_and(x, 6)));
  CHECK(lz::equal(x.bitwise_or(1), lz::bitwise_or(x, 1)));
  CHECK(lz::equal(x.bitwise_xor(3), lz::bitwise_xor(x, 3)));
  CHECK(lz::equal(f.clamp_min(lz::zeros({4})), lz::clamp_min(f, lz::zeros({4}))));
  CHECK(lz::equal(f.clamp_max(lz::ones({4})), lz::clamp_max(f, lz::ones({4}))));
  CHECK(lz::equal(f.where(f > 0, 2.0), lz::where(f > 0, f, 2.0)));
  CHECK(lz::equal(x.div(3, "floor"), lz::div(x, 3, "floor")));
  CHECK(lz::equal(x.gather(1, lz::zeros({3, 1}, lz::kInt64)), lz::gather(x, 1, lz::zeros({3, 1}, lz::kInt64))));
  CHECK(lz::equal(f.contiguous(), f));
  CHECK(lz::equal(f.expand({2, 3, 4}), lz::expand(f, {2, 3, 4})));
}

TEST_CASE("api forms: in-place forms write what the functional form returns, into self", "[eager]") {
  const Tensor x = ints();
  const Tensor f = floats();
  Tensor a = x.clone();
  CHECK(&a.bitwise_and_(6) == &a);
  CHECK(lz::equal(a, lz::bitwise_and(x, 6)));
  Tensor b = x.clone();
  CHECK(&lz::bitwise_or_(b, lz::ones({4}, lz::kInt64)) == &b);
  CHECK(lz::equal(b, lz::bitwise_or(x, lz::ones({4}, lz::kInt64))));
  Tensor c = x.clone();
  c.div_(3, "floor");
  CHECK(lz::equal(c, lz::div(x, 3, "floor")));
  const Tensor end = lz::ones({3, 4});
  const Tensor weight = lz::full({4}, 0.25);
  Tensor d = f.clone();
  CHECK(&d.lerp_(end, weight) == &d);
  CHECK(lz::equal(d, lz::lerp(f, end, weight)));
  Tensor e = f.clone();
  CHECK(&lz::lerp_(e, end, 0.5) == &e);
  CHECK(lz::equal(e, lz::lerp(f, end, 0.5)));
  Tensor g = f.clone();
  g.clamp_(std::optional<Tensor>(lz::zeros({4})), std::optional<Tensor>(lz::ones({4})));
  CHECK(lz::equal(g, lz::clamp(f, 0, 1)));
}

TEST_CASE("api forms: argument forms of the generated type mapping", "[eager]") {
  const Tensor x = ints();  // [[-4 -3 -2 -1] [0 1 2 3] [4 5 6 7]]
  const Tensor f = floats();
  // A dim list as a braced list, a vector, or nullopt (everything).
  CHECK(lz::equal(x.sum({0}), lz::tensor<int64_t>({0, 3, 6, 9})));
  CHECK(lz::equal(lz::sum(x, std::vector<int64_t>{1}, true), lz::tensor<int64_t>({{-10}, {6}, {22}})));
  CHECK(lz::equal(lz::mean(f, {0, 1}), lz::mean(f)));
  CHECK(lz::equal(lz::var(f, lz::OptionalIntArrayRef(std::nullopt)), lz::var(f)));
  CHECK(lz::equal(f.var({1}), lz::var(f, lz::IntArrayRef({1}))));
  // dtype, device and memory format as one TensorOptions.
  CHECK(lz::_to_copy(f, lz::kFloat64).dtype() == lz::kFloat64);
  CHECK(lz::empty({2, 3}, lz::TensorOptions(lz::kInt32).memory_format(lz::MemoryFormat::Contiguous)).dtype() ==
        lz::kInt32);
  // Outs first; several outs come back as references to them.
  Tensor n = lz::empty({0});
  CHECK(&lz::norm_out(n, f) == &n);
  CHECK(lz::equal(n, lz::norm(f)));
  Tensor values = lz::empty({0}, lz::kInt64);
  Tensor indices = lz::empty({0}, lz::kInt64);
  auto [v, i] = lz::max_out(values, indices, x, 1);
  CHECK(&v == &values);
  CHECK(&i == &indices);
  CHECK(lz::equal(values, lz::tensor<int64_t>({-1, 3, 7})));
  CHECK(lz::equal(indices, lz::tensor<int64_t>({3, 3, 3})));
}

}  // namespace
