#include "core/lazy_hooks.h"

namespace lz {

std::string_view to_string(SyncCause cause) {
  switch (cause) {
    case SyncCause::ToEager: return "to_eager";
    case SyncCause::Item: return "item";
    case SyncCause::Print: return "print";
    case SyncCause::DataAccess: return "data_access";
    case SyncCause::DeviceTransfer: return "device_transfer";
    case SyncCause::Explicit: return "sync";
    case SyncCause::AutoCut: return "auto_cut";
    case SyncCause::Fallback: return "fallback";
    case SyncCause::CrossThread: return "cross_thread";
    case SyncCause::DataDependentShape: return "data_dependent_shape";
    case SyncCause::kCount: break;
  }
  return "?";
}

LazyHooks& lazy_hooks() {
  static LazyHooks hooks;
  return hooks;
}

namespace {
thread_local std::source_location t_sync_site;
}  // namespace

void set_sync_site(const std::source_location& where) { t_sync_site = where; }
const std::source_location& sync_site() { return t_sync_site; }

}  // namespace lz
