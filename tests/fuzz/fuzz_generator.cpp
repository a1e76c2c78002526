#include "tests/fuzz/fuzz_generator.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "tests/fuzz/fuzz_ops.h"
#include "tests/fuzz/fuzz_runner.h"
#include "tests/op_table/tensor_access.h"

namespace lzf {

namespace {

constexpr int64_t kMaxResult = 300000;  // elements; larger results are drawn again

bool broadcastable(lz::IntArrayRef a, lz::IntArrayRef b) {
  for (size_t k = 1; k <= std::min(a.size(), b.size()); ++k) {
    const int64_t x = a[a.size() - k], y = b[b.size() - k];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}
// Whether b broadcasts to a's shape (an in-place operand).
bool broadcasts_to(lz::IntArrayRef b, lz::IntArrayRef a) {
  if (b.size() > a.size()) return false;
  for (size_t k = 1; k <= b.size(); ++k) {
    if (b[b.size() - k] != a[a.size() - k] && b[b.size() - k] != 1) return false;
  }
  return true;
}

class Generator {
 public:
  Generator(uint64_t seed, const GeneratorOptions& o) : rng_(seed), o_(o) {}

  Program run() {
    const int target = static_cast<int>(rng_.uniform(1, o_.max_ops));
    int added = 0;
    for (int attempt = 0; added < target && attempt < target * 10; ++attempt) {
      if (rng_.chance(o_.syncs)) add_sync();
      if (rng_.chance(o_.drops)) add_drop(any_usable());
      if (rng_.chance(o_.view_writes)) {
        if (add_view_write()) ++added;
        continue;
      }
      if (add_op(rng_.pick(fuzz_ops()))) ++added;
    }
    if (p_.steps.empty()) new_input(random_sizes(), random_dtype());
    return p_;
  }

 private:
  // Appends step s and runs it eagerly; "" or its error.
  std::string push(Step s) {
    // In lazy modes a result is lazy when an operand is (an in-place one stays what it was).
    bool lazy = s.kind == Step::Kind::Input ? s.lazy : false;
    const FuzzOp* op = s.kind == Step::Kind::Op ? find_fuzz_op(s.op) : nullptr;
    if (s.kind != Step::Kind::Drop) {
      for (size_t k = 0; k < s.args.size(); ++k) lazy = lazy || (reads_value(op, k) && lazy_[s.args[k]]);
    }
    if (op != nullptr && op->inplace) lazy = lazy_[s.args[0]];
    if (op != nullptr && op->eager_result) lazy = false;
    lazy_.push_back(lazy);
    p_.steps.push_back(std::move(s));
    runner_.run(p_);
    numerics_.add(p_, runner_.outcome());
    return runner_.outcome().errors.back();
  }
  // Takes back the last step (one that wrote nothing: an error or a new value).
  void pop() {
    p_.steps.pop_back();
    lazy_.pop_back();
    runner_.pop();
    numerics_.pop();
  }
  const void* storage(int v) const { return runner_.outcome().meta.at(v).storage; }
  // Storages the generator must not write after step s: both sides of an
  // operator whose aliasing is unspecified (reshape). (Eager values a lazy
  // computation read may be written: it keeps the value it read.)
  void note_frozen(const Step& s) {
    if (s.kind == Step::Kind::Op && find_fuzz_op(s.op)->aliasing_unspecified) {
      frozen_.insert(storage(s.args[0]));
      frozen_.insert(storage(static_cast<int>(p_.steps.size()) - 1));
    }
  }
  static bool reads_value(const FuzzOp* op, size_t k) { return op == nullptr || !(op->sizes_only_args & (1u << k)); }
  bool writable(int v) const { return !frozen_.count(storage(v)); }
  // Valid until the next push().
  const lz::Tensor& value(int i) const { return runner_.live(static_cast<size_t>(i)); }
  bool usable(size_t i) const { return p_.defines_value(i) && runner_.live(i).defined(); }

  lz::ScalarType random_dtype() {
    static const std::vector<lz::ScalarType> weighted = {
        lz::kFloat32, lz::kFloat32, lz::kFloat32, lz::kFloat32, lz::kFloat64, lz::kFloat16, lz::kBFloat16,
        lz::kInt64,   lz::kInt32,   lz::kUInt8,   lz::kBool,    lz::kFloat32, lz::kBFloat16, lz::kInt64,
        lz::kInt8,    lz::kInt16};
    return rng_.pick(weighted);
  }

  lz::SizeVec random_sizes() {
    if (rng_.chance(o_.large_inputs)) {
      const int64_t n = rng_.uniform(70000, 140000);
      return rng_.chance(0.5) ? lz::SizeVec{n} : lz::SizeVec{rng_.uniform(2, 9), n / 8};
    }
    static const std::vector<int64_t> ranks = {0, 1, 1, 2, 2, 2, 3, 3, 4};
    static const std::vector<int64_t> dims = {1, 1, 2, 3, 4, 5, 7, 8, 16, 33};
    for (;;) {
      lz::SizeVec s;
      for (int64_t r = rng_.pick(ranks); r > 0; --r) s.push_back(rng_.chance(0.03) ? 0 : rng_.pick(dims));
      if (lzt::numel_of(s) <= 4096) return s;
    }
  }

  int new_input(const lz::SizeVec& sizes, lz::ScalarType dtype) {
    Step s;
    s.kind = Step::Kind::Input;
    s.sizes = sizes;
    s.dtype = dtype;
    s.seed = rng_.seed32() % 100000;
    s.lazy = !rng_.chance(o_.eager_inputs);
    s.special = lzt::is_float(dtype) && rng_.chance(o_.special_values);
    std::vector<Layout> layouts = {Layout::Contiguous, Layout::Contiguous};
    if (!sizes.empty()) layouts.push_back(Layout::Strided);
    if (!sizes.empty()) layouts.push_back(Layout::Expanded);
    if (!sizes.empty()) layouts.push_back(Layout::Offset);
    if (sizes.size() >= 2) layouts.push_back(Layout::Transposed);
    s.layout = rng_.pick(layouts);
    push(std::move(s));
    return static_cast<int>(p_.steps.size()) - 1;
  }

  // A shape that broadcasts with `a` (to it, when `into`); now and then one that does not.
  lz::SizeVec shape_like(lz::IntArrayRef a, bool into) {
    lz::SizeVec s(a.begin(), a.end());
    const int64_t kind = rng_.uniform(0, 19);
    if (kind < 8) return s;                                    // the same
    if (kind < 13) {                                           // some dims 1
      for (int64_t& d : s) {
        if (rng_.chance(0.5)) d = 1;
      }
      return s;
    }
    if (kind < 16) return lz::SizeVec(s.begin() + rng_.uniform(0, static_cast<int64_t>(s.size())), s.end());  // a suffix
    if (kind < 18) return {};                                  // 0-dim
    if (kind < 19 && !into && s.size() < 4) {                  // the other operand widens: a leading dim
      s.insert(s.begin(), rng_.uniform(2, 3));
      return s;
    }
    if (!s.empty()) s[rng_.uniform(0, static_cast<int64_t>(s.size()) - 1)] += 1;  // does not broadcast
    return s;
  }

  // A value to start from: the newest (a chain) half the time, else any (a diamond).
  int pick_value(bool need_exact) {
    std::vector<int> ok;
    for (size_t i = 0; i < p_.steps.size(); ++i) {
      if (usable(i) && (!need_exact || numerics_.exact(i))) ok.push_back(static_cast<int>(i));
    }
    if (ok.empty() || rng_.chance(0.15)) return new_input(random_sizes(), random_dtype());
    return rng_.chance(0.5) ? ok.back() : rng_.pick(ok);
  }

  // A second operand for `a`: an existing value that fits, or a new input.
  int operand_for(int a, bool into, bool need_exact, std::optional<lz::ScalarType> dtype = std::nullopt) {
    const lz::SizeVec as(value(a).sizes().begin(), value(a).sizes().end());
    if (rng_.chance(0.4)) {
      std::vector<int> fits;
      for (size_t i = 0; i < p_.steps.size(); ++i) {
        if (!usable(i) || static_cast<int>(i) == a || (need_exact && !numerics_.exact(i))) continue;
        const lz::Tensor& t = value(static_cast<int>(i));
        if (dtype && t.dtype() != *dtype) continue;
        if (into ? broadcasts_to(t.sizes(), as) : broadcastable(t.sizes(), as)) fits.push_back(static_cast<int>(i));
      }
      if (!fits.empty()) return rng_.pick(fits);
    }
    const lz::ScalarType t = dtype ? *dtype : rng_.chance(0.7) ? value(a).dtype() : random_dtype();
    return new_input(shape_like(as, into), t);
  }

  // `v`, or abs(v) + 1/2 (+ 1 for integers) when it has values below 1/4.
  int positive(int v) {
    const lz::Tensor t = value(v);  // a copy: push() may move the runner's tensors
    bool ok = true;
    for (double x : lzt::values(t)) ok = ok && x >= 0.25;
    if (ok) return v;
    Step abs;
    abs.op = "abs";
    abs.args = {v};
    if (t.dtype() != lz::kBool) {
      if (!push(abs).empty()) return v;
      v = static_cast<int>(p_.steps.size()) - 1;
    }
    Step add;
    add.op = "add.scalar";
    add.args = {v};
    add.value_is_int = !lzt::is_float(t.dtype());
    add.value = add.value_is_int ? 1 : 0.5;
    return push(add).empty() ? static_cast<int>(p_.steps.size()) - 1 : v;
  }

  // A value the program still holds, or -1.
  int any_usable() {
    std::vector<int> ok;
    for (size_t i = 0; i < p_.steps.size(); ++i) {
      if (usable(i)) ok.push_back(static_cast<int>(i));
    }
    return ok.empty() ? -1 : rng_.pick(ok);
  }

  void add_sync() {
    const int v = any_usable();
    if (v < 0) return;
    Step s;
    s.kind = Step::Kind::Sync;
    s.args = {v};
    push(std::move(s));
  }

  void add_drop(int v) {
    if (v < 0) return;
    Step s;
    s.kind = Step::Kind::Drop;
    s.args = {v};
    push(std::move(s));
  }

  // A view (or a view of a view) of an input or an earlier value written in
  // place, the views then dropped (mostly) before the base is read, with a
  // materialisation between now and then.
  bool add_view_write() {
    static const std::vector<std::string_view> views = {"t",     "transpose", "permute", "select", "narrow",
                                                        "slice", "unsqueeze", "squeeze", "split",  "chunk"};
    static const std::vector<std::string_view> writes = {"add_",   "sub_", "mul_",   "copy_",   "add_.scalar", "mul_.scalar",
                                                         "clamp_", "neg_", "fill_", "zero_", "masked_fill_", "exp_"};
    int v = rng_.chance(0.6) ? new_input(random_sizes(), random_dtype()) : pick_value(false);
    std::vector<int> taken;
    for (int depth = rng_.chance(0.3) ? 2 : 1; depth > 0; --depth) {
      if (!add_op(*find_fuzz_op(rng_.pick(views)), v) || !p_.defines_value(p_.steps.size() - 1)) break;
      v = static_cast<int>(p_.steps.size()) - 1;
      taken.push_back(v);
    }
    if (taken.empty()) return false;
    const bool wrote = add_op(*find_fuzz_op(rng_.pick(writes)), v);
    for (int t : taken) {
      if (rng_.chance(0.8)) add_drop(t);
    }
    if (rng_.chance(0.3)) add_sync();
    return wrote;
  }

  std::vector<int> operands(const FuzzOp& op, std::optional<int> first) {
    const bool exact = op.numerics == Numerics::Discontinuous;
    const int a = first ? *first : pick_value(exact);
    switch (op.operands) {
      case Operands::One: return {a};
      case Operands::Two: return {a, operand_for(a, op.inplace, exact)};
      case Operands::Three: return {a, operand_for(a, false, exact), operand_for(a, false, exact)};
      case Operands::Where: {
        const int cond = operand_for(a, false, true, lz::kBool);
        return {cond, a, operand_for(a, false, exact)};
      }
      case Operands::Mask: return {a, operand_for(a, op.inplace, true, lz::kBool)};
      case Operands::SameShape: {
        lz::SizeVec s(value(a).sizes().begin(), value(a).sizes().end());
        if (!s.empty() && rng_.chance(0.3)) s[rng_.uniform(0, static_cast<int64_t>(s.size()) - 1)] += 1;
        return {a, new_input(s, rng_.chance(0.8) ? value(a).dtype() : random_dtype())};
      }
      case Operands::MatMul: {
        lz::SizeVec s(value(a).sizes().begin(), value(a).sizes().end());
        lz::SizeVec b;
        if (s.size() >= 2) {
          b = {s[s.size() - 1], rng_.uniform(1, 9)};
          if (s.size() == 3 && rng_.chance(0.5)) b.insert(b.begin(), s[0]);
        } else {
          b = {s.empty() ? 3 : s[0], rng_.uniform(1, 9)};
        }
        if (rng_.chance(0.05)) b[0] += 1;  // mismatched inner sizes
        return {a, new_input(b, rng_.chance(0.85) ? value(a).dtype() : random_dtype())};
      }
    }
    return {a};
  }

  // Whether the step's result would exceed kMaxResult elements, found by
  // recording it on lazy copies of its operands (only sizes are computed:
  // a [10^5, 1] times [3 10^4] broadcast is never allocated). A step that
  // raises is not too large: push() runs it and sees the error.
  static bool too_large(const Step& s, const std::vector<lz::Tensor>& args) {
    std::vector<lz::Tensor> lazy;
    for (const lz::Tensor& t : args) lazy.push_back(t.to_lazy());
    try {
      return run_op_step(s, lazy).numel() > kMaxResult;
    } catch (const std::exception&) {
      return false;
    }
  }

  // Adds a step of `op` (on `first`, when given); false when none was kept.
  bool add_op(const FuzzOp& op, std::optional<int> first = std::nullopt) {
    Step s;
    s.op = std::string(op.name);
    s.args = operands(op, first);
    for (size_t k = 0; k < s.args.size(); ++k) {
      if (op.positive_args & (1u << k)) s.args[k] = positive(s.args[k]);
    }
    if (op.inplace && !writable(s.args[0])) return false;
    std::vector<lz::Tensor> args;
    for (int a : s.args) args.push_back(value(a));
    if (op.attrs != nullptr && !op.attrs(rng_, args, s)) return false;
    if (!op.inplace && !op.eager_result && too_large(s, args)) return false;
    const std::string error = push(s);
    note_frozen(p_.steps.back());
    if (!error.empty()) {
      // Data-dependent errors are kept more often: lazily they fail only
      // what they reach, which the comparison then checks.
      if (rng_.chance(op.data_dependent_error ? 0.7 : o_.keep_errors)) return true;
      pop();
      return false;
    }
    if (!op.inplace && value(static_cast<int>(p_.steps.size()) - 1).numel() > kMaxResult) {
      pop();
      return false;
    }
    return true;
  }

  Rng rng_;
  GeneratorOptions o_;
  Program p_;
  StepRunner runner_{Mode::Eager};
  NumericsTracker numerics_;
  std::vector<bool> lazy_;             // per step: lazy in the lazy modes
  std::set<const void*> frozen_;       // storages whose aliasing is unspecified
};

}  // namespace

Program generate_program(uint64_t seed, const GeneratorOptions& options) { return Generator(seed, options).run(); }

}  // namespace lzf
