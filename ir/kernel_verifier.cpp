// verify_kernel: the kernel IR's invariants (ir/kernel_ir.h), checked before
// a kernel reaches a code generator.
#include "ir/kernel_ir.h"

#include <algorithm>
#include <string>
#include <vector>

namespace lz::ir {

namespace {

bool valid_dtype(ScalarType t) {
  const auto i = static_cast<int>(t);
  return i >= 0 && i < kNumScalarTypes;
}

bool is_half_type(ScalarType t) { return t == ScalarType::Half || t == ScalarType::BFloat16; }

bool is_comparison(ScalarOp op) { return op >= ScalarOp::Eq && op <= ScalarOp::Ge; }

bool is_logical(ScalarOp op) {
  return op == ScalarOp::LogicalNot || op == ScalarOp::LogicalAnd || op == ScalarOp::LogicalOr ||
         op == ScalarOp::LogicalXor;
}

// The range an integral constant of dtype t must lie in.
bool constant_fits(int64_t v, ScalarType t) {
  if (!is_integral(t, /*include_bool=*/true)) return true;
  const IntegralRange r = integral_range(t);
  return v >= r.min && v <= r.max;
}

class KernelVerifier {
 public:
  explicit KernelVerifier(const Kernel& k) : k_(k) {}

  std::string run() {
    check_domain();
    check_buffers_and_accesses();
    const bool exprs_ok = check_exprs();
    check_reductions();
    check_stores();
    if (exprs_ok) check_stages();
    return out_;
  }

 private:
  template <class... Parts>
  void fail(const Parts&... parts) {
    if (!out_.empty()) out_ += '\n';
    (append(parts), ...);
  }
  void append(std::string_view s) { out_ += s; }
  void append(const char* s) { out_ += s; }
  void append(const std::string& s) { out_ += s; }
  template <class T>
  void append(T v) { out_ += std::to_string(v); }

  void check_domain() {
    if (k_.rank > 64) fail("domain rank ", k_.rank, " is over 64");
    if (k_.rank < 64 && (k_.reduce_axes >> k_.rank) != 0) {
      fail("reduce_axes names an axis >= the domain rank ", k_.rank);
    }
    if (k_.num_shape_refs == 0 ? k_.domain_shape != 0 : k_.domain_shape >= k_.num_shape_refs) {
      fail("domain_shape s", k_.domain_shape, " is not one of the ", k_.num_shape_refs, " shape refs");
    }
  }

  void check_pieces() {
    for (size_t p = 0; p < k_.pieces.size(); ++p) {
      const Piece& pc = k_.pieces[p];
      if (pc.axis >= k_.rank) fail("piece ", p, ": axis ", pc.axis, " out of the domain rank ", k_.rank);
      if (pc.size_ref >= k_.num_shape_refs) fail("piece ", p, ": size shape ref s", pc.size_ref, " out of range");
      for (uint32_t r : pc.after) {
        if (r >= k_.num_shape_refs) fail("piece ", p, ": shape ref s", r, " out of range");
      }
    }
  }

  void check_buffers_and_accesses() {
    check_pieces();
    for (size_t b = 0; b < k_.buffers.size(); ++b) {
      if (!valid_dtype(k_.buffers[b].dtype)) fail("buffer ", b, ": invalid dtype");
    }
    for (size_t a = 0; a < k_.accesses.size(); ++a) {
      const Access& acc = k_.accesses[a];
      if (acc.buffer >= k_.buffers.size()) {
        fail("a", a, ": buffer ", acc.buffer, " out of range (", k_.buffers.size(), " buffers)");
        continue;
      }
      check_views(a, acc);
    }
  }

