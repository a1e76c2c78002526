// einsum: a composite of views, sums and one bmm per pair of operands, so it
// traces lazily as those operators and autograd differentiates it through
// them. Operands contract left to right; a label is summed as soon as no
// later operand and not the output needs it.
#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/factories.h"
#include "core/op_registration.h"
#include "core/ops_linalg.h"
#include "core/ops_reduction.h"
#include "core/ops_views.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz {

namespace {

// Labels are numbers: 'A'-'Z' are 0-25, 'a'-'z' 26-51 (the implicit output
// is sorted in this order, as PyTorch's), the dims under "..." 52 on.
constexpr int kLetters = 52;

int label_of(char c) { return std::isupper(static_cast<unsigned char>(c)) ? c - 'A' : c - 'a' + 26; }

constexpr int kEllipsis = -1;  // where "..." stands in a term

struct Term {
  std::vector<int> letters;  // labels, with kEllipsis for "..."
  bool has_ellipsis = false;
};

Term parse_term(std::string_view text, std::string_view equation) {
  Term t;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ') continue;
    if (c == '.') {
      LZ_CHECK(text.substr(i, 3) == "..." && !t.has_ellipsis, ValueError, "[einsum] equation: \"", equation,
               "\" has a '.' that is not part of one \"...\" per term");
      t.has_ellipsis = true;
      t.letters.push_back(kEllipsis);
      i += 2;
      continue;
    }
    LZ_CHECK(std::isalpha(static_cast<unsigned char>(c)), ValueError, "[einsum] equation: \"", equation,
             "\" has '", c, "'; subscripts are letters A-Z and a-z");
    t.letters.push_back(label_of(c));
  }
  return t;
}

// The labels of each of an operand's dims: the letters, and under "..." the
// broadcast dims numbered from the right, so operands' "..." dims align as
// in broadcasting.
std::vector<int> dim_labels(const Term& t, int64_t dim, int64_t ellipsis_dims, size_t k) {
  const int64_t named = static_cast<int64_t>(t.letters.size()) - (t.has_ellipsis ? 1 : 0);
  LZ_CHECK(t.has_ellipsis ? named <= dim : named == dim, ShapeError, "[einsum] tensors[", k, "]: the equation gives ",
           named, " subscripts", t.has_ellipsis ? " and \"...\"" : "", " for a tensor of dimension ", dim);
  std::vector<int> labels;
  for (int letter : t.letters) {
    if (letter != kEllipsis) {
      labels.push_back(letter);
      continue;
    }
    const int64_t covered = dim - named;
    for (int64_t j = 0; j < covered; ++j) labels.push_back(static_cast<int>(kLetters + ellipsis_dims - covered + j));
  }
  return labels;
}

// An operand and the label of each of its dims.
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

int64_t position(const std::vector<int>& labels, int label) {
  return std::find(labels.begin(), labels.end(), label) - labels.begin();
}

// A label twice in one operand takes the diagonal: the second dim is masked
// by eye and summed away.
void take_diagonals(Labeled& x) {
  for (size_t i = 0; i < x.labels.size(); ++i) {
    for (size_t j = i + 1; j < x.labels.size();) {
      if (x.labels[j] != x.labels[i]) {
        ++j;
        continue;
      }
      const int64_t n = x.t.size(static_cast<int64_t>(i));
      LZ_CHECK(x.t.size(static_cast<int64_t>(j)) == n, ShapeError,
               "[einsum] tensors: a subscript repeated in one operand needs dims of one size, got ", x.t.sizes());
      SizeVec mask_shape(x.labels.size(), 1);
      mask_shape[i] = n;
      mask_shape[j] = n;
      const Tensor mask = eye(n, TensorOptions(x.t.dtype()).device(x.t.device())).view(mask_shape);
      x.t = (x.t * mask).sum(static_cast<int64_t>(j), false, x.t.dtype());
      x.labels.erase(x.labels.begin() + static_cast<std::ptrdiff_t>(j));
    }
  }
}

