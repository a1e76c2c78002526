// Kernels with pieces (ir::Piece: a cat of unequal parts, a padding) run
// box by box: the domain is cut at the pieces' runtime bounds into boxes,
// each wholly inside or outside each piece, so InPiece is constant over a
// launch and each access placed in a piece is offset to the box (or reads
// zeros outside it). Internal to lazy/ (kernel_launch.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/shape.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::lazy {

// Where a piece lies along its axis in one launch: [begin, end), unclipped.
struct PieceBounds {
  int64_t begin = 0, end = 0;
};
// Per piece of `k`, from the sizes of its shape references.
std::vector<PieceBounds> piece_bounds(const ir::Kernel& k, std::span<const SizeVec> shapes);

// Runs `whole` (bound as if every placed access spanned the domain from its
// piece's start; `placed`: per access, the pieces it is placed in) as
// `run(box)` over every non-empty box.
void launch_in_boxes(const ir::Kernel& k, const ir::KernelLaunch& whole, const std::vector<PieceBounds>& bounds,
                     const std::vector<std::vector<uint32_t>>& placed,
                     const std::function<void(const ir::KernelLaunch&)>& run);

}  // namespace lz::lazy
