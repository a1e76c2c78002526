// The Dispatcher: the registry of operators and of per-key backend
// fallbacks, and the owner of every operator's dispatch table.
//
// A call's key set is the union of its tensor arguments' keys, plus
// BackendSelect, plus this thread's include set, minus its exclude set,
// masked by the operator's non-fallthrough keys; the highest key wins. Each
// key resolves to: the operator's own kernel (explicit before generated),
// else its composite kernel, else the key's backend fallback.
//
// Registration is expected at start-up or in tests; it must not race with
// calls to the same operator.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/operator_handle.h"
#include "core/registration_handle.h"

namespace lz {

class Dispatcher {
 public:
  static Dispatcher& singleton();

  // ---- Registration -------------------------------------------------------
  // Adds an operator (declared as `id` in core/operators.def, or kNone);
  // SchemaError if the name or the id is taken. `out_handle` gets the new
  // operator.
  RegistrationHandle register_op(FunctionSchema schema, TagSet tags, OperatorHandle* out_handle,
                                 OpId id = OpId::kNone);
  RegistrationHandle register_kernel(const OperatorHandle& op, DispatchKey key,
                                     KernelFunction kernel,
                                     KernelOrigin origin = KernelOrigin::Explicit);
  RegistrationHandle register_composite(const OperatorHandle& op, KernelFunction kernel);
  // The kernel for `key` of every operator that has none of its own.
  RegistrationHandle register_fallback(DispatchKey key, KernelFunction kernel);
  void set_meta(const OperatorHandle& op, BoxedMeta meta);
  void set_tags(const OperatorHandle& op, TagSet tags);
  // Links derived in-place/out= operators to their functional operator.
  void link_variants(const OperatorHandle& functional, std::optional<OperatorHandle> inplace,
                     std::optional<OperatorHandle> out);

  // ---- Lookup ------------------------------------------------------------
  std::optional<OperatorHandle> find(std::string_view full_name) const;
  // The operator registered for `id`; InternalError when none is (every
  // declared operator is registered at start-up).
  OperatorHandle find(OpId id) const;
  // NotImplementedError naming the operator if it does not exist.
  OperatorHandle find_or_throw(std::string_view full_name) const;
  template <class Sig>
  TypedOperatorHandle<Sig> find_typed(std::string_view full_name) const {
    return find_or_throw(full_name).typed<Sig>();
  }
  std::vector<OperatorHandle> all_operators() const;

 private:
  Dispatcher();
  void update_dispatch_table(OperatorEntry& e);
  void update_all_dispatch_tables();

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<OperatorEntry>> entries_;  // never freed: handles stay valid
  absl::flat_hash_map<std::string, OperatorEntry*> by_name_;
  std::array<OperatorEntry*, kNumOpIds> by_id_{};
  std::array<KernelFunction, kNumDispatchKeys> fallbacks_;
};

}  // namespace lz
