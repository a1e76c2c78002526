// What a recorded graph's numbered slots stand for: the tensor bound to each
// graph input and the generator bound to each generator slot (ir::Graph
// holds neither). The trace fills it as it records, beside its graph; the
// copies the compiler makes keep the input and generator numbers, so the
// same GraphData runs them. A graph read from text has none: an empty
// GraphData (compiling it then assumes nothing about its inputs' strides).
#pragma once

#include <cstdint>
#include <vector>

#include "core/generator.h"
#include "core/tensor.h"

namespace lz::lazy {

struct GraphData {
  std::vector<Tensor> inputs;          // by graph input index
  std::vector<Generator> generators;   // by generator index

  // Input `index`'s tensor; undefined when none is bound (a parsed graph).
  const Tensor& input(uint32_t index) const {
    static const Tensor kNone;
    return index < inputs.size() ? inputs[index] : kNone;
  }
  void clear() {
    inputs.clear();
    generators.clear();
  }
};

}  // namespace lz::lazy
