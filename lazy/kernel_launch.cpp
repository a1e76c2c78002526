#include "lazy/kernel_launch.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>

#include "codegen_interp/kernel_interpreter.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/tensor_impl.h"
#include "lazy/code_generators.h"
#include "lazy/config.h"
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

// Runs one launch: compiled, or by the interpreter when the code declines it.
void run_launch(const ir::Kernel& k, const KernelCode& code, const ir::KernelLaunch& launch) {
  std::string failure;
  if (code->launch(launch, &failure)) return;
  // Declined: the reference interpreter runs it.
  if (!failure.empty()) {
    detail::count_codegen_failure(failure);
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      std::fprintf(stderr, "[lazuli] warning: %s; running it through the interpreter\n", failure.c_str());
    }
  }
  detail::count_interpreted();
  codegen_interp::run_kernel(k, launch);
}

// Where each piece lies along its axis in this launch: [begin, end), unclipped.
struct PieceBounds {
  int64_t begin = 0, end = 0;
};

std::vector<PieceBounds> piece_bounds(const ir::Kernel& k, std::span<const SizeVec> shapes) {
  std::vector<PieceBounds> bounds;
  for (const ir::Piece& p : k.pieces) {
    int64_t begin = p.offset;
    for (uint32_t r : p.after) begin += shapes[r].at(p.axis);
    bounds.push_back({begin, begin + shapes[p.size_ref].at(p.axis)});
  }
  return bounds;
}

// A box of the domain: wholly inside or outside each piece.
struct Box {
  std::vector<int64_t> begin, extent;
  std::vector<uint8_t> in_piece;
};

// The domain cut along each piece's axis at its (clipped) bounds; empty
// boxes left out.
std::vector<Box> boxes_of(const ir::Kernel& k, IntArrayRef domain, const std::vector<PieceBounds>& bounds) {
  const size_t rank = domain.size();
  std::vector<std::vector<int64_t>> cuts(rank);
  for (size_t d = 0; d < rank; ++d) cuts[d] = {0, domain[d]};
  for (size_t p = 0; p < k.pieces.size(); ++p) {
    const uint32_t d = k.pieces[p].axis;
    LZ_INTERNAL_ASSERT(((k.reduce_axes >> d) & 1) == 0, "kernel ", k.name, ": piece ", p, " along a reduction axis");
    for (int64_t c : {bounds[p].begin, bounds[p].end}) cuts[d].push_back(std::clamp<int64_t>(c, 0, domain[d]));
  }
  for (std::vector<int64_t>& c : cuts) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    if (c.size() < 2) return {};  // an empty axis
  }
  std::vector<Box> boxes;
  std::vector<size_t> at(rank, 0);  // per axis: the interval [cuts[d][at], cuts[d][at + 1])
  while (true) {
    Box box{std::vector<int64_t>(rank), std::vector<int64_t>(rank), std::vector<uint8_t>(k.pieces.size())};
    for (size_t d = 0; d < rank; ++d) {
      box.begin[d] = cuts[d][at[d]];
      box.extent[d] = cuts[d][at[d] + 1] - box.begin[d];
    }
    for (size_t p = 0; p < k.pieces.size(); ++p) {
      const int64_t b = box.begin[k.pieces[p].axis];
      box.in_piece[p] = b >= bounds[p].begin && b < bounds[p].end;
    }
    boxes.push_back(std::move(box));
    size_t d = rank;
    while (d > 0 && ++at[d - 1] + 1 >= cuts[d - 1].size()) at[--d] = 0;
    if (d == 0) return boxes;
  }
}

// The launch of one box: an access placed in a piece the box lies in starts
// at the box's point of the piece; one placed outside reads zeros (its
// value is not selected there: InPiece is false).
ir::KernelLaunch box_launch(const ir::Kernel& k, const ir::KernelLaunch& whole, const Box& box,
                            const std::vector<PieceBounds>& bounds, const std::vector<std::vector<uint32_t>>& placed) {
  alignas(64) static const int64_t zeros[8] = {};
  ir::KernelLaunch l = whole;
  l.domain = box.extent;
  l.in_piece = box.in_piece;
  for (size_t a = 0; a < k.accesses.size(); ++a) {
    ir::BoundAccess& acc = l.accesses[a];
    std::vector<int64_t> origin = box.begin;  // the box's first point in the access's own indices
    bool inside = true;
    for (uint32_t p : placed[a]) {
      inside = inside && box.in_piece[p];
      origin[k.pieces[p].axis] -= bounds[p].begin;
    }
    if (!inside) {
      acc.data = const_cast<int64_t*>(zeros);
      std::fill(acc.strides.begin(), acc.strides.end(), 0);
      acc.gather_stride = 0;
      continue;
    }
    int64_t offset = 0;
    for (size_t d = 0; d < origin.size(); ++d) offset += origin[d] * acc.strides[d];
    const auto es = static_cast<int64_t>(element_size(k.buffers[k.accesses[a].buffer].dtype));
    acc.data = static_cast<char*>(acc.data) + offset * es;
  }
  return l;
}

