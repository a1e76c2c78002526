#include "core/local_dispatch_key_set.h"

namespace lz {

LocalDispatchKeySet& tls_local_dispatch_key_set() {
  thread_local LocalDispatchKeySet state;
  return state;
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys)
    : previous_(tls_local_dispatch_key_set().included) {
  tls_local_dispatch_key_set().included = previous_ | keys;
}
IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  tls_local_dispatch_key_set().included = previous_;
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys)
    : previous_(tls_local_dispatch_key_set().excluded) {
  tls_local_dispatch_key_set().excluded = previous_ | keys;
}
ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  tls_local_dispatch_key_set().excluded = previous_;
}

}  // namespace lz
