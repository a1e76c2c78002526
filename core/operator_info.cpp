#include "core/operator_info.h"

#include "core/dispatcher.h"

namespace lz {

const OperatorInfo& operator_info(OpId id) { return Dispatcher::singleton().find(id).entry(); }

const OperatorInfo* find_operator_info(std::string_view full_name) {
  const std::optional<OperatorHandle> handle = Dispatcher::singleton().find(full_name);
  return handle ? &handle->entry() : nullptr;
}

}  // namespace lz
