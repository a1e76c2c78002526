// The reduction layer shared by every CPU reduction (sum, prod, mean,
// max/min/amax/amin/argmax/argmin, var/std, norm, logsumexp, all/any).
//
// A reduction is described by its Geometry: the kept dims (one output
// element per index) and the reduced dims, both ordered by input stride
// (outermost first), with size-1 dims dropped and contiguous dims merged.
// Two layouts get a dedicated path:
//   inner  the reduced elements of an output are runs along the innermost
//          reduced dim (contiguous for sum(dim=-1) of a row-major tensor):
//          each output folds its runs with a vectorised loop;
//   outer  the innermost kept dim is contiguous in the input and the reduced
//          dims are outside it (sum(dim=0) of a row-major matrix): tiles of
//          up to Ops::kTile adjacent outputs fold whole row pieces at once,
//          vectorised across the outputs.
//
// The reduced index space of an output (or a tile) is split by a fixed
// binary tree: a node [lo, hi) longer than one leaf splits at a multiple of
// the leaf size near its middle, leaves fold their elements in order, and
// nodes combine left then right. The tree depends only on the geometry, so
// evaluating it serially, or evaluating the nodes at some depth on different
// threads and combining them up the tree afterwards, gives bit-identical
// results: results never depend on the thread count. Work is parallelised
// over outputs (tiles) when there are many, and over tree nodes when there
// are few outputs and much to reduce (a full reduction uses every thread).
//
// An Ops type supplies the arithmetic:
//   using in_t, acc_t;                 input element and accumulator types
//   static constexpr int64_t kLeaf;    elements per leaf (inner path; the
//                                      outer path uses kLeaf / width rows)
//   static constexpr int64_t kTile;    outputs per tile on the outer path
//   acc_t identity() const;
//   void accumulate(acc_t& a, const in_t* p, int64_t n, int64_t stride, int64_t index) const;
//        folds p[0], p[stride], ... (n elements, reduced indices index...) into a
//   void accumulate_rows(acc_t* a, const in_t* p, int64_t rows, int64_t row_stride,
//                        int64_t width, int64_t index) const;
//        folds rows of `width` contiguous elements into a[0..width)
//   acc_t combine(const acc_t& a, const acc_t& b) const;   a precedes b
//   void store(const acc_t& a, int64_t out0, int64_t out1) const;
//        writes the result at element offsets out0 / out1 of the outputs
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "core/parallel.h"
#include "core/tensor.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/float16_blocks.h"
#include "eager_kernels/cpu/loops.h"

namespace lz::cpu::reduce {

// Which input dims a reduction reduces.
using Mask = absl::InlinedVector<bool, 6>;
inline Mask mask_all(int64_t ndim) { return Mask(static_cast<size_t>(ndim), true); }
// Only `dim` (wrapped; IndexError naming `op` when out of range). A 0-dim
// input has nothing to reduce.
Mask mask_one(int64_t ndim, int64_t dim, std::string_view op);

struct Geometry {
  // Kept dims, outermost first: sizes, input strides and the strides of up
  // to two outputs (elements).
  SizeVec kept_sizes, kept_in;
  std::array<SizeVec, 2> kept_out;
  // Reduced dims, outermost first; never empty ({1} with stride 0 when
  // nothing is reduced).
  SizeVec red_sizes, red_in;
  int64_t num_outputs = 1;
  int64_t red_numel = 1;
  // The outer path applies (see above).
  bool outer = false;
};

// The geometry of reducing `in` over the dims flagged in `mask` into `out0`
// (and `out1`, same sizes), which have the kept dims (and size-1 reduced
// dims when keepdim). `logical_order` keeps the reduced dims in their
// logical order (for index-producing reductions over several dims); by
// default they are ordered by stride, which is faster and as deterministic.
Geometry make_geometry(const Tensor& in, absl::Span<const bool> mask, bool keepdim,
                       const Tensor& out0, const Tensor* out1 = nullptr);

// ---- Vectorised folds --------------------------------------------------------
// fold(p, n) = op(...op(op(id, map(p[0])), map(p[1]))...) evaluated with L
// independent lanes (lane j takes elements j, j + L, ...), the lanes then
// combined pairwise: a fixed order, so the result is deterministic.

template <class Acc>
inline constexpr int kLanes = static_cast<int>(256 / sizeof(Acc)) < 1 ? 1 : static_cast<int>(256 / sizeof(Acc));

template <class Acc, int L, class Op>
inline Acc combine_lanes(Acc* lanes, const Op& op) {
  for (int width = L / 2; width >= 1; width /= 2) {
    for (int j = 0; j < width; ++j) lanes[j] = op(lanes[j], lanes[j + width]);
  }
  return lanes[0];
}

template <class Acc, class T, class Map, class Op>
LZ_CPU_CLONES Acc fold_lanes(const T* __restrict p, int64_t n, Acc id, Map map, Op op) {
  constexpr int L = kLanes<Acc>;
  Acc lanes[L];
  for (int j = 0; j < L; ++j) lanes[j] = id;
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    for (int j = 0; j < L; ++j) lanes[j] = op(lanes[j], map(p[i + j]));
  }
  for (int j = 0; i + j < n; ++j) lanes[j] = op(lanes[j], map(p[i + j]));
  return combine_lanes<Acc, L>(lanes, op);
}

