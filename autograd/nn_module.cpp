#include "autograd/nn_module.h"

namespace lz::nn {

Tensor Module::forward(const Tensor&) {
  LZ_FAIL(NotImplementedError, "[nn::Module] this module has no forward(const Tensor&)");
}

Tensor& Module::register_parameter(std::string name, Tensor value) {
  value.requires_grad_();
  parameters_.emplace_back(std::move(name), std::make_unique<Tensor>(std::move(value)));
  return *parameters_.back().second;
}

void Module::collect(const std::string& prefix, std::vector<std::pair<std::string, Tensor>>* out) const {
  for (const auto& [name, p] : parameters_) out->emplace_back(prefix + name, *p);
  for (const auto& [name, child] : children_) child->collect(prefix + name + ".", out);
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
  std::vector<std::pair<std::string, Tensor>> out;
  collect("", &out);
  return out;
}

std::vector<Tensor> Module::parameters() const {
  std::vector<Tensor> out;
  for (auto& [name, p] : named_parameters()) out.push_back(std::move(p));
  return out;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& [name, child] : children_) child->train(on);
}

void Module::zero_grad() {
  for (auto& [name, p] : parameters_) p->mutable_grad() = Tensor();
  for (auto& [name, child] : children_) child->zero_grad();
}

void Module::to_lazy() {
  for (auto& [name, p] : parameters_) {
    if (p->is_lazy()) continue;
    Tensor lazy = p->detach().to_lazy();
    lazy.requires_grad_();
    *p = std::move(lazy);
  }
  for (auto& [name, child] : children_) child->to_lazy();
}

}  // namespace lz::nn
