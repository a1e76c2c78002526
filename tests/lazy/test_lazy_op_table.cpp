// Runs every entry of the operator test table lazily: the inputs become lazy
// tensors (all of them, and in a second pass only the first, mixing lazy
// and eager), the call is recorded, materialised and compared with the same
// independent references the eager suite uses, in functional, in-place and
// out= form; error inputs must raise the same exception type and message at
// the call. Random operators must draw exactly what they draw eagerly.
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "core/dispatcher.h"
#include "core/operator_info.h"
#include "lazy/api.h"
#include "lazy/config.h"
#include "lazy/metrics.h"
#include "passes/lowering.h"
#include "tests/op_table/entry_tests.h"
#include "tests/op_table/op_runner.h"
#include "tests/op_table/operator_coverage.h"
#include "tests/op_table/tensor_access.h"

namespace {

// This suite is the LLVM code generator's operator test: every kernel is
// compiled at its first launch (small launches are otherwise interpreted
// until they repeat, see LZ_JIT_THRESHOLD).
const bool compile_every_kernel = [] {
  lz::lazy::Settings s = lz::lazy::settings();
  s.jit_threshold = 1;
  lz::lazy::set_settings(s);
  return true;
}();

lz::IValue lazy_ivalue(const lz::IValue& v) {
  if (v.is_tensor() && v.to_tensor().defined()) return lz::IValue(v.to_tensor().to_lazy());
  return v;
}

// The sample with its tensors (all, or only the first) made lazy.
lzt::SampleInput lazy_sample(const lzt::SampleInput& s, bool only_first = false) {
  lzt::SampleInput l = s;
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    if (l.tensors[i].defined() && (!only_first || i == 0)) l.tensors[i] = l.tensors[i].to_lazy();
  }
  if (!only_first) {
    for (auto& [name, v] : l.kwargs) v = lazy_ivalue(v);
  }
  return l;
}

// Results of factories, *_like and number-valued operators (equal) are
// eager even for lazy inputs: their values do not depend on pending work.
std::vector<lz::Tensor> eager_outputs(std::vector<lz::Tensor> outs) {
  for (lz::Tensor& t : outs) t = t.to_eager();
  return outs;
}

// The entry with its calls made on lazy inputs; results are materialised
// (and written back into the runner's eager destinations) for comparison.
lzt::OpInfo lazy_variant(const lzt::OpInfo& op, bool only_first) {
  lzt::OpInfo l = op;
  // Lazy results are values, computed from a logically contiguous base:
  // only the values must match, not eager storage sharing.
  l.check = lzt::values_only_check(op);
  l.op = [op, only_first](const lzt::SampleInput& s) {
    return eager_outputs(op.op(lazy_sample(s, only_first)));
  };
  if (op.inplace) {
    l.inplace = [op](lz::Tensor& self, const lzt::SampleInput& s) {
      lzt::SampleInput ls = lazy_sample(s);
      lz::Tensor lazy_self = ls.tensors[0];
      const uint64_t version = lazy_self._version();
      op.inplace(lazy_self, ls);
      if (lazy_self.numel() > 0 && lazy_self._version() == version) {
        throw std::runtime_error("lazy in-place call left the version counter unchanged");
      }
      self.copy_(lazy_self.to_eager());
    };
  }
  if (op.out) {
    l.out = [op](std::vector<lz::Tensor>& outs, const lzt::SampleInput& s) {
      std::vector<lz::Tensor> lazy_outs;
      for (const lz::Tensor& o : outs) lazy_outs.push_back(o.to_lazy());
      op.out(lazy_outs, lazy_sample(s));
      for (size_t k = 0; k < outs.size(); ++k) {
        const lz::Tensor value = lazy_outs[k].to_eager();
        if (outs[k].sizes() == value.sizes()) {
          outs[k].copy_(value);
        } else {
          outs[k] = value;  // an empty out, resized by the lazy call
        }
      }
    };
  }
  return l;
}

