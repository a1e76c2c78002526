// The lazy layer's public functions (beside Tensor::to_lazy / to_eager /
// is_lazy). Pending work runs when a value is needed: to_eager(), item(),
// printing, data_ptr(), a device transfer, or these calls.
#pragma once

#include <source_location>

#include "core/tensor.h"
#include "lazy/config.h"
#include "lazy/metrics.h"

namespace lz {

// Materialises the given lazy tensors. Like any materialisation, it runs
// every pending value of their traces that a live tensor still needs, in
// one graph, so siblings computed later cost nothing.
void sync(TensorList tensors, const std::source_location& where = std::source_location::current());
// Materialises every live lazy tensor of this thread's trace (a "mark step").
void sync_all(const std::source_location& where = std::source_location::current());

namespace lazy {
// Nodes in this thread's trace right now (0 after a materialisation).
size_t pending_nodes();
// The operator nodes among them (graph inputs not counted).
size_t pending_operators();
// The text of this thread's trace, with the values live tensors need as
// outputs (for debugging; see ir/printer.h).
std::string dump_trace();
// Drops every cached executable (the next materialisation plans again).
void clear_executable_cache();
// Blocks until every kernel compiling in the background
// (Settings::compile_in_background) is compiled: later runs use compiled
// code only. For benchmarks that time the steady state, and for tests.
void wait_for_compiles();
}  // namespace lazy

}  // namespace lz
