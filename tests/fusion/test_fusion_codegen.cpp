// The LLVM code generator behind lazy graphs: when kernels compile (tiered
// compilation, settings), that compiled kernels agree with eager over odd
// sizes and layouts, and what metrics and dumps say about them.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "codegen_interp/interp_code_generator.h"
#include "ir/code_generator.h"
#include "lazy/config.h"
#include "lazy/metrics.h"

namespace {

using lz::Tensor;

// Restores the lazy settings a test changes.
struct SettingsGuard {
  lz::lazy::Settings saved = lz::lazy::settings();
  ~SettingsGuard() { lz::lazy::set_settings(saved); }
  void threshold(int64_t n) {
    lz::lazy::Settings s = lz::lazy::settings();
    s.jit_threshold = n;
    lz::lazy::set_settings(s);
  }
};

Tensor relu_exp(const Tensor& x, const Tensor& b) { return lz::relu(x * 2 - b).exp(); }

TEST_CASE("small kernels are interpreted until they repeat, then compiled", "[codegen]") {
  SettingsGuard guard;
  guard.threshold(2);
  // A shape no other test uses, so the executable (and its kernel) is new.
  const Tensor x = lz::randn({3, 29}), b = lz::randn({29});
  lz::lazy::reset_metrics();
  const Tensor first = relu_exp(x.to_lazy(), b).to_eager();
  CHECK(lz::lazy::metrics().kernels_interpreted == 1);
  CHECK(lz::lazy::metrics().jit_compiled == 0);
  const Tensor second = relu_exp(x.to_lazy(), b).to_eager();
  CHECK(lz::lazy::metrics().kernels_interpreted == 1);
  CHECK(lz::lazy::metrics().jit_compiled + lz::lazy::metrics().jit_disk_hits == 1);
  const Tensor expected = relu_exp(x, b);
  CHECK(lz::allclose(first, expected, 1e-6, 1e-6));
  CHECK(lz::allclose(second, expected, 1e-6, 1e-6));
}

TEST_CASE("large launches compile at once", "[codegen]") {
  SettingsGuard guard;
  guard.threshold(1000);
  const Tensor x = lz::randn({70001});
  lz::lazy::reset_metrics();
  const Tensor got = (x.to_lazy() * 3 + 1).sigmoid().to_eager();
  CHECK(lz::lazy::metrics().kernels_interpreted == 0);
  CHECK(lz::lazy::metrics().jit_compiled + lz::lazy::metrics().jit_disk_hits == 1);
  CHECK(lz::allclose(got, (x * 3 + 1).sigmoid(), 1e-6, 1e-6));
}

TEST_CASE("LZ_CODEGEN=interp runs every kernel through the interpreter", "[codegen]") {
  SettingsGuard guard;
  lz::lazy::Settings s = lz::lazy::settings();
  s.codegen = lz::lazy::Settings::Codegen::Interpreter;
  lz::lazy::set_settings(s);
  const Tensor x = lz::randn({70003});
  lz::lazy::reset_metrics();
  const Tensor got = (x.to_lazy() - 0.5).tanh().to_eager();
  CHECK(lz::lazy::metrics().jit_compiled == 0);
  CHECK(lz::lazy::metrics().kernels_launched == 1);
  CHECK(lz::allclose(got, (x - 0.5).tanh(), 1e-6, 1e-6));
}

// A CPU generator registered in place of "interp": it records what it is
// asked to compile, and its code declines every launch, so the reference
// interpreter runs each kernel (lazy/kernel_launch.cpp's fallback).
class RecordingGenerator final : public lz::ir::CodeGenerator {
 public:
  class DecliningCode final : public lz::ir::CompiledCode {
   public:
    lz::ir::Launched launch(const lz::ir::KernelLaunch&, std::string*) const override {
      return lz::ir::Launched::Interpret;
    }
    std::string_view language() const override { return "txt"; }
    std::string text() const override { return "recorded"; }
  };
  explicit RecordingGenerator(std::vector<std::string>* compiled) : compiled_(compiled) {}
  std::shared_ptr<const lz::ir::CompiledCode> compile(const lz::ir::Kernel& k, int device_index,
                                                      const lz::ir::CodegenSettings& settings) const override {
    compiled_->push_back(k.name + " on device " + std::to_string(device_index) +
                         (settings.fast_math ? ", fast math" : ", precise math"));
    return std::make_shared<const DecliningCode>();
  }

