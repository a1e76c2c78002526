#include "autograd/engine.h"

#include <queue>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "autograd/grad_mode.h"
#include "autograd/formula_helpers.h"
#include "core/autograd_hooks.h"
#include "core/factories.h"
#include "core/ops_copy.h"

namespace lz::autograd {

namespace {

struct Root {
  Edge edge;
  Tensor grad;
};

std::vector<Root> make_roots(const char* op, const std::vector<Tensor>& outputs, const std::vector<Tensor>& grads) {
  LZ_CHECK(grads.empty() || grads.size() == outputs.size(), ValueError, "[", op, "] got ", grads.size(),
           " gradients for ", outputs.size(), " outputs");
  std::vector<Root> roots;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    LZ_CHECK(out.defined(), ValueError, "[", op, "] output ", i, " is undefined");
    Edge edge = gradient_edge(out);
    LZ_CHECK(edge.valid(), ValueError, "[", op, "] element ", i,
             " of tensors does not require grad and does not have a grad_fn");
    Tensor grad = grads.empty() ? Tensor() : grads[i];
    if (!grad.defined()) {
      LZ_CHECK(out.numel() == 1, ValueError, "[", op,
               "] grad can be implicitly created only for one-element outputs; output ", i, " has shape ",
               shape_str(out.sizes()), " (pass a gradient)");
      grad = ones_like(out);
    } else {
      LZ_CHECK(grad.sizes() == out.sizes(), ShapeError, "[", op, "] gradient ", i, " has shape ",
               shape_str(grad.sizes()), " but output ", i, " has shape ", shape_str(out.sizes()));
    }
    roots.push_back(Root{std::move(edge), std::move(grad)});
  }
  return roots;
}

// The gradient of a node's input as its forward input was: summed over
// broadcast dimensions, cast to its dtype.
Tensor shaped_like_input(Tensor grad, const InputMeta& meta, std::string_view producer) {
  if (grad.sizes() != IntArrayRef(meta.sizes)) {
    LZ_CHECK(is_expandable_to(meta.sizes, grad.sizes()), InternalError, "[backward] ", producer,
             " returned a gradient of shape ", shape_str(grad.sizes()), " for an input of shape ",
             shape_str(meta.sizes));
    grad = sum_to(grad, meta.sizes);
  }
  if (grad.dtype() != meta.dtype) grad = grad.to(meta.dtype);
  return grad;
}

void accumulate(GradList& buffer, uint32_t slot, Tensor grad) {
  Tensor& into = buffer.at(slot);
  into = into.defined() ? into + grad : std::move(grad);
}

class GraphTask {
 public:
  GraphTask(bool keep_graph, bool create_graph) : keep_graph_(keep_graph), create_graph_(create_graph) {}

  // Gradients reaching these edges are captured (grad()), and nodes that
  // lead to none of them are not run.
  void capture(const std::vector<Edge>& edges) {
    for (size_t i = 0; i < edges.size(); ++i) captures_[edges[i].function.get()].emplace_back(edges[i].input_nr, i);
    captured_.resize(edges.size());
  }
  GradList take_captured() { return std::move(captured_); }

  void run(std::vector<Root>& roots) {
    AutoGradMode mode(create_graph_);
    count_dependencies(roots);
    for (Root& root : roots) {
      Node* fn = root.edge.function.get();
      GradList& buffer = buffer_of(*fn);
      accumulate(buffer, root.edge.input_nr, std::move(root.grad));
    }
    for (Root& root : roots) {
      Node* fn = root.edge.function.get();
      if (dependencies_[fn] == 0 && ready_set_.insert(fn).second) ready_.push(root.edge.function);
    }
    while (!ready_.empty()) {
      std::shared_ptr<Node> node = ready_.top();
      ready_.pop();
      execute(*node);
    }
    if (!keep_graph_) {
      for (Node* n : executed_) n->release_saved();
    }
  }

 private:
  struct LaterFirst {
    bool operator()(const std::shared_ptr<Node>& a, const std::shared_ptr<Node>& b) const {
      return a->sequence_nr() < b->sequence_nr();
    }
  };

  GradList& buffer_of(Node& n) {
    auto [it, inserted] = buffers_.try_emplace(&n);
    if (inserted) it->second.resize(n.num_outputs());
    return it->second;
  }