// Domain points per chunk of launch_in_boxes, about: each box of a chunk
// finds in L2 the rows the one before it read.
constexpr int64_t kChunkPoints = 65536;

// A kernel with pieces runs box by box (each box's code keeps only its
// pieces' operands). Pieces across the rows (a cat along the last dim)
// split each row between boxes: the domain is then walked in chunks of
// rows over its leading uncut axes (single indices of the outer ones, a
// block along the innermost one), in parallel, each chunk's boxes in turn
// on one thread, so the second box finds the lines the first one's
// prefetches brought in.
void launch_in_boxes(const ir::Kernel& k, const KernelCode& code, const ir::KernelLaunch& whole,
                     std::span<const SizeVec> shapes, const std::vector<std::vector<uint32_t>>& placed) {
  const std::vector<PieceBounds> bounds = piece_bounds(k, shapes);
  const std::vector<Box> boxes = boxes_of(k, whole.domain, bounds);
  const IntArrayRef domain = whole.domain;
  const size_t rank = domain.size();
  size_t first_cut = rank;
  for (const ir::Piece& p : k.pieces) first_cut = std::min<size_t>(first_cut, p.axis);
  if (boxes.size() < 2 || first_cut == 0) {
    for (const Box& box : boxes) run_launch(k, code, box_launch(k, whole, box, bounds, placed));
    return;
  }
  // The block axis: the first whose trailing axes hold at most kChunkPoints.
  std::vector<int64_t> trailing(rank + 1, 1);
  for (size_t d = rank; d-- > 0;) trailing[d] = trailing[d + 1] * domain[d];
  size_t axis = 0;
  while (axis + 1 < first_cut && trailing[axis + 1] > kChunkPoints) ++axis;
  const int64_t rows = std::max<int64_t>(1, kChunkPoints / std::max<int64_t>(1, trailing[axis + 1]));
  const int64_t blocks = (domain[axis] + rows - 1) / rows;
  const int64_t outer = trailing[0] / std::max<int64_t>(1, trailing[axis]);  // index tuples of the axes before
  parallel_for(0, outer * blocks, 1, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      for (Box box : boxes) {
        int64_t o = c / blocks;
        for (size_t d = axis; d-- > 0;) {
          box.begin[d] = o % domain[d];
          box.extent[d] = 1;
          o /= domain[d];
        }
        box.begin[axis] = (c % blocks) * rows;
        box.extent[axis] = std::min(rows, domain[axis] - box.begin[axis]);
        run_launch(k, code, box_launch(k, whole, box, bounds, placed));
      }
    }
  });
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

void launch_kernel(const ir::Kernel& k, const KernelCode& code, std::span<const Tensor> buffers,
                   std::span<const SizeVec> shapes, std::vector<Scalar> params) {
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
  // The viewed tensors live until the kernel has run: an as_strided step
  // over a strided view (a broadcast operand) reads a contiguous copy.
  std::vector<Tensor> viewed;
  viewed.reserve(k.accesses.size());
  const std::vector<PieceBounds> bounds = piece_bounds(k, shapes);
  std::vector<std::vector<uint32_t>> placed(k.accesses.size());  // per access: the pieces it is placed in
  for (uint32_t a = 0; a < k.accesses.size(); ++a) {
    Tensor t = buffers[k.accesses[a].buffer];
    ir::BoundAccess gathered;
    gathered.gather_extent = -1;  // until a Gathered step
    SizeVec extents = domain;
    for (const ir::ViewStep& step : k.accesses[a].views) {
      t = apply_view(t, step, shapes, &gathered);
      if (step.kind != ir::ViewStep::Kind::Placed) continue;
      const auto p = static_cast<uint32_t>(step.ints.at(0));
      placed[a].push_back(p);
      extents[k.pieces[p].axis] = bounds[p].end - bounds[p].begin;
    }
    launch.accesses.push_back(bind_access(k, a, t, extents, reduced[a]));
    launch.accesses.back().gather_extent = std::max<int64_t>(0, gathered.gather_extent);
    launch.accesses.back().gather_stride = gathered.gather_stride;
    viewed.push_back(std::move(t));
  }
  launch.params = std::move(params);
  if (k.pieces.empty()) return run_launch(k, code, launch);
  launch_in_boxes(k, code, launch, shapes, placed);
}

}  // namespace lz::lazy
