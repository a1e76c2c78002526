// Shape and data-movement operators: what the operator table does not
// express. Views returned by split/chunk alias their input, results do not
// depend on the thread count, duplicate scatter indices resolve in index
// order, in-place forms write through views, failed calls leave their
// destination untouched, and every operator with a CPU kernel has a meta
// function that predicts its results (the coming Lazy key relies on it).
#include <numeric>

#include "core/dispatcher.h"
#include "core/parallel.h"
#include "test_util.h"

using namespace lz;
using lzt::int_values;
using lzt::make_tensor;
using lzt::values;

namespace {

// Runs f with n threads, restoring the previous count.
template <class F>
auto with_threads(int n, F f) {
  const int before = get_num_threads();
  set_num_threads(n);
  try {
    auto r = f();
    set_num_threads(before);
    return r;
  } catch (...) {
    set_num_threads(before);
    throw;
  }
}

Tensor iota(IntArrayRef sizes, ScalarType dtype = kFloat32) {
  std::vector<double> v(static_cast<size_t>(lzt::numel_of(sizes)));
  std::iota(v.begin(), v.end(), 0.0);
  return make_tensor(v, sizes, dtype);
}

Tensor longs(const std::vector<double>& v, IntArrayRef sizes) { return make_tensor(v, sizes, kInt64); }

bool shares_storage(const Tensor& a, const Tensor& b) {
  return a.unsafe_get_impl()->storage() == b.unsafe_get_impl()->storage();
}

}  // namespace

TEST_CASE("split and chunk return views that write through to self", "[eager][shape]") {
  Tensor x = iota({6, 2});
  const std::vector<Tensor> parts = x.split(4);
  REQUIRE(parts.size() == 2);
  CHECK_SHAPE(parts[0], {4, 2});
  CHECK_SHAPE(parts[1], {2, 2});
  CHECK(parts[1].storage_offset() == 8);
  for (const Tensor& p : parts) CHECK(shares_storage(p, x));
  Tensor last = parts[1];
  const uint64_t v0 = x._version();
  last.fill_(-1);
  CHECK(x._version() == v0 + 1);  // one version counter for base and views
  CHECK(values(x) == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1, -1});

  const std::vector<Tensor> cols = x.chunk(2, 1);
  REQUIRE(cols.size() == 2);
  CHECK_STRIDES(cols[1], {2, 1});
  CHECK(cols[1].storage_offset() == 1);
  Tensor c = cols[1];
  c.fill_(9);
  CHECK(values(x) == std::vector<double>{0, 9, 2, 9, 4, 9, 6, 9, -1, 9, -1, 9});

  const std::vector<Tensor> sized = lz::split(x, {1, 0, 5}, 0);
  REQUIRE(sized.size() == 3);
  CHECK_SHAPE(sized[1], {0, 2});
  CHECK(sized[2].storage_offset() == 2);
}

TEST_CASE("chunk returns fewer pieces when the size does not divide", "[eager][shape]") {
  // PyTorch: 5 elements in 4 chunks are pieces of ceil(5 / 4) = 2: three of them.
  const std::vector<Tensor> pieces = lz::chunk(iota({5}), 4);
  REQUIRE(pieces.size() == 3);
  CHECK(values(pieces[2]) == std::vector<double>{4});
  // An empty dim gives `chunks` empty pieces.
  CHECK(lz::chunk(iota({0, 3}), 3).size() == 3);
  CHECK(lz::chunk(iota({6}), 3).size() == 3);
}