// Sums the labels of x that `keep` does not hold.
void sum_unneeded(Labeled& x, const std::array<bool, 128>& keep) {
  std::vector<int64_t> dims;
  std::vector<int> kept;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    if (keep[static_cast<size_t>(x.labels[d])]) {
      kept.push_back(x.labels[d]);
    } else {
      dims.push_back(static_cast<int64_t>(d));
    }
  }
  if (dims.empty()) return;
  x.t = x.t.sum(IntArrayRef(dims), false, x.t.dtype());
  x.labels = std::move(kept);
}

// a and b with their shared labels broadcast to one size.
void broadcast_shared(Labeled& a, Labeled& b) {
  SizeVec sa(a.t.sizes().begin(), a.t.sizes().end()), sb(b.t.sizes().begin(), b.t.sizes().end());
  for (size_t i = 0; i < a.labels.size(); ++i) {
    const int64_t j = position(b.labels, a.labels[i]);
    if (j == static_cast<int64_t>(b.labels.size())) continue;
    int64_t& x = sa[i];
    int64_t& y = sb[static_cast<size_t>(j)];
    LZ_CHECK(x == y || x == 1 || y == 1, ShapeError, "[einsum] tensors: a subscript covers dims of sizes ", x,
             " and ", y, ", which do not broadcast");
    x = y = (x == 1 ? y : x);
  }
  a.t = a.t.expand(sa);
  b.t = b.t.expand(sb);
}

// a and b contracted over the labels they share that `later` does not hold,
// as one bmm: [batch, left, shared] @ [batch, shared, right].
Labeled contract(Labeled a, Labeled b, const std::array<bool, 128>& later) {
  std::array<bool, 128> keep_a = later, keep_b = later;
  for (int l : b.labels) keep_a[static_cast<size_t>(l)] = true;
  for (int l : a.labels) keep_b[static_cast<size_t>(l)] = true;
  sum_unneeded(a, keep_a);
  sum_unneeded(b, keep_b);
  broadcast_shared(a, b);
  std::vector<int> batch, left, shared, right;
  for (int l : a.labels) {
    const bool in_b = position(b.labels, l) < static_cast<int64_t>(b.labels.size());
    (!in_b ? left : later[static_cast<size_t>(l)] ? batch : shared).push_back(l);
  }
  for (int l : b.labels) {
    if (position(a.labels, l) == static_cast<int64_t>(a.labels.size())) right.push_back(l);
  }
  auto sizes_of = [](const Labeled& x, const std::vector<int>& ls, SizeVec* sizes) {
    int64_t n = 1;
    for (int l : ls) {
      const int64_t s = x.t.size(position(x.labels, l));
      n *= s;
      if (sizes) sizes->push_back(s);
    }
    return n;
  };
  auto permuted = [](const Labeled& x, std::initializer_list<const std::vector<int>*> groups) {
    std::vector<int64_t> order;
    for (const auto* g : groups) {
      for (int l : *g) order.push_back(position(x.labels, l));
    }
    return x.t.permute(order);
  };
  SizeVec out_sizes;
  const int64_t nb = sizes_of(a, batch, &out_sizes);
  const int64_t nl = sizes_of(a, left, &out_sizes);
  const int64_t nc = sizes_of(a, shared, nullptr);
  const int64_t nr = sizes_of(b, right, &out_sizes);
  const Tensor lhs = permuted(a, {&batch, &left, &shared}).reshape({nb, nl, nc});
  const Tensor rhs = permuted(b, {&batch, &shared, &right}).reshape({nb, nc, nr});
  Labeled out{bmm(lhs, rhs).view(out_sizes), batch};
  out.labels.insert(out.labels.end(), left.begin(), left.end());
  out.labels.insert(out.labels.end(), right.begin(), right.end());
  return out;
}

