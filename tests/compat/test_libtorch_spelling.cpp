// Lazuli's promise to libtorch users: replace torch:: by lz:: and the code
// compiles. program() below is written as a libtorch user writes, from
// memory of libtorch: the only Lazuli line is the namespace alias, and `in`
// stands for wherever the program's inputs come from (eager tensors, or the
// same made lazy). It runs eagerly against values worked out by hand, and
// lazily against its eager run.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <lazuli/lazuli.h>

namespace torch = lz;
namespace F = torch::nn::functional;

namespace {

using Input = std::function<torch::Tensor(torch::Tensor)>;
using Results = std::map<std::string, torch::Tensor>;

// ---- The program: libtorch spelling only ------------------------------------------------

Results program(const Input& in) {
  Results r;
  torch::Tensor x = in(torch::arange(12, torch::kFloat).reshape({3, 4}));

  // Reductions over a single dim written as an int.
  r["sum(1)"] = x.sum(1);
  r["mean(-1)"] = x.mean(-1);
  r["sum(1, true)"] = x.sum(1, true);
  r["torch::sum(x, 0)"] = torch::sum(x, 0);
  r["amax(1)"] = x.amax(1);
  r["amin(0)"] = x.amin(0);
  r["logsumexp(1)"] = x.logsumexp(1);
  r["prod(1)"] = (x + 1).prod(1);
  r["var(1, false)"] = x.var(1, /*unbiased=*/false);
  r["var({1}, false)"] = x.var({1}, false);
  r["std(1)"] = x.std(1);
  r["var()"] = x.var();
  r["std(false)"] = x.std(false);
  r["argmax(1)"] = x.argmax(1);

  // Writing through an index.
  torch::Tensor rows = in(torch::zeros({3, 4}));
  rows[1] = torch::ones({4});
  rows[2] = 5;
  rows[0][3] = 7.5;
  r["rows"] = rows;

  // Elementwise functions and binary forms.
  r["floor_divide"] = torch::floor_divide(x, 5);
  r["x.floor_divide"] = x.floor_divide(in(torch::full({4}, 3.0)));
  r["max(a, b)"] = torch::max(x, x.flip({1}));
  r["min(a, b)"] = x.min(x.flip({1}));
  r["div floor"] = x.div(4, "floor");
  r["outer"] = torch::outer(in(torch::arange(3, torch::kFloat)), in(torch::arange(4, torch::kFloat)));
  r["fmod"] = torch::fmod(x - 6, 4);
  r["x.fmod(t)"] = (x - 6).fmod(in(torch::full({4}, -5.0)));
  r["einsum ij,jk->ik"] = torch::einsum("ij,jk->ik", {x, in(torch::ones({4, 2}))});
  r["einsum ii->i"] = torch::einsum("ii->i", {x.narrow(1, 0, 3)});
  r["einsum ...i->..."] = torch::einsum("...i->...", {x});
  r["dot"] = in(torch::arange(4, torch::kFloat)).dot(in(torch::ones({4})));
  r["clamp"] = x.clamp(2, 9);

  // Shapes and conversions.
  torch::Tensor like = in(torch::zeros({4, 3}));
  r["view_as"] = x.view_as(like);
  r["reshape_as"] = x.t().reshape_as(like);
  r["swapaxes"] = x.swapaxes(0, 1);
  r["squeeze({0, 2})"] = x.reshape({1, 12, 1}).squeeze({0, 2});
  r["type_as"] = x.type_as(in(torch::zeros({1}, torch::kDouble)));
  r["toType"] = x.toType(torch::kInt);
  r["to(kCPU)"] = x.to(torch::kCPU);
  r["to(kCPU, kDouble)"] = x.to(torch::kCPU, torch::kDouble);
  r["cpu"] = x.detach().cpu();
  std::vector<torch::Tensor> parts = x.unbind(1);
  r["unbind(1)[2]"] = parts.at(2);
  r["new_zeros"] = x.new_zeros({2});
  r["new_ones"] = x.new_ones({2}, torch::kLong);
  r["new_full"] = x.new_full({2}, 2.5);
  r["new_empty.sizes"] = torch::tensor(x.new_empty({2, 5}).sizes().vec());
  r["tensor(3.0)"] = torch::tensor(3.0);
  r["tensor(vector)"] = torch::tensor(std::vector<float>{1.5, 2.5});
  r["tensor({{...}})"] = torch::tensor({{1, 2}, {3, 4}});

  // The small integer dtypes: int8 wraps as two's complement, int16 sums to int64,
  // uint8 + int8 promotes to int16.
  r["kChar * 20"] = x.to(torch::kChar) * 20;
  r["kShort sum(1)"] = x.to(torch::kShort).sum(1);
  r["kByte + kInt8"] = x.to(torch::kByte) + x.to(torch::kInt8);

  // nn functional, with libtorch's options.
  torch::Tensor logits = in(torch::tensor({{1.0, 2.0, 0.5}, {0.0, -1.0, 3.0}}));
  torch::Tensor classes = in(torch::tensor({1, 2}));
  r["F::softmax"] = F::softmax(logits, F::SoftmaxFuncOptions(1));
  r["F::log_softmax"] = F::log_softmax(logits, F::LogSoftmaxFuncOptions(-1));
  r["F::cross_entropy"] = F::cross_entropy(logits, classes);
  r["F::mse_loss sum"] = F::mse_loss(logits, torch::zeros_like(logits), F::MSELossFuncOptions().reduction(torch::kSum));
  r["F::l1_loss"] = F::l1_loss(logits, torch::ones_like(logits));
  r["F::smooth_l1_loss"] = F::smooth_l1_loss(logits, torch::zeros_like(logits));
  r["F::binary_cross_entropy_with_logits"] =
      F::binary_cross_entropy_with_logits(logits, torch::ones_like(logits));
  r["F::binary_cross_entropy"] = F::binary_cross_entropy(torch::sigmoid(logits), torch::zeros_like(logits));
  r["F::leaky_relu"] = F::leaky_relu(logits, F::LeakyReLUFuncOptions().negative_slope(0.5));
  r["F::elu"] = F::elu(logits);
  r["F::softplus"] = F::softplus(logits);
  r["F::hardtanh"] = F::hardtanh(logits, F::HardtanhFuncOptions().min_val(0).max_val(1.5));
  r["F::relu"] = F::relu(logits);
  r["F::embedding"] = F::embedding(classes, x);
  r["F::layer_norm"] = F::layer_norm(logits, F::LayerNormFuncOptions({3}));

  // Numbers out.
  r["item"] = torch::tensor(x.sum().item().toFloat() + x.max().item<float>());
  return r;
}

// Draws, checked by their range (each run draws other numbers).
Results random_program(const Input& in) {
  Results r;
  torch::Tensor x = in(torch::zeros({64, 64}));
  r["rand_like"] = torch::rand_like(x);
  r["randint_like"] = torch::randint_like(x, 10);
  r["randint_like(low, high)"] = torch::randint_like(x, -3, 3);
  r["randint"] = torch::randint(10, {64, 64});
  r["randint(low, high) kChar"] = torch::randint(-3, 3, {64, 64}, torch::kChar);
  r["uniform_"] = in(torch::empty({64, 64})).uniform_(-2, 2);
  r["normal_"] = in(torch::empty({64, 64})).normal_(1, 0.5);
  r["bernoulli_"] = in(torch::empty({64, 64})).bernoulli_(0.25);
  return r;
}

// ---- The checks ------------------------------------------------------------------------

torch::Tensor eager(const torch::Tensor& t) { return t; }
torch::Tensor lazy(const torch::Tensor& t) { return t.to_lazy(); }

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor d = t.to_eager().to(torch::kDouble).contiguous().reshape({-1});
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

void check_values(const Results& r, const std::string& key, std::vector<int64_t> sizes, std::vector<double> expected) {
  INFO(key);
  const torch::Tensor& t = r.at(key);
  CHECK(t.sizes().vec() == sizes);
  const std::vector<double> got = values_of(t);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK_THAT(got[i], Catch::Matchers::WithinAbs(expected[i], 1e-4));
}

TEST_CASE("libtorch spelling: reductions over one int dim give known values") {
  const Results r = program(eager);
  check_values(r, "sum(1)", {3}, {6, 22, 38});
  check_values(r, "mean(-1)", {3}, {1.5, 5.5, 9.5});
  check_values(r, "sum(1, true)", {3, 1}, {6, 22, 38});
  check_values(r, "torch::sum(x, 0)", {4}, {12, 15, 18, 21});
  check_values(r, "amax(1)", {3}, {3, 7, 11});
  check_values(r, "amin(0)", {4}, {0, 1, 2, 3});
  const double lse = 3 + std::log(1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0));
  check_values(r, "logsumexp(1)", {3}, {lse, lse + 4, lse + 8});
  check_values(r, "prod(1)", {3}, {24, 1680, 11880});
  check_values(r, "var(1, false)", {3}, {1.25, 1.25, 1.25});
  check_values(r, "var({1}, false)", {3}, {1.25, 1.25, 1.25});
  const double s = std::sqrt(5.0 / 3);
  check_values(r, "std(1)", {3}, {s, s, s});
  check_values(r, "var()", {}, {13});
  check_values(r, "std(false)", {}, {std::sqrt(143.0 / 12)});
  check_values(r, "argmax(1)", {3}, {3, 3, 3});
}

