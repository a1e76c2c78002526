#include "tests/fuzz/fuzz_minimise.h"

namespace lzf {

std::string failure_signature(const std::string& failure) {
  const size_t first = failure.find(": ");
  if (first == std::string::npos) return failure;
  const size_t second = failure.find(": ", first + 2);
  return failure.substr(0, second);
}

Program drop_steps(const Program& p, const std::vector<bool>& drop) {
  std::vector<int> renamed(p.steps.size(), -1);
  Program out;
  for (size_t i = 0; i < p.steps.size(); ++i) {
    bool keep = !drop[i];
    for (int a : p.steps[i].args) keep = keep && renamed[a] >= 0;
    if (!keep) continue;
    Step s = p.steps[i];
    for (int& a : s.args) a = renamed[a];
    renamed[i] = static_cast<int>(out.steps.size());
    out.steps.push_back(std::move(s));
  }
  return out;
}

namespace {

class Minimiser {
 public:
  Minimiser(const FailureCheck& fails, int max_runs, std::string signature)
      : fails_(fails), runs_left_(max_runs), signature_(std::move(signature)) {}

  // Whether `candidate` still fails the same way (then it becomes `best`).
  bool try_program(Program& best, const Program& candidate) {
    if (runs_left_ <= 0 || candidate.steps.empty()) return false;
    --runs_left_;
    const std::string f = fails_(candidate);
    if (f.empty() || failure_signature(f) != signature_) return false;
    best = candidate;
    return true;
  }
  bool exhausted() const { return runs_left_ <= 0; }

 private:
  const FailureCheck& fails_;
  int runs_left_;
  std::string signature_;
};

// One pass of every kind of change over `best`; whether any was kept.
bool reduce_once(Minimiser& m, Program& best) {
  bool progress = false;
  // Drop steps, the last first (its users go with it).
  for (size_t i = best.steps.size(); i-- > 0 && !m.exhausted();) {
    if (i >= best.steps.size()) continue;
    std::vector<bool> drop(best.steps.size(), false);
    drop[i] = true;
    progress |= m.try_program(best, drop_steps(best, drop));
  }
  // Bypass an operator step: its users read its first operand instead.
  for (size_t i = best.steps.size(); i-- > 0 && !m.exhausted();) {
    if (i >= best.steps.size() || best.steps[i].kind != Step::Kind::Op || best.steps[i].args.empty()) continue;
    Program c = best;
    const int replacement = c.steps[i].args[0];
    for (size_t j = i + 1; j < c.steps.size(); ++j) {
      for (int& a : c.steps[j].args) {
        if (a == static_cast<int>(i)) a = replacement;
      }
    }
    std::vector<bool> drop(c.steps.size(), false);
    drop[i] = true;
    progress |= m.try_program(best, drop_steps(c, drop));
  }
  // Simpler inputs: contiguous, lazy, then smaller.
  for (size_t i = 0; i < best.steps.size() && !m.exhausted(); ++i) {
    if (best.steps[i].kind != Step::Kind::Input) continue;
    auto change = [&](auto&& edit) {
      Program c = best;
      if (edit(c.steps[i])) progress |= m.try_program(best, c);
    };
    change([](Step& s) { return s.layout != Layout::Contiguous ? (s.layout = Layout::Contiguous, true) : false; });
    change([](Step& s) { return !s.lazy ? (s.lazy = true, true) : false; });
    change([](Step& s) { return s.special ? (s.special = false, true) : false; });
    for (size_t d = 0; d < best.steps[i].sizes.size() && !m.exhausted(); ++d) {
      change([d](Step& s) { return s.sizes[d] > 1 ? (s.sizes[d] = 1, true) : false; });
      change([d](Step& s) { return s.sizes[d] > 2 ? (s.sizes[d] /= 2, true) : false; });
    }
  }
  return progress;
}

}  // namespace

Program minimise(const Program& p, const FailureCheck& fails, int max_runs) {
  const std::string failure = fails(p);
  if (failure.empty()) return p;
  Minimiser m(fails, max_runs, failure_signature(failure));
  Program best = p;
  while (reduce_once(m, best) && !m.exhausted()) {
  }
  return best;
}

}  // namespace lzf
