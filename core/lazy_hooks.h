// How core reaches the lazy layer without depending on it: lazy/ installs
// these functions at start-up. Tensor::to_lazy(), to_eager(), data access and
// printing of lazy tensors go through them.
#pragma once

#include <cstdint>
#include <source_location>
#include <string_view>

namespace lz {

class Tensor;

// Why pending lazy work was run (counted per cause in the lazy metrics).
enum class SyncCause : uint8_t {
  ToEager,         // to_eager()
  Item,            // item() and other operators that return numbers
  Print,           // printing a lazy tensor
  DataAccess,      // data_ptr()
  DeviceTransfer,  // to(Device) of a lazy tensor
  Explicit,        // lz::sync / lz::sync_all
  AutoCut,         // the trace reached its node limit
  Fallback,        // an operator that cannot be traced needed input values
  CrossThread,     // a tensor of another thread's trace was used
  DataDependentShape,  // an operator whose result's shape depends on values (nonzero)
  kCount,
};
std::string_view to_string(SyncCause cause);

struct LazyHooks {
  Tensor (*to_lazy)(const Tensor& eager) = nullptr;
  // The materialised value of a lazy tensor (runs pending work first).
  Tensor (*to_eager)(const Tensor& lazy, SyncCause cause) = nullptr;
};

// The installed hooks (all null when the lazy layer is not linked).
LazyHooks& lazy_hooks();

// Where the user's code last asked for values on this thread (to_eager(),
// lz::sync): debug output and recompilation warnings name it.
void set_sync_site(const std::source_location& where);
const std::source_location& sync_site();

}  // namespace lz