TEST_CASE("cat and stack results do not depend on the thread count", "[eager][shape][threads]") {
  // Shapes whose byte ranges split across chunks in the middle of rows.
  const Tensor a = iota({30000, 7}), b = iota({30000, 9}, kFloat64), c = iota({30000, 1});
  auto run = [&] {
    return std::vector<Tensor>{lz::cat({a, b, c}, 1), lz::cat({a.t(), c.t()}, 0), lz::stack({a, a}, 1),
                               lz::cat({a, b.to(kFloat32), c}, 1),
                               lz::index_select(a, 0, longs({29999, 0, 5, 5}, {4}))};
  };
  const std::vector<Tensor> one = with_threads(1, run);
  const std::vector<Tensor> many = with_threads(std::max(2, get_num_threads()), run);
  for (size_t i = 0; i < one.size(); ++i) CHECK(lzt::same_values(one[i], many[i]) == "");
  CHECK(one[0].dtype() == kFloat64);
  // Row 12345 of the first: a's 7 values, b's 9, c's 1.
  const std::vector<double> row = values(one[0].select(0, 12345));
  CHECK(row[0] == 12345 * 7);
  CHECK(row[7] == 12345 * 9);
  CHECK(row[16] == 12345);
  CHECK(lzt::same_values(one[3], one[0].to(kFloat32)) == "");
}

TEST_CASE("scatter with duplicate indices keeps the last write in index order", "[eager][shape][scatter]") {
  // Along dim 0, column j receives src[i][j] for i = 0, 1, 2, ... in order.
  const Tensor self = lz::zeros({2, 3});
  const Tensor index = longs({1, 0, 1, 1, 1, 0, 0, 1, 1}, {3, 3});
  const Tensor src = iota({3, 3});
  const Tensor r1 = with_threads(1, [&] { return self.scatter(0, index, src); });
  // Column 0: rows 1, 1, 0 get 0, 3, 6 -> row1 = 3, row0 = 6.
  // Column 1: rows 0, 1, 1 get 1, 4, 7 -> row0 = 1, row1 = 7.
  // Column 2: rows 1, 0, 1 get 2, 5, 8 -> row0 = 5, row1 = 8.
  CHECK(values(r1) == std::vector<double>{6, 1, 5, 3, 7, 8});
  // Many columns, many threads: the same rule.
  const int64_t cols = 200000;
  std::vector<double> idx(static_cast<size_t>(2 * cols), 0);  // both rows write row 0
  const Tensor big_index = longs(idx, {2, cols});
  const Tensor big_src = iota({2, cols});
  const Tensor big = with_threads(std::max(2, get_num_threads()),
                                  [&] { return lz::zeros({1, cols}).scatter(0, big_index, big_src); });
  const std::vector<double> got = values(big);
  bool last_wins = true;
  for (int64_t j = 0; j < cols; ++j) last_wins = last_wins && got[j] == static_cast<double>(cols + j);
  CHECK(last_wins);
}

TEST_CASE("a failed scatter_ leaves self unchanged", "[eager][shape][scatter][errors]") {
  Tensor self = iota({3});
  const uint64_t v0 = self._version();
  REQUIRE_THROWS_AS(self.scatter_(0, longs({0, 7}, {2}), lz::ones({2})), IndexError);
  CHECK(values(self) == std::vector<double>{0, 1, 2});
  CHECK(self._version() == v0);
  REQUIRE_THROWS_WITH(self.scatter_(0, longs({0, 7}, {2}), 5.0),
                      Catch::Contains("[scatter] index 7 is out of bounds for dimension 0 with size 3"));
  CHECK(values(self) == std::vector<double>{0, 1, 2});
}

TEST_CASE("in-place forms write through views into their base", "[eager][shape]") {
  Tensor base = lz::ones({3, 4});
  Tensor view = base.slice(1, 1);  // [3, 3], not contiguous
  view.triu_(1);
  CHECK(values(base) == std::vector<double>{1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0});
  Tensor t = lz::ones({3, 3}).t();
  t.tril_();
  CHECK(values(t) == std::vector<double>{1, 0, 0, 1, 1, 0, 1, 1, 1});

  Tensor target = lz::zeros({2, 5});
  Tensor col = target.select(1, 2);  // [2], stride 5
  col.scatter_(0, longs({1}, {1}), 4.0);
  CHECK(values(target) == std::vector<double>{0, 0, 0, 0, 0, 0, 0, 4, 0, 0});
}

