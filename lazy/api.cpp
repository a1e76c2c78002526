#include "lazy/api.h"

#include <algorithm>

#include "core/error.h"
#include "core/lazy_hooks.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_views.h"
#include "ir/printer.h"
#include "lazy/executable_cache.h"
#include "lazy/functionalize.h"
#include "lazy/trace.h"

namespace lz {

namespace lazy {
namespace {

LazyValue data_value(Tensor data) {
  LazyValue v;
  v.data = std::move(data);
  return v;
}

Tensor to_lazy_hook(const Tensor& eager) {
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

// The trace a lazy tensor's value is pending in (after bringing a stale
// view up to date in this thread's trace), or nullptr when it has data.
Trace* pending_trace(const Tensor& t) {
  LazyTensorImpl& l = *lazy_impl(t);
  if (!l.is_current()) {
    Trace& tr = Trace::current();
    std::lock_guard<lazy::TraceMutex> lock(tr.mutex());
    refresh_view(tr, l);
  }
  return l.own_value().trace.get();
}

Tensor to_eager_hook(const Tensor& lazy, SyncCause cause) {
  if (Trace* tr = pending_trace(lazy)) {
    intrusive_ptr<Trace> keep(tr);
    tr->materialize(cause);
  }
  const LazyValue& v = lazy_impl(lazy)->own_value();
  LZ_CHECK(v.data.defined(), ValueError,
           "[to_eager] this lazy tensor has no value: the materialisation meant to compute it failed");
  return v.data;
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

}  // namespace lazy

void sync(TensorList tensors, const std::source_location& where) {
  set_sync_site(where);
  std::vector<intrusive_ptr<lazy::Trace>> traces;
  for (const Tensor& t : tensors) {
    if (!t.is_lazy()) continue;
    if (lazy::Trace* tr = lazy::pending_trace(t)) {
      if (std::find(traces.begin(), traces.end(), intrusive_ptr<lazy::Trace>(tr)) == traces.end()) {
        traces.emplace_back(tr);
      }
    }
  }
  for (const auto& tr : traces) tr->materialize(SyncCause::Explicit);
}

void sync_all(const std::source_location& where) {
  set_sync_site(where);
  lazy::Trace::current().materialize(SyncCause::Explicit);
}

}  // namespace lz