// Random operators: the same seed gives the same numbers lazily and eagerly.
std::string compare_random(const lzt::OpInfo& op, const lzt::SampleInput& sample) {
  lz::manual_seed(1234);
  const std::vector<lz::Tensor> eager = op.op(sample);
  lz::manual_seed(1234);
  const std::vector<lz::Tensor> lazy = eager_outputs(op.op(lazy_sample(sample)));
  if (eager.size() != lazy.size()) return "lazy and eager give different numbers of outputs";
  for (size_t i = 0; i < eager.size(); ++i) {
    if (eager[i].sizes() != lazy[i].sizes() || eager[i].dtype() != lazy[i].dtype()) {
      return "output " + std::to_string(i) + ": lazy and eager differ in shape or dtype";
    }
    const std::string m = lzt::same_values(lazy[i], eager[i]);
    if (!m.empty()) return "output " + std::to_string(i) + " differs from eager with the same seed: " + m;
  }
  return "";
}

bool is_random(const lzt::OpInfo& op) {
  const std::optional<lz::OperatorHandle> h = lz::Dispatcher::singleton().find(op.name);
  return h && h->has_tag(lz::Tag::Random);
}

void run_entry(const lzt::OpInfo& op) {
  const lzt::OpInfo lazy = lazy_variant(op, false);
  const lzt::OpInfo mixed = lazy_variant(op, true);
  lzt::check_entry(
      op,
      [&](const lzt::SampleInput& sample) {
        return lzt::FormResults{
            {"lazy functional", lzt::run_functional(lazy, sample)},
            {"mixed lazy/eager functional", lzt::run_functional(mixed, sample)},
            {"lazy in-place", lzt::run_inplace(lazy, sample)},
            {"lazy out=", lzt::run_out(lazy, sample)},
            {"lazy vs eager, same seed", is_random(op) ? compare_random(op, sample) : std::string()}};
      },
      [&](const lzt::ErrorInput& error) { return lzt::run_error(lazy, error); });
}

const bool registered = lzt::register_entry_tests("lazy op table: ", "[lazy][op_table]", &run_entry);

// Every eager write goes through StorageImpl::prepare_write (core/storage.h,
// Note [Snapshots]): a lazy value taken from a tensor before an in-place or
// out= operator writes it keeps the old contents. An operator whose kernel
// writes without it would change the lazy value here.
TEST_CASE("lazy snapshots: eager in-place and out= writes leave values taken before them unchanged", "[lazy]") {
  int inplace_checked = 0, out_checked = 0;
  for (const lzt::OpInfo& op : lzt::op_table()) {
    for (lz::ScalarType dtype : op.dtypes) {
      const std::vector<lzt::SampleInput> samples = op.samples(dtype);
      if (samples.empty() || samples[0].tensors.empty() || !samples[0][0].defined()) continue;
      const lzt::SampleInput& sample = samples[0];
      INFO(op.name << " [" << lz::to_string(dtype) << "] " << sample.str());
      if (op.inplace) {
        lz::Tensor self = sample[0].clone();
        const lz::Tensor before = self.clone();
        const lz::Tensor taken = self.to_lazy();
        lzt::SampleInput with_self = sample;
        with_self.tensors[0] = self;
        bool wrote = true;
        try {
          op.inplace(self, with_self);
        } catch (const std::exception&) {
          wrote = false;  // refused (shape, dtype): nothing was written
        }
        if (wrote) {
          CHECK(lzt::same_values(taken.to_eager(), before) == "");
          ++inplace_checked;
        }
      }
      if (op.out) {
        std::vector<lz::Tensor> outs, taken;
        std::vector<lz::Tensor> before;
        for (const lzt::Expected& e : op.reference(sample)) {
          outs.push_back(lz::zeros(e.sizes, e.dtype));
          before.push_back(outs.back().clone());
          taken.push_back(outs.back().to_lazy());
        }
        try {
          op.out(outs, sample);
        } catch (const std::exception&) {
          continue;
        }
        for (size_t k = 0; k < taken.size(); ++k) CHECK(lzt::same_values(taken[k].to_eager(), before[k]) == "");
        ++out_checked;
      }
    }
  }
  CHECK(inplace_checked > 300);
  CHECK(out_checked > 300);
}

