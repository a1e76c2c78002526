// Table entries: extremum reductions (max and min over all elements or
// along a dim with their indices, amax, amin, argmax, argmin). References
// pick the first extremum of each group, NaN first, in float64 loops over
// the inputs' values (reduction_helpers.h), never a Lazuli kernel.
#include <optional>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reduction_helpers.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

void add_max_min(std::vector<OpInfo>& t) {
  for (const bool largest : {true, false}) {
    const std::string name = largest ? "max" : "min";
    {
      // The full reduction to a 0-dim tensor.
      OpInfo op;
      op.name = name;
      op.dtypes = all_types();
      op.samples = [](ScalarType d) { return without_empty_groups(full_samples(d)); };
      op.op = [largest](const SampleInput& s) {
        return std::vector<Tensor>{largest ? lz::max(s[0]) : lz::min(s[0])};
      };
      op.reference = [largest](const SampleInput& s) {
        return std::vector<Expected>{group_reference(s, s[0].dtype(), [largest](const std::vector<double>& v) {
          return ref_extremum(v, largest);
        })};
      };
      op.out = [largest](std::vector<Tensor>& outs, const SampleInput& s) {
        if (largest) {
          lz::max_out(outs[0], s[0]);
        } else {
          lz::min_out(outs[0], s[0]);
        }
      };
      op.errors = [name] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(ValueError, error_input({0}, lz::kFloat32, {}, "empty"),
                             "[" + name + "] self: cannot reduce the empty tensor of shape [0] over all its dims"),
            LZT_EXPECT_ERROR(ValueError, error_input({2, 0, 3}, lz::kInt32, {}, "empty 3-D"),
                             "[" + name + "] self: cannot reduce the empty tensor of shape [2, 0, 3]")};
      };
      t.push_back(std::move(op));
    }
    {
      // (values, indices) along one dim.
      OpInfo op;
      op.name = name + ".dim";
      op.dtypes = all_types();
      op.samples = [](ScalarType d) { return without_empty_groups(single_dim_samples(d)); };
      op.op = [largest](const SampleInput& s) {
        auto [values, indices] = largest ? lz::max(s[0], s.int_arg("dim"), keepdim_of(s))
                                         : lz::min(s[0], s.int_arg("dim"), keepdim_of(s));
        return std::vector<Tensor>{values, indices};
      };
      op.reference = [largest](const SampleInput& s) {
        return std::vector<Expected>{
            group_reference(s, s[0].dtype(), [largest](const std::vector<double>& v) { return ref_extremum(v, largest); }),
            group_reference(s, lz::kInt64, [largest](const std::vector<double>& v) {
              return static_cast<double>(ref_arg(v, largest));
            })};
      };
      op.out = [largest](std::vector<Tensor>& outs, const SampleInput& s) {
        if (largest) {
          lz::max_out(outs[0], outs[1], s[0], s.int_arg("dim"), keepdim_of(s));
        } else {
          lz::min_out(outs[0], outs[1], s[0], s.int_arg("dim"), keepdim_of(s));
        }
      };
      op.errors = [name] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(IndexError, error_input({2, 0}, lz::kFloat32, {{"dim", IValue(int64_t{1})}}, "size-0 dim"),
                             "[" + name + "] dim: cannot reduce over dim 1 of size 0 (shape [2, 0])"),
            LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", IValue(int64_t{-3})}}, "dim -3"),
                             "[" + name + "] dim: -3 is out of range for a 2-D tensor")};
      };
      t.push_back(std::move(op));
    }
    {
      OpInfo op;
      op.name = largest ? "amax" : "amin";
      op.dtypes = all_types();
      op.samples = [](ScalarType d) { return without_empty_groups(list_samples(d)); };
      op.op = [largest](const SampleInput& s) {
        const lz::IntArrayRef d = s.int_list_arg("dim");
        return std::vector<Tensor>{largest ? lz::amax(s[0], d, keepdim_of(s)) : lz::amin(s[0], d, keepdim_of(s))};
      };
      op.reference = [largest](const SampleInput& s) {
        return std::vector<Expected>{group_reference(s, s[0].dtype(), [largest](const std::vector<double>& v) {
          return ref_extremum(v, largest);
        })};
      };
      op.out = [largest](std::vector<Tensor>& outs, const SampleInput& s) {
        if (largest) {
          lz::amax_out(outs[0], s[0], s.int_list_arg("dim"), keepdim_of(s));
        } else {
          lz::amin_out(outs[0], s[0], s.int_list_arg("dim"), keepdim_of(s));
        }
      };
      const std::string opname = op.name;
      op.errors = [opname] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(ValueError, error_input({0, 3}, lz::kFloat32, {{"dim", dims({})}}, "empty, all dims"),
                             "[" + opname + "] self: cannot reduce the empty tensor of shape [0, 3] over all its dims"),
            LZT_EXPECT_ERROR(IndexError, error_input({0, 3}, lz::kFloat32, {{"dim", dims({1, 0})}}, "a size-0 dim"),
                             "[" + opname + "] dim: cannot reduce over dim 0 of size 0"),
            LZT_EXPECT_ERROR(ValueError, error_input({2, 3}, lz::kInt32, {{"dim", dims({0, -2})}}, "repeated dim"),
                             "[" + opname + "] dim: dim 0 appears multiple times")};
      };
      t.push_back(std::move(op));
    }
    {
      OpInfo op;
      op.name = largest ? "argmax" : "argmin";
      op.dtypes = numeric_types();
      op.samples = [](ScalarType d) {
        // dim given, and dim=None (the flattened tensor) with and without keepdim.
        std::vector<SampleInput> out = single_dim_samples(d);
        for (const SampleInput& s : full_samples(d)) {
          out.push_back(s);
          out.push_back(with(s, {{"keepdim", IValue(true)}}));
        }
        return without_empty_groups(out);
      };
      op.op = [largest](const SampleInput& s) {
        const std::optional<int64_t> d = has_dim(s) ? std::optional<int64_t>(s.int_arg("dim")) : std::nullopt;
        return std::vector<Tensor>{largest ? lz::argmax(s[0], d, keepdim_of(s)) : lz::argmin(s[0], d, keepdim_of(s))};
      };
      op.reference = [largest](const SampleInput& s) {
        return std::vector<Expected>{group_reference(s, lz::kInt64, [largest](const std::vector<double>& v) {
          return static_cast<double>(ref_arg(v, largest));
        })};
      };
      op.out = [largest](std::vector<Tensor>& outs, const SampleInput& s) {
        const std::optional<int64_t> d = has_dim(s) ? std::optional<int64_t>(s.int_arg("dim")) : std::nullopt;
        if (largest) {
          lz::argmax_out(outs[0], s[0], d, keepdim_of(s));
        } else {
          lz::argmin_out(outs[0], s[0], d, keepdim_of(s));
        }
      };
      const std::string opname = op.name;
      op.errors = [opname] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(TypeError, error_input({3}, lz::kBool, {}, "bool"), "[" + opname + "] self: not implemented for dtype bool"),
            LZT_EXPECT_ERROR(ValueError, error_input({0}, lz::kFloat32, {}, "empty, no dim"),
                             "[" + opname + "] self: cannot reduce the empty tensor of shape [0] over all its dims"),
            LZT_EXPECT_ERROR(IndexError, error_input({3, 0}, lz::kFloat32, {{"dim", IValue(int64_t{1})}}, "size-0 dim"),
                             "[" + opname + "] dim: cannot reduce over dim 1 of size 0"),
            LZT_EXPECT_ERROR(IndexError, error_input({3}, lz::kInt64, {{"dim", IValue(int64_t{1})}}, "dim 1 of a 1-D tensor"),
                             "[" + opname + "] dim: 1 is out of range for a 1-D tensor")};
      };
      t.push_back(std::move(op));
    }
  }
}

}  // namespace

void add_extremum_ops(std::vector<OpInfo>& t) { add_max_min(t); }

}  // namespace lzt
