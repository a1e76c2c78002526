// How a kernel with reductions is walked per outer point (internal to
// codegen_llvm, no LLVM headers): its stages grouped into passes over the
// inner points, the expensive values one pass keeps for a later one
// (cache_stages variants), and which kernels split into parallel partials.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/kernel_ir.h"

namespace lz::codegen_llvm {

// Kernels with reductions walk outer points and, per point, the inner
// (reduction) axes, even when there are none (a reduction over a 0-dim
// value has one inner point); the others walk elements.
inline bool has_reductions(const ir::Kernel& k) { return !k.reductions.empty(); }

// What one pass over the inner points does: consecutive stages that can
// share a loop.
struct StageGroup {
  enum class Kind : uint8_t { Reduce, Store, ReducedStore } kind = Kind::Store;
  std::vector<uint32_t> items;  // reductions or stores, in stage order
};
std::vector<StageGroup> group_stages(const ir::Kernel& k);

// Which expressions a cache_stages variant keeps, and where: an expensive
// expression evaluated at every inner point by one stage group and needed
// again by a later group is written by the first and read by the others.
struct StageCache {
  std::vector<int32_t> slot_of;      // per expression: its slot or -1
  std::vector<uint32_t> writer;      // per slot: the group that computes it
  std::vector<uint32_t> offset;      // per slot: bytes per point before it
  uint32_t bytes_per_point = 0;
};
StageCache plan_stage_cache(const ir::Kernel& k);

// Bytes per inner point a cache_stages variant of `k` keeps (0: nothing to keep).
uint32_t stage_cache_bytes_per_point(const ir::Kernel& k);

// Whether the inputs of reductions `reds` involve no expensive math: a
// cheap body is bound by the combine's latency and gains from independent
// accumulator chains; an expensive one (softmax's exp pass) is bound by its
// own throughput, and unrolling it only costs compile time.
bool cheap_reduction_body(const ir::Kernel& k, const std::vector<uint32_t>& reds);

// True when the kernel's stages are reductions first, then reduced stores,
// and no reduction reads another's result: its inner space can be split
// into chunks reduced in parallel (_partial) and finished once (_finish).
bool is_splittable(const ir::Kernel& k);

}  // namespace lz::codegen_llvm
