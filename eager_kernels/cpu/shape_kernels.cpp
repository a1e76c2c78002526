// cat, stack, triu/tril, flip, repeat, constant_pad_nd and the shared copy
// helpers (eager_kernels/cpu/shape_util.h).
#include "eager_kernels/cpu/shape_kernels.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/empty_tensor.h"
#include "core/memory_overlap.h"
#include "core/parallel.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/shape_util.h"
#include "eager_kernels/cpu/streaming_store.h"
#include "eager_kernels/meta/shape_meta.h"

namespace lz::cpu {

// ---- helpers ---------------------------------------------------------------------

namespace {

// Pieces at least this large are written with streaming stores when the
// whole output is large; smaller ones are not worth the alignment edges.
constexpr int64_t kStreamingPieceBytes = 1024;
// cat copies contiguous inputs piece by piece with memcpy when the pieces
// average at least this many bytes.
constexpr int64_t kMinPieceBytes = 32;

}  // namespace

Tensor restride(const Tensor& t, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  return Tensor(make_intrusive<TensorImpl>(*t.unsafe_get_impl(), sizes, strides, storage_offset));
}

Tensor new_like(const Tensor& t) { return empty_tensor(t.sizes(), t.dtype(), t.device()); }

bool shares_memory(const Tensor& out, const Tensor& input) {
  return input.defined() && overlap_kind(out, input) != Overlap::None;
}

void parallel_memcpy(void* dst_v, const void* src_v, int64_t bytes) {
  if (bytes <= 0) return;
  char* dst = static_cast<char*>(dst_v);
  const char* src = static_cast<const char*>(src_v);
  const bool streaming = bytes >= kStreamingStoreBytes;
  parallel_for(0, bytes, kCopyGrainBytes, [&](int64_t b, int64_t e) {
    if (streaming) {
      streaming_copy(dst + b, src + b, static_cast<size_t>(e - b));
      streaming_store_fence();
    } else {
      std::memcpy(dst + b, src + b, static_cast<size_t>(e - b));
    }
  });
}

namespace {

// Row kernels of copy_same_dtype, compiled per ISA so the compiler can
// vectorise the reversed and strided cases too.
template <class U>
LZ_CPU_CLONES void reverse_row(U* out, const U* last, int64_t n) {
  for (int64_t k = 0; k < n; ++k) out[k] = last[-k];
}
template <class U>
LZ_CPU_CLONES void fill_row(U* out, U value, int64_t n) {
  for (int64_t k = 0; k < n; ++k) out[k] = value;
}

}  // namespace

void copy_same_dtype(const Tensor& dst, const Tensor& src) {
  LZ_INTERNAL_ASSERT(dst.dtype() == src.dtype(), "copy_same_dtype: ", dst.dtype(), " vs ", src.dtype());
  if (dst.numel() == 0) return;
  if (dst.is_contiguous() && src.is_contiguous() && dst.sizes() == src.sizes()) {
    parallel_memcpy(dst.data_ptr(), src.data_ptr(), static_cast<int64_t>(dst.nbytes()));
    return;
  }
  const TensorIterator iter(dst, {src});
  const bool streaming = iter.output_nbytes() >= kStreamingStoreBytes;
  visit_itemsize(dst.itemsize(), [&](auto* tag) {
    using U = std::remove_pointer_t<decltype(tag)>;
    constexpr int64_t item = sizeof(U);
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      U* out = reinterpret_cast<U*>(data[0]);
      const U* in = reinterpret_cast<const U*>(data[1]);
      if (strides[0] == item) {
        if (strides[1] == item) {
          // A contiguous run (repeat, pad, cat pieces, flip of outer dims).
          const size_t bytes = static_cast<size_t>(n * item);
          if (streaming && bytes >= static_cast<size_t>(kStreamingPieceBytes)) {
            streaming_copy(out, in, bytes);
            streaming_store_fence();
          } else {
            std::memcpy(out, in, bytes);
          }
          return;
        }
        if (strides[1] == -item) return reverse_row(out, in, n);  // flip of the last dim
        if (strides[1] == 0) return fill_row(out, *in, n);        // repeat of a size-1 dim
      }
      for (int64_t k = 0; k < n; ++k) {
        *reinterpret_cast<U*>(data[0] + k * strides[0]) = *reinterpret_cast<const U*>(data[1] + k * strides[1]);
      }
    });
  });
}

// ---- cat / stack -------------------------------------------------------------------

