// SavedTensor: a tensor a backward formula needs, with the version it had
// when saved. Using it after an in-place write raises PyTorch's error; a
// node's own output is kept without its history (which would make the node
// own itself) and gets it back on unpack.
#pragma once

#include <memory>

#include "autograd/node.h"

namespace lz::autograd {

class SavedTensor {
 public:
  SavedTensor() = default;
  // `is_output`: `t` is output `output_nr` of the node that saves it.
  SavedTensor(const Tensor& t, bool is_output, uint32_t output_nr = 0);

  // The saved tensor; ValueError when it was modified in place since, or
  // was freed by a backward without retain_graph. `op` and `what` name it in
  // the message. With grad mode on (create_graph) an output gets `owner` as
  // its grad_fn again.
  Tensor unpack(const std::shared_ptr<Node>& owner, std::string_view op, std::string_view what) const;
  void release() { data_ = Tensor(); }
  bool was_defined() const { return was_defined_; }

 private:
  Tensor data_;
  uint64_t version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_defined_ = false;
};

}  // namespace lz::autograd