// Completeness: an operator with a lowering runs in compiled kernels. For
// each entry, the operators its eager forms reach (lzt::operators_called)
// that have a lowering must take no eager step in the lazy functional runs
// unless the planner named a reason for that node (integer division, a
// dtype), and the entry must run at least one kernel. A lowering that is
// registered but never used (a broken id, a planner that skips it) fails.
TEST_CASE("lazy op table: every lowered operator runs in kernels", "[lazy][op_table][completeness]") {
  const lz::passes::LoweringTable& table = lz::passes::lowering_table();
  // Whether a kernel runs is the question, not the machine code: the
  // interpreter runs them (the entries' own tests compile every kernel).
  const lz::lazy::Settings saved = lz::lazy::settings();
  lz::lazy::Settings interpreted = saved;
  interpreted.jit_threshold = std::numeric_limits<decltype(saved.jit_threshold)>::max();
  lz::lazy::set_settings(interpreted);
  int entries_checked = 0;
  for (const lzt::OpInfo& op : lzt::op_table()) {
    if (is_random(op)) continue;
    std::vector<lz::OpId> lowered;
    for (lz::OpId id : lzt::operators_called(op, lzt::Forms::Functional)) {
      if (table.find(id) != nullptr) lowered.push_back(id);
    }
    if (lowered.empty()) continue;
    lz::lazy::clear_executable_cache();
    lz::lazy::reset_metrics();
    for (lz::ScalarType dtype : op.dtypes) {
      for (const lzt::SampleInput& sample : op.samples(dtype)) {
        try {
          eager_outputs(op.op(lazy_sample(sample)));
        } catch (const std::exception&) {
          // Inputs the operator rejects: the eager suite checks the error.
        }
      }
    }
    const lz::lazy::LazyMetrics m = lz::lazy::metrics();
    bool needs_kernel = false, every_one_refused = true;
    std::string names;
    for (lz::OpId id : lowered) {
      const std::string name(lz::op_name(id));
      // Refused by the lowering itself (integer division, a dtype): a lost
      // lookup would say "no lowering" instead.
      bool refused = false;
      for (const auto& [what, count] : m.not_fused) {
        if (what.rfind(name + ": ", 0) != 0) continue;
        const std::string_view reason = std::string_view(what).substr(name.size() + 2);
        refused = refused || !(reason.starts_with("no lowering") || reason.starts_with("not lowered"));
      }
      INFO(op.name << ": " << name << " took " << lz::lazy::count_of(m.eager_steps, name) << " eager steps\n"
                   << m.report());
      CHECK((lz::lazy::count_of(m.eager_steps, name) == 0 || refused));
      // A clone of a value is the value (the simplifier removes it: a pure
      // graph has no copies), so it needs no kernel of its own. A factory
      // is traced only when a lazy tensor asks for it (zeros_like(x),
      // fill_): made from sizes alone (zeros, or inside equal), it is eager.
      if (id == lz::OpId::clone || lz::operator_info(id).tags.has(lz::Tag::Factory)) continue;
      needs_kernel = true;
      every_one_refused = every_one_refused && refused;
      names += " " + name;
    }
    if (!needs_kernel) continue;
    INFO(op.name << " ran no kernel, though it calls lowered operators:" << names << "\n" << m.report());
    CHECK((m.kernels_launched + m.kernels_interpreted > 0 || every_one_refused));
    ++entries_checked;
  }
  lz::lazy::set_settings(saved);
  CHECK(entries_checked > 100);
}

}  // namespace
