#include "tests/fuzz/fuzz_ops.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "tests/op_table/tensor_access.h"

namespace lzf {

namespace {

using lz::Tensor;
using Args = std::vector<Tensor>;
constexpr Operands One = Operands::One, Two = Operands::Two, Three = Operands::Three;
constexpr Numerics Exact = Numerics::Exact, Rounded = Numerics::Rounded, Disc = Numerics::Discontinuous;

int64_t rank(const Tensor& t) { return t.dim(); }
// A dim of a rank-r tensor, negative half the time (0-dim tensors take 0 and -1).
int64_t any_dim(Rng& rng, int64_t r) {
  const int64_t n = std::max<int64_t>(r, 1);
  return rng.uniform(-n, n - 1);
}

// A number: multiples of 1/4 (exact in every float dtype), integral half the time.
void pick_value(Rng& rng, Step& s, bool nonzero = false) {
  static const std::vector<double> floats = {0.5, 2.0, -1.5, 0.25, -2.0, 3.0, 0.0, 1.25};
  static const std::vector<double> ints = {2, -1, 3, 0, 1, -3};
  s.value_is_int = rng.chance(0.5);
  do {
    s.value = s.value_is_int ? rng.pick(ints) : rng.pick(floats);
  } while (nonzero && s.value == 0);
}
lz::Scalar value_of(const Step& s) {
  return s.value_is_int ? lz::Scalar(static_cast<int64_t>(s.value)) : lz::Scalar(s.value);
}

bool none(Rng&, const Args&, Step&) { return true; }
bool one_dim(Rng& rng, const Args& a, Step& s) {
  s.ints = {any_dim(rng, rank(a[0]))};
  return true;
}
bool a_value(Rng& rng, const Args&, Step& s) {
  pick_value(rng, s);
  return true;
}
bool a_nonzero_value(Rng& rng, const Args&, Step& s) {
  pick_value(rng, s, true);
  return true;
}
// ints = dims to reduce (all of them, or a random subset), value = keepdim.
bool reduce_dims(Rng& rng, const Args& a, Step& s) {
  const int64_t r = rank(a[0]);
  s.ints.clear();
  for (int64_t d = 0; d < r; ++d) {
    if (rng.chance(0.5)) s.ints.push_back(rng.chance(0.3) ? d - r : d);
  }
  if (s.ints.empty()) s.ints.push_back(any_dim(rng, r));
  s.value = rng.chance(0.3) ? 1 : 0;
  s.value_is_int = true;
  return true;
}
// ints = {dim}, value = keepdim.
bool reduce_one_dim(Rng& rng, const Args& a, Step& s) {
  s.ints = {any_dim(rng, rank(a[0]))};
  s.value = rng.chance(0.3) ? 1 : 0;
  s.value_is_int = true;
  return true;
}
bool keepdim(const Step& s) { return s.value != 0; }
// A product of up to 48 values in [-4, 4] cannot overflow float32: beyond
// that an inf meets a 0 in an order-dependent place (NaN or 0, both right).
bool short_product(Rng& rng, const Args& a, Step& s) {
  reduce_one_dim(rng, a, s);
  return rank(a[0]) == 0 || a[0].size(s.ints[0]) <= 48;
}

// ---- Views and shape operators -----------------------------------------------------

bool two_dims(Rng& rng, const Args& a, Step& s) {
  s.ints = {any_dim(rng, rank(a[0])), any_dim(rng, rank(a[0]))};
  return true;
}
bool a_permutation(Rng& rng, const Args& a, Step& s) {
  const int64_t r = rank(a[0]);
  s.ints.resize(static_cast<size_t>(r));
  std::iota(s.ints.begin(), s.ints.end(), 0);
  for (int64_t i = r - 1; i > 0; --i) std::swap(s.ints[i], s.ints[rng.uniform(0, i)]);
  return true;
}
bool unsqueeze_dim(Rng& rng, const Args& a, Step& s) {
  s.ints = {rng.uniform(-rank(a[0]) - 1, rank(a[0]))};
  return true;
}
// ints = {dim, start, end, step}; start and end may be negative or past the end.
bool a_slice(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  const int64_t n = a[0].size(dim);
  s.ints = {dim, rng.uniform(-n, n), rng.uniform(-n, n + 1), rng.uniform(1, 3)};
  return true;
}
// ints = {dim, index}.
bool a_select(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  const int64_t n = a[0].size(dim);
  if (n == 0) return false;
  s.ints = {dim, rng.uniform(-n, n - 1)};
  return true;
}
// ints = {dim, start, length}.
bool a_narrow(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  const int64_t n = a[0].size(dim);
  const int64_t start = rng.uniform(0, n);
  s.ints = {dim, start, rng.uniform(0, n - start)};
  return true;
}
// ints = the new sizes: size-1 dims widened and maybe a new leading dim.
bool an_expansion(Rng& rng, const Args& a, Step& s) {
  s.ints.assign(a[0].sizes().begin(), a[0].sizes().end());
  for (int64_t& d : s.ints) {
    if (d == 1 && rng.chance(0.7)) d = rng.uniform(2, 4);
  }
  if (rng.chance(0.4)) s.ints.insert(s.ints.begin(), rng.uniform(1, 3));
  if (!s.ints.empty() && rng.chance(0.2)) s.ints.back() = -1;  // -1 keeps a size
  return true;
}
// ints = the new shape: flattened, split, or merged with a -1.
bool a_reshape(Rng& rng, const Args& a, Step& s) {
  const int64_t n = a[0].numel();
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= std::min<int64_t>(n, 64); ++d) {
    if (n % d == 0) divisors.push_back(d);
  }
  if (n == 0) {
    s.ints = {0};  // -1 would be ambiguous
    return true;
  }
  const int64_t d = rng.pick(divisors);
  switch (rng.uniform(0, 2)) {
    case 0: s.ints = {-1}; break;
    case 1: s.ints = {d, -1}; break;
    default: s.ints = {n / d, d}; break;
  }
  return true;
}
bool flatten_dims(Rng& rng, const Args& a, Step& s) {
  const int64_t r = std::max<int64_t>(rank(a[0]), 1);
  const int64_t start = rng.uniform(0, r - 1);
  s.ints = {start, rng.uniform(start, r - 1)};
  return true;
}
bool some_dims(Rng& rng, const Args& a, Step& s) {
  s.ints.clear();
  for (int64_t d = 0; d < rank(a[0]); ++d) {
    if (rng.chance(0.5)) s.ints.push_back(d);
  }
  return true;
}
bool repeats(Rng& rng, const Args& a, Step& s) {
  s.ints.clear();
  for (int64_t d = 0; d < rank(a[0]) + (rng.chance(0.3) ? 1 : 0); ++d) s.ints.push_back(rng.uniform(1, 2));
  return !s.ints.empty();
}
bool a_diagonal(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) < 2) return false;
  s.ints = {rng.uniform(-2, 2)};
  return true;
}
// ints = pad (before, after) pairs from the last dim, value = the fill.
bool a_padding(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  s.ints.clear();
  for (int64_t i = 0; i < std::min<int64_t>(rank(a[0]), rng.uniform(1, 2)); ++i) {
    s.ints.push_back(rng.uniform(-1, 2));
    s.ints.push_back(rng.uniform(0, 2));
  }
  pick_value(rng, s);
  return true;
}
// ints = indices into dim value (as int).
bool an_index(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  const int64_t n = a[0].size(dim);
  if (n == 0) return false;
  s.value = static_cast<double>(dim);
  s.value_is_int = true;
  s.ints.clear();
  // Valid indices only: an index's bound is checked when the kernel runs,
  // so lazily it fails at materialisation, not the call (index_select.any).
  for (int64_t i = rng.uniform(0, 4); i > 0; --i) s.ints.push_back(rng.uniform(0, n - 1));
  return true;
}
// Like an_index, but now and then an index out of range (negative or past the end).
bool any_index(Rng& rng, const Args& a, Step& s) {
  if (!an_index(rng, a, s)) return false;
  const int64_t n = a[0].size(static_cast<int64_t>(s.value));
  if (rng.chance(0.5)) s.ints.push_back(rng.chance(0.5) ? n + rng.uniform(0, 2) : -n - 1 - rng.uniform(0, 2));
  return true;
}
// ints = {reduction}: none, mean or sum, for two floating operands.
bool a_loss_reduction(Rng& rng, const Args& a, Step& s) {
  if (!a[0].is_floating_point() || !a[1].is_floating_point()) return false;
  s.ints = {rng.uniform(0, 2)};
  return true;
}
// Two 1-D operands (dot, outer), drawn SameShape so their sizes mostly agree (a
// mismatch checks the error); the second is cast to the first's dtype (type_as),
// since with ten dtypes two equal ones rarely meet.
bool two_vectors(Rng&, const Args& a, Step&) {
  return rank(a[0]) == 1 && rank(a[1]) == 1 && a[0].dtype() != lz::kBool;
}
// Row indices of a 2-D operand (its embedding table), valid ones only.
bool rows_to_embed(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) != 2 || a[0].size(0) == 0) return false;
  s.ints.clear();
  for (int64_t i = rng.uniform(1, 4); i > 0; --i) s.ints.push_back(rng.uniform(0, a[0].size(0) - 1));
  return true;
}
bool a_cast(Rng& rng, const Args&, Step& s, bool to_int) {
  static const std::vector<lz::ScalarType> ints = {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64};
  static const std::vector<lz::ScalarType> floats = {lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};
  s.cast = rng.pick(to_int ? ints : floats);
  return true;
}
bool a_float_cast(Rng& rng, const Args& a, Step& s) { return a_cast(rng, a, s, false); }
bool an_int_cast(Rng& rng, const Args& a, Step& s) { return a_cast(rng, a, s, true); }
bool clamp_bounds(Rng& rng, const Args& a, Step& s) {
  pick_value(rng, s);
  s.ints = {rng.uniform(0, 2)};  // 0: min and max (max = min + 2), 1: min only, 2: max only
  return true;
}
Tensor clamp_of(const Tensor& x, const Step& s, bool inplace) {
  std::optional<lz::Scalar> lo, hi;
  if (s.ints.at(0) != 2) lo = value_of(s);
  if (s.ints.at(0) != 1) hi = s.value_is_int ? lz::Scalar(static_cast<int64_t>(s.value) + 2) : lz::Scalar(s.value + 2);
  if (!inplace) return lz::clamp(x, lo, hi);
  Tensor t = x;
  return t.clamp_(lo, hi);
}
Tensor index_of(const Step& s) {
  Tensor idx = lz::empty({static_cast<int64_t>(s.ints.size())}, lz::kInt64);
  std::copy(s.ints.begin(), s.ints.end(), static_cast<int64_t*>(idx.data_ptr()));
  return idx;
}
// ints = {reduction, one class per row of a 2-D floating operand}: classes
// in range, now and then ignore_index (-100).
bool class_targets(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) != 2 || !a[0].is_floating_point() || a[0].size(1) == 0) return false;
  s.ints = {rng.uniform(0, 2)};
  for (int64_t i = 0; i < a[0].size(0); ++i) s.ints.push_back(rng.chance(0.2) ? -100 : rng.uniform(0, a[0].size(1) - 1));
  return true;
}
// Like class_targets, but now and then a class out of range (checked when the kernel runs).
bool any_class_targets(Rng& rng, const Args& a, Step& s) {
  if (!class_targets(rng, a, s)) return false;
  const int64_t rows = static_cast<int64_t>(s.ints.size()) - 1;
  if (rows > 0 && rng.chance(0.5)) s.ints[1 + rng.uniform(0, rows - 1)] = rng.chance(0.5) ? a[0].size(1) : -1;
  return true;
}
Tensor targets_of(const Step& s) {
  Step rows;
  rows.ints.assign(s.ints.begin() + 1, s.ints.end());
  return index_of(rows);
}
// ints = {dim, index length along dim}, value = a seed for the index values:
// gather's index has self's rank and sizes (but along dim), valid entries.
bool a_gather(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0 || a[0].numel() > 4096) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  if (a[0].size(dim) == 0) return false;
  s.ints = {dim, rng.uniform(0, 3)};
  s.value = static_cast<double>(rng.uniform(0, 1 << 20));
  s.value_is_int = true;
  return true;
}
Tensor gather_index(const Tensor& self, const Step& s) {
  const int64_t dim = s.ints.at(0) < 0 ? s.ints.at(0) + self.dim() : s.ints.at(0);
  lz::SizeVec sizes(self.sizes().begin(), self.sizes().end());
  const int64_t n = sizes.at(static_cast<size_t>(dim));
  sizes[static_cast<size_t>(dim)] = s.ints.at(1);
  Tensor idx = lz::empty(sizes, lz::kInt64);
  auto* p = static_cast<int64_t*>(idx.data_ptr());
  uint64_t x = static_cast<uint64_t>(s.value) * 2654435761u + 1;
  for (int64_t i = 0; i < idx.numel(); ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;  // a fixed LCG: the text form keeps only the seed
    // A replay with other sizes may leave an empty dim: index 0 (an error, as eagerly).
    p[i] = n == 0 ? 0 : static_cast<int64_t>((x >> 33) % static_cast<uint64_t>(n));
  }
  return idx;
}
// ints = {split size or chunk count, dim, which piece}: the piece is taken
// modulo how many there are, which eager and lazy agree on.
bool a_split(Rng& rng, const Args& a, Step& s) {
  if (rank(a[0]) == 0) return false;
  const int64_t dim = any_dim(rng, rank(a[0]));
  s.ints = {rng.uniform(1, std::max<int64_t>(a[0].size(dim), 1)), dim, rng.uniform(0, 3)};
  return true;
}
Tensor piece(const std::vector<Tensor>& pieces, const Step& s) {
  LZ_CHECK(!pieces.empty(), ValueError, "fuzz program: no piece to take");
  return pieces.at(static_cast<size_t>(s.ints.at(2)) % pieces.size());
}
bool matrices(const Args& a, int64_t r0, int64_t r1) { return rank(a[0]) == r0 && rank(a[1]) == r1; }

