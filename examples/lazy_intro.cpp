#include <iostream>
#include <lazuli/lazuli.h>

int main() {
  lz::Tensor x = lz::arange(8, lz::kFloat32).reshape({2, 4}).to_lazy();
  lz::Tensor b = lz::tensor({1.0f, 0.0f, -1.0f, 2.0f});
  lz::Tensor y = lz::softmax(lz::relu(x - b) * 0.5, -1);  // recorded, nothing runs
  lz::Tensor s = y.sum({1});
  std::cout << "pending operators: " << lz::lazy::pending_operators() << "\n";
  std::cout << y.to_eager() << "\n" << s.to_eager() << "\n";  // one graph runs
  const lz::lazy::LazyMetrics m = lz::lazy::metrics();
  std::cout << "graphs run: " << m.graphs_materialized << ", kernels: " << m.kernels_launched
            << ", eager steps: " << m.eager_steps_total << "\n";
}
