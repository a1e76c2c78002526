#include "tests/fuzz/fuzz_runner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ir/graph.h"
#include "lazy/tolerance.h"
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

using lz::lazy::unit_roundoff;

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
    if (s.kind == Step::Kind::Drop) {
      live_.at(s.args.at(0)) = lz::Tensor();
      args.clear();
      error.clear();
    } else if (error.empty()) {
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

namespace {

// Runs every step in mode m, whose settings are in force.
Outcome run_steps(const Program& p, Mode m) {
  StepRunner runner(m);
  for (size_t i = 0; i < p.steps.size(); ++i) runner.run(p);
  return std::move(runner).finish();
}

}  // namespace

Outcome run_program(const Program& p, Mode m) {
  ModeScope scope(m);
  return run_steps(p, m);
}

// ---- Numerics ---------------------------------------------------------------------------

void NumericsTracker::add(const Program& p, const Outcome& ref) {
  const size_t i = info_.size();
  const Step& s = p.steps.at(i);
  ValueNumerics v;
  const bool ok = ref.errors.at(i).empty() && p.defines_value(i);
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
    const FuzzOp* op = p.steps[i].kind == Step::Kind::Op ? find_fuzz_op(p.steps[i].op) : nullptr;
    // A data-dependent error is raised lazily when the value is needed.
    const bool raised_later = op != nullptr && op->data_dependent_error && !expected.errors[i].empty() &&
                              actual.errors[i] == "materialising: " + expected.errors[i];
    if (expected.errors[i] != actual.errors[i] && !raised_later) {
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
    // The rule LZ_CHECK_EAGER uses too (lazy/tolerance.h).
    const lz::lazy::Rounding rounding{n.exact, n.unit, n.scale, n.rounding};
    if (const std::optional<lz::lazy::Mismatch> m = lz::lazy::first_mismatch(ev, av, rounding, e.dtype())) {
      const size_t k = static_cast<size_t>(m->index);
      std::ostringstream os;
      os.precision(17);
      os << "value: " << where << "element " << k << " of " << dtype_code(e.dtype()) << lz::shape_str(e.sizes())
         << ": expected " << m->expected << ", got " << m->actual;
      if (m->allowed == 0) {
        os << " (exact)";
      } else {
        os << " (tolerance " << m->allowed << ")";
      }
      os << "\n  expected " << preview(ev, k) << "\n  got      " << preview(av, k);
      return os.str();
    }
  }
  return "";
}

namespace {

// The steps whose eager run raised: a replay that changes them no longer
// runs the same graphs.
std::vector<bool> failing_steps(const Outcome& o) {
  std::vector<bool> f;
  for (const std::string& e : o.errors) f.push_back(!e.empty());
  return f;
}

// A number the replay may use instead of v: as near, and as structural
// (never one of the special scalars, which are part of a graph's hash).
double other_number(double v, bool is_int) {
  if (lz::ir::is_special_scalar(is_int ? lz::Scalar(static_cast<int64_t>(v)) : lz::Scalar(v))) return v;
  const double step = is_int ? 1 : 0.25;
  double w = v + step;
  while (lz::ir::is_special_scalar(is_int ? lz::Scalar(static_cast<int64_t>(w)) : lz::Scalar(w))) w += step;
  return w;
}

// Replay k of p: new input values and runtime numbers, and (odd k) other
// sizes, each size above 1 grown by one everywhere, so broadcasting and
// the graphs' structure stay. A replay must raise in the same steps as p
// (a new failure would leave eager and lazy values apart by design: an
// in-place step skipped eagerly is recorded lazily), so a few variants are
// tried, then p itself (the cached executables on the same values).
Program replay_of(const Program& p, const Outcome& original, int k) {
  const std::vector<bool> failing = failing_steps(original);
  for (int attempt = 0; attempt < 3; ++attempt) {
    Program r = p;
    for (Step& s : r.steps) {
      if (s.kind == Step::Kind::Input) {
        s.seed = static_cast<uint32_t>((uint64_t{s.seed} * 2654435761u + k + 100 * attempt) % 100000);
      }
      if (s.kind != Step::Kind::Op) continue;
      const FuzzOp* op = find_fuzz_op(s.op);
      if (op != nullptr && op->scalar_value) s.value = other_number(s.value, s.value_is_int);
    }
    if (k % 2 == 1) {
      Program sized = r;
      for (Step& s : sized.steps) {
        if (s.kind != Step::Kind::Input) continue;
        for (int64_t& d : s.sizes) d += d > 1 ? 1 : 0;
      }
      if (failing_steps(run_program(sized, Mode::Eager)) == failing) return sized;
    }
    if (failing_steps(run_program(r, Mode::Eager)) == failing) return r;
  }
  return p;
}

}  // namespace

std::string check_program(const Program& p, const std::vector<Mode>& modes, int replays) {
  std::vector<Program> runs = {p};
  std::vector<Outcome> expected = {run_program(p, Mode::Eager)};
  for (int k = 1; k <= replays; ++k) {
    runs.push_back(replay_of(p, expected[0], k));
    expected.push_back(run_program(runs.back(), Mode::Eager));
  }
  for (Mode m : modes) {
    // One scope per mode: the replays find the executables the first run
    // compiled in the cache (a change of mode clears it).
    ModeScope scope(m);
    for (size_t r = 0; r < runs.size(); ++r) {
      const std::string d = compare_outcomes(runs[r], expected[r], run_steps(runs[r], m));
      if (d.empty()) continue;
      std::string where(mode_name(m));
      if (r > 0) where += " (replay " + std::to_string(r) + ")";
      return where + ": " + d + (r > 0 ? "\nreplayed program:\n" + to_text(runs[r]) : "");
    }
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
