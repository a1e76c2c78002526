// The generate_code step of the compile pipeline (lazy/compile.h): every
// kernel group of a lowered plan compiled for the device its values live on.
#pragma once

#include <vector>

#include "core/device.h"
#include "lazy/kernel_launch.h"
#include "passes/fusion_plan.h"
#include "passes/program.h"

namespace lz::lazy {

// Where a kernel group runs and its outputs live (every value of one graph
// is on one device).
Device device_of(const passes::Program& p, const passes::FusionGroup& group);

// Per plan group: the compiled kernel, or empty for an eager group. A kernel
// the code generator cannot emit becomes eager steps, one per node (and per
// view it read as index arithmetic), each saying why (so metrics, LZ_DEBUG and dumps show the fallback): `plan`'s
// groups change then, and the result matches the new groups.
std::vector<KernelCode> generate_code(const passes::Program& p, passes::FusionPlan& plan);

}  // namespace lz::lazy
