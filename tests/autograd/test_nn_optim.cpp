// lz::nn modules and lz::optim optimizers: training a small MLP eagerly and
// lazily gives the same losses, the loss falls, and changing the learning
// rate between lazy steps does not recompile.
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/eager/test_util.h"

using lz::Tensor;

namespace {

std::shared_ptr<lz::nn::Sequential> make_mlp() {
  lz::manual_seed(7);
  return std::make_shared<lz::nn::Sequential>(std::initializer_list<std::shared_ptr<lz::nn::Module>>{
      std::make_shared<lz::nn::Linear>(4, 16, true, lz::kFloat64),
      std::make_shared<lz::nn::Functional>([](const Tensor& x) { return lz::relu(x); }),
      std::make_shared<lz::nn::LayerNorm>(std::vector<int64_t>{16}, 1e-5, true, lz::kFloat64),
      std::make_shared<lz::nn::Linear>(16, 1, true, lz::kFloat64)});
}

enum class Kind { SGD, AdamW };

std::vector<double> train(Kind kind, bool lazy, int steps, std::vector<uint64_t>* misses = nullptr) {
  auto model = make_mlp();
  if (lazy) model->to_lazy();
  std::unique_ptr<lz::optim::Optimizer> optimizer;
  if (kind == Kind::SGD) {
    optimizer = std::make_unique<lz::optim::SGD>(model->parameters(),
                                                 lz::optim::SGDOptions(0.05).momentum(0.9).nesterov(true).weight_decay(1e-4));
  } else {
    optimizer = std::make_unique<lz::optim::AdamW>(model->parameters(), lz::optim::AdamWOptions(0.01));
  }
  Tensor x = lzt::sample_tensor({32, 4}, lz::kFloat64, 11) * 0.25;
  Tensor y = x.sum({1}, true).sin();
  if (lazy) {
    x = x.to_lazy();
    y = y.to_lazy();
  }
  std::vector<double> losses;
  for (int step = 0; step < steps; ++step) {
    optimizer->zero_grad();
    Tensor loss = (model->forward(x) - y).square().mean();
    loss.backward();
    optimizer->step();
    if (kind == Kind::SGD && step == steps / 2) {
      static_cast<lz::optim::SGD&>(*optimizer).options().lr(0.02);  // a schedule: no recompile
    }
    if (lazy) {
      std::vector<Tensor> live = model->parameters();
      live.push_back(loss);
      lz::sync(live);
    }
    losses.push_back(loss.item<double>());
    if (misses != nullptr) misses->push_back(lz::lazy::metrics().cache_misses);
  }
  return losses;
}

}  // namespace

TEST_CASE("nn modules name their parameters and switch modes", "[autograd][nn]") {
  auto model = make_mlp();
  const auto named = model->named_parameters();
  REQUIRE(named.size() == 6);
  CHECK(named[0].first == "0.weight");
  CHECK(named[1].first == "0.bias");
  CHECK(named[2].first == "2.weight");
  CHECK(named[5].first == "3.bias");
  CHECK_SHAPE(named[0].second, {16, 4});
  for (const auto& [name, p] : named) CHECK(p.requires_grad());
  model->eval();
  CHECK_FALSE(model->is_training());
  lz::nn::Dropout dropout(0.5);
  dropout.eval();
  Tensor x = lz::ones({8});
  CHECK(dropout.forward(x).is_same(x));
  CHECK_THROWS_AS(lz::optim::SGD({lz::ones({2})}, lz::optim::SGDOptions(0.1)), lz::ValueError);
}

TEST_CASE("SGD and AdamW train an MLP, lazy steps match eager and compile once", "[autograd][nn][lazy]") {
  for (Kind kind : {Kind::SGD, Kind::AdamW}) {
    INFO((kind == Kind::SGD ? "SGD" : "AdamW"));
    const int steps = 40;
    const std::vector<double> eager = train(kind, false, steps);
    lz::lazy::clear_executable_cache();
    std::vector<uint64_t> misses;
    const std::vector<double> lazy = train(kind, true, steps, &misses);
    CHECK(eager.back() < 0.5 * eager.front());
    for (size_t i = 0; i < eager.size(); ++i) CHECK(lazy[i] == Approx(eager[i]).epsilon(1e-8));
    // Steps from the third on (AdamW's state exists from the second) hit the cache,
    // across the learning-rate change too.
    CHECK(misses.back() == misses[2]);
  }
}

