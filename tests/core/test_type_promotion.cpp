#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <vector>

#include "core/empty_tensor.h"
#include "core/type_promotion.h"

using namespace lz;

namespace {
Tensor dimmed(ScalarType t) { return lz::zeros({3}, t); }
Tensor zero_dim(ScalarType t) { return lz::zeros({}, t); }
}  // namespace

TEST_CASE("result_type: operands of the same rank promote normally", "[core]") {
  CHECK(result_type(dimmed(kInt32), dimmed(kInt64)) == kInt64);
  CHECK(result_type(dimmed(kUInt8), dimmed(kInt32)) == kInt32);
  CHECK(result_type(dimmed(kFloat16), dimmed(kBFloat16)) == kFloat32);
  CHECK(result_type(dimmed(kBool), dimmed(kBool)) == kBool);
  CHECK(result_type(dimmed(kInt64), dimmed(kFloat16)) == kFloat16);
  CHECK(result_type(zero_dim(kInt64), zero_dim(kFloat32)) == kFloat32);
  CHECK(result_type(zero_dim(kInt32), zero_dim(kFloat64)) == kFloat64);
  CHECK(result_type(zero_dim(kUInt8), zero_dim(kInt32)) == kInt32);
}

TEST_CASE("result_type: a 0-dim tensor only matters when its category is higher", "[core]") {
  CHECK(result_type(dimmed(kInt32), zero_dim(kInt64)) == kInt32);
  CHECK(result_type(zero_dim(kInt64), dimmed(kInt32)) == kInt32);  // order does not matter
  CHECK(result_type(dimmed(kUInt8), zero_dim(kInt64)) == kUInt8);
  CHECK(result_type(dimmed(kFloat16), zero_dim(kFloat64)) == kFloat16);
  CHECK(result_type(dimmed(kBFloat16), zero_dim(kFloat32)) == kBFloat16);
  CHECK(result_type(dimmed(kFloat32), zero_dim(kInt64)) == kFloat32);
  // Higher category: the 0-dim dtype takes part at full width.
  CHECK(result_type(dimmed(kInt32), zero_dim(kFloat64)) == kFloat64);
  CHECK(result_type(dimmed(kInt64), zero_dim(kFloat16)) == kFloat16);
  CHECK(result_type(dimmed(kBool), zero_dim(kInt32)) == kInt32);
  CHECK(result_type(dimmed(kBool), zero_dim(kUInt8)) == kUInt8);
}

TEST_CASE("result_type: wrapped numbers act like Python scalars", "[core]") {
  const Tensor two_and_half = wrapped_scalar_tensor(2.5);
  const Tensor three_hundred = wrapped_scalar_tensor(300);
  const Tensor one = wrapped_scalar_tensor(1);
  const Tensor yes = wrapped_scalar_tensor(true);
  CHECK(result_type(dimmed(kInt32), two_and_half) == kFloat32);  // default float, not float64
  CHECK(result_type(dimmed(kUInt8), three_hundred) == kUInt8);
  CHECK(result_type(dimmed(kBool), one) == kInt64);
  CHECK(result_type(dimmed(kBool), two_and_half) == kFloat32);
  CHECK(result_type(dimmed(kFloat16), two_and_half) == kFloat16);
  CHECK(result_type(dimmed(kBFloat16), one) == kBFloat16);
  CHECK(result_type(dimmed(kInt32), yes) == kInt32);
  CHECK(result_type(dimmed(kBool), yes) == kBool);
  CHECK(result_type(dimmed(kFloat64), two_and_half) == kFloat64);
  // 0-dim tensors outrank wrapped numbers.
  CHECK(result_type(zero_dim(kInt32), one) == kInt32);
  CHECK(result_type(zero_dim(kFloat16), two_and_half) == kFloat16);
  CHECK(result_type(zero_dim(kInt64), two_and_half) == kFloat32);
  // Wrapped numbers alone.
  CHECK(result_type(one, two_and_half) == kFloat32);
  CHECK(result_type(one, yes) == kInt64);
  // The same through the Scalar overload.
  CHECK(result_type(dimmed(kInt32), Scalar(2.5)) == kFloat32);
  CHECK(result_type(dimmed(kUInt8), Scalar(300)) == kUInt8);
  CHECK(result_type(dimmed(kBool), Scalar(1)) == kInt64);
  CHECK(result_type(dimmed(kFloat16), Scalar(2.5)) == kFloat16);
  CHECK(result_type(dimmed(kInt64), Scalar(true)) == kInt64);
  CHECK(result_type(zero_dim(kInt32), Scalar(int64_t{1} << 40)) == kInt32);
}

TEST_CASE("result_type over many operands", "[core]") {
  const std::vector<Tensor> a = {dimmed(kInt32), zero_dim(kInt64), wrapped_scalar_tensor(2.5)};
  CHECK(result_type(a) == kFloat32);
  const std::vector<Tensor> b = {dimmed(kInt32), zero_dim(kFloat64), wrapped_scalar_tensor(2.5)};
  CHECK(result_type(b) == kFloat64);
  const std::vector<Tensor> c = {dimmed(kUInt8), zero_dim(kBool), wrapped_scalar_tensor(7)};
  CHECK(result_type(c) == kUInt8);
  const std::vector<Tensor> d = {dimmed(kBool), zero_dim(kInt32), wrapped_scalar_tensor(1.5)};
  CHECK(result_type(d) == kFloat32);
  const std::vector<Tensor> e = {dimmed(kInt32), dimmed(kUInt8), zero_dim(kFloat16)};
  CHECK(result_type(e) == kFloat16);
  // Undefined tensors (optional arguments) are skipped.
  const std::vector<Tensor> f = {Tensor(), dimmed(kInt32), Tensor()};
  CHECK(result_type(f) == kInt32);

  ResultTypeState state;
  state.add(dimmed(kInt32));
  state.add(Scalar(1));
  CHECK(state.result() == kInt32);
  state.add(Scalar(0.5));
  CHECK(state.result() == kFloat32);
  state.add(zero_dim(kFloat64));
  CHECK(state.result() == kFloat64);
  CHECK(ResultTypeState().result() == ScalarType::Undefined);
}

TEST_CASE("result_type agrees with the dtype binary ops compute in", "[core]") {
  CHECK((lz::ones({3}, kInt32) + 2.5).dtype() == kFloat32);
  CHECK((lz::ones({3}, kUInt8) + 300).dtype() == kUInt8);
  CHECK((lz::ones({3}, kBool) + 1).dtype() == kInt64);
  CHECK((lz::ones({3}, kFloat16) * 2.5).dtype() == kFloat16);
  CHECK((lz::ones({3}, kInt32) + lz::ones({}, kInt64)).dtype() == kInt32);
  CHECK((lz::ones({}, kInt64) + lz::ones({}, kFloat32)).dtype() == kFloat32);
}