  void count_dependencies(const std::vector<Root>& roots) {
    std::vector<Node*> stack;
    for (const Root& r : roots) {
      if (seen_.insert(r.edge.function.get()).second) stack.push_back(r.edge.function.get());
    }
    std::vector<Node*> order;
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      order.push_back(n);
      for (const Edge& e : n->next_edges()) {
        if (!e.valid()) continue;
        ++dependencies_[e.function.get()];
        if (seen_.insert(e.function.get()).second) stack.push_back(e.function.get());
      }
    }
    if (captures_.empty()) return;
    // Only nodes that feed a captured edge need to run; a captured node
    // itself does not (grad() must not accumulate into leaves).
    bool changed = true;
    while (changed) {
      changed = false;
      for (Node* n : order) {
        if (needed_.contains(n)) continue;
        for (const Edge& e : n->next_edges()) {
          if (e.valid() && (captures_.contains(e.function.get()) || needed_.contains(e.function.get()))) {
            needed_.insert(n);
            changed = true;
            break;
          }
        }
      }
    }
  }

  void execute(Node& node) {
    GradList grads = std::move(buffer_of(node));
    buffers_.erase(&node);
    for (const auto& [output_nr, hook] : node.output_hooks()) {
      if (!grads.at(output_nr).defined()) continue;
      if (Tensor replaced = hook(grads[output_nr]); replaced.defined()) grads[output_nr] = std::move(replaced);
    }
    if (auto it = captures_.find(&node); it != captures_.end()) {
      for (const auto& [input_nr, index] : it->second) {
        Tensor& slot = captured_[index];
        slot = slot.defined() ? slot + grads.at(input_nr) : grads.at(input_nr);
      }
    }
    bool any = false;
    for (const Tensor& g : grads) any = any || g.defined();
    const bool run = any && (captures_.empty() || needed_.contains(&node));
    GradList outputs;
    if (run) {
      outputs = node.apply(std::move(grads));
      executed_.push_back(&node);
    }
    const auto& edges = node.next_edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.valid()) continue;
      if (i < outputs.size() && outputs[i].defined()) {
        accumulate(buffer_of(*e.function), e.input_nr, shaped_like_input(std::move(outputs[i]), node.input_metas()[i], node.name()));
      }
      if (--dependencies_[e.function.get()] == 0 && ready_set_.insert(e.function.get()).second) {
        ready_.push(e.function);
      }
    }
  }

  bool keep_graph_;
  bool create_graph_;
  absl::flat_hash_map<Node*, int> dependencies_;
  absl::flat_hash_set<Node*> seen_;
  absl::flat_hash_set<Node*> ready_set_;
  absl::flat_hash_map<Node*, GradList> buffers_;
  std::priority_queue<std::shared_ptr<Node>, std::vector<std::shared_ptr<Node>>, LaterFirst> ready_;
  std::vector<Node*> executed_;
  absl::flat_hash_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures_;
  absl::flat_hash_set<Node*> needed_;
  GradList captured_;
};

}  // namespace

void backward(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs, bool retain_graph,
              bool create_graph) {
  std::vector<Root> roots = make_roots("backward", outputs, grad_outputs);
  GraphTask task(retain_graph, create_graph);
  task.run(roots);
}

GradList grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
              const std::vector<Tensor>& grad_outputs, std::optional<bool> retain_graph, bool create_graph,
              bool allow_unused) {
  std::vector<Root> roots = make_roots("autograd::grad", outputs, grad_outputs);
  std::vector<Edge> edges;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Edge e = inputs[i].defined() ? gradient_edge(inputs[i]) : Edge{};
    LZ_CHECK(e.valid(), ValueError, "[autograd::grad] input ", i, " does not require grad");
    edges.push_back(std::move(e));
  }
  GraphTask task(retain_graph.value_or(create_graph), create_graph);
  task.capture(edges);
  task.run(roots);
  GradList result = task.take_captured();
  for (size_t i = 0; i < result.size(); ++i) {
    LZ_CHECK(result[i].defined() || allow_unused, ValueError, "[autograd::grad] input ", i,
             " was not used to compute the outputs (pass allow_unused=true to get an undefined gradient)");
    if (result[i].defined()) result[i] = shaped_like_input(std::move(result[i]), input_meta_of(inputs[i]), "autograd::grad");
  }
  return result;
}

namespace {

void tensor_backward(const Tensor& self, const Tensor& gradient, bool retain_graph, bool create_graph) {
  backward({self}, gradient.defined() ? std::vector<Tensor>{gradient} : std::vector<Tensor>{}, retain_graph,
           create_graph);
}

void add_grad_fn_hook(const Tensor& self, TensorHook hook) {
  const AutogradMeta* meta = autograd_meta(self);
  LZ_INTERNAL_ASSERT(meta != nullptr && meta->grad_fn, "add_grad_fn_hook on a tensor without grad_fn");
  meta->grad_fn->add_output_hook(meta->output_nr, std::move(hook));
}

const bool hooks_installed = [] {
  autograd_hooks().backward = &tensor_backward;
  autograd_hooks().add_grad_fn_hook = &add_grad_fn_hook;
  return true;
}();

}  // namespace

}  // namespace lz::autograd
