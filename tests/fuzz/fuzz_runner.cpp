#include "tests/fuzz/fuzz_runner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "tests/fuzz/fuzz_ops.h"
#include "tests/op_table/tensor_access.h"

namespace lzf {

namespace {

constexpr std::string_view kModeNames[] = {"eager", "interp", "llvm", "nofuse", "cuda-emu"};

bool lazy_mode(Mode m) { return m != Mode::Eager; }

lz::lazy::Settings settings_for(Mode m, const lz::lazy::Settings& base) {
  lz::lazy::Settings s = base;
  s.fusion = m != Mode::NoFusion;
  s.codegen = m == Mode::Interp    ? lz::lazy::Settings::Codegen::Interpreter
              : m == Mode::CudaEmu ? lz::lazy::Settings::Codegen::CudaEmulator
                                   : lz::lazy::Settings::Codegen::Llvm;
  if (m == Mode::Llvm) s.jit_threshold = 1;  // compile every kernel, however small
  if (m == Mode::CudaEmu) s.cuda_archs.clear();  // NVRTC is tested on its own (test_lazy_kernels_nvrtc)
  return s;
}

// Restores the lazy settings on exit.
struct ModeScope {
  lz::lazy::Settings saved = lz::lazy::settings();
  explicit ModeScope(Mode m) { lz::lazy::set_settings(settings_for(m, saved)); }
  ~ModeScope() { lz::lazy::set_settings(saved); }
  ModeScope(const ModeScope&) = delete;
  ModeScope& operator=(const ModeScope&) = delete;
};

std::string error_kind(const lz::Error& e) {
  if (dynamic_cast<const lz::ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const lz::TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const lz::IndexError*>(&e)) return "IndexError";
  if (dynamic_cast<const lz::ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const lz::NotImplementedError*>(&e)) return "NotImplementedError";
  if (dynamic_cast<const lz::DeviceError*>(&e)) return "DeviceError";
  if (dynamic_cast<const lz::OutOfMemoryError*>(&e)) return "OutOfMemoryError";
  if (dynamic_cast<const lz::InternalError*>(&e)) return "InternalError";
  return "Error";
}

// Runs f; "" or the error it raised, typed. Exceptions that are not
// lz::Error are recorded too: any of them is a finding.
template <class F>
std::string capture(F&& f) {
  try {
    f();
  } catch (const lz::Error& e) {
    return error_kind(e) + ": " + e.what();
  } catch (const std::exception& e) {
    return std::string("non-lz exception: ") + e.what();
  }
  return "";
}

double max_magnitude(const lz::Tensor& t) {
  double m = 0;
  for (double v : lzt::values(t)) {
    if (std::isfinite(v)) m = std::max(m, std::abs(v));
  }
  return m;
}

double unit_roundoff(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return 0x1.0p-11;
    case lz::kBFloat16: return 0x1.0p-8;
    case lz::kFloat32: return 0x1.0p-24;
    case lz::kFloat64: return 0x1.0p-53;
    default: return 0;
  }
}

std::string preview(const std::vector<double>& v, size_t at) {
  std::ostringstream os;
  os.precision(9);
  const size_t lo = at >= 2 ? at - 2 : 0, hi = std::min(v.size(), at + 3);
  os << "[" << (lo > 0 ? "... " : "");
  for (size_t k = lo; k < hi; ++k) os << (k > lo ? ", " : "") << v[k];
  os << (hi < v.size() ? " ...]" : "]");
  return os.str();
}

}  // namespace

std::string_view mode_name(Mode m) { return kModeNames[static_cast<int>(m)]; }

std::optional<Mode> mode_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kModeNames); ++i) {
    if (kModeNames[i] == name) return static_cast<Mode>(i);
  }
  return std::nullopt;
}

// ---- Running ----------------------------------------------------------------------------

