#include "lazy/trace.h"

#include "lazy/eager_values.h"

namespace lz::lazy {

namespace {
thread_local Trace* scoped_trace = nullptr;
}  // namespace

Trace& Trace::current() {
  if (scoped_trace != nullptr) return *scoped_trace;
  // The thread's reference keeps the trace alive; tensors that outlive the
  // thread keep their own references.
  thread_local intrusive_ptr<Trace> trace = make_intrusive<Trace>();
  return *trace;
}

ScopedTrace::ScopedTrace() : trace_(make_intrusive<Trace>()), previous_(scoped_trace) { scoped_trace = trace_.get(); }
ScopedTrace::~ScopedTrace() { scoped_trace = previous_; }

ir::ValueId Trace::add_input(Tensor data) {
  const ir::ValueId v = graph_.add_input(meta_of(data), data.unsafe_get_impl()->is_wrapped_number());
  data_.inputs.push_back(std::move(data));
  return v;
}

ir::ValueId Trace::input_for(const Tensor& data) {
  std::lock_guard<TraceMutex> lock(mutex_);
  auto [it, inserted] = inputs_.try_emplace(data.unsafe_get_impl());
  if (inserted) it->second.value = add_input(data);
  return it->second.value;
}

ir::ValueId Trace::input_for_eager(const Tensor& eager) {
  std::lock_guard<TraceMutex> lock(mutex_);
  auto [it, inserted] = inputs_.try_emplace(eager.unsafe_get_impl());
  Capture& c = it->second;
  const uint64_t version = eager._version();
  if (inserted || c.version != version) {
    c.value = add_input(snapshot_of_eager(eager));
    c.version = version;
    c.eager = eager;
  }
  return c.value;
}

void Trace::register_tensor(LazyTensorImpl& t) {
  if (t.registered_ == this) return;
  if (t.registered_ != nullptr) t.registered_->unregister_tensor(t);
  std::lock_guard<TraceMutex> lock(mutex_);
  if (registry_.empty()) self_while_registered_ = intrusive_ptr<Trace>(this);
  t.registered_ = this;
  t.registry_slot_ = static_cast<uint32_t>(registry_.size());
  registry_.push_back(&t);
}

void Trace::unregister_tensor(LazyTensorImpl& t) {
  // Declared before the lock, so destroyed after it: dropping what may be
  // the last reference to this trace (its thread has exited) must not
  // happen while its mutex is held.
  intrusive_ptr<Trace> keep;
  std::lock_guard<TraceMutex> lock(mutex_);
  const uint32_t slot = t.registry_slot_;
  registry_[slot] = registry_.back();
  registry_[slot]->registry_slot_ = slot;
  registry_.pop_back();
  t.registered_ = nullptr;
  if (registry_.empty()) keep = std::move(self_while_registered_);
}

}  // namespace lz::lazy
