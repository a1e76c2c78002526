// Training lazily: a two-layer MLP learns which of 4 directions a point
// lies closest to. The model and the data are lazy, so each step (forward,
// cross_entropy, backward, AdamW) is traced and run as one graph at
// lz::sync_all(), the step boundary; after the first two steps (AdamW's
// state appears in the first) every step is an executable cache hit.
#include <cstdio>

#include <lazuli/lazuli.h>

int main() {
  lz::manual_seed(0);
  const int64_t batch = 256, features = 16, hidden = 64, classes = 4;
  const lz::Tensor directions = lz::randn({classes, features});
  const lz::Tensor x = lz::randn({batch, features});
  const lz::Tensor labels = lz::matmul(x, directions.t()).argmax(1);

  auto model = std::make_shared<lz::nn::Sequential>(std::initializer_list<std::shared_ptr<lz::nn::Module>>{
      std::make_shared<lz::nn::Linear>(features, hidden), std::make_shared<lz::nn::Functional>([](const lz::Tensor& t) { return lz::gelu(t); }),
      std::make_shared<lz::nn::Linear>(hidden, classes)});
  model->to_lazy();  // parameters become lazy leaves that require grad
  lz::optim::AdamW optimizer(model->parameters(), lz::optim::AdamWOptions(1e-2));
  const lz::Tensor inputs = x.to_lazy(), targets = labels.to_lazy();

  for (int step = 1; step <= 200; ++step) {
    optimizer.zero_grad();
    lz::Tensor loss = lz::cross_entropy(model->forward(inputs), targets);
    loss.backward();
    optimizer.step();
    lz::sync_all();  // the step boundary: everything pending runs as one graph
    if (step % 50 == 0) std::printf("step %3d  loss %.4f\n", step, loss.item<double>());
  }
  const lz::Tensor predicted = model->forward(inputs).argmax(1).to_eager();
  const double accuracy = predicted.eq(labels).to(lz::kFloat64).mean().item<double>();
  const lz::lazy::LazyMetrics m = lz::lazy::metrics();
  std::printf("accuracy %.3f\n", accuracy);
  std::printf("%llu graphs run: %llu cache hits, %llu misses; %llu kernels launched, %llu compiled\n",
              static_cast<unsigned long long>(m.graphs_materialized), static_cast<unsigned long long>(m.cache_hits),
              static_cast<unsigned long long>(m.cache_misses), static_cast<unsigned long long>(m.kernels_launched),
              static_cast<unsigned long long>(m.kernels_compiled));
}