TEST_CASE("libtorch spelling: assigning to an indexed tensor writes through") {
  const Results r = program(eager);
  check_values(r, "rows", {3, 4}, {0, 0, 0, 7.5, 1, 1, 1, 1, 5, 5, 5, 5});
}

TEST_CASE("libtorch spelling: functions and methods give known values") {
  const Results r = program(eager);
  check_values(r, "floor_divide", {3, 4}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2});
  check_values(r, "x.floor_divide", {3, 4}, {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3});
  check_values(r, "max(a, b)", {3, 4}, {3, 2, 2, 3, 7, 6, 6, 7, 11, 10, 10, 11});
  check_values(r, "min(a, b)", {3, 4}, {0, 1, 1, 0, 4, 5, 5, 4, 8, 9, 9, 8});
  check_values(r, "div floor", {3, 4}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
  check_values(r, "outer", {3, 4}, {0, 0, 0, 0, 0, 1, 2, 3, 0, 2, 4, 6});
  check_values(r, "dot", {}, {6});
  check_values(r, "fmod", {3, 4}, {-2, -1, -0.0, -3, -2, -1, 0, 1, 2, 3, 0, 1});
  check_values(r, "x.fmod(t)", {3, 4}, {-1, -0.0, -4, -3, -2, -1, 0, 1, 2, 3, 4, 0});
  check_values(r, "einsum ij,jk->ik", {3, 2}, {6, 6, 22, 22, 38, 38});
  check_values(r, "einsum ii->i", {3}, {0, 5, 10});
  check_values(r, "einsum ...i->...", {3}, {6, 22, 38});
  check_values(r, "clamp", {3, 4}, {2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9});
  check_values(r, "view_as", {4, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(r, "reshape_as", {4, 3}, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  check_values(r, "swapaxes", {4, 3}, {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  check_values(r, "squeeze({0, 2})", {12}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  check_values(r, "unbind(1)[2]", {3}, {2, 6, 10});
  check_values(r, "new_zeros", {2}, {0, 0});
  check_values(r, "new_ones", {2}, {1, 1});
  check_values(r, "new_full", {2}, {2.5, 2.5});
  check_values(r, "new_empty.sizes", {2}, {2, 5});
  check_values(r, "tensor(3.0)", {}, {3});
  check_values(r, "tensor(vector)", {2}, {1.5, 2.5});
  check_values(r, "tensor({{...}})", {2, 2}, {1, 2, 3, 4});
  check_values(r, "item", {}, {77});
  CHECK(r.at("type_as").dtype() == torch::kDouble);
  CHECK(r.at("toType").dtype() == torch::kInt);
  CHECK(r.at("to(kCPU, kDouble)").dtype() == torch::kDouble);
  CHECK(r.at("new_ones").dtype() == torch::kLong);
  CHECK(r.at("new_full").dtype() == torch::kFloat);
  CHECK(r.at("tensor(3.0)").dtype() == torch::kFloat);
  CHECK(r.at("tensor({{...}})").dtype() == torch::kLong);
  check_values(r, "kChar * 20", {3, 4}, {0, 20, 40, 60, 80, 100, 120, -116, -96, -76, -56, -36});
  check_values(r, "kShort sum(1)", {3}, {6, 22, 38});
  check_values(r, "kByte + kInt8", {3, 4}, {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22});
  CHECK(r.at("kChar * 20").dtype() == torch::kInt8);
  CHECK(r.at("kShort sum(1)").dtype() == torch::kLong);
  CHECK(r.at("kByte + kInt8").dtype() == torch::kShort);
}

TEST_CASE("libtorch spelling: nn functional with options gives known values") {
  const Results r = program(eager);
  const double e = std::exp(1.0);
  const double z0 = std::exp(1.0) + std::exp(2.0) + std::exp(0.5), z1 = 1 + std::exp(-1.0) + std::exp(3.0);
  check_values(r, "F::softmax", {2, 3},
               {std::exp(1.0) / z0, std::exp(2.0) / z0, std::exp(0.5) / z0, 1 / z1, std::exp(-1.0) / z1, std::exp(3.0) / z1});
  check_values(r, "F::cross_entropy", {}, {((std::log(z0) - 2) + (std::log(z1) - 3)) / 2});
  check_values(r, "F::mse_loss sum", {}, {1 + 4 + 0.25 + 0 + 1 + 9});
  check_values(r, "F::l1_loss", {}, {(0 + 1 + 0.5 + 1 + 2 + 2) / 6.0});
  check_values(r, "F::smooth_l1_loss", {}, {(0.5 + 1.5 + 0.125 + 0 + 0.5 + 2.5) / 6});
  double bce = 0;
  for (double v : {1.0, 2.0, 0.5, 0.0, -1.0, 3.0}) bce += std::log1p(std::exp(-v));
  check_values(r, "F::binary_cross_entropy_with_logits", {}, {bce / 6});
  double bce_probs = 0;
  for (double v : {1.0, 2.0, 0.5, 0.0, -1.0, 3.0}) bce_probs += -std::log(1 - 1 / (1 + std::exp(-v)));
  check_values(r, "F::binary_cross_entropy", {}, {bce_probs / 6});
  check_values(r, "F::leaky_relu", {2, 3}, {1, 2, 0.5, 0, -0.5, 3});
  check_values(r, "F::elu", {2, 3}, {1, 2, 0.5, 0, 1 / e - 1, 3});
  check_values(r, "F::softplus", {2, 3},
               {std::log1p(e), std::log1p(std::exp(2.0)), std::log1p(std::exp(0.5)), std::log(2.0),
                std::log1p(1 / e), std::log1p(std::exp(3.0))});
  check_values(r, "F::hardtanh", {2, 3}, {1, 1.5, 0.5, 0, 0, 1.5});
  check_values(r, "F::relu", {2, 3}, {1, 2, 0.5, 0, 0, 3});
  check_values(r, "F::embedding", {2, 4}, {4, 5, 6, 7, 8, 9, 10, 11});
}

TEST_CASE("libtorch spelling: the program gives the same results lazily") {
  const Results want = program(eager);
  const Results got = program(lazy);
  REQUIRE(got.size() == want.size());
  for (const auto& [key, t] : want) {
    INFO(key);
    const torch::Tensor& l = got.at(key);
    CHECK(l.sizes().vec() == t.sizes().vec());
    CHECK(l.dtype() == t.dtype());
    const std::vector<double> a = values_of(l), b = values_of(t);
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) CHECK_THAT(a[i], Catch::Matchers::WithinRel(b[i], 1e-5) || Catch::Matchers::WithinAbs(b[i], 1e-6));
  }
}

TEST_CASE("libtorch spelling: draws stay in their ranges eagerly and lazily") {
  for (const Input& in : {Input(eager), Input(lazy)}) {
    const Results r = random_program(in);
    const auto all_within = [&](const std::string& key, double lo, double hi) {
      INFO(key);
      CHECK(r.at(key).sizes().vec() == std::vector<int64_t>{64, 64});
      for (double v : values_of(r.at(key))) {
        if (v < lo || v > hi) FAIL(key << ": " << v << " outside [" << lo << ", " << hi << "]");
      }
    };
    all_within("rand_like", 0, 1);
    all_within("randint_like", 0, 9);
    all_within("randint_like(low, high)", -3, 2);
    all_within("randint", 0, 9);
    all_within("randint(low, high) kChar", -3, 2);
    all_within("uniform_", -2, 2);
    all_within("bernoulli_", 0, 1);
    CHECK(r.at("randint_like").dtype() == torch::kFloat);
    CHECK(r.at("randint").dtype() == torch::kLong);
    CHECK(r.at("randint(low, high) kChar").dtype() == torch::kChar);
    const std::vector<double> normal = values_of(r.at("normal_"));
    double mean = 0;
    for (double v : normal) mean += v / static_cast<double>(normal.size());
    CHECK_THAT(mean, Catch::Matchers::WithinAbs(1.0, 0.1));
    double ones = 0;
    for (double v : values_of(r.at("bernoulli_"))) ones += v;
    CHECK_THAT(ones / 4096, Catch::Matchers::WithinAbs(0.25, 0.05));
  }
}

TEST_CASE("libtorch spelling: sizes print and convert as in libtorch") {
  const torch::Tensor x = torch::zeros({2, 3});
  std::ostringstream os;
  os << x.sizes();
  CHECK(os.str() == "[2, 3]");
  CHECK(x.sizes().vec() == std::vector<int64_t>{2, 3});
  CHECK(x.sizes() == std::vector<int64_t>{2, 3});
  const torch::Scalar s = torch::tensor(2.5).item();
  CHECK(s.toDouble() == 2.5);
  CHECK(s.toFloat() == 2.5f);
  CHECK(torch::Scalar(7).toLong() == 7);
  CHECK(torch::Scalar(7).toInt() == 7);
  CHECK(torch::Scalar(true).toBool());
  CHECK(s.isFloatingPoint());
}

TEST_CASE("libtorch spelling: accessor reads and writes elements") {
  torch::Tensor x = torch::arange(6, torch::kFloat).reshape({2, 3});
  auto a = x.accessor<float, 2>();
  CHECK(a.size(0) == 2);
  CHECK(a.size(1) == 3);
  CHECK(a[1][2] == 5.0f);
  a[0][1] = 10;
  CHECK(x[0][1].item<float>() == 10.0f);
  // Through a transposed view: the accessor follows the strides.
  const torch::Tensor transposed = x.t();
  auto t = transposed.accessor<float, 2>();
  CHECK(t[2][1] == 5.0f);
  // A copy outlives the accessor it was copied from.
  std::optional<torch::TensorAccessor<float, 2>> copy;
  {
    const auto original = transposed.accessor<float, 2>();
    copy.emplace(original);
  }
  CHECK((*copy)[2][1] == 5.0f);
  CHECK(copy->size(0) == 3);
  // A lazy tensor's values are materialised.
  const torch::Tensor doubled = x.to_lazy() * 2;
  auto l = doubled.accessor<float, 2>();
  CHECK(l[1][0] == 6.0f);
  CHECK_THROWS_AS((x.accessor<float, 3>()), torch::ShapeError);
  CHECK_THROWS_AS((x.accessor<double, 2>()), torch::TypeError);
}

TEST_CASE("libtorch spelling: bad arguments of the new methods are clear errors") {
  const torch::Tensor x = torch::zeros({2, 3});
  CHECK_THROWS_WITH(x.squeeze({0, 0}), "[squeeze] dim: [0, 0] names a dim twice");
  CHECK_THROWS_AS(x.unbind(2), torch::IndexError);
  torch::Tensor i = torch::zeros({2}, torch::kLong);
  CHECK_THROWS_WITH(i.uniform_(), "[uniform_] self: expected a floating point tensor, got int64");
  torch::Tensor f = torch::zeros({2});
  CHECK_THROWS_WITH(f.uniform_(1, 0), "[uniform_] from, to: expected from <= to, got from=1 to=0");
  CHECK_THROWS_WITH(f.normal_(0, -1), "[normal_] std: expected std >= 0, got -1");
  CHECK_THROWS_WITH(f.bernoulli_(1.5), "[bernoulli_] p: expected a probability in [0, 1], got 1.5");
}

}  // namespace

namespace {

Results indexing_program(const Input& in) {
  using namespace torch::indexing;
  Results r;
  const torch::Tensor x = in(torch::arange(24, torch::kFloat).reshape({2, 3, 4}));
  r["x.index({1})"] = x.index({1});
  r["x.index({Slice(), 0})"] = x.index({Slice(), 0});
  r["x.index({\"...\", 1})"] = x.index({"...", 1});
  r["x.index({Ellipsis, None, Slice(None, None, 2)})"] = x.index({Ellipsis, None, Slice(None, None, 2)});
  r["x.index({0, Slice(1, None), -1})"] = x.index({0, Slice(1, None), -1});
  r["x.index({Slice(), idx})"] = x.index({Slice(), in(torch::tensor({2, 0}))});
  r["adjacent tensors"] = x.index({Slice(), in(torch::tensor({0, 2})), in(torch::tensor({1, 3}))});
  r["separated tensors"] = x.index({in(torch::tensor({1, 0})), Slice(), in(torch::tensor({0, 3}))});
  r["negative tensor index"] = x.index({Slice(), in(torch::tensor({-1}))});
  const torch::Tensor mask = in(torch::tensor({true, false, true}));
  r["x.index({Slice(), mask})"] = x.index({Slice(), mask});
  r["x.index({x > 20})"] = x.index({x > 20});
  r["masked_select"] = x.masked_select(x.select(2, 0).unsqueeze(2) > 10);
  r["nonzero"] = torch::nonzero(x.select(2, 0) > 10);

  torch::Tensor y = in(torch::zeros({3, 4}));
  y.index_put_({Slice(), 1}, 5);
  y.index_put_({in(torch::tensor({0, 2})), in(torch::tensor({3, 0}))}, in(torch::tensor({7.0, 8.0})));
  y.index_put_({1}, torch::arange(4, torch::kFloat));
  r["index_put_"] = y;
  // Through a transposed view: the indexed dims do not flatten in place.
  torch::Tensor t = in(torch::zeros({4, 3}));
  t.t().index_put_({in(torch::tensor({0, 2})), in(torch::tensor({1, 3}))}, 2);
  r["index_put_ transposed"] = t;
  torch::Tensor z = in(torch::zeros({2, 3}));
  z.index_fill_(1, in(torch::tensor({0, 2})), -1);
  r["index_fill_"] = z;
  torch::Tensor w = in(torch::arange(6, torch::kFloat).reshape({2, 3}));
  w.index_put_({w > 2}, 0);
  r["index_put_ mask"] = w;
  return r;
}

TEST_CASE("libtorch spelling: index and index_put_ give known values eagerly and lazily") {
  for (const Input& in : {Input(eager), Input(lazy)}) {
    const Results r = indexing_program(in);
    check_values(r, "x.index({1})", {3, 4}, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
    check_values(r, "x.index({Slice(), 0})", {2, 4}, {0, 1, 2, 3, 12, 13, 14, 15});
    check_values(r, "x.index({\"...\", 1})", {2, 3}, {1, 5, 9, 13, 17, 21});
    check_values(r, "x.index({Ellipsis, None, Slice(None, None, 2)})", {2, 3, 1, 2},
                 {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22});
    check_values(r, "x.index({0, Slice(1, None), -1})", {2}, {7, 11});
    check_values(r, "x.index({Slice(), idx})", {2, 2, 4}, {8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 12, 13, 14, 15});
    check_values(r, "adjacent tensors", {2, 2}, {1, 11, 13, 23});
    check_values(r, "separated tensors", {2, 3}, {12, 16, 20, 3, 7, 11});
    check_values(r, "negative tensor index", {2, 1, 4}, {8, 9, 10, 11, 20, 21, 22, 23});
    check_values(r, "index_put_", {3, 4}, {0, 5, 0, 7, 0, 1, 2, 3, 8, 5, 0, 0});
    check_values(r, "index_put_ transposed", {4, 3}, {0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2});
    check_values(r, "index_fill_", {2, 3}, {-1, 0, -1, -1, 0, -1});
    check_values(r, "x.index({Slice(), mask})", {2, 2, 4}, {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
    check_values(r, "x.index({x > 20})", {3}, {21, 22, 23});
    check_values(r, "masked_select", {12}, {12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
    check_values(r, "nonzero", {3, 2}, {1, 0, 1, 1, 1, 2});
    check_values(r, "index_put_ mask", {2, 3}, {0, 1, 2, 0, 0, 0});
  }
}

TEST_CASE("libtorch spelling: index differentiates like the views and gathers it is made of") {
  using namespace torch::indexing;
  torch::Tensor x = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  x.index({Slice(), torch::tensor({2, 2, 0})}).sum().backward();
  check_values(Results{{"grad", x.grad()}}, "grad", {2, 3}, {1, 0, 2, 1, 0, 2});
}

TEST_CASE("libtorch spelling: bad indices are clear errors") {
  using namespace torch::indexing;
  const torch::Tensor x = torch::zeros({2, 3});
  CHECK_THROWS_WITH(x.index({0, 0, 0}), "[index] indices: too many indices for a tensor of dimension 2 (got 3)");
  CHECK_THROWS_WITH(x.index({"..", 0}), "[index] indices: expected \"...\" as a string index, got \"..\"");
  CHECK_THROWS_WITH(x.index({"...", Ellipsis}), "[index] indices: an index can only have a single ellipsis ('...')");
  CHECK_THROWS_AS(x.index({torch::tensor({5})}), torch::IndexError);
  CHECK_THROWS_WITH(x.index({torch::tensor({true, false, true})}),
                    "[index] indices: the shape of the mask [3] does not match the shape of the indexed tensor [2, 3] at dim 0");
  CHECK_THROWS_AS(x.index({torch::tensor({0.5})}), torch::IndexError);
  CHECK_THROWS_AS(x.index({Slice(), 3}), torch::IndexError);
}

}  // namespace

namespace {

// ---- Version counters and out= resizing ---------------------------------------------------

TEST_CASE("libtorch spelling: version counters start at 0 and count in-place calls eagerly and lazily") {
  using namespace torch::indexing;
  for (const auto& [mode, in] : std::vector<std::pair<std::string, Input>>{{"eager", eager}, {"lazy", lazy}}) {
    INFO(mode);
    torch::Tensor x = in(torch::zeros({2, 3}));
    CHECK(x._version() == 0);
    x.add_(1);
    CHECK(x._version() == 1);
    x.mul_(2);
    CHECK(x._version() == 2);
    x[0] = 5;  // through a view: views share their base's counter
    CHECK(x._version() == 3);
    x.index_put_({Slice(), 1}, 0);
    CHECK(x._version() == 4);
    torch::add_out(x, x, x);
    CHECK(x._version() == 5);
    // Every fresh result starts at 0.
    const torch::Tensor m = in(torch::arange(6, torch::kFloat).reshape({2, 3}));
    for (const torch::Tensor& fresh :
         {x + 1, x.clone(), x.t().contiguous(), x.to(torch::kDouble), torch::ones({2}), torch::full({2}, 3.0),
          torch::arange(4), torch::eye(3), torch::randn({2}), torch::rand({2}), torch::tensor({1, 2}),
          torch::zeros_like(m), m.index({m > 2}), m.index({Slice(), in(torch::tensor({0, 2}))})}) {
      CHECK(fresh._version() == 0);
    }
  }
}

TEST_CASE("libtorch spelling: add_out resizes an out of the wrong size with a warning in both modes") {
  std::vector<std::string> warnings;
  const torch::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  for (const Input& in : {Input(eager), Input(lazy)}) {
    torch::Tensor out = in(torch::zeros({5}));
    torch::add_out(out, in(torch::ones({2, 2})), in(torch::full({2, 2}, 2.0)));
    check_values(Results{{"out", out}}, "out", {2, 2}, {3, 3, 3, 3});
  }
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == warnings[1]);
  CHECK(warnings[0] ==
        "[add.out] out: an output with one or more elements was resized since it had shape [5], which does not "
        "match the required output shape [2, 2] (resize it to zero elements first to silence this warning)");
}

}  // namespace

namespace {

TEST_CASE("libtorch spelling: a mask index lazily syncs the mask once and falls back nowhere") {
  const torch::Tensor x = torch::arange(6, torch::kFloat).reshape({2, 3}).to_lazy();
  torch::lazy::reset_metrics();
  const torch::Tensor picked = x.index({x > 2}) * 2;
  const torch::lazy::LazyMetrics m = torch::lazy::metrics();
  CHECK(torch::lazy::count_of(m.syncs, "data_dependent_shape") == 1);
  CHECK(m.eager_fallbacks.empty());
  CHECK(picked.is_lazy());
  check_values(Results{{"picked", picked}}, "picked", {3}, {6, 8, 10});
}

}  // namespace
