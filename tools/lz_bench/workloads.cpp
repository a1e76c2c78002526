#include "workloads.h"

#include <cmath>

namespace lz::bench_runner {
namespace {

constexpr double kF32 = 4.0;

double bytes_of(const Tensor& t) { return static_cast<double>(t.numel()) * static_cast<double>(t.itemsize()); }

// Random normal inputs from a fixed seed (one generator per workload, so
// the inputs do not depend on which workloads run).
Tensor normal(std::vector<int64_t> sizes, uint64_t seed, ScalarType dtype) {
  return randn(sizes, make_generator(seed), kFloat32).to(dtype);
}

Tensor gelu_tanh(const Tensor& x) { return 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x))); }

Tensor chain10(Tensor x) {
  for (int i = 0; i < 5; ++i) x = (x * (1.0 + 0.01 * i)) + 0.1 * i;
  return x;
}

std::vector<Workload> make_all() {
  std::vector<Workload> w;
  const auto elements = [](bool quick) { return quick ? int64_t{1} << 20 : int64_t{16} << 20; };
  const auto rows = [](bool quick) { return quick ? int64_t{256} : int64_t{4096}; };
  // Bytes: every input read once and every output written once.
  const auto in_out = [](double outputs) {
    return [outputs](const std::vector<Tensor>& in) { return bytes_of(in[0]) * (1 + outputs); };
  };

  w.push_back({"W1", "gelu_tanh", "x: 16M elements", true,
               [=](bool q, ScalarType t) { return std::vector<Tensor>{normal({elements(q)}, 1, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{gelu_tanh(in[0])}; }, in_out(1)});
  w.push_back({"W2", "chain10", "x: 16M elements", true,
               [=](bool q, ScalarType t) { return std::vector<Tensor>{normal({elements(q)}, 2, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{chain10(in[0])}; }, in_out(1)});
  w.push_back({"W3", "bias_relu", "x: [4096, 4096], b: [4096]", true,
               [=](bool q, ScalarType t) {
                 return std::vector<Tensor>{normal({rows(q), 4096}, 3, t), normal({4096}, 33, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{relu(in[0] + in[1])}; },
               [](const std::vector<Tensor>& in) { return 2 * bytes_of(in[0]) + bytes_of(in[1]); }});
  w.push_back({"W4", "softmax", "[4096, 1024]", true,
               [=](bool q, ScalarType t) { return std::vector<Tensor>{normal({rows(q), 1024}, 4, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{softmax(in[0], -1)}; }, in_out(1)});
  w.push_back({"W5", "layernorm", "[4096, 1024], weight and bias [1024]", true,
               [=](bool q, ScalarType t) {
                 return std::vector<Tensor>{normal({rows(q), 1024}, 5, t), normal({1024}, 55, t), normal({1024}, 555, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{layer_norm(in[0], {1024}, in[1], in[2], 1e-5)}; },
               [](const std::vector<Tensor>& in) { return 2 * bytes_of(in[0]) + bytes_of(in[1]) + bytes_of(in[2]); }});
  w.push_back({"W6", "mlp", "x: [512, 1024], W: [1024, 4096], b: [4096]", false,
               [](bool q, ScalarType t) {
                 const int64_t m = q ? 64 : 512;
                 return std::vector<Tensor>{normal({m, 1024}, 6, t), normal({1024, 4096}, 66, t) * 0.03,
                                            normal({4096}, 666, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{gelu(matmul(in[0], in[1]) + in[2])}; },
               [](const std::vector<Tensor>& in) {
                 return bytes_of(in[0]) + bytes_of(in[1]) + bytes_of(in[2]) +
                        static_cast<double>(in[0].size(0) * in[1].size(1)) * static_cast<double>(in[0].itemsize());
               },
               1, 1e-4, 1e-4});
  w.push_back({"W7", "adam", "p, g, m, v: 8M parameters, updated in place", true,
               [](bool q, ScalarType t) {
                 const int64_t n = q ? int64_t{1} << 19 : int64_t{8} << 20;
                 return std::vector<Tensor>{normal({n}, 7, t), normal({n}, 77, t), zeros({n}, t), zeros({n}, t)};
               },
               [](std::vector<Tensor>& in) {
                 Tensor &p = in[0], &g = in[1], &m = in[2], &v = in[3];
                 const double lr = 1e-3, b1 = 0.9, b2 = 0.999, eps = 1e-8;
                 const double bc1 = 1 - std::pow(b1, 10), bc2 = 1 - std::pow(b2, 10);
                 m.mul_(b1).add_(g, 1 - b1);
                 v.mul_(b2).addcmul_(g, g, 1 - b2);
                 p.addcdiv_(m, (v / bc2).sqrt().add_(eps), -lr / bc1);
                 return std::vector<Tensor>{p, m, v};
               },
               // reads p, g, m, v; writes p, m, v
               [](const std::vector<Tensor>& in) { return 7 * bytes_of(in[0]); }});
  w.push_back({"W8", "small_chain", "100 element-wise ops on 1024 elements, traced and run 1000 times", false,
               [](bool, ScalarType t) { return std::vector<Tensor>{normal({1024}, 8, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{w8_chain(in[0])}; }, in_out(1), 1000});
  w.push_back({"W9", "sum_sq", "x: 16M elements, to a scalar", true,
               [=](bool q, ScalarType t) { return std::vector<Tensor>{normal({elements(q)}, 9, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{sum(in[0] * in[0])}; }, in_out(0), 1,
               1e-5, 1e-4});
  return w;
}

}  // namespace

Tensor w8_chain(Tensor x) {
  for (int i = 0; i < kW8Ops; ++i) {
    switch (i % 4) {
      case 0: x = x * 1.0001; break;
      case 1: x = x + 0.5; break;
      case 2: x = x.neg(); break;
      default: x = x.abs(); break;
    }
  }
  return x;
}

const std::vector<Workload>& all_workloads() {
  static const std::vector<Workload> w = make_all();
  return w;
}

}  // namespace lz::bench_runner