template <class Acc, class T, class Map, class Op>
Acc fold_strided(const T* p, int64_t n, int64_t stride, Acc id, Map map, Op op) {
  constexpr int L = 8;
  Acc lanes[L];
  for (int j = 0; j < L; ++j) lanes[j] = id;
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    for (int j = 0; j < L; ++j) lanes[j] = op(lanes[j], map(p[(i + j) * stride]));
  }
  for (int j = 0; i + j < n; ++j) lanes[j] = op(lanes[j], map(p[(i + j) * stride]));
  return combine_lanes<Acc, L>(lanes, op);
}

// Short runs: a plain loop (no call through the ISA dispatcher).
template <class Acc, class T, class Map, class Op>
inline Acc fold_short(const T* p, int64_t n, int64_t stride, Acc id, Map map, Op op) {
  Acc a = id;
  for (int64_t i = 0; i < n; ++i) a = op(a, map(p[i * stride]));
  return a;
}

// ---- float16 and bfloat16 inputs ---------------------------------------------
// Their elements are widened to float in L1-sized blocks and folded by the
// float instance of the same loop (the one a float tensor runs), so each
// vectorised fold compiles once for the three float types. Every map reads
// its argument through opmath_t, so map(float(x)) == map(x).

inline constexpr int64_t kWidenedBlock = 1024;

template <class T>
void widen_block(const T* p, int64_t stride, int64_t n, float* block) {
  widen_to_float(scalar_type_of<T>, reinterpret_cast<const char*>(p), stride * static_cast<int64_t>(sizeof(T)),
                 block, n);
}

// A run folded block by block, the blocks' results combined in order.
template <class Acc, class T, class Map, class Op>
Acc fold_widened(const T* p, int64_t n, int64_t stride, Acc id, const Map& map, const Op& op) {
  alignas(64) float block[kWidenedBlock];
  Acc a = id;
  for (int64_t i = 0; i < n; i += kWidenedBlock) {
    const int64_t m = std::min(kWidenedBlock, n - i);
    widen_block(p + i * stride, stride, m, block);
    const Acc b = fold_lanes(static_cast<const float*>(block), m, id, map, op);
    a = i == 0 ? b : op(a, b);
  }
  return a;
}

// visit(q, rows, row_stride, width, column) over `rows` x `w` elements of
// rows `row_stride` apart, as arrays the float loops read: the elements
// themselves (q == p) unless T is a 16-bit float; then blocks widened to
// float, of row pieces of at most kWidenedBlock columns, in row order within
// a piece and in runs of a multiple of four rows (fold_rows combines rows
// four at a time, so the order of its arithmetic is unchanged).
template <class T, class Visit>
void for_row_blocks(const T* p, int64_t rows, int64_t row_stride, int64_t w, const Visit& visit) {
  if constexpr (!is_reduced_float_v<T>) {
    visit(p, rows, row_stride, w, int64_t{0});
  } else {
    constexpr int64_t kBlockElements = 4 * kWidenedBlock;
    alignas(64) float block[kBlockElements];
    for (int64_t c = 0; c < w; c += kWidenedBlock) {
      const int64_t width = std::min(kWidenedBlock, w - c);
      const int64_t run = std::max<int64_t>(4, kBlockElements / width / 4 * 4);
      for (int64_t r = 0; r < rows; r += run) {
        const int64_t m = std::min(run, rows - r);
        for (int64_t k = 0; k < m; ++k) widen_block(p + (r + k) * row_stride + c, 1, width, block + k * width);
        visit(static_cast<const float*>(block), m, width, width, c);
      }
    }
  }
}

// ---- Folds -------------------------------------------------------------------