void StepRunner::run(const Program& p) {
  const size_t i = out_.errors.size();
  const Step& s = p.steps.at(i);
  lz::Tensor result;
  std::string error;
  if (s.kind == Step::Kind::Input) {
    error = capture([&] {
      result = make_input(s);
      if (lazy_mode(mode_) && s.lazy) result = result.to_lazy();
    });
  } else {
    std::vector<lz::Tensor> args;
    for (int a : s.args) {
      if (!live_.at(a).defined()) error = "skipped: %" + std::to_string(a) + " failed";
      args.push_back(live_.at(a));
    }
    if (error.empty()) {
      if (s.kind == Step::Kind::Sync) {
        if (lazy_mode(mode_) && args[0].is_lazy()) error = capture([&] { lz::sync({args[0]}); });
      } else {
        error = capture([&] { result = run_op_step(s, args); });
      }
    }
  }
  live_.push_back(result);
  out_.errors.push_back(error);
  Outcome::Meta meta;
  if (result.defined()) {
    meta.numel = result.numel();
    meta.dtype = result.dtype();
    if (!lazy_mode(mode_)) {
      meta.magnitude = max_magnitude(result);
      meta.storage = result.unsafe_get_impl()->storage().get();
    }
  }
  out_.meta.push_back(meta);
}

void StepRunner::pop() {
  live_.pop_back();
  out_.errors.pop_back();
  out_.meta.pop_back();
}

Outcome StepRunner::finish() && {
  out_.values.assign(live_.size(), lz::Tensor());
  for (size_t i = 0; i < live_.size(); ++i) {
    if (!live_[i].defined()) continue;
    const std::string error = capture([&] { out_.values[i] = live_[i].to_eager(); });
    if (!error.empty()) out_.errors[i] = "materialising: " + error;
  }
  live_.clear();
  return std::move(out_);
}

Outcome run_program(const Program& p, Mode m) {
  ModeScope scope(m);
  StepRunner runner(m);
  for (size_t i = 0; i < p.steps.size(); ++i) runner.run(p);
  return std::move(runner).finish();
}

// ---- Numerics ---------------------------------------------------------------------------

void NumericsTracker::add(const Program& p, const Outcome& ref) {
  const size_t i = info_.size();
  const Step& s = p.steps.at(i);
  ValueNumerics v;
  const bool ok = ref.errors.at(i).empty() && s.kind != Step::Kind::Sync;
  if (!ok) {
    v.reliable = false;
    info_.push_back(v);
    return;
  }
  const Outcome::Meta& meta = ref.meta.at(i);
  v.scale = meta.magnitude;
  v.unit = unit_roundoff(meta.dtype);
  const FuzzOp* op = s.kind == Step::Kind::Op ? find_fuzz_op(s.op) : nullptr;
  if (op == nullptr) {  // an input
    info_.push_back(v);
    return;
  }
  bool exact_in = true;
  int64_t reduced = 1;  // elements per result element, for a reduction
  for (int a : s.args) {
    const ValueNumerics& o = info_.at(a);
    exact_in = exact_in && o.exact;
    v.reliable = v.reliable && o.reliable;
    v.scale = std::max(v.scale, o.scale);
    v.unit = std::max(v.unit, o.unit);
    v.rounding += o.rounding;
    if (meta.numel > 0) reduced = std::max(reduced, ref.meta.at(a).numel / meta.numel);
  }
  // A reduction rounds once per element it adds up (and the eager loops
  // and a fused kernel add in different orders).
  double steps = reduced > 1 ? static_cast<double>(reduced) : 1;
  if (op->amplifies) {
    for (int a : s.args) steps += info_.at(a).scale;
  }
  if (op->sums_inside) steps += static_cast<double>(ref.meta.at(s.args.at(0)).numel);  // a bound on the row
  // An integral result of a rounded value (copy_ into an int tensor) truncates it.
  if (unit_roundoff(meta.dtype) == 0 && !exact_in) v.reliable = false;
  switch (op->numerics) {
    case Numerics::Exact:
      // Sums of multiples of 1/4 stay exact while they fit the mantissa.
      v.exact = exact_in && (v.unit == 0 || v.scale * 8 * v.unit <= 1);
      if (!v.exact) v.rounding += steps;
      break;
    case Numerics::Rounded:
      v.exact = false;
      v.rounding += steps;
      break;
    case Numerics::Discontinuous:
      // A step function of a rounded value may flip: nothing below it is comparable.
      v.reliable = v.reliable && exact_in;
      v.exact = true;
      break;
  }
  info_.push_back(v);
  if (op->inplace) {
    // Every value sharing the written storage may have changed.
    const void* written = ref.meta.at(s.args.at(0)).storage;
    for (size_t j = 0; j < i; ++j) {
      if (ref.meta.at(j).storage != written || written == nullptr) continue;
      ValueNumerics& w = info_[j];
      w.exact = w.exact && v.exact;
      w.reliable = w.reliable && v.reliable;
      w.scale = std::max(w.scale, v.scale);
      w.unit = std::max(w.unit, v.unit);
      w.rounding = std::max(w.rounding, v.rounding);
    }
  }
}

