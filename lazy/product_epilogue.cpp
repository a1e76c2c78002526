// A matrix product step and the kernel planned as its epilogue
// (passes/product_epilogue.h) run as one pass: the product computes in
// blocks (cpu::matmul_with_epilogue: OpenBLAS for float32, the packed GEMM
// for 16-bit dtypes), each block handed, once final and still in cache, to
// the kernel launched on that block.
#include "core/factories.h"
#include "eager_kernels/cpu/linalg_kernels.h"
#include "lazy/executable.h"
#include "lazy/kernel_launch.h"
#include "lazy/metrics.h"

namespace lz::lazy {

bool Executable::run_product_with_epilogue(const Step& product, const KernelStep& k, const ir::Graph& g,
                                           const GraphData& data, TraceOrder& order, std::vector<Tensor>& slots,
                                           Stack& stack, uint64_t* bytes_allocated) const {
  push_args(product, g, data, slots, stack);
  // mm(self, mat2); addmm(self, mat1, mat2, beta, alpha).
  const bool addmm = product.op->id() == OpId::addmm;
  const Tensor a = stack.at(addmm ? 1 : 0).to_tensor();
  const Tensor b = stack.at(addmm ? 2 : 1).to_tensor();
  const Tensor input = addmm ? stack.at(0).to_tensor() : Tensor();
  // The executable may run graphs of other sizes: the kernel's domain must
  // still be the product's result.
  const SizeVec result{a.size(0), b.size(1)};
  if (!cpu::computes_with_epilogue(a, b) || (addmm && input.dtype() != a.dtype()) ||
      sizes_of(k.shape_sizes[k.kernel.domain_shape], g, data, order) != result) {
    detail::count_product_epilogue(false);
    return false;
  }
  const Scalar beta = addmm ? stack.at(3).to_scalar() : Scalar(0);
  const Scalar alpha = addmm ? stack.at(4).to_scalar() : Scalar(1);
  Tensor& out = slots[product.output_slots[0]];
  out = empty(result, TensorOptions().dtype(a.dtype()));
  *bytes_allocated += out.nbytes();
  // A kernel output may take over the product's memory (the buffer plan's
  // reuse): each block is final before the kernel writes it, point for point.
  std::vector<SizeVec> shapes;
  std::vector<Tensor> buffers;
  std::vector<Scalar> params;
  *bytes_allocated += bind_buffers(k, g, data, order, slots, &shapes, &buffers, &params);
  const BlockLauncher epilogue(k.kernel, k.code, buffers, shapes, std::move(params));
  cpu::matmul_with_epilogue(out, addmm ? &input : nullptr, a, b, beta, alpha,
                            [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) { epilogue.run(r0, r1, c0, c1); });
  detail::count_product_epilogue(true);
  return true;
}

}  // namespace lz::lazy
