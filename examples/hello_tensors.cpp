// The main job until the fusion benchmark runner exists: compute a few
// tensors with the public API, eagerly and lazily, and print them.
#include <iostream>

#include <lazuli/lazuli.h>

int main() {
  lz::manual_seed(0);
  lz::Tensor x = lz::arange(6, lz::kFloat32).reshape({2, 3});
  lz::Tensor b = lz::tensor({0.5f, -1.0f, 2.0f});
  lz::Tensor y = lz::relu(x * 2 - b).exp();
  std::cout << "x =\n" << x << "\n\n";
  std::cout << "relu(x * 2 - b).exp() =\n" << y << "\n\n";
  std::cout << "row sums: " << y.sum({1}) << "\n";
  std::cout << "x.t() (a view, strides " << lz::shape_str(x.t().strides()) << "):\n" << x.t() << "\n";
  std::cout << "int32 + 2.5 -> " << (lz::arange(3, lz::kInt32) + 2.5) << "\n";
  std::cout << "randn: " << lz::randn({4}) << "\n\n";

  // The same computation, lazily: recorded into a graph, run on to_eager().
  lz::Tensor lx = x.to_lazy();
  lz::Tensor ly = lz::relu(lx * 2 - b).exp();
  lz::Tensor row_sums = ly.sum({1});
  std::cout << "lazy graph before running:\n" << lz::lazy::dump_trace() << "\n";
  // LZ_DEBUG=4 in code: the fusion plan and its kernel IR go to stderr.
  lz::lazy::Settings settings = lz::lazy::settings();
  settings.debug_level = 4;
  lz::lazy::set_settings(settings);
  std::cout << "lazy row sums: " << row_sums.to_eager() << std::endl;
  settings.debug_level = 0;
  lz::lazy::set_settings(settings);
  std::cout << "lazy y equals eager y: " << std::boolalpha << lz::allclose(ly.to_eager(), y) << "\n\n";
  std::cout << lz::lazy::metrics().report();
  return 0;
}
