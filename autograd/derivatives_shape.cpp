// Formulas of copies, casts, shape operators and views. A view's gradient
// is the gradient of its elements put back where they came from: reshaped,
// permuted back, summed over expanded dimensions (the engine does that for
// expand), or written into zeros at the view's place (slice, select).
#include <vector>

#include "autograd/derivative.h"
#include "autograd/formula_helpers.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_compare.h"
#include "core/ops_copy.h"
#include "core/ops_reduction.h"
#include "core/ops_shape.h"
#include "core/ops_views.h"
#include "core/shape.h"

namespace lz::autograd {

namespace {

using Ctx = BackwardContext;

Tensor reshape_to_input(const Ctx& c, const GradList& g) { return g[0].reshape(c.input_sizes(0)); }

// slice.Tensor(self, dim, start, end, step): the view's place in a contiguous input.
Tensor slice_backward(const Ctx& c, const GradList& g) {
  const IntArrayRef in = c.input_sizes(0);
  const int64_t dim = wrap_dim(c.integer(1), static_cast<int64_t>(in.size()), "slice");
  const int64_t size = in[dim];
  const int64_t step = c.integer(4);
  auto clamp_index = [size](int64_t i) { return std::clamp(i < 0 ? i + size : i, int64_t{0}, size); };
  const int64_t start = c.arg(2).is_none() ? 0 : clamp_index(c.integer(2));
  const int64_t end = std::max(start, c.arg(3).is_none() ? size : clamp_index(c.integer(3)));
  SizeVec strides = contiguous_strides(in);
  SizeVec sizes(in.begin(), in.end());
  sizes[dim] = (end - start + step - 1) / step;
  const int64_t offset = start * strides[dim];
  strides[dim] *= step;
  return scatter_into_zeros(g[0], in, sizes, strides, offset);
}

// select.int(self, dim, index)
Tensor select_backward(const Ctx& c, const GradList& g) {
  const IntArrayRef in = c.input_sizes(0);
  const int64_t dim = wrap_dim(c.integer(1), static_cast<int64_t>(in.size()), "select");
  const int64_t index = c.integer(2) < 0 ? c.integer(2) + in[dim] : c.integer(2);
  const SizeVec all_strides = contiguous_strides(in);
  SizeVec sizes, strides;
  for (size_t d = 0; d < in.size(); ++d) {
    if (static_cast<int64_t>(d) == dim) continue;
    sizes.push_back(in[d]);
    strides.push_back(all_strides[d]);
  }
  return scatter_into_zeros(g[0], in, sizes, strides, index * all_strides[dim]);
}

// repeat(self, repeats): the sum over the copies, each dimension d of the
// result viewed as (repeats[d], size[d]).
Tensor repeat_backward(const Ctx& c, const GradList& g) {
  const IntArrayRef in = c.input_sizes(0);
  const IntArrayRef repeats = c.ints(1);
  const size_t lead = repeats.size() - in.size();
  std::vector<int64_t> split_sizes, summed;
  for (size_t d = 0; d < repeats.size(); ++d) {
    summed.push_back(static_cast<int64_t>(split_sizes.size()));
    split_sizes.push_back(repeats[d]);
    if (d >= lead) split_sizes.push_back(in[d - lead]);
  }
  return g[0].reshape(split_sizes).sum(IntArrayRef(summed)).reshape(in);
}

// constant_pad_nd(self, pad, value): the input's part of the result
// (pads are given last dimension first; negative pads crop).
Tensor pad_backward(const Ctx& c, const GradList& g) {
  const IntArrayRef pad = c.ints(1);
  std::vector<int64_t> negated(pad.begin(), pad.end());
  for (int64_t& p : negated) p = -p;
  return constant_pad_nd(g[0], negated);
}

// `t` padded with zeros at the end of each dimension up to `sizes` (src
// of scatter may be larger than its index: the rest takes no part).
Tensor pad_to(const Tensor& t, IntArrayRef sizes) {
  if (t.sizes() == sizes) return t;
  std::vector<int64_t> pad;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    pad.push_back(0);
    pad.push_back(sizes[static_cast<size_t>(d)] - t.size(d));
  }
  return constant_pad_nd(t, pad);
}

// The gradient of scatter's src: the elements of g where each source
// element landed, for the elements whose write was the one kept (the last
// of several writes to one place, as the kernels apply them in order).
Tensor scattered_source_grad(const Tensor& g, int64_t dim, const Tensor& index) {
  const Tensor order = arange(index.numel(), TensorOptions(ScalarType::Long)).reshape(index.sizes());
  const Tensor kept = full(g.sizes(), -1, TensorOptions(ScalarType::Long)).scatter(dim, index, order);
  return where(kept.gather(dim, index) == order, g.gather(dim, index), Scalar(0.0));
}

const Derivative kShapeDerivatives[] = {
    // ---- copies and casts ----
    // copy_ overwrites self: its old value gets no gradient.
    {OpId::copy_, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {Tensor(), g[0]}; }},
    {OpId::fill__Scalar, 0, false, [](const Ctx&, const GradList&) -> GradList { return {Tensor()}; }},
    {OpId::clone, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::_to_copy, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::as_strided_scatter, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const IntArrayRef size = c.ints(2), stride = c.ints(3);
       const std::optional<int64_t> offset =
           c.arg(4).is_none() ? std::nullopt : std::optional<int64_t>(c.integer(4));
       Tensor gself, gsrc;
       if (c.needs_grad(0)) gself = as_strided_scatter(g[0], zeros_for(g[0], c.input_sizes(1)), size, stride, offset);
       if (c.needs_grad(1)) gsrc = g[0].contiguous().as_strided(size, stride, offset);
       return {gself, gsrc};
     }},

    // ---- shape operators ----
    {OpId::cat, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = wrap_dim(c.integer(1), g[0].dim(), "cat");
       GradList out;
       int64_t offset = 0;
       for (size_t i = 0; i < c.num_inputs(); ++i) {
         const IntArrayRef sizes = c.input_sizes(i);
         // A legacy empty 1-d input [0] takes no part in the result.
         if (sizes.size() == 1 && sizes[0] == 0 && g[0].dim() != 1) {
           out.push_back(Tensor());
           continue;
         }
         out.push_back(c.needs_grad(i) ? g[0].narrow(dim, offset, sizes[dim]) : Tensor());
         offset += sizes[dim];
       }
       return out;
     }},
    {OpId::stack, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = wrap_dim(c.integer(1), g[0].dim(), "stack");
       GradList out;
       for (size_t i = 0; i < c.num_inputs(); ++i) {
         out.push_back(c.needs_grad(i) ? g[0].select(dim, static_cast<int64_t>(i)) : Tensor());
       }
       return out;
     }},
    {OpId::scatter_src, saves({2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = c.integer(1);
       const Tensor& index = c.tensor(2);
       return {c.needs_grad(0) ? g[0].scatter(dim, index, Scalar(0.0)) : Tensor(), Tensor(),
               c.needs_grad(2) ? pad_to(scattered_source_grad(g[0], dim, index), c.input_sizes(2)) : Tensor()};
     }},
    {OpId::scatter_add, saves({2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = c.integer(1);
       const Tensor& index = c.tensor(2);
       return {c.needs_grad(0) ? g[0] : Tensor(), Tensor(),
               c.needs_grad(2) ? pad_to(g[0].gather(dim, index), c.input_sizes(2)) : Tensor()};
     }},
    // Every selected row's gradient added back where it came from (rows
    // selected twice get both).
    {OpId::index_select, saves({2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {zeros_for(g[0], c.input_sizes(0)).index_add(c.integer(1), c.tensor(2), g[0]), Tensor()};
     }},
    {OpId::gather, saves({2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {zeros_for(g[0], c.input_sizes(0)).scatter_add(c.integer(1), c.tensor(2), g[0]), Tensor()};
     }},
    {OpId::scatter_value, saves({2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {g[0].scatter(c.integer(1), c.tensor(2), Scalar(0.0)), Tensor()};
     }},
    {OpId::triu, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0].triu(c.integer(1))}; }},
    {OpId::tril, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0].tril(c.integer(1))}; }},
    {OpId::flip, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0].flip(c.ints(1))}; }},
    {OpId::repeat, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {repeat_backward(c, g)}; }},
    {OpId::constant_pad_nd, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {pad_backward(c, g)}; }},

    // ---- views ----
    {OpId::view, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {reshape_to_input(c, g)}; }},
    {OpId::permute, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const IntArrayRef dims = c.ints(1);
       std::vector<int64_t> inverse(dims.size());
       for (size_t i = 0; i < dims.size(); ++i) {
         inverse[static_cast<size_t>(wrap_dim(dims[i], static_cast<int64_t>(dims.size()), "permute"))] =
             static_cast<int64_t>(i);
       }
       return {g[0].permute(inverse)};
     }},
    {OpId::transpose_int, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0].transpose(c.integer(1), c.integer(2))}; }},
    // The engine sums the gradient over the expanded dimensions.
    {OpId::expand, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::slice_Tensor, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {slice_backward(c, g)}; }},
    {OpId::select_int, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {select_backward(c, g)}; }},
    {OpId::squeeze, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {reshape_to_input(c, g)}; }},
    {OpId::squeeze_dim, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {reshape_to_input(c, g)}; }},
    {OpId::unsqueeze, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {reshape_to_input(c, g)}; }},
};

}  // namespace

std::span<const Derivative> shape_derivatives() { return kShapeDerivatives; }

}  // namespace lz::autograd
