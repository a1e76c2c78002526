#include "lazy/api.h"

#include <algorithm>

#include "core/error.h"
#include "core/lazy_hooks.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_views.h"
#include "ir/printer.h"
#include "lazy/code_generators.h"
#include "lazy/eager_values.h"
#include "lazy/executable_cache.h"
#include "lazy/functionalize.h"
#include "lazy/recorder.h"
#include "lazy/trace.h"

namespace lz {

namespace lazy {
namespace {

LazyValue data_value(Tensor data) {
  LazyValue v;
  v.data = std::move(data);
  return v;
}

// The lazy tensor holds a snapshot of `eager` (lazy/eager_values.h): later
// writes to `eager` do not reach it, as if to_lazy() had copied.
Tensor to_lazy_hook(const Tensor& eager_in) {
  const Tensor eager = snapshot_of_eager(eager_in);
  const TensorImpl& e = *eager.unsafe_get_impl();
  const int64_t storage_elements =
      e.has_storage() ? static_cast<int64_t>(e.storage()->nbytes() / e.itemsize()) : eager.numel();
  if (eager.is_contiguous() && eager.storage_offset() == 0 && storage_elements == eager.numel()) {
    return Tensor(make_intrusive<LazyTensorImpl>(meta_of(eager), data_value(eager)));
  }
  // A strided, offset or expanded tensor becomes a lazy view of its whole
  // storage, with its own geometry: views, writes and their errors then
  // behave exactly as in eager mode (e.g. no in-place write into an
  // expanded tensor, no view() of a transposed one).
  ExcludeDispatchKeyGuard eager_only(DispatchKeySet(DispatchKey::Lazy));
  const Tensor storage = as_strided(eager, {storage_elements}, {1}, 0);
  auto base = make_intrusive<LazyTensorImpl>(meta_of(storage), data_value(storage));
  return Tensor(make_intrusive<LazyTensorImpl>(*base, eager.sizes(), eager.strides(),
                                               eager.storage_offset(), data_value(eager)));
}

// Whether view tensor `l` reads its value from its base (its own is stale or pending).
bool reads_base(LazyTensorImpl& l) { return l.is_view() && (!l.is_current() || l.own_value().pending()); }

// The trace a lazy tensor's value is pending in, or nullptr when it has
// its value. A view's value is its base's, read through the view
// (read_view_from_base): the base's trace, if that is pending.
Trace* pending_trace(const Tensor& t) {
  LazyTensorImpl& l = *lazy_impl(t);
  if (l.own_value().cones) Trace::current().take_back(l);  // left pending by the last materialisation
  if (reads_base(l)) {
    const LazyValue& base = l.group().base;
    if (base.pending()) return base.trace.get();
    read_view_from_base(l);
    return nullptr;
  }
  return l.own_value().trace.get();
}

// The value pending_trace(t) needs computed: a view's base's, else t's own.
ir::ValueId requested_value(const Tensor& t) {
  LazyTensorImpl& l = *lazy_impl(t);
  return reads_base(l) ? l.group().base.id : l.own_value().id;
}

// The value of a lazy tensor. to_eager() gives the caller a tensor of its
// own (lazy/eager_values.h), the same one again while it is unmodified;
// the other causes only read the value.
Tensor to_eager_hook(const Tensor& lazy, SyncCause cause) {
  if (Trace* tr = pending_trace(lazy)) {
    intrusive_ptr<Trace> keep(tr);
    const ir::ValueId requested[] = {requested_value(lazy)};
    (void)tr->materialize(cause, requested);
    (void)pending_trace(lazy);  // a view registered elsewhere reads its base now
  }
  LazyTensorImpl& l = *lazy_impl(lazy);
  LazyValue& v = l.own_value();
  check_has_value(v, l);
  if (cause != SyncCause::ToEager) return v.data;
  if (!v.handed_out.defined() || v.handed_out._version() != v.handed_out_version) {
    v.handed_out = hand_out(v.data);
    v.handed_out_version = v.handed_out._version();
  }
  return v.handed_out;
}

const bool hooks_installed = [] {
  lazy_hooks().to_lazy = &to_lazy_hook;
  lazy_hooks().to_eager = &to_eager_hook;
  return true;
}();

}  // namespace

size_t pending_nodes() {
  Trace& tr = Trace::current();
  std::lock_guard<lazy::TraceMutex> lock(tr.mutex());
  return tr.graph().num_nodes();
}

size_t pending_operators() {
  Trace& tr = Trace::current();
  std::lock_guard<lazy::TraceMutex> lock(tr.mutex());
  return tr.graph().num_nodes() - tr.graph().num_inputs();
}

std::string dump_trace() {
  Trace& tr = Trace::current();
  std::lock_guard<lazy::TraceMutex> lock(tr.mutex());
  return ir::print_graph(tr.graph(), tr.needed_values());
}

void clear_executable_cache() { ExecutableCache::instance().clear(); }
void wait_for_compiles() { wait_for_background_compiles(); }

}  // namespace lazy

void sync(TensorList tensors, const std::source_location& where) {
  set_sync_site(where);
  std::vector<intrusive_ptr<lazy::Trace>> traces;
  std::vector<std::vector<ir::ValueId>> requested;  // per trace
  for (const Tensor& t : tensors) {
    if (!t.is_lazy()) continue;
    if (lazy::Trace* tr = lazy::pending_trace(t)) {
      auto it = std::find(traces.begin(), traces.end(), intrusive_ptr<lazy::Trace>(tr));
      if (it == traces.end()) {
        traces.emplace_back(tr);
        requested.emplace_back();
        it = traces.end() - 1;
      }
      requested[static_cast<size_t>(it - traces.begin())].push_back(lazy::requested_value(t));
    }
  }
  for (size_t i = 0; i < traces.size(); ++i) (void)traces[i]->materialize(SyncCause::Explicit, requested[i]);
  // A tensor whose computation failed raises its error here, as it would
  // when read; the others hold their values.
  for (const Tensor& t : tensors) {
    if (!t.is_lazy() || lazy::pending_trace(t) != nullptr) continue;
    lazy::LazyTensorImpl& l = *lazy::lazy_impl(t);
    lazy::check_has_value(l.own_value(), l);
  }
}

void sync_all(const std::source_location& where) {
  set_sync_site(where);
  if (std::exception_ptr error = lazy::Trace::current().materialize(SyncCause::Explicit)) {
    std::rethrow_exception(error);
  }
}

}  // namespace lz
