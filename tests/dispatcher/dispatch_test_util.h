// Helpers for dispatcher tests: tensors carrying chosen dispatch keys and a
// log of which kernels ran.
#pragma once

#include <string>
#include <vector>

#include <lazuli/lazuli.h>

#include "core/dispatcher.h"
#include "core/op_registration.h"

namespace lz::testing {

// A view of `t` (same storage) whose dispatch key set is `keys`.
inline Tensor with_keys(const Tensor& t, DispatchKeySet keys) {
  Tensor v = t.view(t.sizes());
  v.unsafe_get_impl()->set_key_set(keys);
  return v;
}

// Records kernel names in call order.
struct CallLog {
  std::vector<std::string> calls;
  void add(std::string name) { calls.push_back(std::move(name)); }
};

// One global log per test binary: kernels registered as plain function
// pointers cannot capture.
inline CallLog& call_log() {
  static CallLog log;
  return log;
}

}  // namespace lz::testing