  // Checks the attribute counts of each view step and follows the rank
  // where the IR determines it (ExpandTo and an implicit squeeze depend on
  // runtime sizes): the result must have the domain's rank.
  void check_views(size_t a, const Access& acc) {
    int64_t rank = k_.buffers[acc.buffer].rank;  // -1: unknown
    int gathered_steps = 0;
    auto dim_ok = [](int64_t d, int64_t r) { return r < 0 || (d >= -r && d < r); };
    for (size_t s = 0; s < acc.views.size(); ++s) {
      const ViewStep& v = acc.views[s];
      const auto n = static_cast<int64_t>(v.ints.size());
      auto bad = [&](std::string_view what) { fail("a", a, ": view step ", s, " (", to_string(v.kind), "): ", what); };
      switch (v.kind) {
        case ViewStep::Kind::Permute:
          if (rank >= 0 && n != rank) bad("needs one dim per axis");
          break;
        case ViewStep::Kind::Expand:
          if (rank >= 0 && n < rank) bad("fewer sizes than axes");
          rank = n;
          break;
        case ViewStep::Kind::ExpandTo:
          if (n != 1 || v.ints[0] < 0 || v.ints[0] >= k_.num_shape_refs) bad("needs one shape ref in range");
          rank = -1;
          break;
        case ViewStep::Kind::Reshape: {
          int wild = 0;
          for (const int64_t x : v.ints) wild += x == -1 ? 1 : 0;
          if (wild > 1) bad("more than one -1");
          rank = n;
          break;
        }
        case ViewStep::Kind::Slice:
          if (n != 4) bad("needs dim, start, end, step");
          else if (!dim_ok(v.ints[0], rank)) bad("dim out of range");
          else if (v.ints[3] <= 0) bad("step must be positive");
          break;
        case ViewStep::Kind::Select:
          if (n != 2) bad("needs dim, index");
          else if (!dim_ok(v.ints[0], rank)) bad("dim out of range");
          if (rank > 0) --rank;
          break;
        case ViewStep::Kind::Unsqueeze:
          if (n != 1) bad("needs one dim");
          else if (!dim_ok(v.ints[0], rank < 0 ? rank : rank + 1)) bad("dim out of range");
          if (rank >= 0) ++rank;
          break;
        case ViewStep::Kind::Squeeze:
          rank = -1;  // squeezing a dim of size != 1 is a no-op: sizes decide
          break;
        case ViewStep::Kind::AsStrided:
          if (n < 2 || v.ints[0] < 0 || n != 2 * v.ints[0] + 2) bad("needs n, sizes[n], strides[n], offset");
          else rank = v.ints[0];
          break;
        case ViewStep::Kind::Chunk:
          if (n != 3) bad("needs dim, count, index");
          else if (!dim_ok(v.ints[0], rank)) bad("dim out of range");
          else if (v.ints[1] <= 0 || v.ints[2] < 0 || v.ints[2] >= v.ints[1]) bad("index out of range of count");
          break;
        case ViewStep::Kind::NarrowTo:
          if (n != 1 || v.ints[0] < 0 || v.ints[0] >= k_.num_shape_refs) bad("needs one shape ref in range");
          break;
        case ViewStep::Kind::Gathered:
          if (n != 1) bad("needs one dim");
          else if (!dim_ok(v.ints[0], rank)) bad("dim out of range");
          if (++gathered_steps > 1) bad("a second gathered step");
          break;
        case ViewStep::Kind::Placed: {
          if (n != 1 || v.ints[0] < 0 || static_cast<size_t>(v.ints[0]) >= k_.pieces.size()) {
            bad("needs one piece in range");
            break;
          }
          // Its axis is a domain axis: no step may follow but other Placed ones.
          for (size_t t = s + 1; t < acc.views.size(); ++t) {
            const ViewStep& w = acc.views[t];
            if (w.kind != ViewStep::Kind::Placed) bad("followed by a step other than placed");
            else if (!w.ints.empty() && w.ints[0] >= 0 && static_cast<size_t>(w.ints[0]) < k_.pieces.size() &&
                     k_.pieces[w.ints[0]].axis == k_.pieces[v.ints[0]].axis) {
              bad("two placed steps along one axis");
            }
          }
          break;
        }
        default: bad("unknown kind"); break;
      }
    }
    if (rank >= 0 && rank != k_.rank) fail("a", a, ": aligned rank ", rank, " != domain rank ", k_.rank);
  }

  bool check_exprs() {
    bool ok = true;
    const size_t n = k_.exprs.size();
    for (size_t i = 0; i < n; ++i) {
      const Expr& e = k_.exprs[i];
      if (!is_valid(e.op)) {
        fail("e", i, ": unknown op ", static_cast<int>(e.op));
        ok = false;
        continue;
      }
      const int ar = arity(e.op);
      if (!valid_dtype(e.dtype)) {
        fail("e", i, ": invalid dtype");
        ok = false;
        continue;
      }
      // A cast to f16/bf16 is a rounding step (x.half().float()); nothing computes in them.
      if (is_half_type(e.dtype) && e.op != ScalarOp::Cast) {
        fail("e", i, ": ", dtype_short_name(e.dtype), " is not a compute dtype");
      }
      bool operands_ok = true;
      for (int o = 0; o < ar; ++o) {
        if (e.operands[o] >= i) {
          fail("e", i, ": operand e", e.operands[o], " is defined later");
          operands_ok = false;
        }
      }
      if (!operands_ok) {
        ok = false;
        continue;
      }
      check_expr(i, e, ar);
    }
    return ok;
  }

  ScalarType operand_dtype(const Expr& e, int o) const { return k_.exprs[e.operands[o]].dtype; }

