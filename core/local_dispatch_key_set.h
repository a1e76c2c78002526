// Thread-local dispatch state: keys added to (include) and removed from
// (exclude) every call's key set on this thread. The Lazy key uses the
// include set for "trace factories too" regions; kernels use the exclude set
// to call back into the dispatcher below themselves.
#pragma once

#include "core/dispatch_key_set.h"

namespace lz {

struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};

LocalDispatchKeySet& tls_local_dispatch_key_set();

// Adds keys to this thread's include set for the guard's lifetime.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys);
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet previous_;
};

// Adds keys to this thread's exclude set for the guard's lifetime.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys);
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  DispatchKeySet previous_;
};

}  // namespace lz
