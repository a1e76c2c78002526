#include "tests/cuda_device/cuda_op_table.h"

#include "tests/cuda_device/cuda_device_checks.h"
#include "tests/op_table/entry_tests.h"
#include "tests/op_table/op_runner.h"

namespace lz_cuda_test {

namespace {

lzt::SampleInput on_device(const lzt::SampleInput& s, const lz::Device& device) {
  lzt::SampleInput d = s;
  for (lz::Tensor& t : d.tensors) t = to_device_keeping_layout(t, device);
  for (auto& [name, v] : d.kwargs) {
    if (v.is_tensor() && v.to_tensor().defined()) v = lz::IValue(to_device_keeping_layout(v.to_tensor(), device));
  }
  return d;
}

std::vector<lz::Tensor> on_host(std::vector<lz::Tensor> outs) {
  for (lz::Tensor& t : outs) {
    if (t.defined() && t.is_cuda()) t = t.to(lz::Device(lz::kCPU));
  }
  return outs;
}

lzt::OpInfo cuda_variant(const lzt::OpInfo& op, const lz::Device& device) {
  lzt::OpInfo c = op;
  // Results are compared as host copies, which never share storage.
  c.check = lzt::values_only_check(op);
  c.op = [op, device](const lzt::SampleInput& s) { return on_host(op.op(on_device(s, device))); };
  if (op.inplace) {
    c.inplace = [op, device](lz::Tensor& self, const lzt::SampleInput& s) {
      lzt::SampleInput ds = on_device(s, device);
      lz::Tensor device_self = ds.tensors[0];
      op.inplace(device_self, ds);
      self.copy_(device_self.to(lz::Device(lz::kCPU)));
    };
  }
  if (op.out) {
    c.out = [op, device](std::vector<lz::Tensor>& outs, const lzt::SampleInput& s) {
      std::vector<lz::Tensor> device_outs;
      for (const lz::Tensor& o : outs) device_outs.push_back(to_device_keeping_layout(o, device));
      op.out(device_outs, on_device(s, device));
      for (size_t k = 0; k < outs.size(); ++k) {
        const lz::Tensor value = device_outs[k].to(lz::Device(lz::kCPU));
        if (outs[k].sizes() == value.sizes()) {
          outs[k].copy_(value);
        } else {
          outs[k] = value;
        }
      }
    };
  }
  return c;
}

}  // namespace

void check_op_table_entry(const lzt::OpInfo& op, const lz::Device& device) {
  const lzt::OpInfo c = cuda_variant(op, device);
  lzt::check_entry(
      op,
      [&](const lzt::SampleInput& sample) {
        return lzt::FormResults{{"cuda functional", lzt::run_functional(c, sample)},
                                {"cuda in-place", lzt::run_inplace(c, sample)},
                                {"cuda out=", lzt::run_out(c, sample)}};
      },
      [&](const lzt::ErrorInput& error) { return lzt::run_error(c, error); });
}

}  // namespace lz_cuda_test
