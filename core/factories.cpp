#include "core/factories.h"

#include "core/ops_copy.h"

namespace lz {

Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options) {
  return from_blob(data, sizes, nullptr, options);
}

Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter,
                 const TensorOptions& options) {
  const ScalarType dtype = options.dtype();
  const Device device = options.device();
  const size_t nbytes = static_cast<size_t>(checked_numel(sizes, "from_blob")) * element_size(dtype);
  DataPtr ptr;
  if (deleter) {
    auto* owned = new std::function<void(void*)>(std::move(deleter));
    ptr = DataPtr(
        data, nbytes, owned,
        [](void* ctx, void* p, size_t) {
          auto* fn = static_cast<std::function<void(void*)>*>(ctx);
          (*fn)(p);
          delete fn;
        },
        device);
  } else {
    ptr = DataPtr(data, nbytes, nullptr, nullptr, device);
  }
  auto storage = make_intrusive<StorageImpl>(std::move(ptr), nbytes);
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), dtype, sizes));
}

namespace detail {

Tensor tensor_from_values(const void* values, ScalarType source, IntArrayRef sizes,
                          const TensorOptions& options) {
  Tensor view = from_blob(const_cast<void*>(values), sizes, TensorOptions(source));
  ScalarType target = source == ScalarType::Double ? default_float_dtype() : source;
  if (options.dtype_opt()) target = *options.dtype_opt();
  // Always a copy: `values` is the caller's temporary.
  return _to_copy(view, TensorOptions(target).device(options.device()));
}

}  // namespace detail

}  // namespace lz
