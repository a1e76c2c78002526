// Tests that look at what other dispatch keys see: a boxed fallback for
// TestingOnlyMode (a key without kernels) that records each operator's name
// and passes the call on below the key. Register it in a test with
//   Library lib("name"); lib.fallback(DispatchKey::TestingOnlyMode,
//                                     KernelFunction::from_boxed(&lzt::recording_fallback));
// and run the code under IncludeDispatchKeyGuard(DispatchKey::TestingOnlyMode):
// composites then run instead of the CPU kernels, as they will for the Lazy key.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/dispatcher.h"
#include "core/parallel.h"

namespace lzt {

// The operators recorded since the last clear(), in call order.
inline std::vector<std::string>& recorded() {
  static std::vector<std::string> names;
  return names;
}

inline void recording_fallback(const lz::OperatorHandle& op, lz::DispatchKeySet ks, lz::Stack* stack) {
  recorded().push_back(op.name());
  op.redispatch_boxed(ks & lz::DispatchKeySet::below(lz::DispatchKey::TestingOnlyMode), stack);
}

inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Restores the thread count a test changed.
struct ThreadCountGuard {
  int saved = lz::get_num_threads();
  ~ThreadCountGuard() { lz::set_num_threads(saved); }
};

}  // namespace lzt
