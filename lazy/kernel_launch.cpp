#include "lazy/kernel_launch.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>

#include "core/error.h"
#include "core/tensor_impl.h"
#include "lazy/code_generators.h"
#include "lazy/config.h"
#include "lazy/launch_pieces.h"
#include "lazy/metrics.h"

namespace lz::lazy {

namespace {

// The Gathered step: dim d becomes size 1, stride 0 (a view of the same
// storage even when d is empty: a Gather reads nothing then, every index
// being out of range); *gathered gets d's extent and stride.
Tensor gathered_view(const Tensor& t, int64_t d, ir::BoundAccess* gathered) {
  gathered->gather_extent = t.size(d);
  gathered->gather_stride = t.stride(d);
  SizeVec sizes(t.sizes().begin(), t.sizes().end());
  SizeVec strides(t.strides().begin(), t.strides().end());
  sizes[d] = 1;
  strides[d] = 0;
  return Tensor(make_intrusive<TensorImpl>(*t.unsafe_get_impl(), sizes, strides, t.storage_offset()));
}

// A Reshape after a Gathered step must stay a view: a copy would lose the
// storage the gathered dim's stride walks.
Tensor gathered_reshape(const Tensor& t, IntArrayRef sizes) {
  Tensor r = t.reshape(sizes);
  LZ_CHECK(r.unsafe_get_impl()->storage().get() == t.unsafe_get_impl()->storage().get(), NotImplementedError,
           "a gathered access of shape ", shape_str(t.sizes()), " cannot be reshaped to ", shape_str(sizes),
           " without a copy");
  return r;
}

Tensor apply_view(const Tensor& t, const ir::ViewStep& s, std::span<const SizeVec> shapes,
                  ir::BoundAccess* gathered) {
  using K = ir::ViewStep::Kind;
  const auto& v = s.ints;
  switch (s.kind) {
    case K::Permute: return t.permute(v);
    case K::Expand: return t.expand(v);
    case K::ExpandTo: return t.expand(shapes[static_cast<size_t>(v[0])]);
    case K::Reshape: return gathered->gather_extent >= 0 ? gathered_reshape(t, v) : t.reshape(v);
    case K::Slice: {
      const auto bound = [](int64_t b) {
        return b == ir::ViewStep::kNoBound ? std::nullopt : std::optional<int64_t>(b);
      };
      return t.slice(v[0], bound(v[1]), bound(v[2]), v[3]);
    }
    case K::Select: return t.select(v[0], v[1]);
    case K::Unsqueeze: return t.unsqueeze(v[0]);
    case K::Squeeze: return v.empty() ? t.squeeze() : t.squeeze(v[0]);
    case K::AsStrided: {
      // A lazy as_strided addresses its base as contiguous, from element 0.
      LZ_CHECK(gathered->gather_extent < 0, NotImplementedError, "as_strided of a gathered access");
      const size_t n = static_cast<size_t>(v[0]);
      const IntArrayRef sizes(v.data() + 1, n);
      const IntArrayRef strides(v.data() + 1 + n, n);
      const Tensor base = t.contiguous();
      return base.as_strided(sizes, strides, v[1 + 2 * n] + base.storage_offset());
    }
    case K::Chunk: {
      const int64_t extent = t.size(v[0]);
      LZ_INTERNAL_ASSERT(extent % v[1] == 0, "chunk step: extent ", extent, " of dim ", v[0], " is not ", v[1],
                         " equal parts");
      const int64_t part = extent / v[1];
      return t.slice(v[0], v[2] * part, (v[2] + 1) * part);
    }
    case K::Gathered: return gathered_view(t, v[0] < 0 ? v[0] + t.dim() : v[0], gathered);
    case K::Placed: return t;  // offset per box by launch_kernel
    case K::NarrowTo: {
      const SizeVec& to = shapes[static_cast<size_t>(v[0])];
      LZ_INTERNAL_ASSERT(static_cast<int64_t>(to.size()) == t.dim(), "narrow_to step: rank ", t.dim(), " vs ",
                         shape_str(to));
      Tensor r = t;
      for (int64_t d = 0; d < t.dim(); ++d) {
        if (r.size(d) > to[d]) r = r.slice(d, 0, to[d]);
      }
      return r;
    }
  }
  LZ_INTERNAL_ASSERT(false, "unknown view step");
}

// `extents`: the domain's, or a placed access's piece sizes on their axes.
ir::BoundAccess bind_access(const ir::Kernel& k, uint32_t a, const Tensor& viewed, IntArrayRef extents,
                            bool reduced_store) {
  LZ_INTERNAL_ASSERT(viewed.dim() == static_cast<int64_t>(k.rank), "kernel ", k.name, " access a", a,
                     ": rank ", viewed.dim(), " does not match the domain rank ", k.rank);
  ir::BoundAccess b;
  b.data = viewed.data_ptr();
  b.strides.resize(k.rank);
  for (uint32_t d = 0; d < k.rank; ++d) {
    const int64_t size = viewed.size(d);
    const bool reduced_axis = reduced_store && ((k.reduce_axes >> d) & 1);
    LZ_INTERNAL_ASSERT(size == (reduced_axis ? 1 : extents[d]) || (size == 1 && !reduced_store),
                       "kernel ", k.name, " access a", a, ": shape ", shape_str(viewed.sizes()),
                       " does not line up with ", shape_str(extents));
    b.strides[d] = size == 1 ? 0 : viewed.stride(d);
  }
  return b;
}

// Runs one launch: compiled, or by the interpreter when the code declines
// it. False: nothing ran, the code is compiling.
bool run_launch(const ir::Kernel& k, const KernelCode& code, const ir::KernelLaunch& launch) {
  std::string failure;
  const ir::Launched launched = code->launch(launch, &failure);
  if (launched == ir::Launched::Ran) return true;
  if (launched == ir::Launched::Compiling) {
    // The interpreter stands in for a small launch (cheaper than a dispatch
    // per eager step); a large one runs the kernel's eager steps.
    if (ir::num_points(launch.domain) >= ir::kCompileAtOncePoints) return false;
    detail::count_run_while_compiling(0);
    if (detail::debug_level() >= 1) {
      std::fprintf(stderr, "[lazuli] kernel %s is compiling: interpreted\n", k.name.c_str());
    }
  }
  // Declined: the reference interpreter runs it.
  if (!failure.empty()) {
    detail::count_codegen_failure(failure);
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      std::fprintf(stderr, "[lazuli] warning: %s; running it through the interpreter\n", failure.c_str());
    }
  }
  detail::count_interpreted();
  interpret(k, launch);
  return true;
}

std::mutex observer_mutex;
std::function<void(const ir::Kernel&)> kernel_observer;

}  // namespace