// In-place forms write a (possibly viewed) tensor: the handle is the same object.
Tensor self(const Args& a) { return a[0]; }

std::vector<FuzzOp> build() {
  std::vector<FuzzOp> ops = {
      // ---- Unary element-wise ----
      {"neg", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::neg(a[0]); }},
      {"abs", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::abs(a[0]); }},
      {"relu", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::relu(a[0]); }},
      {"square", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::square(a[0]); }},
      {"exp", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::exp(a[0]); }},
      {"expm1", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::expm1(a[0]); }},
      {"exp2", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::exp2(a[0]); }},
      {"sin", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::sin(a[0]); }},
      {"cos", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::cos(a[0]); }},
      {"tanh", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::tanh(a[0]); }},
      {"sigmoid", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::sigmoid(a[0]); }},
      {"silu", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::silu(a[0]); }},
      {"hardswish", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::hardswish(a[0]); }},
      {"leaky_relu", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::leaky_relu(a[0], 0.2); }},
      {"elu", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::elu(a[0]); }},
      {"softplus", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::softplus(a[0], 2, 3); }},
      {"hardtanh", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::hardtanh(a[0], -2, 1.5); }},
      {"tan", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::tan(a[0]); }},
      {"gelu", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::gelu(a[0]); }},
      {"erf", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::erf(a[0]); }},
      {"log", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::log(a[0]); }},
      {"log2", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::log2(a[0]); }},
      {"log1p", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::log1p(a[0]); }},
      {"sqrt", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::sqrt(a[0]); }},
      {"rsqrt", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::rsqrt(a[0]); }},
      {"reciprocal", One, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::reciprocal(a[0]); }},
      {"floor", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::floor(a[0]); }},
      {"ceil", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::ceil(a[0]); }},
      {"round", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::round(a[0]); }},
      {"trunc", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::trunc(a[0]); }},
      {"sign", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::sign(a[0]); }},
      {"isnan", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::isnan(a[0]); }},
      {"logical_not", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::logical_not(a[0]); }},
      {"bitwise_not", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::bitwise_not(a[0]); }},
      {"to.float", One, Rounded, false, 0, a_float_cast, [](const Args& a, const Step& s) { return a[0].to(s.cast); }},
      {"to.int", One, Disc, false, 0, an_int_cast, [](const Args& a, const Step& s) { return a[0].to(s.cast); }},
      {"to.options", One, Rounded, false, 0, a_float_cast,
       [](const Args& a, const Step& s) { return a[0].to(lz::TensorOptions(s.cast)); }},
      {"isinf", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::isinf(a[0]); }},
      {"zeros_like", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::zeros_like(a[0]); }},
      {"ones_like", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::ones_like(a[0]); }},
      {"full_like", One, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::full_like(a[0], value_of(s)); }},
      {"clone", One, Exact, false, 0, none, [](const Args& a, const Step&) { return a[0].clone(); }},
      {"contiguous", One, Exact, false, 0, none, [](const Args& a, const Step&) { return a[0].contiguous(); }},
      // ---- With a number ----
      {"add.scalar", One, Exact, false, 0, a_value, [](const Args& a, const Step& s) { return lz::add(a[0], value_of(s)); }},
      {"sub.scalar", One, Exact, false, 0, a_value, [](const Args& a, const Step& s) { return lz::sub(a[0], value_of(s)); }},
      {"mul.scalar", One, Rounded, false, 0, a_value, [](const Args& a, const Step& s) { return lz::mul(a[0], value_of(s)); }},
      {"div.scalar", One, Rounded, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::div(a[0], value_of(s)); }},
      {"pow.scalar", One, Rounded, false, 0, [](Rng& rng, const Args& a, Step& s) {
         // The powers eager kernels special-case (sqrt for 0.5) and others.
         // Non-integral and negative ones: for floats (integers raise) whose
         // values are exact specials or away from 0, where a rounding of a
         // tiny value would flip a sign (NaN) or blow up (1/x).
         static const std::vector<double> any = {2, 3, 0.5, -0.5, -1, -2, 1.5, -1.5, 0.75};
         bool away_from_zero = lzt::is_float(a[0].dtype());
         for (double x : lzt::values(a[0])) away_from_zero = away_from_zero && (x == 0 || !std::isfinite(x) || std::abs(x) >= 0.125);
         s.value = away_from_zero ? rng.pick(any) : static_cast<double>(rng.uniform(2, 3));
         s.value_is_int = s.value == std::floor(s.value) && rng.chance(0.5);
         return true;
       }, [](const Args& a, const Step& s) { return lz::pow(a[0], value_of(s)); }},
      {"remainder.scalar", One, Disc, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::remainder(a[0], value_of(s)); }},
      {"fmod.scalar", One, Disc, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::fmod(a[0], value_of(s)); }},
      {"clamp", One, Exact, false, 0, clamp_bounds, [](const Args& a, const Step& s) { return clamp_of(a[0], s, false); }},
      {"gt.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].gt(value_of(s)); }},
      {"eq.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].eq(value_of(s)); }},
      {"ne.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].ne(value_of(s)); }},
      {"lt.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].lt(value_of(s)); }},
      {"le.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].le(value_of(s)); }},
      {"ge.scalar", One, Disc, false, 0, a_value, [](const Args& a, const Step& s) { return a[0].ge(value_of(s)); }},
      {"div.scalar.floor", One, Disc, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::div(a[0], value_of(s), "floor"); }},
      {"clamp_min.scalar", One, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::clamp_min(a[0], value_of(s)); }},
      {"clamp_max.scalar", One, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::clamp_max(a[0], value_of(s)); }},
      {"bitwise_and.scalar", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_and(a[0], value_of(s)); }},
      {"bitwise_or.scalar", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_or(a[0], value_of(s)); }},
      {"bitwise_xor.scalar", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_xor(a[0], value_of(s)); }},
      // ---- A number first ----
      {"pow.scalar_base", One, Rounded, false, 0, [](Rng& rng, const Args&, Step& s) {
         // Positive bases: a negative one to a fractional power is NaN, to
         // a negative integer power an error for integer tensors.
         s.value = rng.pick(std::vector<double>{2.0, 0.5, 1.5});
         s.value_is_int = false;
         return true;
       }, [](const Args& a, const Step& s) { return lz::pow(value_of(s), a[0]); }},
      {"remainder.scalar_self", One, Disc, false, 1, a_value,
       [](const Args& a, const Step& s) { return lz::remainder(value_of(s), a[0]); }},
      {"bitwise_and.scalar_self", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_and(value_of(s), a[0]); }},
      {"bitwise_or.scalar_self", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_or(value_of(s), a[0]); }},
      {"bitwise_xor.scalar_self", One, Disc, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::bitwise_xor(value_of(s), a[0]); }},
      // ---- Binary element-wise ----
      {"add", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::add(a[0], a[1]); }},
      {"sub", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::sub(a[0], a[1]); }},
      {"add.alpha", Two, Rounded, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::add(a[0], a[1], value_of(s)); }},
      {"mul", Two, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::mul(a[0], a[1]); }},
      {"div", Two, Rounded, false, 2, none, [](const Args& a, const Step&) { return lz::div(a[0], a[1]); }},
      {"div.floor", Two, Disc, false, 2, none, [](const Args& a, const Step&) { return lz::div(a[0], a[1], "floor"); }},
      {"floor_divide.scalar", One, Disc, false, 0, a_nonzero_value,
       [](const Args& a, const Step& s) { return lz::floor_divide(a[0], value_of(s)); }},
      {"floor_divide", Two, Disc, false, 2, none, [](const Args& a, const Step&) { return lz::floor_divide(a[0], a[1]); }},
      {"remainder", Two, Disc, false, 2, none, [](const Args& a, const Step&) { return lz::remainder(a[0], a[1]); }},
      {"fmod", Two, Disc, false, 2, none, [](const Args& a, const Step&) { return lz::fmod(a[0], a[1]); }},
      {"pow", Two, Rounded, false, 1, none, [](const Args& a, const Step&) { return lz::pow(a[0], a[1]); }},
      {"atan2", Two, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::atan2(a[0], a[1]); }},
      {"maximum", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::maximum(a[0], a[1]); }},
      {"minimum", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::minimum(a[0], a[1]); }},
      {"eq", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].eq(a[1]); }},
      {"lt", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].lt(a[1]); }},
      {"ge", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].ge(a[1]); }},
      {"gt", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].gt(a[1]); }},
      {"lerp.scalar", Two, Rounded, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::lerp(a[0], a[1], value_of(s)); }},
      {"le", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].le(a[1]); }},
      {"ne", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].ne(a[1]); }},
      {"logical_or", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].logical_or(a[1]); }},
      {"bitwise_xor", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].bitwise_xor(a[1]); }},
      {"clamp_max", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::clamp_max(a[0], a[1]); }},
      {"logical_and", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].logical_and(a[1]); }},
      {"logical_xor", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].logical_xor(a[1]); }},
      {"bitwise_and", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].bitwise_and(a[1]); }},
      {"bitwise_or", Two, Disc, false, 0, none, [](const Args& a, const Step&) { return a[0].bitwise_or(a[1]); }},
      {"clamp_min", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::clamp_min(a[0], a[1]); }},
      {"lerp", Three, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::lerp(a[0], a[1], a[2]); }},
      {"addcmul", Three, Rounded, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::addcmul(a[0], a[1], a[2], value_of(s)); }},
      {"addcdiv", Three, Rounded, false, 4, a_value,
       [](const Args& a, const Step& s) { return lz::addcdiv(a[0], a[1], a[2], value_of(s)); }},
      {"where", Operands::Where, Exact, false, 0, none,
       [](const Args& a, const Step&) { return lz::where(a[0], a[1], a[2]); }},
      {"masked_fill", Operands::Mask, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::masked_fill(a[0], a[1], value_of(s)); }},
      // The value as a 0-dim eager tensor (captured by lazy programs).
      {"masked_fill.tensor", Operands::Mask, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::masked_fill(a[0], a[1], lz::scalar_tensor(value_of(s))); }},
      {"where.scalar_other", Operands::Where, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::where(a[0], a[1], value_of(s)); }},
      {"where.scalar_self", Operands::Where, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::where(a[0], value_of(s), a[2]); }},
      {"where.scalars", Operands::Where, Exact, false, 0, a_value,
       [](const Args& a, const Step& s) { return lz::where(a[0], value_of(s), lz::Scalar(-1)); }},
      // ---- Reductions ----
      {"sum", One, Exact, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::sum(a[0], s.ints, keepdim(s)); }},
      {"sum.all", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::sum(a[0]); }},
      {"mean", One, Rounded, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::mean(a[0], s.ints, keepdim(s)); }},
      {"amax", One, Exact, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::amax(a[0], s.ints, keepdim(s)); }},
      {"amin", One, Exact, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::amin(a[0], s.ints, keepdim(s)); }},
      {"max.all", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::max(a[0]); }},
      {"mean.all", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::mean(a[0]); }},
      {"prod.all", One, Rounded, false, 0, [](Rng&, const Args& a, Step&) { return a[0].numel() <= 48; },
       [](const Args& a, const Step&) { return lz::prod(a[0]); }},
      {"max.dim", One, Exact, false, 0, reduce_one_dim,
       [](const Args& a, const Step& s) { return std::get<0>(lz::max(a[0], s.ints.at(0), keepdim(s))); }},
      {"min.dim", One, Exact, false, 0, reduce_one_dim,
       [](const Args& a, const Step& s) { return std::get<0>(lz::min(a[0], s.ints.at(0), keepdim(s))); }},
      {"norm.all", One, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::norm(a[0]); }},
      {"any.all", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::any(a[0]); }},
      {"all", One, Disc, false, 0, reduce_one_dim,
       [](const Args& a, const Step& s) { return lz::all(a[0], s.ints.at(0), keepdim(s)); }},
      {"min.all", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::min(a[0]); }},
      {"prod", One, Rounded, false, 0, short_product,
       [](const Args& a, const Step& s) { return lz::prod(a[0], s.ints.at(0), keepdim(s)); }},
      {"argmax", One, Disc, false, 0, reduce_one_dim,
       [](const Args& a, const Step& s) { return lz::argmax(a[0], s.ints.at(0), keepdim(s)); }},
      {"argmin.all", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::argmin(a[0]); }},
      {"logsumexp", One, Rounded, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::logsumexp(a[0], s.ints, keepdim(s)); }},
      {"var", One, Rounded, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::var(a[0], lz::IntArrayRef(s.ints), std::nullopt, keepdim(s)); }},
      {"std", One, Rounded, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::std(a[0], lz::IntArrayRef(s.ints), std::nullopt, keepdim(s)); }},
      {"norm", One, Rounded, false, 0, reduce_dims,
       [](const Args& a, const Step& s) { return lz::norm(a[0], lz::Scalar(2), s.ints, keepdim(s)); }},
      {"any", One, Disc, false, 0, reduce_one_dim,
       [](const Args& a, const Step& s) { return lz::any(a[0], s.ints.at(0), keepdim(s)); }},
      {"all.all", One, Disc, false, 0, none, [](const Args& a, const Step&) { return lz::all(a[0]); }},
      {"cumsum", One, Exact, false, 0, one_dim, [](const Args& a, const Step& s) { return lz::cumsum(a[0], s.ints.at(0)); }},
      {"softmax", One, Rounded, false, 0, one_dim,
       [](const Args& a, const Step& s) { return lz::softmax(a[0], s.ints.at(0)); }},
      {"log_softmax", One, Rounded, false, 0, one_dim,
       [](const Args& a, const Step& s) { return lz::log_softmax(a[0], s.ints.at(0)); }},
      {"mse_loss", Two, Rounded, false, 0, a_loss_reduction,
       [](const Args& a, const Step& s) { return lz::mse_loss(a[0], a[1], s.ints.at(0)); }},
      {"l1_loss", Two, Rounded, false, 0, a_loss_reduction,
       [](const Args& a, const Step& s) { return lz::l1_loss(a[0], a[1], s.ints.at(0)); }},
      {"smooth_l1_loss", Two, Rounded, false, 0, a_loss_reduction,
       [](const Args& a, const Step& s) { return lz::smooth_l1_loss(a[0], a[1], s.ints.at(0), 0.5); }},
      {"binary_cross_entropy_with_logits", Two, Rounded, false, 0, [](Rng& rng, const Args& a, Step& s) {
         return a[0].sizes() == a[1].sizes() && a_loss_reduction(rng, a, s);
       }, [](const Args& a, const Step& s) {
         return lz::binary_cross_entropy_with_logits(a[0], a[1], std::nullopt, std::nullopt, s.ints.at(0));
       }},
      // Probabilities from the operands' sigmoids.
      {"binary_cross_entropy", Two, Rounded, false, 0, [](Rng& rng, const Args& a, Step& s) {
         return a[0].sizes() == a[1].sizes() && a_loss_reduction(rng, a, s);
       }, [](const Args& a, const Step& s) {
         return lz::binary_cross_entropy(lz::sigmoid(a[0]), lz::sigmoid(a[1]), std::nullopt, s.ints.at(0));
       }},
            {"dot", Operands::SameShape, Rounded, false, 0, two_vectors, [](const Args& a, const Step&) { return lz::dot(a[0], a[1].type_as(a[0])); }},
      {"outer", Operands::SameShape, Rounded, false, 0, two_vectors, [](const Args& a, const Step&) { return lz::outer(a[0], a[1].type_as(a[0])); }},
      {"nonzero", One, Exact, false, 0, none, [](const Args& a, const Step&) { return a[0].nonzero(); }},
      {"masked_select", One, Exact, false, 0, none,
       [](const Args& a, const Step&) { return a[0].masked_select(a[0].ne(0)); }},
      {"einsum.dot_last", Two, Rounded, false, 0, [](Rng&, const Args& a, Step&) {
         return rank(a[0]) >= 1 && a[0].sizes() == a[1].sizes() && a[0].dtype() == a[1].dtype() &&
                a[0].dtype() != lz::kBool;
       }, [](const Args& a, const Step&) { return lz::einsum("...i,...i->...", {a[0], a[1]}); }},
      {"einsum.sum_first", One, Rounded, false, 0, [](Rng&, const Args& a, Step&) {
         return rank(a[0]) >= 1 && a[0].dtype() != lz::kBool;
       }, [](const Args& a, const Step&) { return lz::einsum("i...->...", {a[0]}); }},
      {"layer_norm", One, Rounded, false, 0, [](Rng&, const Args& a, Step& s) {
         if (rank(a[0]) == 0) return false;
         s.ints = {a[0].size(-1)};
         return true;
       }, [](const Args& a, const Step& s) { return lz::layer_norm(a[0], s.ints); }},
      {"rms_norm", One, Rounded, false, 0, [](Rng&, const Args& a, Step& s) {
         if (rank(a[0]) == 0) return false;
         s.ints = {a[0].size(-1)};
         return true;
       }, [](const Args& a, const Step& s) { return lz::rms_norm(a[0], s.ints); }},
      // ---- Views ----
      {"t", One, Exact, false, 0, [](Rng&, const Args& a, Step&) { return rank(a[0]) <= 2; },
       [](const Args& a, const Step&) { return lz::t(a[0]); }},
      {"expand_as", Two, Exact, false, 0, none, [](const Args& a, const Step&) { return a[0].expand_as(a[1]); }},
      {"split", One, Exact, false, 0, a_split,
       [](const Args& a, const Step& s) { return piece(lz::split(a[0], s.ints.at(0), s.ints.at(1)), s); }},
      {"chunk", One, Exact, false, 0, a_split,
       [](const Args& a, const Step& s) { return piece(lz::chunk(a[0], s.ints.at(0), s.ints.at(1)), s); }},
      {"transpose", One, Exact, false, 0, two_dims,
       [](const Args& a, const Step& s) { return lz::transpose(a[0], s.ints.at(0), s.ints.at(1)); }},
      {"permute", One, Exact, false, 0, a_permutation,
       [](const Args& a, const Step& s) { return lz::permute(a[0], s.ints); }},
      {"unsqueeze", One, Exact, false, 0, unsqueeze_dim,
       [](const Args& a, const Step& s) { return lz::unsqueeze(a[0], s.ints.at(0)); }},
      {"squeeze", One, Exact, false, 0, one_dim, [](const Args& a, const Step& s) { return lz::squeeze(a[0], s.ints.at(0)); }},
      {"squeeze.all", One, Exact, false, 0, none, [](const Args& a, const Step&) { return lz::squeeze(a[0]); }},
      {"slice", One, Exact, false, 0, a_slice,
       [](const Args& a, const Step& s) { return lz::slice(a[0], s.ints.at(0), s.ints.at(1), s.ints.at(2), s.ints.at(3)); }},
      {"select", One, Exact, false, 0, a_select,
       [](const Args& a, const Step& s) { return lz::select(a[0], s.ints.at(0), s.ints.at(1)); }},
      {"narrow", One, Exact, false, 0, a_narrow,
       [](const Args& a, const Step& s) { return lz::narrow(a[0], s.ints.at(0), s.ints.at(1), s.ints.at(2)); }},
      {"expand", One, Exact, false, 0, an_expansion, [](const Args& a, const Step& s) { return lz::expand(a[0], s.ints); }},
      {"reshape", One, Exact, false, 0, a_reshape, [](const Args& a, const Step& s) { return lz::reshape(a[0], s.ints); }},
      {"flatten", One, Exact, false, 0, flatten_dims,
       [](const Args& a, const Step& s) { return lz::flatten(a[0], s.ints.at(0), s.ints.at(1)); }},
      // ---- Shape operators (copies) ----
      {"flip", One, Exact, false, 0, some_dims, [](const Args& a, const Step& s) { return lz::flip(a[0], s.ints); }},
      {"repeat", One, Exact, false, 0, repeats, [](const Args& a, const Step& s) { return lz::repeat(a[0], s.ints); }},
      {"tril", One, Exact, false, 0, a_diagonal, [](const Args& a, const Step& s) { return lz::tril(a[0], s.ints.at(0)); }},
      {"triu", One, Exact, false, 0, a_diagonal, [](const Args& a, const Step& s) { return lz::triu(a[0], s.ints.at(0)); }},
      {"pad", One, Exact, false, 0, a_padding,
       [](const Args& a, const Step& s) { return lz::constant_pad_nd(a[0], s.ints, value_of(s)); }},
      {"pad.composite", One, Exact, false, 0, a_padding,
       [](const Args& a, const Step& s) { return lz::pad(a[0], s.ints, "constant", s.value); }},
      {"index_select", One, Exact, false, 0, an_index, [](const Args& a, const Step& s) {
         return lz::index_select(a[0], static_cast<int64_t>(s.value), index_of(s));
       }},
      {"index_select.any", One, Exact, false, 0, any_index, [](const Args& a, const Step& s) {
         return lz::index_select(a[0], static_cast<int64_t>(s.value), index_of(s));
       }},
      {"embedding", One, Exact, false, 0, rows_to_embed, [](const Args& a, const Step& s) {
         return lz::embedding(a[0], index_of(s), /*padding_idx=*/s.ints.front());
       }},
      {"nll_loss", One, Rounded, false, 0, class_targets, [](const Args& a, const Step& s) {
         return lz::nll_loss(a[0], targets_of(s), std::nullopt, s.ints.at(0));
       }},
      {"nll_loss.any", One, Rounded, false, 0, any_class_targets, [](const Args& a, const Step& s) {
         return lz::nll_loss(a[0], targets_of(s), std::nullopt, s.ints.at(0));
       }},
      {"cross_entropy", One, Rounded, false, 0, class_targets, [](const Args& a, const Step& s) {
         return lz::cross_entropy(a[0], targets_of(s), std::nullopt, static_cast<lz::Reduction::Reduction>(s.ints.at(0)));
       }},
      // The value as an eager tensor of the program's own: eagerly a copy,
      // lazily to_eager() (which must behave as one).
      {"to_eager", One, Exact, false, 0, none,
       [](const Args& a, const Step&) { return a[0].is_lazy() ? a[0].to_eager() : a[0].clone(); }},
      {"gather", One, Exact, false, 0, a_gather,
       [](const Args& a, const Step& s) { return lz::gather(a[0], s.ints.at(0), gather_index(a[0], s)); }},
      // The gathered values summed back where they came from (repeated
      // entries sum; one thread per element, so lazy equals eager exactly).
      {"scatter_add", One, Exact, false, 0, a_gather,
       [](const Args& a, const Step& s) {
         const Tensor index = gather_index(a[0], s);
         return lz::scatter_add(a[0], s.ints.at(0), index, lz::gather(a[0], s.ints.at(0), index));
       }},
      {"index_add", One, Exact, false, 0, an_index, [](const Args& a, const Step& s) {
         const int64_t dim = static_cast<int64_t>(s.value);
         return lz::index_add(a[0], dim, index_of(s), lz::index_select(a[0], dim, index_of(s)));
       }},
      {"cat", Operands::SameShape, Exact, false, 0, one_dim,
       [](const Args& a, const Step& s) { return lz::cat({a[0], a[1]}, s.ints.at(0)); }},
      // Parts of unequal sizes along dim (a piece per part).
      {"cat.unequal", Operands::SameShape, Exact, false, 0, one_dim,
       [](const Args& a, const Step& s) {
         const int64_t d = s.ints.at(0), rank = a[1].dim();
         const int64_t w = d < 0 ? d + rank : d;
         if (w < 0 || w >= rank) return lz::cat({a[0], a[1]}, d);  // eager's error
         return lz::cat({a[0], lz::narrow(a[1], w, 0, a[1].size(w) / 2), a[1]}, d);
       }},
      {"stack", Operands::SameShape, Exact, false, 0, unsqueeze_dim,
       [](const Args& a, const Step& s) { return lz::stack({a[0], a[1]}, s.ints.at(0)); }},
      // ---- Matrix products ----
      {"matmul", Operands::MatMul, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::matmul(a[0], a[1]); }},
      {"mm", Operands::MatMul, Rounded, false, 0, none, [](const Args& a, const Step&) { return lz::mm(a[0], a[1]); }},
      {"bmm", Operands::MatMul, Rounded, false, 0, [](Rng&, const Args& a, Step&) { return matrices(a, 3, 3); },
       [](const Args& a, const Step&) { return lz::bmm(a[0], a[1]); }},
      // linear's weight is [out, in]: mat2 transposed (a non-contiguous view).
      {"linear", Operands::MatMul, Rounded, false, 0, [](Rng&, const Args& a, Step&) { return rank(a[1]) == 2; },
       [](const Args& a, const Step&) { return lz::linear(a[0], a[1].t()); }},
      // The bias is mat2's first row, broadcast over mat1's rows.
      {"addmm", Operands::MatMul, Rounded, false, 0, [](Rng& rng, const Args& a, Step& s) {
         pick_value(rng, s, true);
         return matrices(a, 2, 2) && a[1].size(0) > 0;
       }, [](const Args& a, const Step& s) {
         return lz::addmm(a[1].select(0, 0), a[0], a[1], lz::Scalar(1), value_of(s));
       }},
      // ---- In-place, through whatever view args[0] is ----
      {"add_", Two, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).add_(a[1]); }},
      {"sub_", Two, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).sub_(a[1]); }},
      {"mul_", Two, Rounded, true, 0, none, [](const Args& a, const Step&) { return self(a).mul_(a[1]); }},
      {"div_", Two, Rounded, true, 2, none, [](const Args& a, const Step&) { return self(a).div_(a[1]); }},
      {"copy_", Two, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).copy_(a[1]); }},
      {"add_.scalar", One, Exact, true, 0, a_value, [](const Args& a, const Step& s) { return self(a).add_(value_of(s)); }},
      {"mul_.scalar", One, Rounded, true, 0, a_value,
       [](const Args& a, const Step& s) { return self(a).mul_(value_of(s)); }},
      {"clamp_", One, Exact, true, 0, clamp_bounds, [](const Args& a, const Step& s) { return clamp_of(a[0], s, true); }},
      {"neg_", One, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).neg_(); }},
      {"relu_", One, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).relu_(); }},
      {"exp_", One, Rounded, true, 0, none, [](const Args& a, const Step&) { return self(a).exp_(); }},
      {"floor_", One, Disc, true, 0, none, [](const Args& a, const Step&) { return self(a).floor_(); }},
      {"fill_", One, Exact, true, 0, a_value, [](const Args& a, const Step& s) { return self(a).fill_(value_of(s)); }},
      {"zero_", One, Exact, true, 0, none, [](const Args& a, const Step&) { return self(a).zero_(); }},
      {"masked_fill_", Operands::Mask, Exact, true, 0, a_value,
       [](const Args& a, const Step& s) { return self(a).masked_fill_(a[1], value_of(s)); }},
  };
  // exp(x + d) = exp(x) exp(d): an error d in x becomes a relative error d in the result.
  for (FuzzOp& op : ops) {
    for (std::string_view n : {"exp", "expm1", "exp2", "exp_", "pow", "pow.scalar", "pow.scalar_base", "logsumexp", "softmax",
                               "log_softmax"}) {
      if (op.name == n) op.amplifies = true;
    }
    for (std::string_view n : {"softmax", "log_softmax", "layer_norm", "rms_norm", "cumsum"}) {
      if (op.name == n) op.sums_inside = true;
    }
    for (std::string_view n : {"reshape", "flatten", "contiguous", "to.float", "to.int", "to.options"}) {
      if (op.name == n) op.aliasing_unspecified = true;
    }
    if (op.name == "expand_as") op.sizes_only_args = 0b10;
    if (op.name.ends_with("_like")) op.sizes_only_args = 0b1;
    if (op.name == "to_eager") op.eager_result = true;
    // An index out of range; a fill value out of the output dtype's range.
    if (op.name == "index_select.any" || op.name == "nll_loss.any" || op.name == "masked_fill.tensor") {
      op.data_dependent_error = true;
    }
    op.scalar_value = op.attrs == a_value || op.attrs == a_nonzero_value || op.attrs == clamp_bounds ||
                      op.name == "pow.scalar" || op.name == "pow.scalar_base";
  }
  return ops;
}

size_t arity(Operands o) {
  switch (o) {
    case Operands::One: return 1;
    case Operands::Two: case Operands::Mask: case Operands::MatMul: case Operands::SameShape: return 2;
    case Operands::Three: case Operands::Where: return 3;
  }
  return 0;
}

}  // namespace

const std::vector<FuzzOp>& fuzz_ops() {
  static const std::vector<FuzzOp> ops = build();
  return ops;
}

const FuzzOp* find_fuzz_op(std::string_view name) {
  for (const FuzzOp& op : fuzz_ops()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

lz::Tensor run_op_step(const Step& s, const std::vector<lz::Tensor>& args) {
  const FuzzOp* op = find_fuzz_op(s.op);
  LZ_CHECK(op != nullptr, ValueError, "fuzz program: unknown operator \"", s.op, "\"");
  LZ_CHECK(args.size() == arity(op->operands), ValueError, "fuzz program: ", s.op, " takes ",
           arity(op->operands), " operands, got ", args.size());
  return op->run(args, s);
}

}  // namespace lzf
