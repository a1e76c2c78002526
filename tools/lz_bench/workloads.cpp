#include "workloads.h"

#include <cmath>
#include <memory>

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

// The parameters (inputs from `first` on) require grad; the step runs
// `loss_of` and AdamW (lr 1e-3, weight decay 0.01) over them.
Workload::Step adamw_step(std::vector<Tensor>& inputs, size_t first,
                          std::function<Tensor(const std::vector<Tensor>&)> loss_of) {
  std::vector<Tensor> params(inputs.begin() + static_cast<std::ptrdiff_t>(first), inputs.end());
  for (Tensor& p : params) p.requires_grad_();
  auto optimizer = std::make_shared<optim::AdamW>(params, optim::AdamWOptions(1e-3));
  return [&inputs, params, optimizer, loss_of = std::move(loss_of)] {
    optimizer->zero_grad();
    Tensor loss = loss_of(inputs);
    loss.backward();
    optimizer->step();
    std::vector<Tensor> out{loss.detach()};
    for (const Tensor& p : params) out.push_back(p.detach());
    return out;
  };
}

// A Linear layer's [out, in] weight, scaled by 1/sqrt(in) so that
// activations stay of unit size.
Tensor linear_weight(int64_t out, int64_t in_features, uint64_t seed, ScalarType t) {
  return normal({out, in_features}, seed, t) * (1 / std::sqrt(static_cast<double>(in_features)));
}

double sum_of_bytes(const std::vector<Tensor>& in) {
  double b = 0;
  for (const Tensor& t : in) b += bytes_of(t);
  return b;
}

// W10: Linear-GELU-Linear-GELU-Linear, cross_entropy against integer labels.
Workload mlp_train() {
  Workload w;
  w.id = "W10";
  w.name = "mlp_train";
  w.sizes = "batch 256, 1024 -> 4096 -> 4096 -> 1024, 1024 classes; AdamW";
  w.bandwidth_bound = false;
  w.make_inputs = [](bool q, ScalarType t) {
    const int64_t batch = q ? 32 : 256, in = q ? 128 : 1024, hidden = q ? 256 : 4096, classes = q ? 64 : 1024;
    const Tensor labels = (normal({batch}, 100, kFloat32).abs() * 1000).to(kLong).remainder(classes);
    return std::vector<Tensor>{normal({batch, in}, 10, t), labels,
                               linear_weight(hidden, in, 11, t),      normal({hidden}, 12, t) * 0.01,
                               linear_weight(hidden, hidden, 13, t),  normal({hidden}, 14, t) * 0.01,
                               linear_weight(classes, hidden, 15, t), normal({classes}, 16, t) * 0.01};
  };
  w.make_step = [](std::vector<Tensor>& in) {
    return adamw_step(in, 2, [](const std::vector<Tensor>& p) {
      Tensor h = gelu(linear(p[0], p[2], p[3]));
      h = gelu(linear(h, p[4], p[5]));
      return cross_entropy(linear(h, p[6], p[7]), p[1]);
    });
  };
  w.bytes = sum_of_bytes;
  w.atol = w.rtol = 1e-3;
  return w;
}

// W11: one pre-norm transformer block (RMSNorm, causal multi-head
// attention, residual, RMSNorm, 4x GELU MLP, residual), mean squared error
// against a random target.
Workload block_train() {
  Workload w;
  w.id = "W11";
  w.name = "block_train";
  w.sizes = "batch 8, sequence 256, width 512, 8 heads; AdamW";
  w.bandwidth_bound = false;
  w.make_inputs = [](bool q, ScalarType t) {
    const int64_t batch = q ? 2 : 8, seq = q ? 32 : 256, width = q ? 64 : 512;
    return std::vector<Tensor>{normal({batch, seq, width}, 20, t), normal({batch, seq, width}, 21, t),
                               ones({width}, t),  // attention RMSNorm weight
                               linear_weight(3 * width, width, 22, t), linear_weight(width, width, 23, t),
                               ones({width}, t),  // MLP RMSNorm weight
                               linear_weight(4 * width, width, 24, t), linear_weight(width, 4 * width, 25, t)};
  };
  w.make_step = [](std::vector<Tensor>& in) {
    return adamw_step(in, 2, [](const std::vector<Tensor>& p) {
      const Tensor& x = p[0];
      const int64_t batch = x.size(0), seq = x.size(1), width = x.size(2), heads = 8, head = width / heads;
      const Tensor qkv = linear(rms_norm(x, {width}, p[2], 1e-6), p[3]);
      const auto split_heads = [&](int64_t k) {
        return qkv.narrow(-1, k * width, width).reshape({batch, seq, heads, head}).transpose(1, 2);
      };
      const Tensor q = split_heads(0), k = split_heads(1), v = split_heads(2);
      const Tensor future = ones({seq, seq}, TensorOptions(kBool).device(x.device())).triu(1);
      const Tensor scores = matmul(q, k.transpose(-2, -1)) * (1 / std::sqrt(static_cast<double>(head)));
      const Tensor attention = matmul(softmax(scores.masked_fill(future, -1e9), -1), v);
      const Tensor h = x + linear(attention.transpose(1, 2).reshape({batch, seq, width}), p[4]);
      const Tensor y = h + linear(gelu(linear(rms_norm(h, {width}, p[5], 1e-6), p[6])), p[7]);
      return (y - p[1]).pow(2).mean();
    });
  };
  w.bytes = sum_of_bytes;
  w.atol = w.rtol = 1e-3;
  return w;
}

