// LZ_CHECK_EAGER: a materialisation that proves itself. The graph's inputs
// are copied before it runs; afterwards the graph runs a second time on the
// copies through the reference plan (every traced node its eager kernel:
// CompileOptions::reference()) and every output is compared with it under the
// tolerance rule (lazy/tolerance.h). On a disagreement every intermediate
// value is computed both ways to find the first node whose value differs;
// an InternalError names it (its IR line, operator, operand and result
// types, the largest difference) and the graph is written to a file the
// message names.
#pragma once

#include <span>
#include <vector>

#include "core/tensor.h"
#include "ir/graph.h"
#include "lazy/graph_data.h"

namespace lz::lazy {

class Executable;

class EagerCheck {
 public:
  // Copies the graph's inputs, `data` (before anything runs).
  explicit EagerCheck(const GraphData& data);
  // Compares `values`, the outputs `outputs` of `g` that `exe` computed,
  // with the reference; InternalError on a disagreement.
  void verify(const ir::Graph& g, std::span<const ir::ValueId> outputs, std::span<const Tensor> values,
              const Executable& exe) const;

 private:
  GraphData before_;
};

}  // namespace lz::lazy