 private:
  std::vector<std::string>* compiled_;
};

TEST_CASE("kernels compile through the registered code generator of their device", "[codegen]") {
  SettingsGuard guard;
  lz::lazy::Settings s = lz::lazy::settings();
  s.codegen = lz::lazy::Settings::Codegen::Interpreter;
  lz::lazy::set_settings(s);
  const Tensor warm = (lz::ones({3}).to_lazy() + 1).to_eager();  // the built-in generators are registered by now
  std::vector<std::string> compiled;
  lz::ir::register_code_generator(lz::DeviceType::CPU, "interp", std::make_unique<RecordingGenerator>(&compiled));
  struct Restore {
    ~Restore() { lz::codegen_interp::register_code_generator(); }
  } restore;
  const Tensor x = lz::randn({5, 31});
  lz::lazy::reset_metrics();
  const Tensor got = (x.to_lazy() * 1.5).cos().to_eager();
  REQUIRE(compiled.size() == 1);
  CHECK_THAT(compiled[0], Catch::EndsWith(" on device 0, precise math"));
  CHECK(lz::lazy::metrics().kernels_interpreted == 1);
  CHECK(lz::allclose(got, (x * 1.5).cos(), 1e-6, 1e-6));
}

// f lazily (every kernel compiled) == f eagerly, for inputs of every listed size.
void check_compiled(const std::function<Tensor(const Tensor&, const Tensor&)>& f, const Tensor& x, const Tensor& y,
                    double rtol = 1e-5, double atol = 1e-6) {
  const Tensor expected = f(x, y);
  const Tensor got = f(x.to_lazy(), y.to_lazy()).to_eager();
  INFO("sizes " << lz::shape_str(x.sizes()) << " and " << lz::shape_str(y.sizes()));
  REQUIRE(got.sizes() == expected.sizes());
  if (got.is_floating_point()) {
    CHECK(lz::allclose(got.to(lz::kFloat64), expected.to(lz::kFloat64), rtol, atol, true));
  } else {
    CHECK(lz::equal(got, expected));
  }
}

TEST_CASE("compiled kernels over odd sizes, strided and broadcast inputs equal eager", "[codegen]") {
  SettingsGuard guard;
  guard.threshold(1);
  const auto pointwise = [](const Tensor& a, const Tensor& b) { return (a * b + 0.25).exp() - a.abs(); };
  const auto row_softmax = [](const Tensor& a, const Tensor& b) { return lz::softmax(a + b, -1); };
  const auto column_sum = [](const Tensor& a, const Tensor& b) { return lz::sum(a * b, {0}); };
  const auto full_sum = [](const Tensor& a, const Tensor& b) { return lz::sum(a * b); };
  for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{1023}, (int64_t{1} << 20) + 3}) {
    const Tensor a = lz::randn({n});
    const Tensor b = lz::randn({n});
    check_compiled(pointwise, a, b);
    check_compiled(full_sum, a, b, 1e-4, 1e-3);
  }
  for (int64_t cols : {int64_t{1}, int64_t{7}, int64_t{1023}}) {
    const Tensor a = lz::randn({cols, 5}).t();  // [5, cols], transposed
    const Tensor row = lz::randn({cols});       // broadcast over rows
    const Tensor column = lz::randn({5, 1});    // broadcast along the segment axis
    const Tensor sliced = lz::randn({5, 2 * cols}).slice(1, 0, std::nullopt, 2);
    check_compiled(pointwise, a, row);
    check_compiled(pointwise, a, column);
    check_compiled(pointwise, sliced, row);
    check_compiled(row_softmax, a, row);
    check_compiled(row_softmax, sliced, column);
    check_compiled(column_sum, a, column, 1e-4, 1e-5);
    check_compiled(column_sum, sliced, row, 1e-4, 1e-5);
  }
  // Integers and bool are exact; 16-bit floats round like eager.
  const Tensor i = (lz::randn({1023}) * 1000).to(lz::kInt32);
  const Tensor j = (lz::rand({1023}) * 49 + 1).to(lz::kInt32);
  check_compiled([](const Tensor& a, const Tensor& b) { return a * b - (a > b).to(lz::kInt32); }, i, j);
  check_compiled([](const Tensor& a, const Tensor& b) { return lz::logical_xor(a > 0, b > 25); }, i, j);
  const Tensor h = lz::randn({1023}).to(lz::kBFloat16);
  check_compiled([](const Tensor& a, const Tensor& b) { return a * b + a; }, h, h, 1e-2, 1e-2);
}

TEST_CASE("dumps hold each kernel's LLVM IR and metrics report the compiles", "[codegen]") {
  SettingsGuard guard;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "lz_codegen_dump_test";
  std::filesystem::remove_all(dir);
  lz::lazy::Settings s = lz::lazy::settings();
  s.dump_dir = dir.string();
  lz::lazy::set_settings(s);
  const Tensor x = lz::randn({4, 31});
  (lz::softmax(x.to_lazy(), -1) * 3).to_eager();
  bool found = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().filename() != "5_generate_code_kernel_0.ll") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str().find("define void @lzk_") != std::string::npos);
    const bool vectorised = text.str().find("<16 x float>") != std::string::npos ||
                            text.str().find("<8 x float>") != std::string::npos ||
                            text.str().find("<4 x float>") != std::string::npos;
    CHECK(vectorised);
    found = true;
  }
  CHECK(found);
  std::filesystem::remove_all(dir);
  CHECK(lz::lazy::metrics().report().find("LLVM: ") != std::string::npos);
}

}  // namespace