TEST_CASE("out= forms cast into the out dtype and reject what cannot be cast", "[eager][shape][out]") {
  Tensor out = lz::empty({0}, kFloat64);
  lz::cat_out(out, {iota({2}, kInt32), iota({1}, kInt32)}, 0);
  CHECK(out.dtype() == kFloat64);
  CHECK(values(out) == std::vector<double>{0, 1, 0});
  Tensor small = lz::empty({0}, kInt32);
  REQUIRE_THROWS_AS(lz::cat_out(small, {iota({2}), iota({1})}, 0), TypeError);
  // A wrongly sized out is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  Tensor wrong = lz::empty({5});
  lz::flip_out(wrong, iota({3}), {0});
  CHECK(values(wrong) == std::vector<double>{2, 1, 0});
  CHECK(warnings.size() == 1);
  // An out= tensor that is one of the inputs: the result is still right.
  Tensor x = iota({4});
  lz::flip_out(x, x, {0});
  CHECK(values(x) == std::vector<double>{3, 2, 1, 0});
}

TEST_CASE("cat promotes types and skips legacy empty tensors", "[eager][shape]") {
  const Tensor r = lz::cat({lz::tensor({1, 2}, kUInt8), lz::tensor({true}), lz::tensor({-1.5}, kFloat16)});
  CHECK(r.dtype() == kFloat16);
  CHECK(values(r) == std::vector<double>{1, 2, 1, -1.5});
  // A 1-D empty float64 tensor is skipped for shapes but still promotes.
  const Tensor m = lz::cat({lz::empty({0}, kFloat64), lz::ones({2, 2}, kInt32)}, 1);
  CHECK_SHAPE(m, {2, 2});
  CHECK(m.dtype() == kFloat64);
  REQUIRE_THROWS_WITH(lz::cat({lz::ones({2, 2}), lz::ones({3, 3})}, 1),
                      Catch::Contains("Expected size 2 but got size 3 for tensor number 1"));
}

TEST_CASE("index_select with int32 and int64 indices and bounds errors", "[eager][shape][index]") {
  const Tensor x = iota({3, 4});
  for (ScalarType it : {kInt32, kInt64}) {
    const Tensor idx = make_tensor({2, 0, 2}, {3}, it);
    CHECK(values(lz::index_select(x, 0, idx)) ==
          std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11});
    CHECK(values(x.index_select(1, idx)) == std::vector<double>{2, 0, 2, 6, 4, 6, 10, 8, 10});
  }
  REQUIRE_THROWS_AS(lz::index_select(lz::zeros({3}), 0, longs({5}, {1})), IndexError);
  REQUIRE_THROWS_WITH(lz::index_select(lz::zeros({3}), 0, longs({5}, {1})),
                      Catch::Contains("index 5 is out of bounds for dimension 0 with size 3"));
  // gather reads along dim with an index of its own shape.
  CHECK(values(x.gather(1, longs({3, 0, 1, 1}, {2, 2}))) == std::vector<double>{3, 0, 5, 5});
}

TEST_CASE("pad crops with negative pads and names unsupported modes", "[eager][shape][pad]") {
  const Tensor x = iota({2, 3});
  const Tensor p = lz::pad(x, {1, -1}, "constant", 9);
  CHECK_SHAPE(p, {2, 3});
  CHECK(values(p) == std::vector<double>{9, 0, 1, 9, 3, 4});
  CHECK(values(lz::pad(x, {0, 0, -1, 0})) == std::vector<double>{3, 4, 5});
  REQUIRE_THROWS_AS(lz::pad(x, {1, 1}, "replicate"), NotImplementedError);
  REQUIRE_THROWS_WITH(lz::pad(x, {1, 1}, "replicate"), Catch::Contains("'replicate'"));
}

