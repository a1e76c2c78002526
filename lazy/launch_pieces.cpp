// The box-by-box launch of kernels with pieces (lazy/launch_pieces.h).
#include "lazy/launch_pieces.h"

#include <algorithm>

#include "core/error.h"
#include "core/parallel.h"
#include "core/scalar_type.h"

namespace lz::lazy {

std::vector<PieceBounds> piece_bounds(const ir::Kernel& k, std::span<const SizeVec> shapes) {
  std::vector<PieceBounds> bounds;
  for (const ir::Piece& p : k.pieces) {
    int64_t begin = p.offset;
    for (uint32_t r : p.after) begin += shapes[r].at(p.axis);
    bounds.push_back({begin, begin + shapes[p.size_ref].at(p.axis)});
  }
  return bounds;
}

namespace {

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
  l.whole_points = ir::num_points(whole.domain);
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

}  // namespace

// A kernel with pieces runs box by box (each box's code keeps only its
// pieces' operands). Pieces across the rows (a cat along the last dim)
// split each row between boxes: the domain is then walked in chunks of
// rows over its leading uncut axes (single indices of the outer ones, a
// block along the innermost one), in parallel, each chunk's boxes in turn
// on one thread, so the second box finds the lines the first one's
// prefetches brought in.
void launch_in_boxes(const ir::Kernel& k, const ir::KernelLaunch& whole, const std::vector<PieceBounds>& bounds,
                     const std::vector<std::vector<uint32_t>>& placed,
                     const std::function<void(const ir::KernelLaunch&)>& run) {
  const std::vector<Box> boxes = boxes_of(k, whole.domain, bounds);
  const IntArrayRef domain = whole.domain;
  const size_t rank = domain.size();
  size_t first_cut = rank;
  for (const ir::Piece& p : k.pieces) first_cut = std::min<size_t>(first_cut, p.axis);
  if (boxes.size() < 2 || first_cut == 0) {
    for (const Box& box : boxes) run(box_launch(k, whole, box, bounds, placed));
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
        run(box_launch(k, whole, box, bounds, placed));
      }
    }
  });
}

}  // namespace lz::lazy