namespace {

// Contiguous inputs and output whose rows are made of small pieces (stack
// along the last dim interleaves its inputs): tiles of output rows that fit
// in L1, each filled input by input with a strided loop over the tile's rows.
// (One row at a time, every row walking the list of pieces, measured 19% of
// the adjacent copy for stacking two 8M-element vectors.)
void cat_small_pieces(const Tensor& out, const std::vector<Tensor>& inputs, int64_t outer) {
  std::vector<const char*> src;
  std::vector<int64_t> len;  // elements per row of each input
  for (const Tensor& t : inputs) {
    if (t.numel() == 0) continue;
    src.push_back(static_cast<const char*>(t.data_ptr()));
    len.push_back(t.numel() / outer);
  }
  const int64_t row = out.numel() / outer;
  const int64_t tile = std::max<int64_t>(1, 16384 / (row * static_cast<int64_t>(out.itemsize())));
  visit_itemsize(out.itemsize(), [&](auto* tag) {
    using U = std::remove_pointer_t<decltype(tag)>;
    U* dst = static_cast<U*>(out.data_ptr());
    const int64_t grain = std::max<int64_t>(1, TensorIterator::kGrainSize / row);
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o0 = b; o0 < e; o0 += tile) {
        const int64_t rows = std::min(tile, e - o0);
        U* to = dst + o0 * row;
        for (size_t i = 0; i < src.size(); ++i) {
          const int64_t n = len[i];
          const U* from = reinterpret_cast<const U*>(src[i]) + o0 * n;
          if (n == 1) {
            for (int64_t o = 0; o < rows; ++o) to[o * row] = from[o];
          } else {
            for (int64_t o = 0; o < rows; ++o) {
              for (int64_t k = 0; k < n; ++k) to[o * row + k] = from[o * n + k];
            }
          }
          to += n;
        }
      }
    });
  });
}

// out[..., offset_i : offset_i + size_i, ...] = inputs[i] along dim d; the
// inputs all have out's rank and agree with it outside d.
void cat_into(const Tensor& out, const std::vector<Tensor>& inputs, int64_t d) {
  if (out.numel() == 0) return;
  bool contiguous = out.is_contiguous();
  for (const Tensor& t : inputs) contiguous = contiguous && t.is_contiguous() && t.dtype() == out.dtype();
  if (contiguous) {
    // memcpy per piece pays only for pieces of some size; rows of tiny
    // pieces (stack along the last dim) are copied element by element.
    int64_t outer = 1;
    for (int64_t k = 0; k < d; ++k) outer *= out.sizes()[k];
    int64_t pieces = 0;
    for (const Tensor& t : inputs) pieces += t.numel() > 0;
    if (static_cast<int64_t>(out.nbytes()) / outer < kMinPieceBytes * pieces) {
      cat_small_pieces(out, inputs, outer);
      return;
    }
  }

  if (contiguous) {
    // out is `outer` rows, each the concatenation of one row of every input:
    // copy byte ranges of that layout, split evenly across threads.
    int64_t outer = 1;
    for (int64_t k = 0; k < d; ++k) outer *= out.sizes()[k];
    std::vector<const char*> src;
    std::vector<int64_t> prefix{0};  // byte offset of each input's piece in a row
    for (const Tensor& t : inputs) {
      if (t.numel() == 0) continue;
      src.push_back(static_cast<const char*>(t.data_ptr()));
      prefix.push_back(prefix.back() + static_cast<int64_t>(t.nbytes()) / outer);
    }
    const int64_t row_bytes = prefix.back();
    const int64_t total = row_bytes * outer;
    const size_t pieces = src.size();
    char* dst = static_cast<char*>(out.data_ptr());
    const bool streaming = total >= kStreamingStoreBytes;
    parallel_for(0, total, kCopyGrainBytes, [&](int64_t b, int64_t e) {
      int64_t row = b / row_bytes;
      int64_t off = b % row_bytes;
      size_t s = static_cast<size_t>(std::upper_bound(prefix.begin(), prefix.end(), off) - prefix.begin()) - 1;
      int64_t pos = b;
      bool streamed = false;
      while (pos < e) {
        const int64_t take = std::min(prefix[s + 1] - off, e - pos);
        const int64_t piece = prefix[s + 1] - prefix[s];
        const char* from = src[s] + row * piece + (off - prefix[s]);
        if (streaming && take >= kStreamingPieceBytes) {
          streaming_copy(dst + pos, from, static_cast<size_t>(take));
          streamed = true;
        } else {
          std::memcpy(dst + pos, from, static_cast<size_t>(take));
        }
        pos += take;
        off += take;
        if (off == prefix[s + 1]) {
          if (++s == pieces) {
            s = 0;
            off = 0;
            ++row;
          }
        }
      }
      if (streamed) streaming_store_fence();
    });
    return;
  }

  // Any layout or dtype: one (parallel) copy per input into its slice of out.
  SizeVec sizes(out.sizes().begin(), out.sizes().end());
  int64_t offset = 0;
  for (const Tensor& t : inputs) {
    const int64_t len = t.sizes()[d];
    if (len == 0 || t.numel() == 0) {
      offset += len;
      continue;
    }
    sizes[d] = len;
    const Tensor slot = restride(out, sizes, out.strides(), out.storage_offset() + offset * out.strides()[d]);
    if (t.dtype() == out.dtype()) {
      copy_same_dtype(slot, t);
    } else {
      copy_(slot, t, false);
    }
    offset += len;
  }
}

}  // namespace

