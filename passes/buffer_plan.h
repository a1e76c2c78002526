// Buffer planning: a graph analysis over a fusion plan's groups, in their
// execution order. Every intermediate is released right after the last
// group that reads it, so memory goes back to the allocator while the graph
// runs; a kernel's output may be written into an input's buffer when the
// kernel is that input's last reader and reads it point for point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "passes/fusion_plan.h"
#include "passes/program.h"

namespace lz::passes {

struct BufferPlan {
  // Per plan group: the values whose last reader it is (never a graph
  // input, which is the user's tensor, nor a program output).
  std::vector<std::vector<ir::ValueId>> release_after;
  // Per plan group: for a kernel group, per kernel buffer, the input buffer
  // whose memory that output may take over, or -1; empty for eager groups.
  std::vector<std::vector<int32_t>> reuse;
};

// `plan` must be lowered (lower_group.h): kernel groups read their input buffers.
BufferPlan plan_buffers(const Program& p, const FusionPlan& plan);

// A readable buffer plan (LZ_DUMP's plan_buffers file).
std::string print_buffer_plan(const FusionPlan& plan, const BufferPlan& buffers);

}  // namespace lz::passes