template <class Acc, class T, class Map, class Op>
inline Acc fold_contiguous(const T* p, int64_t n, Acc id, const Map& map, const Op& op) {
  if constexpr (is_reduced_float_v<T>) {
    return fold_widened(p, n, 1, id, map, op);
  } else {
    return fold_lanes(p, n, id, map, op);
  }
}

template <class Acc, class T, class Map, class Op>
inline Acc fold(const T* p, int64_t n, int64_t stride, Acc id, const Map& map, const Op& op) {
  if (n < 16) return fold_short(p, n, stride, id, map, op);
  if constexpr (is_reduced_float_v<T>) {
    return fold_widened(p, n, stride, id, map, op);
  } else {
    if (stride == 1) return fold_lanes(p, n, id, map, op);
    return fold_strided(p, n, stride, id, map, op);
  }
}

// a[k] = op(a[k], map(row_r[k])) for every row r, in row order (four rows at
// a time combined pairwise first).
template <class Acc, class T, class Map, class Op>
LZ_CPU_CLONES void fold_rows_of(Acc* __restrict a, const T* __restrict p, int64_t rows,
                                int64_t row_stride, int64_t w, Map map, Op op) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const T* __restrict p0 = p + r * row_stride;
    const T* __restrict p1 = p0 + row_stride;
    const T* __restrict p2 = p1 + row_stride;
    const T* __restrict p3 = p2 + row_stride;
    for (int64_t k = 0; k < w; ++k) {
      a[k] = op(a[k], op(op(map(p0[k]), map(p1[k])), op(map(p2[k]), map(p3[k]))));
    }
  }
  for (; r < rows; ++r) {
    const T* __restrict p0 = p + r * row_stride;
    for (int64_t k = 0; k < w; ++k) a[k] = op(a[k], map(p0[k]));
  }
}

template <class Acc, class T, class Map, class Op>
inline void fold_rows(Acc* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, const Map& map,
                      const Op& op) {
  for_row_blocks(p, rows, row_stride, w, [&](const auto* q, int64_t m, int64_t stride, int64_t width, int64_t c) {
    fold_rows_of(a + c, q, m, stride, width, map, op);
  });
}

// ---- Element maps and combining operations ---------------------------------

template <class Acc>
struct Cast {
  template <class T>
  Acc operator()(T x) const {
    if constexpr (std::is_same_v<Acc, bool>) {
      return static_cast<opmath_t<T>>(x) != opmath_t<T>(0);
    } else {
      return static_cast<Acc>(static_cast<opmath_t<T>>(x));
    }
  }
};

// Integer sums and products wrap around, as PyTorch's do: computed in the
// unsigned type, since signed overflow is undefined behaviour (UBSan caught
// prod of int64 values).
template <class A, bool = std::is_integral_v<A> && std::is_signed_v<A>>
struct WrappingOf {
  using type = A;
};
template <class A>
struct WrappingOf<A, true> {
  using type = std::make_unsigned_t<A>;
};
template <class A>
using Wrapping = typename WrappingOf<A>::type;
struct Add {
  template <class A>
  A operator()(A a, A b) const {
    return static_cast<A>(static_cast<Wrapping<A>>(a) + static_cast<Wrapping<A>>(b));
  }
};
struct Mul {
  template <class A>
  A operator()(A a, A b) const {
    return static_cast<A>(static_cast<Wrapping<A>>(a) * static_cast<Wrapping<A>>(b));
  }
};
// Maximum / minimum that propagate NaN (a NaN in either operand wins).
struct MaxNan {
  template <class A>
  A operator()(A a, A b) const {
    return (b > a || b != b) ? b : a;
  }
};
struct MinNan {
  template <class A>
  A operator()(A a, A b) const {
    return (b < a || b != b) ? b : a;
  }
};
struct Or {
  template <class A>
  A operator()(A a, A b) const {
    return a | b;
  }
};
struct And {
  template <class A>
  A operator()(A a, A b) const {
    return a & b;
  }
};