// W14: rotary-style halves recombined by cat along the last dimension.
Tensor rotary_cat(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  const int64_t half = x.size(-1) / 2;
  const Tensor x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
  return cat({x1 * cos - x2 * sin, x2 * cos + x1 * sin}, -1);
}

// W14u: the same with halves of unequal widths (pieces of one kernel).
Tensor rotary_cat_unequal(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  const int64_t first = cos.size(-1), second = x.size(-1) - first;
  return cat({x.narrow(-1, 0, first) * cos, x.narrow(-1, first, second) * sin + 1}, -1);
}

// W14p: a padding of a computed matrix (both dims, a runtime value).
Tensor padded(const Tensor& x) { return constant_pad_nd(x * 2 + 1, {3, 93, 1, 1}, 0.5); }

// W17: W2's chain on 1-D sizes 256, 384, ..., 8192, each materialised on
// its own (a lazy user calling to_eager() after each): one graph per size.
constexpr int64_t kSweepFirst = 256, kSweepStep = 128, kSweepLast = 8192;

std::vector<Tensor> small_sweep(const std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  for (const Tensor& x : in) {
    Tensor y = chain10(x);
    if (y.is_lazy()) sync({y});
    out.push_back(y);
  }
  return out;
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
  w.push_back(mlp_train());
  w.push_back(block_train());
  // Patterns beyond W1-W9 (issue 30): a column reduction, a transposed
  // operand, concatenation, a gather, integer arithmetic, small sizes.
  const auto matrix = [](bool quick) { return quick ? int64_t{512} : int64_t{8192}; };
  w.push_back({"W12", "col_center", "x: [8192, 2048]", true,
               [=](bool q, ScalarType t) { return std::vector<Tensor>{normal({matrix(q), 2048}, 12, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{in[0] - in[0].mean(0)}; }, in_out(1), 1,
               1e-5, 1e-4});
  w.push_back({"W13", "transpose_add", "x: [8192, 2048], y: [2048, 8192]", true,
               [=](bool q, ScalarType t) {
                 return std::vector<Tensor>{normal({matrix(q), 2048}, 13, t), normal({2048, matrix(q)}, 113, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].transpose(0, 1) + in[1]}; },
               [](const std::vector<Tensor>& in) { return 3 * bytes_of(in[0]); }});
  w.push_back({"W14", "rotary_cat", "x: [8, 256, 8, 128], cos and sin: [256, 1, 64]", true,
               [](bool q, ScalarType t) {
                 const int64_t batch = q ? 2 : 8;
                 return std::vector<Tensor>{normal({batch, 256, 8, 128}, 14, t), normal({256, 1, 64}, 114, t),
                                            normal({256, 1, 64}, 1114, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{rotary_cat(in[0], in[1], in[2])}; },
               [](const std::vector<Tensor>& in) { return 2 * bytes_of(in[0]) + bytes_of(in[1]) + bytes_of(in[2]); }});
  w.push_back({"W14u", "rope_unequal", "x: [8, 256, 8, 128], cos: [256, 1, 80], sin: [256, 1, 48]", true,
               [](bool q, ScalarType t) {
                 const int64_t batch = q ? 2 : 8;
                 return std::vector<Tensor>{normal({batch, 256, 8, 128}, 14, t), normal({256, 1, 80}, 114, t),
                                            normal({256, 1, 48}, 1114, t)};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{rotary_cat_unequal(in[0], in[1], in[2])}; },
               [](const std::vector<Tensor>& in) { return 2 * bytes_of(in[0]) + bytes_of(in[1]) + bytes_of(in[2]); }});
  w.push_back({"W14p", "pad", "x: [4096, 4000], padded to [4098, 4096]", true,
               [](bool q, ScalarType t) { return std::vector<Tensor>{normal({q ? 256 : 4096, 4000}, 141, t)}; },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{padded(in[0])}; },
               [](const std::vector<Tensor>& in) { return 2 * bytes_of(in[0]); }});
  w.push_back({"W15", "xent_vocab", "logits: [1024, 32000], target: int64 [1024]; mean", true,
               [](bool q, ScalarType t) {
                 const int64_t batch = q ? 64 : 1024, vocab = q ? 4000 : 32000;
                 return std::vector<Tensor>{normal({batch, vocab}, 15, t),
                                            randint(0, vocab, {batch}, make_generator(115), TensorOptions(kLong))};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{cross_entropy(in[0], in[1])}; },
               sum_of_bytes, 1, 1e-5, 1e-4});
  w.push_back({"W16", "int_hash", "i: int64, 16M elements; ((i * 31 + 17) % 257 < 16).sum()", true,
               [=](bool q, ScalarType) {
                 return std::vector<Tensor>{
                     randint(0, int64_t{1} << 40, {elements(q)}, make_generator(16), TensorOptions(kLong))};
               },
               [](std::vector<Tensor>& in) { return std::vector<Tensor>{((in[0] * 31 + 17) % 257 < 16).sum()}; },
               in_out(0)});
  w.push_back({"W17", "small_sweep", "W2's chain on sizes 256, 384, ..., 8192, each materialised", false,
               [](bool, ScalarType t) {
                 std::vector<Tensor> in;
                 for (int64_t n = kSweepFirst; n <= kSweepLast; n += kSweepStep) in.push_back(normal({n}, 17, t));
                 return in;
               },
               small_sweep, [](const std::vector<Tensor>& in) { return 2 * sum_of_bytes(in); }});
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
