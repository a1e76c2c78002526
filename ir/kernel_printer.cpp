// print_kernel: kernel IR as text (lz-dump, LZ_DUMP, test failures).
#include "ir/kernel_ir.h"

#include <string>
#include <vector>

#include "ir/printer.h"

namespace lz::ir {

namespace {

void print_ints(std::string& out, const std::vector<int64_t>& v, size_t begin, size_t end) {
  for (size_t i = begin; i < end && i < v.size(); ++i) {
    if (i > begin) out += ", ";
    out += v[i] == ViewStep::kNoBound ? "None" : std::to_string(v[i]);
  }
}

void print_view(std::string& out, const ViewStep& v) {
  out += to_string(v.kind);
  out += '(';
  const auto& x = v.ints;
  if ((v.kind == ViewStep::Kind::ExpandTo || v.kind == ViewStep::Kind::NarrowTo) && x.size() == 1) {
    out += "s" + std::to_string(x[0]);
  } else if (v.kind == ViewStep::Kind::Placed && x.size() == 1) {
    out += "piece" + std::to_string(x[0]);
  } else if (v.kind == ViewStep::Kind::AsStrided && x.size() >= 2 && x[0] >= 0 &&
             x.size() == static_cast<size_t>(2 * x[0] + 2)) {
    const auto n = static_cast<size_t>(x[0]);
    out += '[';
    print_ints(out, x, 1, 1 + n);
    out += "], [";
    print_ints(out, x, 1 + n, 1 + 2 * n);
    out += "], " + std::to_string(x.back());
  } else {
    print_ints(out, x, 0, x.size());
  }
  out += ')';
}

// "in0" / "out0": inputs and outputs are numbered separately, in buffer order.
std::string buffer_name(const Kernel& k, uint32_t b) {
  if (b >= k.buffers.size()) return "?b" + std::to_string(b);
  uint32_t n = 0;
  for (uint32_t i = 0; i < b; ++i) n += k.buffers[i].output == k.buffers[b].output ? 1 : 0;
  return (k.buffers[b].output ? "out" : "in") + std::to_string(n);
}

std::string buffer_type(const KernelBuffer& b) {
  return "(" + std::string(dtype_short_name(b.dtype)) + ", rank " + std::to_string(b.rank) + ")";
}

std::string identity_text(ReduceOp op, ScalarType t) {
  const bool fp = is_floating_point(t), b = t == ScalarType::Bool;
  switch (op) {
    case ReduceOp::Sum: return b ? "false" : "0";
    case ReduceOp::Prod: return b ? "true" : "1";
    case ReduceOp::All: return "true";
    case ReduceOp::Any: return "false";
    case ReduceOp::Max:
      if (fp) return "-inf";
      if (b) return "false";
      return std::to_string(integral_range(t).min);
    case ReduceOp::Min:
      if (fp) return "inf";
      if (b) return "true";
      return std::to_string(integral_range(t).max);
  }
  return "?";
}

void print_expr(std::string& out, const Kernel& k, size_t i) {
  const Expr& e = k.exprs[i];
  out += "  e" + std::to_string(i) + " : " + std::string(dtype_short_name(e.dtype)) + " = ";
  out += to_string(e.op);
  switch (e.op) {
    case ScalarOp::Load: out += " a" + std::to_string(e.index); return;
    case ScalarOp::Gather: out += " a" + std::to_string(e.index) + " at e" + std::to_string(e.operands[0]); return;
    case ScalarOp::Param: out += " p" + std::to_string(e.index); return;
    case ScalarOp::Reduced: out += " r" + std::to_string(e.index); return;
    case ScalarOp::InPiece: out += " piece" + std::to_string(e.index); return;
    case ScalarOp::ReduceCount: return;
    case ScalarOp::Constant:
      out += ' ';
      if (is_floating_point(e.dtype)) {
        print_double(out, e.constant);
      } else if (e.dtype == ScalarType::Bool) {
        out += e.iconstant == 0 ? "false" : e.iconstant == 1 ? "true" : "?" + std::to_string(e.iconstant);
      } else {
        out += std::to_string(e.iconstant);
      }
      return;
    default: break;
  }
  const int ar = arity(e.op);
  for (int o = 0; o < ar; ++o) out += (o == 0 ? " e" : ", e") + std::to_string(e.operands[o]);
}

void print_reduction(std::string& out, const Kernel& k, size_t r) {
  const Reduction& red = k.reductions[r];
  std::string line = "  r" + std::to_string(r) + " : " + std::string(dtype_short_name(red.dtype)) + " = " +
                     std::string(to_string(red.op)) + "(e" + std::to_string(red.input) + ")";
  // The identity in a column of its own, like the example in kernel_ir.h.
  line.resize(std::max<size_t>(line.size() + 2, 38), ' ');
  out += line + "(identity " + identity_text(red.op, red.dtype) + ")\n";
}

}  // namespace

std::string print_kernel(const Kernel& k) {
  std::string out = "kernel " + k.name + "  domain rank " + std::to_string(k.rank) + ", reduce {";
  bool first = true;
  for (uint32_t d = 0; d < 64; ++d) {
    if ((k.reduce_axes >> d) & 1) {
      out += (first ? "" : ", ") + std::to_string(d);
      first = false;
    }
  }
  out += "}\n";
  if (k.num_shape_refs != 0 || k.num_params != 0 || k.domain_shape != 0) {
    out += "  shapes " + std::to_string(k.num_shape_refs) + " (domain s" + std::to_string(k.domain_shape) +
           "), params " + std::to_string(k.num_params) + "\n";
  }
  for (size_t p = 0; p < k.pieces.size(); ++p) {
    const Piece& pc = k.pieces[p];
    out += "  piece" + std::to_string(p) + " = axis " + std::to_string(pc.axis) + " from " + std::to_string(pc.offset);
    for (uint32_t r : pc.after) out += " + s" + std::to_string(r);
    out += ", size of s" + std::to_string(pc.size_ref) + "\n";
  }
  std::vector<bool> referenced(k.buffers.size(), false);
  for (size_t a = 0; a < k.accesses.size(); ++a) {
    const Access& acc = k.accesses[a];
    out += "  access a" + std::to_string(a) + " = " + buffer_name(k, acc.buffer);
    if (acc.buffer < k.buffers.size()) {
      referenced[acc.buffer] = true;
      out += " " + buffer_type(k.buffers[acc.buffer]);
    }
    for (size_t s = 0; s < acc.views.size(); ++s) {
      out += s == 0 ? ": " : ", ";
      print_view(out, acc.views[s]);
    }
    out += '\n';
  }
  for (uint32_t b = 0; b < k.buffers.size(); ++b) {
    if (!referenced[b]) out += "  buffer " + buffer_name(k, b) + " " + buffer_type(k.buffers[b]) + " unused\n";
  }
  // A reduction prints right after the expression it reduces.
  for (size_t i = 0; i < k.exprs.size(); ++i) {
    print_expr(out, k, i);
    out += '\n';
    for (size_t r = 0; r < k.reductions.size(); ++r) {
      if (k.reductions[r].input == i) print_reduction(out, k, r);
    }
  }
  for (size_t r = 0; r < k.reductions.size(); ++r) {
    if (k.reductions[r].input >= k.exprs.size()) print_reduction(out, k, r);
  }
  out += "  stage";
  for (size_t s = 0; s < k.stages.size(); ++s) {
    const Stage& st = k.stages[s];
    out += s == 0 ? " " : "; ";
    if (st.kind == Stage::Kind::Reduce) {
      out += "reduce r" + std::to_string(st.index);
    } else if (st.index < k.stores.size()) {
      const Store& store = k.stores[st.index];
      out += std::string(store.reduced ? "store.reduced a" : "store a") + std::to_string(store.access) +
             " <- e" + std::to_string(store.value);
    } else {
      out += "store ?" + std::to_string(st.index);
    }
  }
  out += '\n';
  return out;
}

}  // namespace lz::ir
