#include "core/structured.h"

#include "core/error.h"
#include "core/memory_overlap.h"
#include "core/warning.h"

namespace lz::detail {

namespace {

void check_device(const std::string& op, std::string_view arg, const Tensor& t, const TensorMeta& m) {
  LZ_CHECK(t.device() == m.device, DeviceError, "[", op, "] ", arg, ": result is on ", m.device,
           " but ", arg, " is on ", t.device());
}

void check_castable(const std::string& op, std::string_view arg, const Tensor& t,
                    const TensorMeta& m) {
  LZ_CHECK(can_cast(m.dtype, t.dtype()), TypeError, "[", op, "] ", arg, ": result type ", m.dtype,
           " can't be cast to the desired output type ", t.dtype());
}

}  // namespace

void check_inplace_result(const std::string& op, const Tensor& self, const TensorMeta& m) {
  check_device(op, "self", self, m);
  LZ_CHECK(self.sizes() == IntArrayRef(m.sizes), ShapeError, "[", op, "] self: output with shape ",
           shape_str(self.sizes()), " doesn't match the broadcast shape ", shape_str(m.sizes));
  check_castable(op, "self", self, m);
  check_no_internal_overlap(op, "self", self);
}

void prepare_out(const std::string& op, const Tensor& out, const TensorMeta& m) {
  LZ_CHECK(out.defined(), ValueError, "[", op, "] out: the out= tensor is undefined");
  check_device(op, "out", out, m);
  check_castable(op, "out", out, m);
  if (out.sizes() != IntArrayRef(m.sizes)) {
    // As libtorch: an empty out is resized silently, any other with a warning.
    if (out.numel() != 0) {
      warn("[", op, "] out: an output with one or more elements was resized since it had shape ",
           shape_str(out.sizes()), ", which does not match the required output shape ", shape_str(m.sizes),
           " (resize it to zero elements first to silence this warning)");
    }
    resize_tensor(out, m.sizes);
  }
  check_no_internal_overlap(op, "out", out);
}

bool partially_overlaps(const Tensor& dst, const Tensor& input) {
  return overlap_kind(dst, input) == Overlap::Partial;
}

void copy_into(const Tensor& dst, const Tensor& src) {
  Tensor d = dst;
  d.copy_(src);
}

}  // namespace lz::detail
