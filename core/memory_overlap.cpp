#include "core/memory_overlap.h"

#include "core/error.h"

namespace lz {

namespace {

// [first, last] element offsets (inclusive) a non-empty tensor touches.
std::pair<int64_t, int64_t> element_span(const Tensor& t) {
  int64_t lo = t.storage_offset(), hi = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t extent = (t.sizes()[d] - 1) * t.strides()[d];
    if (extent < 0) {
      lo += extent;
    } else {
      hi += extent;
    }
  }
  return {lo, hi};
}

}  // namespace

Overlap overlap_kind(const Tensor& a, const Tensor& b) {
  if (!a.defined() || !b.defined()) return Overlap::None;
  TensorImpl* ia = a.unsafe_get_impl();
  TensorImpl* ib = b.unsafe_get_impl();
  if (!ia->has_storage() || !ib->has_storage() || ia->storage() != ib->storage()) return Overlap::None;
  if (a.numel() == 0 || b.numel() == 0) return Overlap::None;
  if (a.storage_offset() == b.storage_offset() && a.sizes() == b.sizes() &&
      a.strides() == b.strides() && a.dtype() == b.dtype()) {
    return Overlap::Full;
  }
  auto [alo, ahi] = element_span(a);
  auto [blo, bhi] = element_span(b);
  const int64_t abytes = static_cast<int64_t>(a.itemsize()), bbytes = static_cast<int64_t>(b.itemsize());
  const int64_t a_begin = alo * abytes, a_end = (ahi + 1) * abytes;
  const int64_t b_begin = blo * bbytes, b_end = (bhi + 1) * bbytes;
  return a_begin < b_end && b_begin < a_end ? Overlap::Partial : Overlap::None;
}

bool has_internal_overlap(const Tensor& t) {
  if (t.numel() == 0) return false;  // no element, so no two share a location
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] == 0) return true;
  }
  return false;
}

void check_no_internal_overlap(std::string_view op, std::string_view arg, const Tensor& t) {
  LZ_CHECK(!has_internal_overlap(t), ValueError, "[", op, "] ", arg,
           ": unsupported operation: more than one element of the written-to tensor (shape ",
           shape_str(t.sizes()), ", strides ", shape_str(t.strides()),
           ") refers to a single memory location; clone() it before writing");
}

void resize_tensor(const Tensor& t, IntArrayRef sizes) {
  TensorImpl* impl = t.unsafe_get_impl();
  // Validate and grow the storage before touching the geometry, so a failure
  // (bad size, from_blob memory) leaves t as it was instead of pointing past
  // the end of its storage.
  const int64_t numel = checked_numel(sizes, "resize_");
  if (impl->has_storage()) {
    const size_t needed = static_cast<size_t>(impl->storage_offset() + numel) * impl->itemsize();
    impl->storage()->resize(needed);
  }
  impl->set_sizes_contiguous(sizes);
}

}  // namespace lz