  void check_expr(size_t i, const Expr& e, int ar) {
    const auto name = to_string(e.op);
    switch (e.op) {
      case ScalarOp::Load:
        if (e.index >= k_.accesses.size()) {
          fail("e", i, ": load of a", e.index, " out of range");
        } else if (k_.accesses[e.index].gathered()) {
          fail("e", i, ": load of gathered a", e.index, " (only gather reads it)");
        }
        return;
      case ScalarOp::Gather:
        if (e.index >= k_.accesses.size()) {
          fail("e", i, ": gather of a", e.index, " out of range");
        } else if (!k_.accesses[e.index].gathered()) {
          fail("e", i, ": gather of a", e.index, ", which is not a gathered access");
        } else if (const uint32_t b = k_.accesses[e.index].buffer; b < k_.buffers.size() && k_.buffers[b].output) {
          fail("e", i, ": gather of output a", e.index);
        }
        if (operand_dtype(e, 0) != ScalarType::Long) fail("e", i, ": gather index must be i64");
        if (!is_floating_point(e.dtype) && !is_integral(e.dtype, true)) fail("e", i, ": gather has an invalid dtype");
        return;
      case ScalarOp::Constant:
        if (!is_floating_point(e.dtype) && !constant_fits(e.iconstant, e.dtype)) {
          fail("e", i, ": constant ", e.iconstant, " does not fit ", dtype_short_name(e.dtype));
        }
        return;
      case ScalarOp::Param:
        if (e.index >= k_.num_params) fail("e", i, ": param p", e.index, " out of range");
        return;
      case ScalarOp::ReduceCount: return;
      case ScalarOp::InPiece:
        if (e.index >= k_.pieces.size()) fail("e", i, ": in_piece of piece ", e.index, " out of range");
        if (e.dtype != ScalarType::Bool) fail("e", i, ": in_piece must have dtype b8");
        return;
      case ScalarOp::Reduced:
        if (e.index >= k_.reductions.size()) {
          fail("e", i, ": reduced r", e.index, " out of range");
        } else if (k_.reductions[e.index].dtype != e.dtype) {
          fail("e", i, ": reduced r", e.index, " has dtype ", dtype_short_name(k_.reductions[e.index].dtype));
        }
        return;
      default: break;
    }
    const bool bool_result = is_comparison(e.op) || is_logical(e.op) || e.op == ScalarOp::IsNan ||
                             e.op == ScalarOp::IsInf;
    if (bool_result && e.dtype != ScalarType::Bool) fail("e", i, ": ", name, " must have dtype b8");
    const ScalarOpDomain domain = traits(e.op).domain;
    if (domain == ScalarOpDomain::Floating && !is_floating_point(e.dtype)) fail("e", i, ": ", name, " needs a floating dtype");
    if (domain == ScalarOpDomain::Integral && is_floating_point(e.dtype)) fail("e", i, ": ", name, " needs an integral or bool dtype");
    if ((e.op == ScalarOp::Neg || e.op == ScalarOp::Sub) && e.dtype == ScalarType::Bool) {
      fail("e", i, ": ", name, " is not defined on bool");
    }
    if (e.op == ScalarOp::Cast || e.op == ScalarOp::IsNan || e.op == ScalarOp::IsInf || is_logical(e.op)) {
      return;  // any operand dtype
    }
    if (is_comparison(e.op)) {
      if (operand_dtype(e, 0) != operand_dtype(e, 1)) fail("e", i, ": ", name, " operands differ in dtype");
      return;
    }
    if (e.op == ScalarOp::Select) {
      if (operand_dtype(e, 0) != ScalarType::Bool) fail("e", i, ": select condition must be b8");
      if (operand_dtype(e, 1) != e.dtype || operand_dtype(e, 2) != e.dtype) {
        fail("e", i, ": select values must have dtype ", dtype_short_name(e.dtype));
      }
      return;
    }
    // Arithmetic computes in its dtype: lowering casts operands explicitly.
    for (int o = 0; o < ar; ++o) {
      if (operand_dtype(e, o) != e.dtype) {
        fail("e", i, ": operand e", e.operands[o], " has dtype ", dtype_short_name(operand_dtype(e, o)),
             ", expected ", dtype_short_name(e.dtype));
      }
    }
  }

  void check_reductions() {
    for (size_t r = 0; r < k_.reductions.size(); ++r) {
      const Reduction& red = k_.reductions[r];
      if (red.input >= k_.exprs.size()) {
        fail("r", r, ": input e", red.input, " out of range");
        continue;
      }
      if (!valid_dtype(red.dtype) || is_half_type(red.dtype)) {
        fail("r", r, ": invalid accumulator dtype");
        continue;
      }
      const ScalarType in = k_.exprs[red.input].dtype;
      if (red.op == ReduceOp::All || red.op == ReduceOp::Any) {
        if (red.dtype != ScalarType::Bool) fail("r", r, ": ", to_string(red.op), " must have dtype b8");
      } else if (in != red.dtype) {
        fail("r", r, ": input e", red.input, " has dtype ", dtype_short_name(in), ", expected ",
             dtype_short_name(red.dtype));
      }
      if (static_cast<int>(red.op) > static_cast<int>(ReduceOp::Any)) fail("r", r, ": unknown op");
    }
  }

