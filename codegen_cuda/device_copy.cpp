#include "codegen_cuda/device_copy.h"

#include "codegen_cuda/device_kernel.h"
#include "core/error.h"

namespace lz::codegen_cuda {

namespace {

ScalarType compute_dtype(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 ? ScalarType::Float : t;
}

ir::Kernel copy_kernel(uint32_t rank, ScalarType from, ScalarType to) {
  ir::Kernel k;
  k.name = "copy";
  k.rank = rank;
  k.num_shape_refs = 1;
  ir::KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(from, rank, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(to, rank, true), {}});
  b.add_store(out, b.cast(b.load(in, compute_dtype(from)), compute_dtype(to)), false);
  return k;
}

ir::BoundAccess bound(const Tensor& t) {
  ir::BoundAccess a;
  a.data = t.data_ptr();
  for (int64_t d = 0; d < t.dim(); ++d) a.strides.push_back(t.size(d) == 1 ? 0 : t.stride(d));
  return a;
}

}  // namespace

void copy_on_device(const Tensor& dst, const Tensor& src_in) {
  LZ_CHECK(dst.is_cuda() && src_in.device() == dst.device(), DeviceError, "[copy_] expected both tensors on one ",
           "CUDA device, got ", src_in.device(), " and ", dst.device());
  if (dst.numel() == 0) return;
  const Tensor src = src_in.expand(dst.sizes());
  ir::KernelLaunch launch;
  launch.domain.assign(dst.sizes().begin(), dst.sizes().end());
  launch.accesses = {bound(src), bound(dst)};
  const ir::Kernel k = copy_kernel(static_cast<uint32_t>(dst.dim()), src.dtype(), dst.dtype());
  DeviceKernel::get(k, dst.device().index(), DeviceKernelOptions())->launch(launch);
}

}  // namespace lz::codegen_cuda