void set_kernel_observer(std::function<void(const ir::Kernel&)> observer) {
  std::lock_guard<std::mutex> lock(observer_mutex);
  kernel_observer = std::move(observer);
}

KernelCode compile_kernel(const ir::Kernel& k, Device device, std::string* failure) {
  {
    std::lock_guard<std::mutex> lock(observer_mutex);
    if (kernel_observer) kernel_observer(k);
  }
  if (device.is_cpu() && detail::jit_fault(k.name)) {
    *failure = "LZ_JIT_FAULT: injected compile failure of " + k.name;
    detail::count_codegen_failure(*failure);
    return nullptr;
  }
  try {
    return code_generator_for(device).compile(k, device.index(), codegen_settings());
  } catch (const NotImplementedError& e) {
    *failure = e.what();
    detail::count_codegen_failure(*failure);
    return nullptr;
  }
}

namespace {

// `k`'s launch over its whole domain: each access's view chain resolved on
// its buffer's tensor (kept alive in *viewed until the kernel has run), and
// per access the pieces it is placed in.
ir::KernelLaunch bind_launch(const ir::Kernel& k, std::span<const Tensor> buffers, std::span<const SizeVec> shapes,
                             std::vector<Scalar> params, const std::vector<PieceBounds>& bounds,
                             std::vector<Tensor>* viewed, std::vector<std::vector<uint32_t>>* placed) {
  ir::KernelLaunch launch;
  const SizeVec& domain = shapes[k.domain_shape];
  // Eager checks every index even when the result is empty; a kernel checks
  // those of the points it computes: with none, the reference plan runs.
  if (std::find(domain.begin(), domain.end(), 0) != domain.end()) {
    for (const ir::Expr& e : k.exprs) {
      LZ_CHECK(e.op != ir::ScalarOp::Gather, NotImplementedError, "kernel ", k.name,
               ": a gather over no points cannot check its indices");
    }
  }
  launch.domain.assign(domain.begin(), domain.end());
  std::vector<uint8_t> reduced(k.accesses.size(), 0);
  for (const ir::Store& s : k.stores) reduced[s.access] = s.reduced;
  viewed->reserve(k.accesses.size());
  placed->assign(k.accesses.size(), {});
  for (uint32_t a = 0; a < k.accesses.size(); ++a) {
    Tensor t = buffers[k.accesses[a].buffer];
    ir::BoundAccess gathered;
    gathered.gather_extent = -1;  // until a Gathered step
    SizeVec extents = domain;
    for (const ir::ViewStep& step : k.accesses[a].views) {
      t = apply_view(t, step, shapes, &gathered);
      if (step.kind != ir::ViewStep::Kind::Placed) continue;
      const auto p = static_cast<uint32_t>(step.ints.at(0));
      (*placed)[a].push_back(p);
      extents[k.pieces[p].axis] = bounds[p].end - bounds[p].begin;
    }
    launch.accesses.push_back(bind_access(k, a, t, extents, reduced[a]));
    launch.accesses.back().gather_extent = std::max<int64_t>(0, gathered.gather_extent);
    launch.accesses.back().gather_stride = gathered.gather_stride;
    viewed->push_back(std::move(t));
  }
  launch.params = std::move(params);
  return launch;
}

}  // namespace