void cat_impl(const Tensor& out, TensorList tensors, int64_t dim) {
  const int64_t d = meta::cat_dim(tensors, dim);
  std::vector<Tensor> inputs;
  for (const Tensor& t : tensors) {
    if (!meta::cat_skips(t)) inputs.push_back(t);
  }
  if (inputs.empty()) return;
  bool overlap = false;
  for (const Tensor& t : inputs) overlap = overlap || shares_memory(out, t);
  write_maybe_via_temp(out, overlap, [&](const Tensor& dst) { cat_into(dst, inputs, d); });
}

void stack_impl(const Tensor& out, TensorList tensors, int64_t dim) {
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> inputs;
  bool overlap = false;
  for (const Tensor& t : tensors) {
    overlap = overlap || shares_memory(out, t);
    // t.unsqueeze(d), without the dispatcher.
    SizeVec sizes(t.sizes().begin(), t.sizes().end());
    SizeVec strides(t.strides().begin(), t.strides().end());
    const int64_t stride = d < t.dim() ? sizes[d] * strides[d] : 1;
    sizes.insert(sizes.begin() + d, 1);
    strides.insert(strides.begin() + d, stride);
    inputs.push_back(restride(t, sizes, strides, t.storage_offset()));
  }
  write_maybe_via_temp(out, overlap, [&](const Tensor& dst) { cat_into(dst, inputs, d); });
}

// ---- triu / tril -------------------------------------------------------------------

namespace {

// Keeps columns [keep_begin(i), keep_end(i)) of every row i of the last two
// dims and zeroes the rest (all-zero bytes are 0 / false in every dtype).
template <bool Upper>
void triangle(const Tensor& out, const Tensor& self, int64_t diagonal) {
  if (out.numel() == 0) return;
  const int64_t nd = out.dim();
  const int64_t rows = out.sizes()[nd - 2], cols = out.sizes()[nd - 1];
  const int64_t batch = out.numel() / (rows * cols);
  // Beyond these bounds every row is all kept or all zeroed: clamping avoids
  // overflow in i + diagonal.
  diagonal = std::clamp<int64_t>(diagonal, -rows - 1, cols + 1);
  const bool in_place = out.data_ptr() == self.data_ptr() && out.strides() == self.strides();
  const int64_t item = static_cast<int64_t>(out.itemsize());
  const int64_t out_rs = out.strides()[nd - 2] * item, out_cs = out.strides()[nd - 1] * item;
  const int64_t in_rs = self.strides()[nd - 2] * item, in_cs = self.strides()[nd - 1] * item;
  char* const out_base = static_cast<char*>(out.data_ptr());
  const char* const in_base = static_cast<const char*>(self.data_ptr());
  const IntArrayRef sizes = out.sizes();
  const IntArrayRef out_strides = out.strides(), in_strides = self.strides();

  visit_itemsize(out.itemsize(), [&](auto* tag) {
    using U = std::remove_pointer_t<decltype(tag)>;
    const int64_t grain = std::max<int64_t>(1, TensorIterator::kGrainSize / std::max<int64_t>(cols, 1));
    parallel_for(0, batch * rows, grain, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t i = r % rows;
        // Byte offsets of this matrix in out and self.
        int64_t b = r / rows, out_off = 0, in_off = 0;
        for (int64_t k = nd - 3; k >= 0; --k) {
          const int64_t c = b % sizes[k];
          b /= sizes[k];
          out_off += c * out_strides[k] * item;
          in_off += c * in_strides[k] * item;
        }
        char* o = out_base + out_off + i * out_rs;
        const char* s = in_base + in_off + i * in_rs;
        // Columns kept: triu j >= i + diagonal, tril j <= i + diagonal.
        const int64_t edge = std::clamp<int64_t>(Upper ? i + diagonal : i + diagonal + 1, 0, cols);
        const int64_t zero_begin = Upper ? 0 : edge, zero_end = Upper ? edge : cols;
        const int64_t keep_begin = Upper ? edge : 0, keep_end = Upper ? cols : edge;
        if (out_cs == item && (in_place || in_cs == item)) {
          std::memset(o + zero_begin * item, 0, static_cast<size_t>((zero_end - zero_begin) * item));
          if (!in_place) {
            std::memcpy(o + keep_begin * item, s + keep_begin * item,
                        static_cast<size_t>((keep_end - keep_begin) * item));
          }
          continue;
        }
        for (int64_t j = zero_begin; j < zero_end; ++j) *reinterpret_cast<U*>(o + j * out_cs) = U(0);
        if (!in_place) {
          for (int64_t j = keep_begin; j < keep_end; ++j) {
            *reinterpret_cast<U*>(o + j * out_cs) = *reinterpret_cast<const U*>(s + j * in_cs);
          }
        }
      }
    });
  });
}

}  // namespace