Tensor einsum_composite(std::string_view equation, TensorList tensors) {
  LZ_CHECK(!tensors.empty(), ValueError, "[einsum] tensors: expected at least one operand");
  for (size_t k = 0; k < tensors.size(); ++k) {
    meta::check_defined("einsum", "tensors[" + std::to_string(k) + "]", tensors[k]);
    LZ_CHECK(tensors[k].dtype() == tensors[0].dtype(), TypeError, "[einsum] tensors[", k, "]: expected ",
             tensors[0].dtype(), " as tensors[0], got ", tensors[k].dtype());
  }
  LZ_CHECK(tensors[0].dtype() != ScalarType::Bool, TypeError, "[einsum] tensors: bool tensors are not supported");

  const size_t arrow = equation.find("->");
  const std::string_view lhs = equation.substr(0, arrow);
  std::vector<Term> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(parse_term(lhs.substr(start, comma == std::string_view::npos ? comma : comma - start), equation));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  LZ_CHECK(terms.size() == tensors.size(), ValueError, "[einsum] equation: \"", equation, "\" has ", terms.size(),
           " operand terms for ", tensors.size(), " tensors");

  int64_t ellipsis_dims = 0;
  for (size_t k = 0; k < terms.size(); ++k) {
    if (!terms[k].has_ellipsis) continue;
    const int64_t named = static_cast<int64_t>(terms[k].letters.size()) - 1;
    ellipsis_dims = std::max(ellipsis_dims, tensors[k].dim() - named);
  }
  LZ_CHECK(kLetters + ellipsis_dims <= 128, ValueError, "[einsum] tensors: \"...\" covers too many dims");
  std::vector<Labeled> operands;
  std::array<int, 128> count{};
  for (size_t k = 0; k < terms.size(); ++k) {
    Labeled x{tensors[k], dim_labels(terms[k], tensors[k].dim(), ellipsis_dims, k)};
    for (int l : x.labels) ++count[static_cast<size_t>(l)];
    operands.push_back(std::move(x));
  }

  std::vector<int> output;
  if (arrow == std::string_view::npos) {
    // Implicit output: the "..." dims, then the letters used once, sorted.
    for (int l = kLetters; l < kLetters + ellipsis_dims; ++l) output.push_back(l);
    for (int l = 0; l < kLetters; ++l) {
      if (count[static_cast<size_t>(l)] == 1) output.push_back(l);
    }
  } else {
    const Term out = parse_term(equation.substr(arrow + 2), equation);
    for (int l : out.letters) {
      if (l == kEllipsis) {
        for (int e = kLetters; e < kLetters + ellipsis_dims; ++e) output.push_back(e);
        continue;
      }
      LZ_CHECK(count[static_cast<size_t>(l)] > 0, ValueError, "[einsum] equation: \"", equation,
               "\": an output subscript appears in no operand");
      LZ_CHECK(std::find(output.begin(), output.end(), l) == output.end(), ValueError, "[einsum] equation: \"",
               equation, "\": an output subscript appears twice");
      output.push_back(l);
    }
  }

  for (Labeled& x : operands) take_diagonals(x);
  std::array<bool, 128> in_output{};
  for (int l : output) in_output[static_cast<size_t>(l)] = true;
  // later[k]: the labels the output or an operand after k needs.
  std::vector<std::array<bool, 128>> later(operands.size(), in_output);
  for (size_t k = operands.size() - 1; k-- > 0;) {
    later[k] = later[k + 1];
    for (int l : operands[k + 1].labels) later[k][static_cast<size_t>(l)] = true;
  }
  Labeled result = operands[0];
  for (size_t k = 1; k < operands.size(); ++k) result = contract(std::move(result), std::move(operands[k]), later[k]);
  sum_unneeded(result, in_output);
  std::vector<int64_t> order;
  for (int l : output) order.push_back(position(result.labels, l));
  return result.t.permute(order);
}

}  // namespace

LZ_LIBRARY(einsum_ops) { lib.def(OpId::einsum).composite(&einsum_composite); }

}  // namespace lz
