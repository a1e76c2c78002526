#include "autograd/op_node.h"

#include <cctype>

namespace lz::autograd {

OpNode::OpNode(const OperatorHandle& op, const Derivative& derivative) : op_(op), derivative_(derivative) {}

std::string OpNode::name() const {
  std::string out;
  bool upper = true;
  for (char ch : op_.schema().name()) {
    if (ch == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out + "Backward";
}

GradList OpNode::apply(GradList&& grads) {
  const std::shared_ptr<Node> self = shared_from_this();
  std::vector<IValue> args = arguments;
  for (const auto& [i, saved] : saved_arguments) {
    const std::string what = "argument '" + op_.schema().arguments()[i].name + "'";
    args[i] = IValue(saved.unpack(self, op_.name(), what));
  }
  GradList results;
  results.reserve(saved_results.size());
  for (size_t k = 0; k < saved_results.size(); ++k) {
    results.push_back(saved_results[k].unpack(self, op_.name(), "result " + std::to_string(k)));
  }
  const BackwardContext ctx(args.data(), results, input_metas(), needs_grad);
  GradList out = derivative_.backward(ctx, grads);
  LZ_INTERNAL_ASSERT(out.size() == input_metas().size(), "[", op_.name(), "] the derivative formula returned ",
                     out.size(), " gradients for ", input_metas().size(), " inputs");
  return out;
}

void OpNode::release_saved() {
  for (auto& [i, saved] : saved_arguments) saved.release();
  for (SavedTensor& saved : saved_results) saved.release();
}

}  // namespace lz::autograd