namespace {

// Writing self's own elements in place is fine; any other overlap goes
// through a temporary.
bool needs_temp_unless_in_place(const Tensor& out, const Tensor& self) {
  const bool same = out.data_ptr() == self.data_ptr() && out.sizes() == self.sizes() &&
                    out.strides() == self.strides();
  return !same && shares_memory(out, self);
}

}  // namespace

void triu_impl(const Tensor& out, const Tensor& self, int64_t diagonal) {
  write_maybe_via_temp(out, needs_temp_unless_in_place(out, self),
                       [&](const Tensor& dst) { triangle<true>(dst, self, diagonal); });
}
void tril_impl(const Tensor& out, const Tensor& self, int64_t diagonal) {
  write_maybe_via_temp(out, needs_temp_unless_in_place(out, self),
                       [&](const Tensor& dst) { triangle<false>(dst, self, diagonal); });
}

// ---- flip / repeat / pad -------------------------------------------------------------

void flip_impl(const Tensor& out, const Tensor& self, IntArrayRef dims) {
  if (out.numel() == 0) return;
  // self read backwards along the flipped dims: start at their last element
  // and step with negated strides.
  SizeVec strides(self.strides().begin(), self.strides().end());
  int64_t offset = self.storage_offset();
  absl::InlinedVector<bool, 6> flipped(self.dim(), false);
  for (int64_t dim : dims) {
    if (self.dim() == 0) break;
    flipped[wrap_dim(dim, self.dim(), "flip")] = true;
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!flipped[d] || self.sizes()[d] <= 1) continue;
    offset += (self.sizes()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  const Tensor reversed = restride(self, self.sizes(), strides, offset);
  write_maybe_via_temp(out, shares_memory(out, self),
                       [&](const Tensor& dst) { copy_same_dtype(dst, reversed); });
}

namespace {

void repeat_into(const Tensor& out, const Tensor& self, IntArrayRef repeats) {
  // out viewed as [r0, s0, r1, s1, ...] = self broadcast along the r dims.
  const int64_t n = static_cast<int64_t>(repeats.size());
  const int64_t lead = n - self.dim();
  SizeVec sizes, out_strides, in_strides;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = i < lead ? 1 : self.sizes()[i - lead];
    const int64_t st = i < lead ? 0 : self.strides()[i - lead];
    sizes.push_back(repeats[i]);
    sizes.push_back(s);
    out_strides.push_back(s * out.strides()[i]);
    out_strides.push_back(out.strides()[i]);
    in_strides.push_back(0);
    in_strides.push_back(st);
  }
  copy_same_dtype(restride(out, sizes, out_strides, out.storage_offset()),
                  restride(self, sizes, in_strides, self.storage_offset()));
}

void pad_into(const Tensor& out, const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const int64_t nd = self.dim();
  SizeVec sizes(self.sizes().begin(), self.sizes().end());
  int64_t out_offset = out.storage_offset(), in_offset = self.storage_offset();
  bool border = false;
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t d = nd - 1 - static_cast<int64_t>(i);
    const int64_t before = pad[2 * i], after = pad[2 * i + 1];
    border = border || before > 0 || after > 0;
    // Negative pads crop self; positive ones leave a border in out.
    const int64_t crop_before = std::max<int64_t>(-before, 0), crop_after = std::max<int64_t>(-after, 0);
    sizes[d] = std::max<int64_t>(self.sizes()[d] - crop_before - crop_after, 0);
    in_offset += crop_before * self.strides()[d];
    out_offset += std::max<int64_t>(before, 0) * out.strides()[d];
  }
  if (border) fill_(out, value);
  if (checked_numel(sizes, "constant_pad_nd") == 0) return;
  copy_same_dtype(restride(out, sizes, out.strides(), out_offset),
                  restride(self, sizes, self.strides(), in_offset));
}

}  // namespace

void repeat_impl(const Tensor& out, const Tensor& self, IntArrayRef repeats) {
  if (out.numel() == 0) return;
  write_maybe_via_temp(out, shares_memory(out, self),
                       [&](const Tensor& dst) { repeat_into(dst, self, repeats); });
}

void constant_pad_nd_impl(const Tensor& out, const Tensor& self, IntArrayRef pad,
                          const Scalar& value) {
  if (out.numel() == 0) return;
  write_maybe_via_temp(out, shares_memory(out, self),
                       [&](const Tensor& dst) { pad_into(dst, self, pad, value); });
}

}  // namespace lz::cpu