TEST_CASE("flip, repeat and triangles of 0-size and 0-dim tensors", "[eager][shape]") {
  CHECK(lz::flip(lz::scalar_tensor(3.0), {}).item<double>() == 3.0);
  CHECK(lz::flip(lz::scalar_tensor(3.0), {0}).item<double>() == 3.0);
  CHECK_SHAPE(lz::repeat(lz::scalar_tensor(2.0), {2, 3}), {2, 3});
  CHECK(values(lz::repeat(lz::scalar_tensor(2.0), {2, 3})) == std::vector<double>(6, 2.0));
  CHECK_SHAPE(lz::repeat(lz::zeros({2, 0}), {3, 4}), {6, 0});
  CHECK_SHAPE(lz::triu(lz::zeros({0, 5})), {0, 5});
  // A diagonal beyond the matrix keeps everything (tril) or nothing (triu).
  CHECK(values(lz::tril(lz::ones({2, 2}), int64_t{1} << 62)) == std::vector<double>{1, 1, 1, 1});
  CHECK(values(lz::triu(lz::ones({2, 2}), int64_t{1} << 62)) == std::vector<double>{0, 0, 0, 0});
  CHECK(values(lz::triu(lz::ones({2, 2}), -(int64_t{1} << 62))) == std::vector<double>{1, 1, 1, 1});
}

TEST_CASE("shape operators with a CPU kernel have meta functions that predict the result",
          "[eager][shape][meta]") {
  const Tensor x = iota({3, 4});
  const Tensor idx = longs({2, 0}, {2});
  const Tensor idx2 = longs({2, 0, 1, 1}, {2, 2});
  struct Call {
    const char* op;
    Stack args;
  };
  const std::vector<Call> calls = {
      {"cat", {IValue(std::vector<Tensor>{x, iota({3, 2}, kInt32)}), IValue(int64_t{1})}},
      {"stack", {IValue(std::vector<Tensor>{x, x}), IValue(int64_t{-1})}},
      {"index_select", {IValue(x), IValue(int64_t{1}), IValue(idx)}},
      {"gather", {IValue(x), IValue(int64_t{0}), IValue(idx2), IValue(false)}},
      {"scatter.src", {IValue(x), IValue(int64_t{0}), IValue(idx2), IValue(x)}},
      {"scatter.value", {IValue(x), IValue(int64_t{0}), IValue(idx2), IValue(1.5)}},
      {"triu", {IValue(x), IValue(int64_t{1})}},
      {"tril", {IValue(x), IValue(int64_t{-1})}},
      {"flip", {IValue(x), IValue(std::vector<int64_t>{0, 1})}},
      {"repeat", {IValue(x), IValue(std::vector<int64_t>{2, 1, 3})}},
      {"constant_pad_nd", {IValue(x), IValue(std::vector<int64_t>{1, 2, -1, 0}), IValue(0.5)}},
      {"linspace", {IValue(0.0), IValue(1.0), IValue(int64_t{7}), IValue(kFloat64), IValue(std::nullopt),
                    IValue(std::nullopt), IValue(std::nullopt)}},
      {"eye.m", {IValue(int64_t{2}), IValue(int64_t{5}), IValue(kInt32), IValue(std::nullopt),
                 IValue(std::nullopt), IValue(std::nullopt)}},
  };
  for (const Call& call : calls) {
    INFO(call.op);
    const OperatorHandle op = Dispatcher::singleton().find_or_throw(call.op);
    REQUIRE(op.has_kernel(DispatchKey::CPU));
    REQUIRE(op.has_meta());
    const MetaList predicted = op.meta(call.args);
    Stack stack = call.args;
    op.call_boxed(&stack);
    REQUIRE(stack.size() == 1);
    REQUIRE(predicted.size() == 1);
    CHECK(predicted[0] == meta_of(stack[0].to_tensor()));
    if (op.out_variant()) CHECK(op.out_variant()->has_meta());
    if (op.inplace_variant()) CHECK(op.inplace_variant()->has_meta());
  }
  // split / chunk / pad are composites of view and padding operators.
  for (const char* name : {"split.Tensor", "split_with_sizes", "chunk", "pad"}) {
    INFO(name);
    CHECK(Dispatcher::singleton().find_or_throw(name).has_tag(Tag::Composite));
  }
  // Factories pick their backend from the device argument.
  for (const char* name : {"linspace", "eye", "eye.m"}) {
    INFO(name);
    CHECK(Dispatcher::singleton().find_or_throw(name).has_kernel(DispatchKey::BackendSelect));
  }
}
