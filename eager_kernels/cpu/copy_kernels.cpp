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

// copy_'s element loop, for a self that src does not overlap. Kernels
// copying into their own fresh result call it directly: the version
// counter counts the caller's writes, not a kernel's steps.
void copy_elements(const Tensor& self, const Tensor& src) {
  if (self.numel() == 0) return;
  if (self.dtype() == src.dtype() && self.is_contiguous() && src.is_contiguous() &&
      self.sizes() == src.sizes()) {
    copy_bytes(static_cast<char*>(self.data_ptr()), static_cast<const char*>(src.data_ptr()),
               static_cast<int64_t>(self.nbytes()));
    return;
  }
  // float16/bfloat16 on either side go through the float conversions
  // (visit_opmath_dtype): widening is exact and narrowing rounds once, as
  // convert_element's own path through float does.
  const TensorIterator iter(self, {src});
  visit_opmath_dtype(self.dtype(), [&](auto to_tag) {
    using To = typename decltype(to_tag)::type;
    visit_opmath_dtype(src.dtype(), [&](auto from_tag) {
      using From = typename decltype(from_tag)::type;
      cpu_kernel<To, From>(iter, [](From v) { return convert_element<To>(v); });
    });
  });
}

}  // namespace

Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  // Argument checks (src broadcasts to self, self is not an expanded view):
  // a plain kernel is not preceded by its meta function in eager mode.
  meta::copy_(self, src, non_blocking);
  LZ_CHECK(self.is_cpu() && src.is_cpu(), NotImplementedError, "[copy_] copies between ",
           src.device(), " and ", self.device(), " are not supported yet");
  const Overlap overlap = self.numel() == 0 ? Overlap::Full : overlap_kind(self, src);
  if (overlap != Overlap::Full) {  // a full overlap copies onto itself
    const Tensor from = overlap == Overlap::Partial ? clone(src, MemoryFormat::Contiguous) : src;
    self.unsafe_get_impl()->prepare_write();
    copy_elements(self, from);
  }
  self.unsafe_get_impl()->version_counter().bump();
  return self;
}

void fill_values(const Tensor& self, const Scalar& value) {
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.to<T>();
    const TensorIterator iter(self, {});
    cpu_kernel<T>(iter, [v]() { return v; });
  });
}

Tensor fill_(const Tensor& self, const Scalar& value) {
  meta::fill_(self, value);
  self.unsafe_get_impl()->prepare_write();
  fill_values(self, value);
  self.unsafe_get_impl()->version_counter().bump();
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  meta::clone(self, memory_format);
  Tensor out = empty_like_layout(self, self.dtype(), self.device(), memory_format);
  copy_elements(out, self);
  return out;
}

Tensor to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
               std::optional<Device> device, std::optional<bool>, bool non_blocking,
               std::optional<MemoryFormat> memory_format) {
  const TensorMeta m = meta::to_copy(self, dtype, std::nullopt, device, std::nullopt, non_blocking,
                                     memory_format);
  Tensor out = empty_like_layout(self, m.dtype, m.device, memory_format);
  // A transfer is the other device's copy_, through the dispatcher.
  if (!out.is_cpu() || !self.is_cpu()) return out.copy_(self, non_blocking);
  copy_elements(out, self);
  return out;
}

Tensor contiguous_as(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype && t.is_contiguous()) return t;
  Tensor c = empty_tensor(t.sizes(), dtype, t.device());
  copy_elements(c, t);
  return c;
}

}  // namespace lz::cpu
