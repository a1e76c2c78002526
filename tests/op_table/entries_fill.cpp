// Entries that write or read a tensor's values whole: fill_, zero_, item.
// Part of the view family's table (appended by add_view_ops, after copy_).
#include <string>
#include <vector>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/samples.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

// fill_(value) and zero_() into every writable layout.
OpInfo fill_entry(bool zero) {
  OpInfo op;
  op.name = zero ? "zero_" : "fill_";
  op.dtypes = all_types();
  op.samples = [zero](ScalarType t) {
    std::vector<SampleInput> out;
    uint32_t seed = 1200;
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{}, {0, 3}, {5}, {3, 4}, {300, 257}}) {
      for (const auto& [name, x] : layouts(shape, t, seed++)) {
        if (name.find("expanded") != std::string::npos) continue;  // not writable
        for (const IValue& v : zero ? std::vector<IValue>{IValue(int64_t{0})}
                                    : std::vector<IValue>{IValue(int64_t{3}), IValue(2.5), IValue(true)}) {
          out.push_back(SampleInput{{x}, {{"value", v}}, name});
        }
      }
    }
    return out;
  };
  const auto write = [zero](Tensor& self, const SampleInput& s) {
    if (zero) {
      self.zero_();
    } else {
      self.fill_(s.scalar_arg("value"));
    }
  };
  op.inplace = write;
  op.op = [write](const SampleInput& s) {
    Tensor dst = s[0].clone();
    write(dst, s);
    return std::vector<Tensor>{dst};
  };
  op.reference = [](const SampleInput& s) {
    const double v = converted_value(s[0].dtype(), s.scalar_arg("value").to_double());
    Expected e{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), s[0].dtype(), {}};
    e.values.assign(static_cast<size_t>(s[0].numel()), v);
    return std::vector<Expected>{std::move(e)};
  };
  if (!zero) {
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          ValueError, (SampleInput{{lz::zeros({3}, lz::kUInt8)}, {{"value", IValue(-1.5)}}, "negative into uint8"}),
          "[fill_] value: -1.5 cannot be converted to uint8 without overflow")};
    };
  }
  return op;
}

// item(): the one element as a number (returned as a 0-dim tensor of self's dtype).
OpInfo item_entry() {
  OpInfo op;
  op.name = "item";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out;
    uint32_t seed = 1300;
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{}, {1}, {1, 1}}) {
      for (const auto& [name, x] : layouts(shape, t, seed++)) out.push_back(SampleInput{{x}, {}, name});
    }
    return out;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::scalar_tensor(s[0].item(), s[0].dtype())}; };
  op.reference = [](const SampleInput& s) { return std::vector<Expected>{Expected{{}, s[0].dtype(), values(s[0])}}; };
  op.errors = [] {
    return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
        ValueError, (SampleInput{{lz::zeros({2, 3})}, {}, "6 elements"}),
        "[item] a tensor with 6 elements cannot be converted to a Scalar (shape [2, 3])")};
  };
  return op;
}

}  // namespace

void add_fill_ops(std::vector<OpInfo>& t) {
  t.push_back(fill_entry(false));
  t.push_back(fill_entry(true));
  t.push_back(item_entry());
}

}  // namespace lzt
