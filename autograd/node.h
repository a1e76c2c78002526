// The backward graph: a Node computes the gradients of a forward operator's
// inputs from the gradients of its outputs; its next edges lead to the
// nodes of those inputs (their grad_fn, or a leaf's AccumulateGrad).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/autograd_meta.h"
#include "core/shape.h"

namespace lz::autograd {

class Node;
using GradList = std::vector<Tensor>;

// Input `input_nr` of `function` (one of a node's forward outputs).
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool valid() const { return static_cast<bool>(function); }
};

// What the gradient of one forward input must look like: the engine sums a
// broadcast gradient down to `sizes` and casts it to `dtype`.
struct InputMeta {
  SizeVec sizes;
  ScalarType dtype = ScalarType::Float;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();  // takes the thread's next sequence number
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // "MulBackward", "AccumulateGrad".
  virtual std::string name() const = 0;
  // `grads` has one entry per forward output (undefined where none arrived);
  // returns one per next edge (undefined for none).
  virtual GradList apply(GradList&& grads) = 0;
  // Frees what the node saved (after a backward without retain_graph).
  virtual void release_saved() {}

  const std::vector<Edge>& next_edges() const { return next_edges_; }
  const std::vector<InputMeta>& input_metas() const { return input_metas_; }
  void add_next_edge(Edge edge, InputMeta meta) {
    next_edges_.push_back(std::move(edge));
    input_metas_.push_back(std::move(meta));
  }
  uint32_t num_outputs() const { return num_outputs_; }
  void set_num_outputs(uint32_t n) { num_outputs_ = n; }
  // Later nodes have larger numbers (the engine runs them first).
  uint64_t sequence_nr() const { return sequence_nr_; }

  // Hooks on the gradient of forward output `output_nr` (tensor hooks and
  // retain_grad of non-leaf tensors), run before apply.
  void add_output_hook(uint32_t output_nr, TensorHook hook) { output_hooks_.emplace_back(output_nr, std::move(hook)); }
  const std::vector<std::pair<uint32_t, TensorHook>>& output_hooks() const { return output_hooks_; }

 private:
  std::vector<Edge> next_edges_;
  std::vector<InputMeta> input_metas_;
  std::vector<std::pair<uint32_t, TensorHook>> output_hooks_;
  uint64_t sequence_nr_;
  uint32_t num_outputs_ = 1;
};

// The edge a gradient for `t` flows into: its grad_fn's output, or its
// accumulator if it is a leaf that requires grad; invalid otherwise.
Edge gradient_edge(const Tensor& t);

// What the gradient of `t` must look like.
InputMeta input_meta_of(const Tensor& t);

}  // namespace lz::autograd
