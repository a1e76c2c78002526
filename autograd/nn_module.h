// lz::nn::Module: a holder of named parameters and submodules (libtorch's
// torch::nn::Module, without its type-erasing holders): parameters(),
// named_parameters(), train()/eval(), zero_grad(), and to_lazy() to move
// every parameter into lazy mode in place.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace lz::nn {

class Module {
 public:
  virtual ~Module() = default;

  // The module applied to one input; NotImplementedError for modules that take other inputs.
  virtual Tensor forward(const Tensor& input);

  // Every parameter of this module and its submodules, depth first ("0.weight", "fc1.bias").
  std::vector<Tensor> parameters() const;
  std::vector<std::pair<std::string, Tensor>> named_parameters() const;
  void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return training_; }
  // Drops every parameter's gradient (set_to_none, as libtorch's default).
  void zero_grad();
  // Replaces every parameter by a lazy leaf with the same values (still
  // requiring grad): the whole training step then traces into one graph.
  void to_lazy();

 protected:
  // Registers `value` as a parameter (requires_grad set) and returns it.
  Tensor& register_parameter(std::string name, Tensor value);
  template <class M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    children_.emplace_back(std::move(name), module);
    return module;
  }

 private:
  void collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>* out) const;

  // unique_ptr keeps the parameter's address stable for the reference register_parameter returns.
  std::vector<std::pair<std::string, std::unique_ptr<Tensor>>> parameters_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

}  // namespace lz::nn