namespace {

// One AdamW training step of make_mlp() on a fixed batch, with a write
// through a view in the loss (a CopySlices node every step).
struct Trainer {
  std::shared_ptr<lz::nn::Sequential> model = make_mlp();
  std::unique_ptr<lz::optim::AdamW> optimizer;
  Tensor x, y;
  bool lazy;
  explicit Trainer(bool lazy_) : lazy(lazy_) {
    if (lazy) model->to_lazy();
    optimizer = std::make_unique<lz::optim::AdamW>(model->parameters(), lz::optim::AdamWOptions(0.01));
    x = lzt::sample_tensor({32, 4}, lz::kFloat64, 3);
    y = x.sum({1}, true).cos();
    if (lazy) {
      x = x.to_lazy();
      y = y.to_lazy();
    }
  }
  void step() {
    optimizer->zero_grad();
    Tensor h = model->forward(x) * 1;
    h.narrow(0, 0, 8).mul_(2);
    (h - y).square().mean().backward();
    optimizer->step();
    if (lazy) lz::sync_all();
  }
};

}  // namespace

TEST_CASE("memory stays flat over 1000 training steps eagerly and lazily", "[autograd][nn][lazy]") {
  for (bool lazy : {false, true}) {
    CAPTURE(lazy);
    Trainer t(lazy);
    for (int i = 0; i < 50; ++i) t.step();
    const size_t bytes = lz::cpu_allocator_stats().allocated_bytes;
    const uint64_t cached_executables = lz::lazy::metrics().cache_size;
    for (int i = 0; i < 950; ++i) t.step();
    // The graph of each step is freed with it: nothing accumulates.
    CHECK(lz::cpu_allocator_stats().allocated_bytes <= bytes);
    CHECK(lz::lazy::pending_nodes() == 0);
    CHECK(lz::lazy::metrics().cache_size == cached_executables);
  }
}

TEST_CASE("a lazy optimizer step is one kernel per parameter shape and no eager step", "[autograd][nn][lazy]") {
  Trainer t(true);
  for (int i = 0; i < 3; ++i) t.step();  // AdamW's state exists and the step is cached
  t.optimizer->zero_grad();
  Tensor loss = (t.model->forward(t.x) - t.y).square().mean();
  loss.backward();
  std::vector<Tensor> grads;
  for (const Tensor& p : t.model->parameters()) grads.push_back(p.grad());
  lz::sync(grads);  // the gradients exist; only the update is left
  const lz::lazy::LazyMetrics before = lz::lazy::metrics();
  t.optimizer->step();
  lz::sync_all();
  const lz::lazy::LazyMetrics after = lz::lazy::metrics();
  // One kernel per parameter shape: p, m and v of a parameter update
  // together, and the updates of same-shaped parameters in one kernel.
  std::set<std::vector<int64_t>> shapes;
  for (const Tensor& p : t.model->parameters()) shapes.emplace(p.sizes().begin(), p.sizes().end());
  REQUIRE(shapes.size() < t.model->parameters().size());  // some parameters share a shape
  CHECK(after.eager_steps_total == before.eager_steps_total);
  CHECK(after.kernels_launched - before.kernels_launched == shapes.size());
}

TEST_CASE("Embedding looks up rows and its gradient adds each lookup back", "[autograd][nn]") {
  lz::manual_seed(3);
  lz::nn::Embedding embedding(5, 3, lz::kFloat64);
  const Tensor indices = lzt::make_tensor({4, 1, 4, 0}, {2, 2}, lz::kInt64);
  const Tensor rows = embedding.forward(indices);
  CHECK(rows.sizes() == lz::IntArrayRef({2, 2, 3}));
  CHECK(lz::equal(rows.select(0, 0).select(0, 0).detach(), embedding.weight.select(0, 4).detach()));
  rows.sum().backward();
  // Row 4 looked up twice, rows 0 and 1 once, rows 2 and 3 never.
  CHECK_VALUES(embedding.weight.grad().sum({1}), {3, 3, 0, 0, 6});
}

TEST_CASE("embedding gives the padding row no gradient eagerly and lazily", "[autograd][nn][lazy]") {
  for (bool lazy : {false, true}) {
    INFO((lazy ? "lazy" : "eager"));
    Tensor weight = lz::arange(15, lz::kFloat64).reshape({5, 3});
    if (lazy) weight = weight.to_lazy();
    weight.requires_grad_();
    const Tensor indices = lzt::make_tensor({4, 1, 4, 0, 1}, {5}, lz::kInt64);
    const Tensor rows = lz::embedding(weight, lazy ? indices.to_lazy() : indices, /*padding_idx=*/1);
    // The padding row is still read: only its gradient is zero.
    CHECK_VALUES(rows.select(0, 1).detach().to_eager(), {3, 4, 5});
    (rows * 2).sum().backward();
    CHECK_VALUES(weight.grad().sum({1}).to_eager(), {6, 0, 0, 0, 12});
  }
}