template <class A>
constexpr A lowest() {
  if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <class A>
constexpr A highest() {
  if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}

// ---- The engine ----------------------------------------------------------------

template <class Ops>
class Reducer {
 public:
  using in_t = typename Ops::in_t;
  using acc_t = typename Ops::acc_t;

  Reducer(const Geometry& g, const in_t* in, const Ops& ops) : g_(g), in_(in), ops_(ops) {
    run_ = g.red_sizes.back();
    run_stride_ = g.red_in.back();
    if (g.num_outputs == 0) {
      ngroups_ = 0;
    } else if (g.outer) {
      width_ = g.kept_sizes.back();
      tile_ = std::min<int64_t>(width_, Ops::kTile);
      ntiles_ = (width_ + tile_ - 1) / tile_;
      ngroups_ = g.num_outputs / width_ * ntiles_;
      leaf_ = std::max<int64_t>(4, Ops::kLeaf / tile_);
      nkept_ = static_cast<int>(g.kept_sizes.size()) - 1;
    } else {
      width_ = tile_ = ntiles_ = 1;
      ngroups_ = g.num_outputs;
      leaf_ = Ops::kLeaf;
      nkept_ = static_cast<int>(g.kept_sizes.size());
    }
  }

  void run() const {
    if (ngroups_ == 0) return;
    const int64_t R = g_.red_numel;
    const int64_t work = R * tile_;  // elements per group
    const int64_t threads = in_parallel_region() ? 1 : get_num_threads();
    int depth = 0;
    if (threads > 1 && ngroups_ < 2 * threads) {
      while (ngroups_ * (int64_t{1} << depth) < 4 * threads && (work >> (depth + 1)) >= kMinNodeWork &&
             (R >> (depth + 1)) >= leaf_) {
        ++depth;
      }
    }
    if (depth == 0) {
      const int64_t grain = std::max<int64_t>(1, kGrainWork / std::max<int64_t>(work, 1));
      parallel_for(0, ngroups_, grain, [&](int64_t begin, int64_t end) {
        const Buffer buf = make_buffer(tile_ * (kMaxDepth + 2));
        for (int64_t gi = begin; gi < end; ++gi) {
          const Group grp = group(gi);
          node(grp, 0, R, buf.get(), buf.get() + tile_);
          store(grp, buf.get());
        }
      });
      return;
    }
    // Few groups, much to reduce: evaluate the tree's nodes at `depth` of
    // every group in parallel, then combine each group's tree serially.
    std::vector<std::pair<int64_t, int64_t>> frontier;
    enumerate(0, R, depth, frontier);
    const int64_t nf = static_cast<int64_t>(frontier.size());
    const Buffer slots = make_buffer(ngroups_ * nf * tile_);
    parallel_for(0, ngroups_ * nf, 1, [&](int64_t begin, int64_t end) {
      const Buffer buf = make_buffer(tile_ * (kMaxDepth + 2));
      for (int64_t t = begin; t < end; ++t) {
        const Group grp = group(t / nf);
        const auto [lo, hi] = frontier[static_cast<size_t>(t % nf)];
        node(grp, lo, hi, slots.get() + t * tile_, buf.get());
      }
    });
    const Buffer buf = make_buffer(tile_ * (kMaxDepth + 2));
    for (int64_t gi = 0; gi < ngroups_; ++gi) {
      const Group grp = group(gi);
      size_t next = 0;
      replay(grp, 0, R, depth, slots.get() + gi * nf * tile_, next, buf.get(), buf.get() + tile_);
      store(grp, buf.get());
    }
  }

 private:
  static constexpr int kMaxDepth = 64;
  static constexpr int64_t kGrainWork = 32768;
  static constexpr int64_t kMinNodeWork = 16384;

  // Accumulator storage (not std::vector: acc_t may be bool).
  using Buffer = std::unique_ptr<acc_t[]>;
  static Buffer make_buffer(int64_t n) { return Buffer(new acc_t[static_cast<size_t>(n)]); }

  struct Group {
    int64_t in = 0, out0 = 0, out1 = 0, w = 1;
  };

  Group group(int64_t gi) const {
    Group grp;
    int64_t t = 0;
    if (g_.outer) {
      t = gi % ntiles_;
      gi /= ntiles_;
    }
    for (int d = nkept_ - 1; d >= 0; --d) {
      const int64_t size = g_.kept_sizes[d];
      const int64_t i = gi % size;
      gi /= size;
      grp.in += i * g_.kept_in[d];
      grp.out0 += i * g_.kept_out[0][d];
      grp.out1 += i * g_.kept_out[1][d];
    }
    if (g_.outer) {
      const int64_t c0 = t * tile_;
      grp.w = std::min(tile_, width_ - c0);
      grp.in += c0;  // the innermost kept dim has input stride 1
      grp.out0 += c0 * g_.kept_out[0].back();
      grp.out1 += c0 * g_.kept_out[1].back();
    }
    return grp;
  }

  int64_t split(int64_t lo, int64_t hi) const {
    const int64_t half = (hi - lo + 1) / 2;
    return lo + (half + leaf_ - 1) / leaf_ * leaf_;
  }

  // Folds reduced indices [lo, hi) of a group into acc[0..w) (initialised).
  void leaf(const Group& grp, int64_t lo, int64_t hi, acc_t* acc) const {
    const int nouter = static_cast<int>(g_.red_sizes.size()) - 1;
    int64_t q = lo / run_, pos = lo % run_;
    absl::InlinedVector<int64_t, 6> index(static_cast<size_t>(std::max(nouter, 0)), 0);
    int64_t off = 0;
    for (int d = nouter - 1; d >= 0; --d) {
      index[d] = q % g_.red_sizes[d];
      q /= g_.red_sizes[d];
      off += index[d] * g_.red_in[d];
    }
    const in_t* base = in_ + grp.in;
    while (lo < hi) {
      const int64_t n = std::min(run_ - pos, hi - lo);
      const in_t* p = base + off + pos * run_stride_;
      if (g_.outer) {
        ops_.accumulate_rows(acc, p, n, run_stride_, grp.w, lo);
      } else {
        ops_.accumulate(acc[0], p, n, run_stride_, lo);
      }
      lo += n;
      pos = 0;
      for (int d = nouter - 1; d >= 0; --d) {
        off += g_.red_in[d];
        if (++index[d] < g_.red_sizes[d]) break;
        off -= g_.red_in[d] * g_.red_sizes[d];
        index[d] = 0;
      }
    }
  }

  void init(acc_t* acc, int64_t w) const {
    const acc_t id = ops_.identity();
    for (int64_t k = 0; k < w; ++k) acc[k] = id;
  }

  void combine_into(acc_t* acc, const acc_t* rhs, int64_t w) const {
    for (int64_t k = 0; k < w; ++k) acc[k] = ops_.combine(acc[k], rhs[k]);
  }

  // The tree node [lo, hi) into acc[0..w); scratch holds tile_ per level below.
  void node(const Group& grp, int64_t lo, int64_t hi, acc_t* acc, acc_t* scratch) const {
    init(acc, grp.w);
    if (hi - lo <= leaf_) {
      if (hi > lo) leaf(grp, lo, hi, acc);
      return;
    }
    const int64_t mid = split(lo, hi);
    node(grp, lo, mid, acc, scratch + tile_);
    node(grp, mid, hi, scratch, scratch + tile_);
    combine_into(acc, scratch, grp.w);
  }

  void enumerate(int64_t lo, int64_t hi, int depth,
                 std::vector<std::pair<int64_t, int64_t>>& out) const {
    if (depth == 0 || hi - lo <= leaf_) {
      out.emplace_back(lo, hi);
      return;
    }
    const int64_t mid = split(lo, hi);
    enumerate(lo, mid, depth - 1, out);
    enumerate(mid, hi, depth - 1, out);
  }

  // node() again, with the nodes at `depth` taken from slots in order.
  void replay(const Group& grp, int64_t lo, int64_t hi, int depth, const acc_t* slots,
              size_t& next, acc_t* acc, acc_t* scratch) const {
    if (depth == 0 || hi - lo <= leaf_) {
      std::copy(slots + next * tile_, slots + next * tile_ + grp.w, acc);
      ++next;
      return;
    }
    const int64_t mid = split(lo, hi);
    replay(grp, lo, mid, depth - 1, slots, next, acc, scratch + tile_);
    replay(grp, mid, hi, depth - 1, slots, next, scratch, scratch + tile_);
    combine_into(acc, scratch, grp.w);
  }

  void store(const Group& grp, const acc_t* acc) const {
    const int64_t s0 = g_.outer ? g_.kept_out[0].back() : 0;
    const int64_t s1 = g_.outer ? g_.kept_out[1].back() : 0;
    for (int64_t k = 0; k < grp.w; ++k) ops_.store(acc[k], grp.out0 + k * s0, grp.out1 + k * s1);
  }

  const Geometry& g_;
  const in_t* in_;
  const Ops& ops_;
  int64_t run_ = 1, run_stride_ = 0;
  int64_t width_ = 1, tile_ = 1, ntiles_ = 1, ngroups_ = 0, leaf_ = 1;
  int nkept_ = 0;
};

template <class Ops>
void run(const Geometry& g, const typename Ops::in_t* in, const Ops& ops) {
  Reducer<Ops>(g, in, ops).run();
}

}  // namespace lz::cpu::reduce
