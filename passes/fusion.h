// Fusion planning: partitions a program into kernels and eager steps.
//
// The cost model (all decisions are greedy, in node order, and logged in
// FusionPlan::decisions):
// - Memory traffic is the cost: a value that stays inside a kernel costs
//   nothing; one that crosses a kernel boundary is written once and read
//   once per consumer kernel. So every lowerable node joins a kernel of its
//   producers when the iteration domains agree.
// - Domains: a pointwise node iterates its output shape. It joins a
//   producer's kernel when that kernel's domain is the same shape (operands
//   that broadcast are read at stride 0). A reduction joins the kernel of
//   its input when the kernel's domain is the input's shape and the kernel
//   reduces over the same axes or none yet; the kernel then becomes a
//   row kernel: for each outer point, its reductions run in order over the
//   inner (reduced) points, then its stores. Pointwise nodes that use the
//   reduced values in the reduced shape (mean = sum / n) or broadcast back
//   over the full domain with kept dims (x - max) join it, so softmax,
//   layer_norm and rms_norm, traced as their decompositions, become one
//   kernel that reads each row once per reduction pass and writes it once.
//   Only over the last axis: a reduction that keeps it (x.mean(0)) runs in
//   bands of columns, and a full-domain consumer (x - x.mean(0, true)) is a
//   pointwise kernel of its own (a second band walk measured slower).
//   Whether a row stays in cache across passes (a persistent reduction) or
//   is streamed again (multi-pass) is the code generator's choice, made at
//   run time from the extent.
// - Views (permute, expand, slice, select, reshape, squeeze, unsqueeze,
//   as_strided) are not kernels: a kernel reading a view reads the viewed
//   tensor with the view's index arithmetic. A view an eager step or the
//   program needs as a tensor is an eager view step (no copy).
// - Several consumers merge their producers' kernels into one multi-output
//   kernel (an Adam step: p, m and v in one pass), unless merging would
//   make a kernel both precede and follow another step.
// - Independent element-wise kernels over the same domain merge into one
//   multi-output kernel (an optimizer's updates of same-shaped parameters:
//   one launch and one loop), unless one reads the other through any step.
// - Nodes without a lowering (matmul, indexing, random operators, ...) are
//   eager steps between kernels of the same executable; their inputs are
//   stored by the kernels that compute them.
// - A producer kernel whose values only one consumer reads is recomputed
//   inside the consumer's kernel instead of stored and read back: when the
//   consumer reads it once through a view (transpose, slice: the same work
//   at other indices), and when it is cheap (arithmetic, cost <= 4 per
//   element) even if the consumer broadcasts it (a scaled bias). An
//   expensive producer that would run again for every broadcast point
//   (exp of a bias row) is stored once instead.
// - A concatenation (cat, stack) of operands of one shape joins the kernels
//   computing its operands (or starts one over their shape): the kernel
//   stores each operand into its part of the output, so a rotary embedding's
//   two halves and their cat are one kernel. Its consumers run over the
//   output's shape, in kernels of their own.
// - A cat of parts of different sizes and constant_pad_nd start a kernel
//   over the output's shape in which each operand is placed in its piece
//   (kernel IR pieces: runtime bounds along one axis); the launch runs the
//   domain box by box, each box inside or outside each piece, so each
//   operand point is computed once. Producer kernels only it reads (no
//   reductions or gathers) move into it whatever their cost. Its consumers
//   run in kernels of their own, as a concatenation's.
// - A gather (index_select, embedding, gather, nll_loss) joins like a
//   pointwise node (nll_loss like a reduction over its targets) but loads
//   the operand it gathers from: a kernel computing that operand would
//   compute every point of it. A cheap element-wise producer only the
//   gather reads moves into the gather's kernel instead and is recomputed
//   at the gathered points (nll_loss(log_softmax(x)) stores no [N, C]
//   value). A kernel with gathers is recomputed through a consumer's views
//   only when they keep every element, so every index is still checked.
// - Not done yet: epilogue fusion into matmul.
#pragma once

#include "passes/fusion_plan.h"
#include "passes/program.h"

namespace lz::passes {

struct FusionOptions {
  bool fuse = true;  // false: every node is an eager step (the LZ_NO_FUSION switch)
};

FusionPlan plan_fusion(const Program& p, const FusionOptions& options = {});

// The most a value may cost per element (Lowering::cost summed over its
// operators) to be computed again where it is read rather than stored: a
// producer a consumer broadcasts, a live temporary a materialisation leaves
// pending (lazy/carry_over.h).
inline constexpr int kRecomputeCost = 4;

}  // namespace lz::passes