  void check_stores() {
    for (size_t s = 0; s < k_.stores.size(); ++s) {
      const Store& st = k_.stores[s];
      if (st.value >= k_.exprs.size()) fail("store ", s, ": value e", st.value, " out of range");
      if (st.access >= k_.accesses.size()) {
        fail("store ", s, ": access a", st.access, " out of range");
      } else if (const uint32_t b = k_.accesses[st.access].buffer; b < k_.buffers.size() && !k_.buffers[b].output) {
        fail("store ", s, ": a", st.access, " writes input buffer ", b);
      } else if (k_.accesses[st.access].gathered()) {
        fail("store ", s, ": a", st.access, " is a gathered access");
      }
    }
    for (size_t b = 0; b < k_.buffers.size(); ++b) {
      if (!k_.buffers[b].output) continue;
      bool stored = false;
      for (const Store& st : k_.stores) {
        stored |= st.access < k_.accesses.size() && k_.accesses[st.access].buffer == b;
      }
      if (!stored) fail("output buffer ", b, " is never stored");
    }
  }

  // The expressions `root` depends on (operands precede their users, so one
  // backwards sweep marks the whole cone).
  std::vector<bool> cone(ExprId root) const {
    std::vector<bool> mark(k_.exprs.size(), false);
    if (root >= mark.size()) return mark;
    mark[root] = true;
    for (size_t i = root + 1; i-- > 0;) {
      if (!mark[i]) continue;
      const Expr& e = k_.exprs[i];
      for (int o = 0; o < arity(e.op); ++o) mark[e.operands[o]] = true;
    }
    return mark;
  }

  // Every reduction and store in exactly one stage; a stage only uses the
  // results of reductions of earlier stages and loads an output access only
  // after an earlier stage stored it.
  void check_stages() {
    std::vector<int> reduce_stage(k_.reductions.size(), -1);
    std::vector<int> store_stage(k_.stores.size(), -1);
    for (size_t s = 0; s < k_.stages.size(); ++s) {
      const Stage& st = k_.stages[s];
      const bool reduce = st.kind == Stage::Kind::Reduce;
      std::vector<int>& seen = reduce ? reduce_stage : store_stage;
      const char* what = reduce ? "r" : "store ";
      if (st.kind != Stage::Kind::Reduce && st.kind != Stage::Kind::Store) {
        fail("stage ", s, ": unknown kind");
      } else if (st.index >= seen.size()) {
        fail("stage ", s, ": ", what, st.index, " out of range");
      } else if (seen[st.index] >= 0) {
        fail("stage ", s, ": ", what, st.index, " already in stage ", seen[st.index]);
      } else {
        seen[st.index] = static_cast<int>(s);
      }
    }
    for (size_t r = 0; r < reduce_stage.size(); ++r) {
      if (reduce_stage[r] < 0) fail("r", r, " is in no stage");
    }
    for (size_t s = 0; s < store_stage.size(); ++s) {
      if (store_stage[s] < 0) fail("store ", s, " is in no stage");
    }
    std::vector<bool> stored_access(k_.accesses.size(), false);
    for (size_t s = 0; s < k_.stages.size(); ++s) {
      const Stage& st = k_.stages[s];
      const bool reduce = st.kind == Stage::Kind::Reduce;
      if (st.index >= (reduce ? k_.reductions.size() : k_.stores.size())) continue;
      const ExprId root = reduce ? k_.reductions[st.index].input : k_.stores[st.index].value;
      if (root >= k_.exprs.size()) continue;
      const std::vector<bool> used = cone(root);
      for (size_t i = 0; i <= root; ++i) {
        if (!used[i]) continue;
        const Expr& e = k_.exprs[i];
        if (e.op == ScalarOp::Reduced && e.index < reduce_stage.size() &&
            (reduce_stage[e.index] < 0 || reduce_stage[e.index] >= static_cast<int>(s))) {
          fail("stage ", s, ": uses e", i, " (reduced r", e.index, ") before r", e.index, "'s stage");
        }
        if (e.op == ScalarOp::Load && e.index < k_.accesses.size()) {
          const uint32_t b = k_.accesses[e.index].buffer;
          if (b < k_.buffers.size() && k_.buffers[b].output && !stored_access[e.index]) {
            fail("stage ", s, ": e", i, " loads output a", e.index, " before a stage stores it");
          }
        }
      }
      if (!reduce && k_.stores[st.index].access < stored_access.size()) {
        stored_access[k_.stores[st.index].access] = true;
      }
    }
  }

  const Kernel& k_;
  std::string out_;
};

}  // namespace

std::string verify_kernel(const Kernel& k) { return KernelVerifier(k).run(); }

}  // namespace lz::ir
