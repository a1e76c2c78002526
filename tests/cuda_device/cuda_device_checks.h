// Checks of eager CUDA operators against the CPU, shared by the emulated
// device suite and the real device suite: each runs a computation on CPU
// tensors and on their copies on cuda:0 and compares the results.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

namespace lz_cuda_test {

// The device every check runs on.
inline const lz::Device cuda0("cuda:0");

// A CPU tensor's copy on `device` with the same sizes, strides and storage
// offset (to() would make it contiguous): views stay views.
inline lz::Tensor to_device_keeping_layout(const lz::Tensor& t, lz::Device device) {
  if (!t.defined()) return t;
  const int64_t elements = static_cast<int64_t>(t.unsafe_get_impl()->storage()->nbytes() / t.element_size());
  const lz::Tensor storage = t.as_strided({elements}, {1}, 0).to(device);
  return storage.as_strided(t.sizes(), t.strides(), t.storage_offset());
}

struct Case {
  std::string name;
  std::function<lz::Tensor(lz::Device)> run;  // builds its inputs on the CPU, moves them, computes
  double tolerance = 1e-6;
};

inline void check_against_cpu(const Case& c, lz::Device device) {
  INFO(c.name);
  const lz::Tensor expected = c.run(lz::Device(lz::kCPU));
  const lz::Tensor got = c.run(device);
  REQUIRE(got.device() == device);
  CHECK(got.sizes() == expected.sizes());
  CHECK(got.dtype() == expected.dtype());
  const lz::Tensor host = got.to(lz::Device(lz::kCPU));
  if (lz::is_floating_point(expected.dtype())) {
    CHECK(lz::allclose(host.to(lz::kDouble), expected.to(lz::kDouble), c.tolerance, c.tolerance, true));
  } else {
    CHECK(lz::equal(host, expected));
  }
}

// Computations covering dtypes, broadcasting, non-contiguous views, 0-dim
// and 0-size tensors, reductions, row kernels, in-place and out= forms.
inline std::vector<Case> eager_cases() {
  using lz::Device;
  using lz::Tensor;
  const auto on = [](const Tensor& cpu, Device d) { return to_device_keeping_layout(cpu, d); };
  const auto randf = [](lz::IntArrayRef sizes, uint64_t seed) {
    lz::manual_seed(seed);
    return lz::randn(sizes);
  };
  return {
      {"add with broadcasting", [=](Device d) { return on(randf({4, 1, 5}, 1), d) + on(randf({3, 1}, 2), d); }},
      {"integer multiply by a scalar",
       [=](Device d) { return on(lz::arange(12, lz::TensorOptions(lz::kInt)).reshape({3, 4}), d) * 7; }},
      {"neg of a transposed view", [=](Device d) { return -on(randf({6, 5}, 3).t(), d); }},
      {"exp of a strided slice (double)",
       [=](Device d) { return on(randf({8, 6}, 4).to(lz::kDouble), d).slice(1, 1, 6, 2).exp(); }},
      {"0-dim tensors", [=](Device d) { return on(lz::scalar_tensor(2.5), d) * on(lz::scalar_tensor(4.0), d); }},
      {"0-size tensors", [=](Device d) { return on(lz::zeros({0, 3}), d) + 1; }},
      {"comparison gives bool", [=](Device d) { return on(randf({5, 5}, 5), d) > 0; }},
      {"where", [=](Device d) {
         const Tensor x = on(randf({4, 4}, 6), d);
         return lz::where(x > 0, x, on(lz::zeros({4}), d));
       }},
      {"sum over a dim (int64 result)",
       [=](Device d) { return on(lz::arange(24, lz::TensorOptions(lz::kInt)).reshape({2, 3, 4}), d).sum({1}); }},
      {"sum of everything", [=](Device d) { return on(randf({17, 33}, 7), d).sum(); }, 1e-5},
      {"softmax over rows", [=](Device d) { return lz::softmax(on(randf({7, 40}, 8), d), -1); }},
      {"cast to half and back",
       [=](Device d) { return on(randf({9}, 9), d).to(lz::kHalf).to(lz::kFloat); }},
      {"in-place add into a column view",
       [=](Device d) {
         Tensor base = on(randf({4, 3}, 10), d);
         Tensor col = base.select(1, 1);
         col.add_(on(lz::ones({4}), d));
         return base;
       }},
      {"out= form", [=](Device d) {
         Tensor out = on(lz::empty({3, 3}), d);
         lz::mul_out(out, on(randf({3, 3}, 11), d), on(randf({3}, 12), d));
         return out;
       }},
      {"copy_ between layouts and dtypes",
       [=](Device d) {
         Tensor dst = on(lz::zeros({5, 4}, lz::TensorOptions(lz::kDouble)), d).t();
         dst.copy_(on(randf({4, 5}, 13), d));
         return dst;
       }},
      {"matrix product of a transposed operand", [=](Device d) {
         return lz::matmul(on(randf({6, 5}, 15), d), on(randf({7, 5}, 16), d).t());
       }, 1e-5},
      {"a lazy graph on the device",
       [=](Device d) {
         const Tensor x = on(randf({16, 32}, 14), d).to_lazy();
         return (lz::softmax(x * 2, -1) + x.sum({1}, true)).to_eager();
       }, 1e-5},
  };
}

}  // namespace lz_cuda_test