// ---- Comparing --------------------------------------------------------------------------

std::string compare_outcomes(const Program& p, const Outcome& expected, const Outcome& actual) {
  // The tracker reads the reference run step by step.
  NumericsTracker numerics;
  for (size_t i = 0; i < p.steps.size(); ++i) numerics.add(p, expected);
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const std::string where = "step " + to_text(p.steps[i], i) + ": ";
    if (expected.errors[i] != actual.errors[i]) {
      return "error: " + where + "the reference " + (expected.errors[i].empty() ? "succeeds" : "fails with \"" + expected.errors[i] + "\"") +
             ", this mode " + (actual.errors[i].empty() ? "succeeds" : "fails with \"" + actual.errors[i] + "\"");
    }
    const lz::Tensor& e = expected.values[i];
    const lz::Tensor& a = actual.values[i];
    if (!e.defined() || !a.defined()) continue;
    if (e.sizes() != a.sizes() || e.dtype() != a.dtype()) {
      return "shape: " + where + "expected " + std::string(dtype_code(e.dtype())) + lz::shape_str(e.sizes()) + ", got " +
             std::string(dtype_code(a.dtype())) + lz::shape_str(a.sizes());
    }
    const ValueNumerics& n = numerics.at(i);
    if (!n.reliable) continue;
    const std::vector<double> ev = lzt::values(e), av = lzt::values(a);
    const bool exact = !lzt::is_float(e.dtype()) || n.exact;
    // Each inexact step rounds by at most a few units of the coarsest dtype
    // it computes in, relative to the largest magnitude it saw.
    const double atol = exact ? 0 : 8 * n.unit * n.scale * (n.rounding + 1);
    const double rtol = exact ? 0 : 8 * unit_roundoff(e.dtype());
    for (size_t k = 0; k < ev.size(); ++k) {
      const double x = ev[k], y = av[k];
      if (std::isnan(x) && std::isnan(y)) continue;
      if (x == y) continue;
      if (!exact && std::isfinite(x) && std::isfinite(y) && std::abs(x - y) <= atol + rtol * std::abs(x)) continue;
      std::ostringstream os;
      os.precision(17);
      os << "value: " << where << "element " << k << " of " << dtype_code(e.dtype()) << lz::shape_str(e.sizes()) << ": expected " << x
         << ", got " << y;
      if (exact) {
        os << " (exact)";
      } else {
        os << " (tolerance " << atol + rtol * std::abs(x) << ")";
      }
      os << "\n  expected " << preview(ev, k) << "\n  got      " << preview(av, k);
      return os.str();
    }
  }
  return "";
}

std::string check_program(const Program& p, const std::vector<Mode>& modes) {
  const Outcome expected = run_program(p, Mode::Eager);
  for (Mode m : modes) {
    const std::string d = compare_outcomes(p, expected, run_program(p, m));
    if (!d.empty()) return std::string(mode_name(m)) + ": " + d;
  }
  return "";
}

std::string trace_text(const Program& p) {
  ModeScope scope(Mode::Llvm);
  StepRunner runner(Mode::Llvm);
  Program traced = p;
  // Syncs would materialise part of the trace; the report wants all of it.
  for (Step& s : traced.steps) {
    if (s.kind == Step::Kind::Sync) s.kind = Step::Kind::Op, s.op = "clone";
  }
  for (size_t i = 0; i < traced.steps.size(); ++i) runner.run(traced);
  return lz::lazy::dump_trace();
}

}  // namespace lzf