bool launch_kernel(const ir::Kernel& k, const KernelCode& code, std::span<const Tensor> buffers,
                   std::span<const SizeVec> shapes, std::vector<Scalar> params, bool wait_for_code) {
  // The viewed tensors live until the kernel has run: an as_strided step
  // over a strided view (a broadcast operand) reads a contiguous copy.
  std::vector<Tensor> viewed;
  const std::vector<PieceBounds> bounds = piece_bounds(k, shapes);
  std::vector<std::vector<uint32_t>> placed;  // per access: the pieces it is placed in
  ir::KernelLaunch launch = bind_launch(k, buffers, shapes, std::move(params), bounds, &viewed, &placed);
  launch.wait_for_code = wait_for_code;
  if (k.pieces.empty()) return run_launch(k, code, launch);
  // The boxes run one way: compiled (each waits for its code) once every
  // box's code is ready, else all as the kernel's eager steps.
  std::atomic<bool> ready{true};
  launch_in_boxes(k, launch, bounds, placed, [&](const ir::KernelLaunch& box) {
    if (!code->ready(box)) ready.store(false, std::memory_order_relaxed);
  });
  if (!ready.load()) return false;
  launch_in_boxes(k, launch, bounds, placed, [&](const ir::KernelLaunch& box) { run_launch(k, code, box); });
  return true;
}

BlockLauncher::BlockLauncher(const ir::Kernel& k, KernelCode code, std::span<const Tensor> buffers,
                             std::span<const SizeVec> shapes, std::vector<Scalar> params)
    : kernel_(k), code_(std::move(code)) {
  LZ_INTERNAL_ASSERT(k.rank == 2 && k.pieces.empty(), "kernel ", k.name, " cannot run block by block");
  std::vector<std::vector<uint32_t>> placed;
  whole_ = bind_launch(k, buffers, shapes, std::move(params), {}, &viewed_, &placed);
  whole_.wait_for_code = true;  // a block would otherwise be interpreted while the code compiles
}

void BlockLauncher::run(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const {
  ir::KernelLaunch block = whole_;
  block.domain = {r1 - r0, c1 - c0};
  block.whole_points = ir::num_points(whole_.domain);
  for (size_t a = 0; a < block.accesses.size(); ++a) {
    ir::BoundAccess& acc = block.accesses[a];
    const int64_t offset = r0 * acc.strides[0] + c0 * acc.strides[1];
    const auto size = static_cast<int64_t>(element_size(kernel_.buffers[kernel_.accesses[a].buffer].dtype));
    acc.data = static_cast<char*>(acc.data) + offset * size;
  }
  const bool ran = run_launch(kernel_, code_, block);
  LZ_INTERNAL_ASSERT(ran, "kernel ", kernel_.name, ": a block did not run while its code compiled");
}

}  // namespace lz::lazy