namespace {

// A one-block transformer language model: embedding, pre-norm causal
// self-attention (2 heads), residual, RMSNorm, GELU MLP, residual, output
// projection; next-token cross_entropy on a repeating sequence.
struct TinyTransformer : lz::nn::Module {
  static constexpr int64_t kVocab = 12, kWidth = 16, kHeads = 2;
  std::shared_ptr<lz::nn::Embedding> embed;
  std::shared_ptr<lz::nn::RMSNorm> norm1, norm2;
  std::shared_ptr<lz::nn::Linear> qkv, proj, up, down, out;
  TinyTransformer()
      : embed(register_module("embed", std::make_shared<lz::nn::Embedding>(kVocab, kWidth, lz::kFloat64))),
        norm1(register_module("norm1", std::make_shared<lz::nn::RMSNorm>(std::vector<int64_t>{kWidth}, 1e-6, lz::kFloat64))),
        norm2(register_module("norm2", std::make_shared<lz::nn::RMSNorm>(std::vector<int64_t>{kWidth}, 1e-6, lz::kFloat64))),
        qkv(register_module("qkv", std::make_shared<lz::nn::Linear>(kWidth, 3 * kWidth, false, lz::kFloat64))),
        proj(register_module("proj", std::make_shared<lz::nn::Linear>(kWidth, kWidth, false, lz::kFloat64))),
        up(register_module("up", std::make_shared<lz::nn::Linear>(kWidth, 4 * kWidth, true, lz::kFloat64))),
        down(register_module("down", std::make_shared<lz::nn::Linear>(4 * kWidth, kWidth, true, lz::kFloat64))),
        out(register_module("out", std::make_shared<lz::nn::Linear>(kWidth, kVocab, true, lz::kFloat64))) {}

  Tensor forward(const Tensor& tokens) override {
    const int64_t batch = tokens.size(0), seq = tokens.size(1), head = kWidth / kHeads;
    Tensor x = embed->forward(tokens);
    const Tensor q_k_v = qkv->forward(norm1->forward(x));
    const auto heads = [&](int64_t k) {
      return q_k_v.narrow(-1, k * kWidth, kWidth).reshape({batch, seq, kHeads, head}).transpose(1, 2);
    };
    const Tensor future = lz::ones({seq, seq}, lz::TensorOptions(lz::kBool).device(x.device())).triu(1);
    Tensor scores = lz::matmul(heads(0), heads(1).transpose(-2, -1)) * (1 / std::sqrt(static_cast<double>(head)));
    scores = lz::softmax(scores.masked_fill(future, -1e9), -1);
    const Tensor attended = lz::matmul(scores, heads(2)).transpose(1, 2).reshape({batch, seq, kWidth});
    x = x + proj->forward(attended);
    x = x + down->forward(lz::gelu(up->forward(norm2->forward(x))));
    return out->forward(x);
  }
};

std::vector<double> train_transformer(bool lazy, int steps, uint64_t* misses_after_warmup) {
  lz::manual_seed(11);
  auto model = std::make_shared<TinyTransformer>();
  if (lazy) model->to_lazy();
  lz::optim::AdamW optimizer(model->parameters(), lz::optim::AdamWOptions(3e-3));
  // Four sequences of a repeating pattern: the next token is predictable.
  std::vector<double> ids;
  for (int64_t b = 0; b < 4; ++b) {
    for (int64_t i = 0; i < 9; ++i) ids.push_back(static_cast<double>((b + 3 * i) % TinyTransformer::kVocab));
  }
  Tensor tokens = lzt::make_tensor(ids, {4, 9}, lz::kInt64);
  Tensor inputs = tokens.narrow(1, 0, 8).contiguous(), targets = tokens.narrow(1, 1, 8).reshape({-1});
  if (lazy) {
    inputs = inputs.to_lazy();
    targets = targets.to_lazy();
  }
  std::vector<double> losses;
  uint64_t misses_at_warmup = 0;
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    Tensor loss = lz::cross_entropy(model->forward(inputs).reshape({-1, TinyTransformer::kVocab}), targets);
    loss.backward();
    optimizer.step();
    if (lazy) lz::sync_all();
    losses.push_back(loss.item<double>());
    if (step == 2) misses_at_warmup = lz::lazy::metrics().cache_misses;
  }
  if (misses_after_warmup != nullptr) *misses_after_warmup = lz::lazy::metrics().cache_misses - misses_at_warmup;
  return losses;
}

}  // namespace

TEST_CASE("a transformer block with an embedding trains lazily as eagerly", "[autograd][nn][lazy]") {
  const int steps = 200;
  uint64_t misses = 0;
  const std::vector<double> eager = train_transformer(false, steps, nullptr);
  const std::vector<double> lazy = train_transformer(true, steps, &misses);
  CHECK(eager.back() < 0.2 * eager.front());
  for (int step = 0; step < steps; ++step) {
    INFO("step " << step);
    CHECK(lazy[static_cast<size_t>(step)] == Approx(eager[static_cast<size_t>(step)]).epsilon(1e-6));
  }
  CHECK(misses == 0);  // steps 1 and 2 compiled; from step 3 on the step is a cache hit
}
