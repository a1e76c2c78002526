#include "tests/op_table/operator_coverage.h"

#include "core/dispatcher.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"

namespace lzt {

namespace {

std::set<lz::OpId>* recording = nullptr;

void record_and_continue(const lz::OperatorHandle& op, lz::DispatchKeySet ks, lz::Stack* stack) {
  if (recording != nullptr && op.id() != lz::OpId::kNone) recording->insert(op.id());
  op.redispatch_boxed(ks & lz::DispatchKeySet::below(lz::DispatchKey::TestingOnlyMode), stack);
}

}  // namespace

OperatorRecorder::OperatorRecorder() : lib_(std::make_unique<lz::Library>("operator_recorder")) {
  lib_->fallback(lz::DispatchKey::TestingOnlyMode, lz::KernelFunction::from_boxed(&record_and_continue));
  // A composite's own kernel takes precedence over the fallback: record it
  // with an explicit kernel, then let it decompose.
  for (size_t i = 0; i < lz::kNumOpIds; ++i) {
    const lz::OperatorHandle op = lz::Dispatcher::singleton().find(static_cast<lz::OpId>(i));
    if (op.has_tag(lz::Tag::Composite)) {
      lib_->impl_kernel(op, lz::DispatchKey::TestingOnlyMode, lz::KernelFunction::from_boxed(&record_and_continue));
    }
  }
  recording = &seen_;
}

OperatorRecorder::~OperatorRecorder() { recording = nullptr; }

namespace {

// Runs `call` with the recording key included, ignoring what it throws
// (rejected inputs reach operators too). Only these calls are recorded: the
// runner's own comparisons, references and clones are not the entry's.
template <class F>
void recorded_call(F&& call) {
  lz::IncludeDispatchKeyGuard mode(lz::DispatchKey::TestingOnlyMode);
  try {
    call();
  } catch (const std::exception&) {
  }
}

void call_forms(const OpInfo& op, const SampleInput& sample, Forms forms) {
  recorded_call([&] { op.op(sample); });
  if (forms == Forms::Functional) return;
  if (op.inplace && !sample.tensors.empty() && sample[0].defined()) {
    lz::Tensor self = sample[0].clone();
    SampleInput with_self = sample;
    with_self.tensors[0] = self;
    recorded_call([&] { op.inplace(self, with_self); });
  }
  if (op.out && op.reference) {
    std::vector<lz::Tensor> outs;
    try {
      for (const Expected& e : op.reference(sample)) outs.push_back(lz::empty({0}, e.dtype));
    } catch (const std::exception&) {
      return;
    }
    recorded_call([&] { op.out(outs, sample); });
  }
}

}  // namespace

std::set<lz::OpId> operators_called(const OpInfo& op, Forms forms) {
  OperatorRecorder recorder;
  for (lz::ScalarType dtype : op.dtypes) {
    for (const SampleInput& sample : op.samples(dtype)) call_forms(op, sample, forms);
  }
  if (op.errors && forms == Forms::All) {
    for (const ErrorInput& e : op.errors()) recorded_call([&] { op.op(e.input); });
  }
  return recorder.seen();
}

std::vector<std::string> coverage_gaps(const std::set<lz::OpId>& reached,
                                       const std::map<lz::OpId, std::string>& reasons,
                                       const std::function<bool(lz::OpId)>& skip) {
  std::vector<std::string> gaps;
  for (size_t i = 0; i < lz::kNumOpIds; ++i) {
    const lz::OpId id = static_cast<lz::OpId>(i);
    if (skip && skip(id)) continue;
    const bool is_reached = reached.count(id) != 0, has_reason = reasons.count(id) != 0;
    if (!is_reached && !has_reason) gaps.push_back(std::string(lz::op_name(id)) + ": not reached, and no reason given");
    if (is_reached && has_reason) gaps.push_back(std::string(lz::op_name(id)) + ": reached, so its reason is stale");
  }
  return gaps;
}

}  // namespace lzt
