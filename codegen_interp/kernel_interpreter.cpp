// The reference interpreter: every expression is evaluated in its dtype with
// the eager operators' semantics (scalar_semantics.h). For speed it runs a
// batch of points at a time (batch_eval.h): up to kBatch points made of
// several whole inner domains (small reductions, pointwise kernels) or one
// outer point's inner domain in slices; the result is the same as running
// point by point, since each point's values depend only on that point and
// each outer point's stages still run in order.
#include "codegen_interp/kernel_interpreter.h"

#include <algorithm>

#include "codegen_interp/batch_eval.h"
#include "core/error.h"
#include "core/parallel.h"

namespace lz::codegen_interp {

namespace {

using namespace detail;  // NOLINT: the interpreter's own helpers
using ir::ExprId;
using ir::Kernel;

constexpr int64_t kBatch = 512;               // points per batch (columns' length)
constexpr int64_t kMaxInnerTable = 1 << 20;   // offsets precomputed for the whole inner domain

struct StagePlan {
  bool reduce = false;
  bool reduced_store = false;
  uint32_t index = 0;           // reduction or store
  ExprId root = 0;
  std::vector<ExprId> cone;     // the expressions root depends on, ascending
  // Store: the access, its data and buffer dtype; reduce: dtypes.
  uint32_t access = 0;
  char* data = nullptr;
  ScalarType bt = ScalarType::Float;
};

// Per-thread buffers, reused across chunks and launches (no allocation per batch).
struct Scratch {
  std::vector<double> f;
  std::vector<int64_t> i, outer, inner;
  std::vector<Value> acc, reduced;
};

template <class T>
T* grow(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

class Interpreter {
 public:
  Interpreter(const Kernel& k, const KernelLaunch& launch) : k_(k), l_(launch) {
    for (uint32_t d = 0; d < k.rank; ++d) {
      (((k.reduce_axes >> d) & 1) ? inner_axes_ : outer_axes_).push_back(d);
    }
    for (const uint32_t d : outer_axes_) outer_count_ *= l_.domain[d];
    for (const uint32_t d : inner_axes_) inner_count_ *= l_.domain[d];
    na_ = static_cast<int64_t>(k.accesses.size());
    for (const ir::Stage& st : k.stages) plans_.push_back(plan(st));
    plan_exprs();
    // Small inner domains: several whole ones per batch; large: kBatch slices.
    if (inner_count_ <= kBatch) {
      outer_per_batch_ = kBatch / std::max<int64_t>(1, inner_count_);
      inner_chunk_ = std::max<int64_t>(1, inner_count_);
    } else {
      outer_per_batch_ = 1;
      inner_chunk_ = kBatch;
    }
    zeros_.assign(std::max<int64_t>(1, na_), 0);
    if (outer_count_ > 0 && inner_count_ > 0 && inner_count_ * na_ <= kMaxInnerTable) {
      inner_table_.resize(inner_count_ * na_ + na_);
      fill_offsets(inner_axes_, 0, inner_count_, inner_table_.data(), inner_count_,
                   inner_table_.data() + inner_count_ * na_);
    }
  }

  void run() {
    if (outer_count_ == 0) return;
    // Chunks of outer points worth ~64k expression evaluations each.
    const int64_t work = std::max<int64_t>(1, inner_count_) * static_cast<int64_t>(k_.exprs.size() + 1);
    const int64_t grain = std::max<int64_t>(1, 65536 / work);
    parallel_for(0, outer_count_, grain, [this](int64_t begin, int64_t end) { run_chunk(begin, end); });
  }

 private:
  StagePlan plan(const ir::Stage& st) const {
    StagePlan p;
    p.reduce = st.kind == ir::Stage::Kind::Reduce;
    p.index = st.index;
    if (p.reduce) {
      p.root = k_.reductions[st.index].input;
    } else {
      const ir::Store& s = k_.stores[st.index];
      p.root = s.value;
      p.reduced_store = s.reduced;
      p.access = s.access;
      p.data = address0(s.access);
      p.bt = buffer_dtype(s.access);
    }
    std::vector<bool> mark(p.root + 1, false);
    mark[p.root] = true;
    for (size_t i = p.root + 1; i-- > 0;) {
      if (!mark[i]) continue;
      const ir::Expr& e = k_.exprs[i];
      for (int o = 0; o < ir::arity(e.op); ++o) mark[e.operands[o]] = true;
    }
    for (ExprId i = 0; i <= p.root; ++i) {
      if (mark[i]) p.cone.push_back(i);
    }
    return p;
  }

  ScalarType buffer_dtype(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].dtype; }
  char* address0(uint32_t access) const { return static_cast<char*>(l_.accesses[access].data); }

  // Dtype classes, columns and launch-constant leaf values, once per launch.
  void plan_exprs() {
    uint32_t nf = 0, ni = 0;
    exprs_.resize(k_.exprs.size());
    for (size_t id = 0; id < k_.exprs.size(); ++id) {
      const ir::Expr& x = k_.exprs[id];
      ExprPlan& e = exprs_[id];
      e.op = x.op;
      e.t = x.dtype;
      e.fp = is_float(x.dtype);
      e.rnd = round_kind(x.dtype);
      e.wrp = wrap_kind(x.dtype);
      e.slot = e.fp ? nf++ : ni++;
      std::copy(std::begin(x.operands), std::end(x.operands), e.operands);
      e.index = x.index;
      switch (x.op) {
        case ScalarOp::Load:
          e.src = buffer_dtype(x.index);
          e.data = address0(x.index);
          break;
        case ScalarOp::Gather:
          e.src = buffer_dtype(x.index);
          e.data = address0(x.index);
          e.gather_stride = l_.accesses[x.index].gather_stride;
          e.gather_extent = l_.accesses[x.index].gather_extent;
          break;
        case ScalarOp::Reduced: e.src = k_.reductions[x.index].dtype; break;
        case ScalarOp::Constant:
          e.uniform = e.fp ? of_double(round_to(x.constant, e.t)) : of_int(wrap(x.iconstant, e.t));
          break;
        case ScalarOp::Param: {
          const Scalar& s = l_.params[x.index];
          if (s.is_floating_point()) {
            e.uniform = convert(of_double(s.to_double()), ScalarType::Double, e.t);
          } else {
            e.uniform = convert(of_int(s.is_bool() ? (s.to_bool() ? 1 : 0) : s.to_long()),
                                s.is_bool() ? ScalarType::Bool : ScalarType::Long, e.t);
          }
          break;
        }
        case ScalarOp::ReduceCount: e.uniform = convert(of_int(inner_count_), ScalarType::Long, e.t); break;
        case ScalarOp::InPiece: e.uniform = of_int(l_.in_piece.at(x.index) != 0 ? 1 : 0); break;
        default: break;
      }
    }
    nf_ = nf + Columns::kScratch;
    ni_ = ni + Columns::kScratch;
  }

  // Offsets (in elements) of `count` consecutive points of the index space
  // of `axes` (last fastest) from flat index `start`, for every access:
  // out[a * stride + j]. Filled a row (run along the last axis) at a time.
  // lin[a]: the step between consecutive offsets when they are evenly
  // spaced, else kNotLinear (lets loads and stores use plain strided loops).
  void fill_offsets(const std::vector<uint32_t>& axes, int64_t start, int64_t count, int64_t* out,
                    int64_t stride, int64_t* lin) const {
    const size_t nx = axes.size();
    if (nx == 0) {  // a single point
      for (int64_t a = 0; a < na_; ++a) out[a * stride] = 0, lin[a] = 0;
      return;
    }
    for (int64_t a = 0; a < na_; ++a) lin[a] = l_.accesses[a].strides[axes.back()];
    std::vector<int64_t> coord(nx);
    for (size_t x = nx; x-- > 0;) {
      coord[x] = start % l_.domain[axes[x]];
      start /= l_.domain[axes[x]];
    }
    const uint32_t last = axes.back();
    const int64_t extent = l_.domain[last];
    for (int64_t j = 0; j < count;) {
      const int64_t len = std::min(count - j, extent - coord.back());
      for (int64_t a = 0; a < na_; ++a) {
        const std::vector<int64_t>& s = l_.accesses[a].strides;
        int64_t base = 0;
        for (size_t x = 0; x < nx; ++x) base += coord[x] * s[axes[x]];
        int64_t* o = out + a * stride + j;
        for (int64_t t = 0; t < len; ++t) o[t] = base + t * s[last];
        if (j > 0 && base != out[a * stride] + j * s[last]) lin[a] = kNotLinear;
      }
      j += len;
      coord.back() += len;
      for (size_t x = nx; x-- > 1 && coord[x] == l_.domain[axes[x]];) {
        coord[x] = 0;
        ++coord[x - 1];
      }
    }
  }

  void run_chunk(int64_t begin, int64_t end) const {
    thread_local Scratch s;
    Columns c;
    c.cap = kBatch;
    c.f = grow(s.f, nf_ * kBatch);
    c.i = grow(s.i, ni_ * kBatch);
    c.f_scratch = nf_ - Columns::kScratch;
    c.i_scratch = ni_ - Columns::kScratch;
    // Offsets [a * kBatch + j], then each access's linear step (fill_offsets).
    int64_t* outer = grow(s.outer, na_ * kBatch + na_ + 1);
    int64_t* inner = grow(s.inner, na_ * kBatch + na_ + 1);
    const size_t nred = k_.reductions.size();
    Value* acc = grow(s.acc, kBatch);
    Value* reduced = grow(s.reduced, kBatch * nred + 1);
    for (int64_t o0 = begin; o0 < end; o0 += outer_per_batch_) {
      const int64_t n = std::min(outer_per_batch_, end - o0);
      fill_offsets(outer_axes_, o0, n, outer, kBatch, outer + na_ * kBatch);
      run_batch(n, outer, inner, acc, reduced, c);
    }
  }

  // Calls f(points) for the batch's inner domain in slices (one slice when
  // the batch holds several outer points); nothing when it is empty.
  template <class F>
  void for_inner_slices(int64_t n, const int64_t* outer, int64_t* inner, F f) const {
    for (int64_t i0 = 0; i0 < inner_count_; i0 += inner_chunk_) {
      PointSet ps{n, std::min(inner_chunk_, inner_count_ - i0), outer, kBatch, outer + na_ * kBatch};
      if (!inner_table_.empty()) {
        ps.inner = inner_table_.data() + i0;
        ps.istride = inner_count_;
        ps.ilin = inner_table_.data() + inner_count_ * na_;
      } else {
        fill_offsets(inner_axes_, i0, ps.per_outer, inner, kBatch, inner + na_ * kBatch);
        ps.inner = inner;
        ps.istride = kBatch;
        ps.ilin = inner + na_ * kBatch;
      }
      f(ps);
    }
  }

  void eval(const StagePlan& p, const PointSet& ps, const Value* reduced, const Columns& c) const {
    const auto nred = static_cast<uint32_t>(k_.reductions.size());
    for (const ExprId id : p.cone) eval_expr(exprs_, id, ps, reduced, nred, c);
  }

  void run_batch(int64_t n, const int64_t* outer, int64_t* inner, Value* acc, Value* reduced,
                 const Columns& c) const {
    const size_t nred = k_.reductions.size();
    for (const StagePlan& p : plans_) {
      const ExprPlan& root = exprs_[p.root];
      if (p.reduce) {
        const ir::Reduction& r = k_.reductions[p.index];
        // Floating sums and products accumulate in double and round once:
        // the oracle is at least as accurate as any kernel's summation order.
        const bool fp = is_float(r.dtype);
        const ScalarType acc_type = fp ? ScalarType::Double : r.dtype;
        const Wrap w = wrap_kind(acc_type);
        for (int64_t k = 0; k < n; ++k) acc[k] = identity(r.op, acc_type);
        for_inner_slices(n, outer, inner, [&](const PointSet& ps) {
          eval(p, ps, reduced, c);
          // The input in the reduction's dtype (then in acc_type: exact).
          const double* vf = c.fcol(root.slot);
          const int64_t* vi = c.icol(root.slot);
          if (root.t != r.dtype) {
            convert_col(root.t, vf, vi, r.dtype, c.fs(0), c.is(0), ps.size());
            vf = c.fs(0);
            vi = c.is(0);
          }
          for (int64_t k = 0; k < n; ++k) {
            const int64_t off = k * ps.per_outer;
            if (fp) combine_f(r.op, vf + off, ps.per_outer, acc[k].d);
            else combine_i(r.op, vi + off, ps.per_outer, acc[k].i, w);
          }
        });
        for (int64_t k = 0; k < n; ++k) reduced[k * nred + p.index] = convert(acc[k], acc_type, r.dtype);
      } else if (p.reduced_store) {
        // One value per outer point: evaluated with the inner coordinates
        // at 0, where accesses aligned to the domain (extent 1 on the
        // reduction axes) exist even when the inner domain is empty.
        const PointSet ps{n, 1, outer, kBatch, outer + na_ * kBatch, zeros_.data(), 1, zeros_.data()};
        eval(p, ps, reduced, c);
        store_col(root, ps, p.access, p.data, p.bt, c);
      } else {
        for_inner_slices(n, outer, inner, [&](const PointSet& ps) {
          eval(p, ps, reduced, c);
          store_col(root, ps, p.access, p.data, p.bt, c);
        });
      }
    }
  }

  const Kernel& k_;
  const KernelLaunch& l_;
  std::vector<uint32_t> outer_axes_, inner_axes_;
  int64_t outer_count_ = 1, inner_count_ = 1, na_ = 0;
  int64_t outer_per_batch_ = 1, inner_chunk_ = 1;
  std::vector<StagePlan> plans_;
  std::vector<ExprPlan> exprs_;
  uint32_t nf_ = 0, ni_ = 0;       // columns per class, scratch included
  std::vector<int64_t> zeros_;       // inner offsets of the inner point 0
  std::vector<int64_t> inner_table_; // [a * inner_count_ + i], when small enough
};

void check_launch(const Kernel& k, const KernelLaunch& launch) {
  const std::string problems = ir::verify_kernel(k);
  LZ_CHECK(problems.empty(), ValueError, "[run_kernel] kernel '", k.name, "' is malformed: ", problems);
  LZ_CHECK(launch.domain.size() == k.rank, ValueError, "[run_kernel] kernel '", k.name, "': the domain has ",
           launch.domain.size(), " extents, the kernel's rank is ", k.rank);
  for (size_t d = 0; d < launch.domain.size(); ++d) {
    LZ_CHECK(launch.domain[d] >= 0, ValueError, "[run_kernel] kernel '", k.name, "': domain extent ", d,
             " is negative (", launch.domain[d], ")");
  }
  LZ_CHECK(launch.accesses.size() == k.accesses.size(), ValueError, "[run_kernel] kernel '", k.name, "': ",
           launch.accesses.size(), " bound accesses, the kernel has ", k.accesses.size());
  LZ_CHECK(launch.params.size() == k.num_params, ValueError, "[run_kernel] kernel '", k.name, "': ",
           launch.params.size(), " params, the kernel has ", k.num_params);
  for (size_t a = 0; a < launch.accesses.size(); ++a) {
    LZ_CHECK(launch.accesses[a].strides.size() == k.rank, ValueError, "[run_kernel] kernel '", k.name,
             "': access a", a, " has ", launch.accesses[a].strides.size(), " strides, the domain rank is ",
             k.rank);
  }
}

}  // namespace

void run_kernel(const ir::Kernel& k, const KernelLaunch& launch) {
  check_launch(k, launch);
  Interpreter(k, launch).run();
}

}  // namespace lz::codegen_interp
