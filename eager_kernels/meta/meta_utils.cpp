#include "eager_kernels/meta/meta_utils.h"

#include "core/error.h"

namespace lz::meta {

void check_defined(std::string_view op, std::string_view arg, const Tensor& t) {
  LZ_CHECK(t.defined(), ValueError, "[", op, "] ", arg, ": expected a defined tensor, got an undefined one");
}

}  // namespace lz::meta
