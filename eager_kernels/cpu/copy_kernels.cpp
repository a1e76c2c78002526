#include "eager_kernels/cpu/copy_kernels.h"

#include <cstring>

#include "core/empty_tensor.h"
#include "core/memory_overlap.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/streaming_store.h"
#include "eager_kernels/meta/copy_meta.h"

namespace lz::cpu {

namespace {

// Allocates like `self`: its dense stride order when it has one, else contiguous.
Tensor empty_like_layout(const Tensor& self, ScalarType dtype, Device device,
                         std::optional<MemoryFormat> memory_format) {
  const bool preserve = memory_format.value_or(MemoryFormat::Preserve) == MemoryFormat::Preserve;
  if (preserve && !self.is_contiguous() && is_non_overlapping_and_dense(self.sizes(), self.strides())) {
    return empty_strided_tensor(self.sizes(), self.strides(), dtype, device);
  }
  return empty_tensor(self.sizes(), dtype, device);
}

// A parallel memcpy; large copies bypass the cache like large kernel outputs.
void copy_bytes(char* dst, const char* src, int64_t bytes) {
  const bool streaming = bytes >= kStreamingStoreBytes;
  parallel_for(0, bytes, TensorIterator::kGrainSize * 16, [&](int64_t b, int64_t e) {
    if (streaming) {
      streaming_copy(dst + b, src + b, static_cast<size_t>(e - b));
      streaming_store_fence();
    } else {
      std::memcpy(dst + b, src + b, static_cast<size_t>(e - b));
    }
  });
}

}  // namespace

Tensor copy_(const Tensor& self, const Tensor& src_in, bool non_blocking) {
  // Argument checks (src broadcasts to self, self is not an expanded view):
  // a plain kernel is not preceded by its meta function in eager mode.
  meta::copy_(self, src_in, non_blocking);
  LZ_CHECK(self.is_cpu() && src_in.is_cpu(), NotImplementedError, "[copy_] copies between ",
           src_in.device(), " and ", self.device(), " are not supported yet");
  if (self.numel() == 0) return self;
  Tensor src = src_in;
  const Overlap overlap = overlap_kind(self, src);
  if (overlap == Overlap::Full) {
    self.unsafe_get_impl()->version_counter().bump();
    return self;
  }
  if (overlap == Overlap::Partial) src = clone(src, MemoryFormat::Contiguous);
  self.unsafe_get_impl()->prepare_write();

  if (self.dtype() == src.dtype() && self.is_contiguous() && src.is_contiguous() &&
      self.sizes() == src.sizes()) {
    copy_bytes(static_cast<char*>(self.data_ptr()), static_cast<const char*>(src.data_ptr()),
               static_cast<int64_t>(self.nbytes()));
  } else {
    const TensorIterator iter(self, {src});
    visit_dtype(self.dtype(), [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      visit_dtype(src.dtype(), [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel<To, From>(iter, [](From v) { return convert_element<To>(v); });
      });
    });
  }
  self.unsafe_get_impl()->version_counter().bump();
  return self;
}

Tensor fill_(const Tensor& self, const Scalar& value) {
  meta::fill_(self, value);
  self.unsafe_get_impl()->prepare_write();
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.to<T>();
    const TensorIterator iter(self, {});
    cpu_kernel<T>(iter, [v]() { return v; });
  });
  self.unsafe_get_impl()->version_counter().bump();
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  meta::clone(self, memory_format);
  Tensor out = empty_like_layout(self, self.dtype(), self.device(), memory_format);
  return copy_(out, self, false);
}

Tensor to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
               std::optional<Device> device, std::optional<bool>, bool non_blocking,
               std::optional<MemoryFormat> memory_format) {
  const TensorMeta m = meta::to_copy(self, dtype, std::nullopt, device, std::nullopt, non_blocking,
                                     memory_format);
  Tensor out = empty_like_layout(self, m.dtype, m.device, memory_format);
  // A transfer is the other device's copy_, through the dispatcher.
  if (!out.is_cpu() || !self.is_cpu()) return out.copy_(self, non_blocking);
  return copy_(out, self, non_blocking);
}

Tensor contiguous_as(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype && t.is_contiguous()) return t;
  Tensor c = empty_tensor(t.sizes(), dtype, t.device());
  return copy_(c, t, /*non_blocking=*/false);
}

}  // namespace lz::cpu
