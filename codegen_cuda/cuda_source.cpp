#include "codegen_cuda/cuda_source.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "codegen_cuda/cuda_prelude.h"
#include "codegen_cuda/kernel_args.h"
#include "core/error.h"
#include "core/stable_hash.h"

namespace lz::codegen_cuda {

namespace {

using ir::ExprId;
using ir::ScalarOp;

bool is_float_type(ScalarType t) { return is_floating_point(t); }

// The C type an expression of dtype t is computed in: integers in 64 bits
// (wrapped to their width after every operation), 16-bit floats in float.
const char* compute_type(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Double: return "double";
    case ScalarType::Float: case ScalarType::Half: case ScalarType::BFloat16: return "float";
    default: return "lz_i64";
  }
}

// The C type of one element in memory.
const char* storage_type(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: case ScalarType::Byte: return "unsigned char";
    case ScalarType::Char: return "signed char";
    case ScalarType::Short: return "short";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "lz_i64";
    case ScalarType::Half: case ScalarType::BFloat16: return "unsigned short";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    default: break;
  }
  LZ_FAIL(NotImplementedError, "[codegen_cuda] dtype ", to_string(t), " has no CUDA storage type");
}

std::string wrap_int(const std::string& x, ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "lz_wrap_u8(" + x + ")";
    case ScalarType::Char: return "lz_wrap_i8(" + x + ")";
    case ScalarType::Short: return "lz_wrap_i16(" + x + ")";
    case ScalarType::Int: return "lz_wrap_i32(" + x + ")";
    case ScalarType::Bool: return "(" + x + " != 0)";
    default: return x;
  }
}

// The text of `x` (computed as `from`) converted to `to`, with the eager
// conversion rules (codegen_interp's convert()).
std::string convert(const std::string& x, ScalarType from, ScalarType to) {
  if (from == to) return x;
  if (to == ScalarType::Bool) return "(" + x + " != 0)";
  const bool ff = is_float_type(from);
  if (ff) {
    if (to == ScalarType::Double) return "((double)" + x + ")";
    if (to == ScalarType::Float) return "((float)" + x + ")";
    if (to == ScalarType::Half) return "lz_round_half((float)" + x + ")";
    if (to == ScalarType::BFloat16) return "lz_round_bf16((float)" + x + ")";
    if (to == ScalarType::Long) return "lz_f2i_i64((double)" + x + ")";
    return wrap_int("lz_f2i_i32((double)" + x + ")", to);
  }
  // From an integer or bool (bool converts as 0 / 1).
  const std::string i = from == ScalarType::Bool ? "((lz_i64)" + x + ")" : x;
  if (to == ScalarType::Double) return "((double)" + i + ")";
  if (to == ScalarType::Float) return "((float)" + i + ")";  // one rounding to float
  if (to == ScalarType::Half) return "lz_round_half((float)" + i + ")";
  if (to == ScalarType::BFloat16) return "lz_round_bf16((float)" + i + ")";
  return wrap_int(i, to);
}

std::string float_literal(double v, ScalarType t) {
  std::string s;
  if (std::isnan(v)) {
    s = "lz_nan()";
  } else if (std::isinf(v)) {
    s = v > 0 ? "lz_inf()" : "(-lz_inf())";
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", v);  // exact
    s = buf;
  }
  return t == ScalarType::Double ? s : "((float)" + s + ")";
}

std::string int_literal(int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return "((lz_i64)" + std::to_string(v) + "LL)";
}

// C math function names for float and double operands.
const char* math_fn(ScalarOp op, bool f32) {
  switch (op) {
    case ScalarOp::Exp: return f32 ? "expf" : "exp";
    case ScalarOp::Exp2: return f32 ? "exp2f" : "exp2";
    case ScalarOp::Expm1: return f32 ? "expm1f" : "expm1";
    case ScalarOp::Log: return f32 ? "logf" : "log";
    case ScalarOp::Log2: return f32 ? "log2f" : "log2";
    case ScalarOp::Log1p: return f32 ? "log1pf" : "log1p";
    case ScalarOp::Sqrt: return f32 ? "sqrtf" : "sqrt";
    case ScalarOp::Sin: return f32 ? "sinf" : "sin";
    case ScalarOp::Cos: return f32 ? "cosf" : "cos";
    case ScalarOp::Tan: return f32 ? "tanf" : "tan";
    case ScalarOp::Tanh: return f32 ? "tanhf" : "tanh";
    case ScalarOp::Erf: return f32 ? "erff" : "erf";
    case ScalarOp::Floor: return f32 ? "floorf" : "floor";
    case ScalarOp::Ceil: return f32 ? "ceilf" : "ceil";
    case ScalarOp::Round: return f32 ? "rintf" : "rint";  // half to even
    case ScalarOp::Trunc: return f32 ? "truncf" : "trunc";
    case ScalarOp::Abs: return f32 ? "fabsf" : "fabs";
    case ScalarOp::Pow: return f32 ? "powf" : "pow";
    case ScalarOp::Atan2: return f32 ? "atan2f" : "atan2";
    case ScalarOp::Fmod: return f32 ? "fmodf" : "fmod";
    default: return nullptr;
  }
}

const char* reduce_code(ir::ReduceOp op) {
  switch (op) {
    case ir::ReduceOp::Sum: return "LZ_SUM";
    case ir::ReduceOp::Prod: return "LZ_PROD";
    case ir::ReduceOp::Max: return "LZ_MAX";
    case ir::ReduceOp::Min: return "LZ_MIN";
    case ir::ReduceOp::All: return "LZ_ALL";
    case ir::ReduceOp::Any: return "LZ_ANY";
  }
  return "LZ_SUM";
}

class Generator {
 public:
  explicit Generator(const ir::Kernel& k) : k_(k), layout_(args_layout(k)) {}
  // Elements per thread in the vectorized dense path (16 bytes of float32;
  // the prelude's lz_vec holds this many).
  static constexpr int kVectorLanes = 4;

  CudaSource run() {
    std::ostringstream body;
    row_ = !k_.reductions.empty();
    if (row_) {
      emit_row_kernel(body);
    } else {
      emit_pointwise_kernel(body);
    }
    std::ostringstream args;
    args << "  lz_i64 size[" << layout_.rank_slots << "];\n"
         << "  lz_i64 stride[" << layout_.num_accesses * layout_.rank_slots << "];\n"
         << "  char* data[" << layout_.num_accesses << "];\n"
         << "  double fparam[" << layout_.param_slots << "];\n"
         << "  lz_i64 iparam[" << layout_.param_slots << "];\n"
         << "  lz_i64 pfloat[" << layout_.param_slots << "];\n";
    const std::string text = body.str(), fields = args.str();
    CudaSource out;
    out.row_kernel = row_;
    char hash[24];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(stable_hash(fields + text)));
    out.entry = "lzk_" + std::string(hash);
    std::ostringstream code;
    code << cuda_prelude() << "\n// kernel " << k_.name << "\n";
    code << "struct " << out.entry << "_args {\n" << fields << "};\n";
    code << "extern \"C\" __global__ void " << out.entry << "(const " << out.entry << "_args a) {\n"
         << text << "}\n";
    out.code = code.str();
    return out;
  }

 private:
  // ---- Index arithmetic ----------------------------------------------------
  std::string stride(uint32_t access, uint32_t axis) const {
    return "a.stride[" + std::to_string(access * layout_.rank_slots + axis) + "]";
  }
  static std::string size(uint32_t axis) { return "a.size[" + std::to_string(axis) + "]"; }

  std::vector<uint32_t> axes(bool reduced) const {
    std::vector<uint32_t> v;
    for (uint32_t d = 0; d < k_.rank; ++d) {
      if ((((k_.reduce_axes >> d) & 1) != 0) == reduced) v.push_back(d);
    }
    return v;
  }

  // Declares the coordinates along `dims` of the flat index `flat` (last
  // axis fastest) and, for each access in `accesses`, its offset `<off><a>`
  // (`<init><a>` plus the offset along dims).
  void decompose(std::ostream& o, const std::string& indent, const std::string& flat,
                 const std::vector<uint32_t>& dims, const std::vector<bool>& accesses, const std::string& off,
                 const std::string& init) const {
    if (!dims.empty()) o << indent << "lz_i64 rem_" << off << " = " << flat << ";\n";
    for (size_t i = dims.size(); i-- > 0;) {
      const uint32_t d = dims[i];
      o << indent << "const lz_i64 c" << off << d << " = rem_" << off << " % " << size(d);
      if (i > 0) o << "; rem_" << off << " /= " << size(d);
      o << ";\n";
    }
    for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
      if (!accesses[a]) continue;
      o << indent << "const lz_i64 " << off << a << " = " << (init.empty() ? "0" : init + std::to_string(a));
      for (uint32_t d : dims) o << " + c" << off << d << " * " << stride(a, d);
      o << ";\n";
    }
  }

  // The accesses the expressions in `used` load, plus `store_access` (if any).
  std::vector<bool> accesses_of(const std::vector<bool>& used, int64_t store_access) const {
    std::vector<bool> a(k_.accesses.size(), false);
    for (ExprId i = 0; i < k_.exprs.size(); ++i) {
      if (used[i] && k_.exprs[i].op == ScalarOp::Load) a[k_.exprs[i].index] = true;
    }
    if (store_access >= 0) a[static_cast<size_t>(store_access)] = true;
    return a;
  }

  // ---- Expressions ---------------------------------------------------------
  // Marks e and everything it reads.
  void need(ExprId e, std::vector<bool>& used) const {
    if (used[e]) return;
    used[e] = true;
    const ir::Expr& x = k_.exprs[e];
    for (int i = 0; i < ir::arity(x.op); ++i) need(x.operands[i], used);
  }

  // Emits `const T e<i> = ...;` for every needed expression, in id order
  // (operands come first). `off` names the per-access offsets in scope.
  void emit_exprs(std::ostream& o, const std::string& indent, const std::vector<bool>& used, const std::string& off) {
    for (ExprId i = 0; i < k_.exprs.size(); ++i) {
      if (!used[i]) continue;
      o << indent << "const " << compute_type(k_.exprs[i].dtype) << " e" << i << " = " << expr(i, off) << ";\n";
    }
  }

  std::string operand(const ir::Expr& x, int i) const { return "e" + std::to_string(x.operands[i]); }
  ScalarType operand_type(const ir::Expr& x, int i) const { return k_.exprs[x.operands[i]].dtype; }

  std::string expr(ExprId id, const std::string& off) const {
    const ir::Expr& x = k_.exprs[id];
    const ScalarType t = x.dtype;
    const bool fp = is_float_type(t);
    const bool f32 = fp && t != ScalarType::Double;
    switch (x.op) {
      case ScalarOp::Load: return load(x.index, t, off);
      case ScalarOp::Constant:
        if (fp) return float_literal(x.constant, t);
        if (t == ScalarType::Bool) return x.iconstant != 0 ? "true" : "false";
        return int_literal(x.iconstant);
      case ScalarOp::Param: {
        const std::string p = std::to_string(x.index);
        return "(a.pfloat[" + p + "] ? " + convert("a.fparam[" + p + "]", ScalarType::Double, t) + " : " +
               convert("a.iparam[" + p + "]", ScalarType::Long, t) + ")";
      }
      case ScalarOp::ReduceCount: return convert("inner_total", ScalarType::Long, t);
      case ScalarOp::Reduced:
        return convert("red" + std::to_string(x.index), k_.reductions[x.index].dtype, t);
      case ScalarOp::Cast: return convert(operand(x, 0), operand_type(x, 0), t);
      case ScalarOp::Select: return "(" + operand(x, 0) + " ? " + operand(x, 1) + " : " + operand(x, 2) + ")";
      case ScalarOp::Eq: case ScalarOp::Ne: case ScalarOp::Lt: case ScalarOp::Le: case ScalarOp::Gt:
      case ScalarOp::Ge: return "(" + operand(x, 0) + compare_op(x.op) + operand(x, 1) + ")";
      case ScalarOp::LogicalAnd: return "(" + truth(x, 0) + " && " + truth(x, 1) + ")";
      case ScalarOp::LogicalOr: return "(" + truth(x, 0) + " || " + truth(x, 1) + ")";
      case ScalarOp::LogicalXor: return "(" + truth(x, 0) + " != " + truth(x, 1) + ")";
      case ScalarOp::LogicalNot: return "(!" + truth(x, 0) + ")";
      case ScalarOp::IsNan: return "(" + operand(x, 0) + " != " + operand(x, 0) + ")";
      case ScalarOp::IsInf:
        if (!is_float_type(operand_type(x, 0))) return "false";
        return std::string(operand_type(x, 0) == ScalarType::Double ? "lz_isinf_d(" : "lz_isinf_f(") +
               operand(x, 0) + ")";
      default: break;
    }
    if (ir::arity(x.op) == 1) return fp ? unary_float(x, f32) : unary_int(x, t);
    if (ir::arity(x.op) == 2) return fp ? binary_float(x, f32) : binary_int(x, t);
    LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op));
  }

  static const char* compare_op(ScalarOp op) {
    switch (op) {
      case ScalarOp::Eq: return " == ";
      case ScalarOp::Ne: return " != ";
      case ScalarOp::Lt: return " < ";
      case ScalarOp::Le: return " <= ";
      case ScalarOp::Gt: return " > ";
      default: return " >= ";
    }
  }
  std::string truth(const ir::Expr& x, int i) const { return "(" + operand(x, i) + " != 0)"; }

  std::string unary_float(const ir::Expr& x, bool f32) const {
    const std::string v = operand(x, 0);
    const std::string one = f32 ? "1.0f" : "1.0";
    switch (x.op) {
      case ScalarOp::Neg: return "(-" + v + ")";
      case ScalarOp::Sign: return std::string(f32 ? "lz_sign_f(" : "lz_sign_d(") + v + ")";
      case ScalarOp::Reciprocal: return "(" + one + " / " + v + ")";
      case ScalarOp::Square: return "(" + v + " * " + v + ")";
      case ScalarOp::Rsqrt: return "(" + one + " / " + math_fn(ScalarOp::Sqrt, f32) + "(" + v + "))";
      case ScalarOp::Sigmoid: return "(" + one + " / (" + one + " + " + math_fn(ScalarOp::Exp, f32) + "(-" + v + ")))";
      default: break;
    }
    if (const char* fn = math_fn(x.op, f32)) return std::string(fn) + "(" + v + ")";
    LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op),
            " on ", to_string(x.dtype));
  }

  std::string unary_int(const ir::Expr& x, ScalarType t) const {
    const std::string v = operand(x, 0);
    switch (x.op) {
      case ScalarOp::Neg: return wrap_int("lz_sub_i(0, " + v + ")", t);
      case ScalarOp::Abs: return wrap_int("lz_abs_i(" + v + ")", t);
      case ScalarOp::Sign: return convert("lz_sign_i(" + v + ")", ScalarType::Long, t);
      case ScalarOp::Square: return wrap_int("lz_mul_i(" + v + ", " + v + ")", t);
      case ScalarOp::Floor: case ScalarOp::Ceil: case ScalarOp::Round: case ScalarOp::Trunc: return v;
      case ScalarOp::BitwiseNot: return t == ScalarType::Bool ? "(!" + v + ")" : wrap_int("(~" + v + ")", t);
      default: break;
    }
    LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op),
            " on ", to_string(t));
  }

  std::string binary_float(const ir::Expr& x, bool f32) const {
    const std::string a = operand(x, 0), b = operand(x, 1);
    const std::string s = f32 ? "f" : "d";
    switch (x.op) {
      case ScalarOp::Add: return "(" + a + " + " + b + ")";
      case ScalarOp::Sub: return "(" + a + " - " + b + ")";
      case ScalarOp::Mul: return "(" + a + " * " + b + ")";
      case ScalarOp::Div: return "(" + a + " / " + b + ")";
      case ScalarOp::FloorDiv: return "lz_floordiv_" + s + "(" + a + ", " + b + ")";
      case ScalarOp::TruncDiv: return std::string(math_fn(ScalarOp::Trunc, f32)) + "(" + a + " / " + b + ")";
      case ScalarOp::Remainder: return "lz_rem_" + s + "(" + a + ", " + b + ")";
      case ScalarOp::Maximum: return "lz_max_" + s + "(" + a + ", " + b + ")";
      case ScalarOp::Minimum: return "lz_min_" + s + "(" + a + ", " + b + ")";
      case ScalarOp::Pow: case ScalarOp::Atan2: case ScalarOp::Fmod: return std::string(math_fn(x.op, f32)) + "(" + a + ", " + b + ")";
      default: break;
    }
    LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op),
            " on ", to_string(x.dtype));
  }

  std::string binary_int(const ir::Expr& x, ScalarType t) const {
    // Bool operands are 0 / 1; bitwise ops on them stay bools.
    std::string a = operand(x, 0), b = operand(x, 1);
    if (t == ScalarType::Bool) {
      switch (x.op) {
        case ScalarOp::BitwiseAnd: case ScalarOp::Mul: case ScalarOp::Minimum: return "(" + a + " && " + b + ")";
        case ScalarOp::BitwiseOr: case ScalarOp::Add: case ScalarOp::Maximum: return "(" + a + " || " + b + ")";
        case ScalarOp::BitwiseXor: return "(" + a + " != " + b + ")";
        default: break;
      }
      a = "((lz_i64)" + a + ")";
      b = "((lz_i64)" + b + ")";
    }
    std::string r;
    switch (x.op) {
      case ScalarOp::Add: r = "lz_add_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Sub: r = "lz_sub_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Mul: r = "lz_mul_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Div: case ScalarOp::TruncDiv: r = "lz_div_trunc_i(" + a + ", " + b + ")"; break;
      case ScalarOp::FloorDiv: r = "lz_div_floor_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Remainder: r = "lz_rem_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Fmod: r = "lz_fmod_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Pow: r = "lz_pow_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Maximum: r = "lz_max_i(" + a + ", " + b + ")"; break;
      case ScalarOp::Minimum: r = "lz_min_i(" + a + ", " + b + ")"; break;
      case ScalarOp::BitwiseAnd: r = "(" + a + " & " + b + ")"; break;
      case ScalarOp::BitwiseOr: r = "(" + a + " | " + b + ")"; break;
      case ScalarOp::BitwiseXor: r = "(" + a + " ^ " + b + ")"; break;
      default:
        LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op),
                " on ", to_string(t));
    }
    return wrap_int(r, t);
  }

  // ---- Memory ----------------------------------------------------------------
  ScalarType buffer_dtype(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].dtype; }

  std::string element(uint32_t access, const std::string& off, bool write) const {
    // In the vectorized path, lane `lane_` of the access's register vector.
    if (!lane_.empty()) return std::string(write ? "lzw" : "lzv") + std::to_string(access) + ".x[" + lane_ + "]";
    return std::string("((") + (write ? "" : "const ") + storage_type(buffer_dtype(access)) + "*)a.data[" +
           std::to_string(access) + "])[" + off + std::to_string(access) + "]";
  }
  std::string vector_type(uint32_t access) const {
    return std::string("lz_vec<") + storage_type(buffer_dtype(access)) + ">";
  }

  std::string load(uint32_t access, ScalarType t, const std::string& off) const {
    const ScalarType bt = buffer_dtype(access);
    const std::string v = element(access, off, false);
    std::string x;
    switch (bt) {
      case ScalarType::Half: x = "lz_half_to_float(" + v + ")"; return convert(x, ScalarType::Float, t);
      case ScalarType::BFloat16: x = "lz_bf16_to_float(" + v + ")"; return convert(x, ScalarType::Float, t);
      case ScalarType::Bool: return convert("(" + v + " != 0)", ScalarType::Bool, t);
      case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short: case ScalarType::Int:
        return convert("((lz_i64)" + v + ")", ScalarType::Long, t);
      default: return convert(v, bt, t);
    }
  }

  void store(std::ostream& o, const std::string& indent, const ir::Store& s, const std::string& off) const {
    const ScalarType bt = buffer_dtype(s.access);
    const ScalarType vt = k_.exprs[s.value].dtype;
    const std::string v = "e" + std::to_string(s.value);
    std::string bits;
    switch (bt) {
      case ScalarType::Half: bits = "lz_float_to_half(" + convert(v, vt, ScalarType::Float) + ")"; break;
      case ScalarType::BFloat16: bits = "lz_float_to_bf16(" + convert(v, vt, ScalarType::Float) + ")"; break;
      case ScalarType::Bool: bits = "(unsigned char)(" + convert(v, vt, ScalarType::Bool) + " ? 1 : 0)"; break;
      default: bits = std::string("(") + storage_type(bt) + ")" + convert(v, vt, bt); break;
    }
    o << indent << element(s.access, off, true) << " = " << bits << ";\n";
  }

  // ---- Kernels ---------------------------------------------------------------
  std::string flat_count(const std::vector<uint32_t>& dims) const {
    std::string s = "(lz_i64)1";
    for (uint32_t d : dims) s += " * " + size(d);
    return s;
  }

  // Declares `dense`: every access either walks the domain in row-major
  // order (dense_c<a>) or reads a single element (dense_z<a>), so a point's
  // offset is its flat index or 0, with no division per axis.
  void emit_dense_check(std::ostream& o, const std::vector<bool>& accesses) const {
    o << "  lz_i64 dense_stride = 1;\n";
    for (uint32_t a = 0; a < accesses.size(); ++a) {
      if (accesses[a]) o << "  bool dense_c" << a << " = true, dense_z" << a << " = true;\n";
    }
    for (uint32_t d = k_.rank; d-- > 0;) {
      for (uint32_t a = 0; a < accesses.size(); ++a) {
        if (!accesses[a]) continue;
        o << "  dense_c" << a << " = dense_c" << a << " && (" << size(d) << " == 1 || " << stride(a, d)
          << " == dense_stride);\n";
        o << "  dense_z" << a << " = dense_z" << a << " && (" << size(d) << " == 1 || " << stride(a, d)
          << " == 0);\n";
      }
      o << "  dense_stride *= " << size(d) << ";\n";
    }
    o << "  const bool dense = true";
    for (uint32_t a = 0; a < accesses.size(); ++a) {
      if (accesses[a]) o << " && (dense_c" << a << " || dense_z" << a << ")";
    }
    o << ";\n";
  }

  // One point of the dense path: offsets are the flat index p or 0.
  void emit_dense_point(std::ostream& o, const std::string& indent, const std::vector<bool>& used,
                        const std::vector<bool>& accesses) {
    for (uint32_t a = 0; a < accesses.size(); ++a) {
      if (accesses[a]) o << indent << "const lz_i64 o" << a << " = dense_c" << a << " ? p : (lz_i64)0;\n";
    }
    emit_exprs(o, indent, used, "o");
    for (const ir::Store& s : k_.stores) store(o, indent, s, "o");
  }

  // The dense path with every dense access aligned to a vector of
  // kVectorLanes elements: each thread loads its lanes of every input with
  // one vector load (a single element is broadcast), computes the lanes in
  // registers and writes each output with one vector store; the last
  // total % kVectorLanes points go point by point.
  void emit_vector_path(std::ostream& o, const std::vector<bool>& used, const std::vector<bool>& loaded,
                        const std::vector<bool>& accesses) {
    o << "  bool aligned = true;\n";
    for (uint32_t a = 0; a < accesses.size(); ++a) {
      if (!accesses[a]) continue;
      o << "  aligned = aligned && (!dense_c" << a << " || (lz_u64)a.data[" << a << "] % sizeof(" << vector_type(a)
        << ") == 0);\n";
    }
    o << "  if (aligned) {\n";
    o << "    const lz_i64 groups = total / " << kVectorLanes << ";\n";
    o << "    for (lz_i64 g = (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += (lz_i64)gridDim.x * "
         "blockDim.x) {\n";
    o << "      const lz_i64 base = g * " << kVectorLanes << ";\n";
    for (uint32_t a = 0; a < loaded.size(); ++a) {
      if (!loaded[a]) continue;
      const std::string t = storage_type(buffer_dtype(a)), v = "lzv" + std::to_string(a);
      const std::string ptr = "((const " + t + "*)a.data[" + std::to_string(a) + "])";
      o << "      " << vector_type(a) << " " << v << ";\n";
      o << "      if (dense_c" << a << ") { " << v << " = *(const " << vector_type(a) << "*)(" << ptr
        << " + base); } else { for (int l = 0; l < " << kVectorLanes << "; ++l) " << v << ".x[l] = " << ptr
        << "[0]; }\n";
    }
    for (const ir::Store& st : k_.stores) o << "      " << vector_type(st.access) << " lzw" << st.access << ";\n";
    o << "      for (int lane = 0; lane < " << kVectorLanes << "; ++lane) {\n";
    lane_ = "lane";
    emit_exprs(o, "        ", used, "o");
    for (const ir::Store& st : k_.stores) store(o, "        ", st, "o");
    lane_.clear();
    o << "      }\n";
    for (const ir::Store& st : k_.stores) {
      const std::string t = storage_type(buffer_dtype(st.access)), w = "lzw" + std::to_string(st.access);
      const std::string ptr = "((" + t + "*)a.data[" + std::to_string(st.access) + "])";
      o << "      if (dense_c" << st.access << ") { *(" << vector_type(st.access) << "*)(" << ptr << " + base) = " << w
        << "; } else { " << ptr << "[0] = " << w << ".x[" << kVectorLanes - 1 << "]; }\n";
    }
    o << "    }\n";
    o << "    for (lz_i64 p = groups * " << kVectorLanes << " + (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; "
         "p < total; p += (lz_i64)gridDim.x * blockDim.x) {\n";
    emit_dense_point(o, "      ", used, accesses);
    o << "    }\n    return;\n  }\n";
  }

  void emit_pointwise_kernel(std::ostream& o) {
    std::vector<uint32_t> all;
    for (uint32_t d = 0; d < k_.rank; ++d) all.push_back(d);
    std::vector<bool> used(k_.exprs.size(), false);
    for (const ir::Store& s : k_.stores) need(s.value, used);
    o << "  const lz_i64 inner_total = 1;\n  (void)inner_total;\n";
    o << "  const lz_i64 total = " << flat_count(all) << ";\n";
    const std::vector<bool> loaded = accesses_of(used, -1);
    std::vector<bool> accesses = loaded;
    for (const ir::Store& st : k_.stores) accesses[st.access] = true;
    emit_dense_check(o, accesses);
    const char* loop =
        "for (lz_i64 p = (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; p < total; p += (lz_i64)gridDim.x * "
        "blockDim.x) {\n";
    o << "  if (dense) {\n";
    emit_vector_path(o, used, loaded, accesses);
    o << "    " << loop;
    emit_dense_point(o, "      ", used, accesses);
    o << "    }\n    return;\n  }\n";
    o << "  " << loop;
    decompose(o, "    ", "p", all, accesses, "o", "");
    emit_exprs(o, "    ", used, "o");
    for (const ir::Store& s : k_.stores) store(o, "    ", s, "o");
    o << "  }\n";
  }

  void emit_row_kernel(std::ostream& o) {
    const std::vector<uint32_t> outer = axes(false), inner = axes(true);
    bool any_float = false, any_int = false;
    for (const ir::Reduction& r : k_.reductions) (is_float_type(r.dtype) ? any_float : any_int) = true;
    if (any_float) o << "  __shared__ double slots_d[32];\n";
    if (any_int) o << "  __shared__ lz_i64 slots_i[32];\n";
    o << "  const lz_i64 outer_total = " << flat_count(outer) << ";\n";
    o << "  const lz_i64 inner_total = " << flat_count(inner) << ";\n";
    o << "  for (lz_i64 q = blockIdx.x; q < outer_total; q += gridDim.x) {\n";
    decompose(o, "    ", "q", outer, std::vector<bool>(k_.accesses.size(), true), "b", "");
    for (const ir::Stage& st : k_.stages) {
      if (st.kind == ir::Stage::Kind::Reduce) {
        emit_reduce_stage(o, st.index, inner);
      } else {
        emit_store_stage(o, k_.stores[st.index], inner);
      }
    }
    o << "  }\n";
  }

  void emit_reduce_stage(std::ostream& o, uint32_t r, const std::vector<uint32_t>& inner) {
    const ir::Reduction& red = k_.reductions[r];
    const bool fp = is_float_type(red.dtype);
    // Floating reductions accumulate in double (as the interpreter does),
    // integers in 64 bits, wrapped to the dtype at the end.
    const ScalarType acc_t = fp ? ScalarType::Double : ScalarType::Long;
    const std::string acc = "acc" + std::to_string(r), code = reduce_code(red.op);
    o << "    " << compute_type(acc_t) << " " << acc << " = " << identity(red, acc_t) << ";\n";
    o << "    for (lz_i64 i = threadIdx.x; i < inner_total; i += blockDim.x) {\n";
    std::vector<bool> used(k_.exprs.size(), false);
    need(red.input, used);
    decompose(o, "      ", "i", inner, accesses_of(used, -1), "o", "b");
    emit_exprs(o, "      ", used, "o");
    o << "      " << acc << " = lz_combine<" << code << ">(" << acc << ", "
      << convert(convert("e" + std::to_string(red.input), k_.exprs[red.input].dtype, red.dtype), red.dtype, acc_t)
      << ");\n";
    o << "    }\n";
    o << "    const " << compute_type(red.dtype) << " red" << r << " = "
      << convert("lz_block_reduce<" + code + ">(" + acc + (fp ? ", slots_d)" : ", slots_i)"), acc_t, red.dtype)
      << ";\n";
  }

  std::string identity(const ir::Reduction& red, ScalarType acc_t) const {
    if (acc_t == ScalarType::Double) {
      switch (red.op) {
        case ir::ReduceOp::Prod: return "1.0";
        case ir::ReduceOp::Max: return "(-lz_inf())";
        case ir::ReduceOp::Min: return "lz_inf()";
        default: return "0.0";
      }
    }
    switch (red.op) {
      case ir::ReduceOp::Prod: case ir::ReduceOp::All: return "(lz_i64)1";
      case ir::ReduceOp::Max: return int_literal(integral_range(red.dtype).min);
      case ir::ReduceOp::Min: return int_literal(integral_range(red.dtype).max);
      default: return "(lz_i64)0";
    }
  }

  void emit_store_stage(std::ostream& o, const ir::Store& s, const std::vector<uint32_t>& inner) {
    std::vector<bool> used(k_.exprs.size(), false);
    need(s.value, used);
    if (s.reduced) {
      // One value per row, written by thread 0 at inner point 0 (the access
      // has extent 1 along the reduction axes).
      o << "    if (threadIdx.x == 0) {\n";
      const std::vector<bool> accesses = accesses_of(used, s.access);
      for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
        if (accesses[a]) o << "      const lz_i64 o" << a << " = b" << a << ";\n";
      }
      emit_exprs(o, "      ", used, "o");
      store(o, "      ", s, "o");
      o << "    }\n";
      return;
    }
    o << "    for (lz_i64 i = threadIdx.x; i < inner_total; i += blockDim.x) {\n";
    decompose(o, "      ", "i", inner, accesses_of(used, s.access), "o", "b");
    emit_exprs(o, "      ", used, "o");
    store(o, "      ", s, "o");
    o << "    }\n";
  }

  const ir::Kernel& k_;
  ArgsLayout layout_;
  bool row_ = false;
  std::string lane_;  // non-empty while emitting the lanes of the vectorized path
};

}  // namespace

CudaSource generate_cuda_source(const ir::Kernel& k) { return Generator(k).run(); }

std::string combined_source(std::span<const CudaSource> sources) {
  const std::string_view prelude = cuda_prelude();
  std::string out(prelude);
  std::vector<std::string_view> seen;
  for (const CudaSource& s : sources) {
    if (std::find(seen.begin(), seen.end(), s.entry) != seen.end()) continue;
    seen.push_back(s.entry);
    LZ_INTERNAL_ASSERT(s.code.compare(0, prelude.size(), prelude) == 0, "kernel ", s.entry, " lacks the prelude");
    out.append(s.code, prelude.size());
  }
  return out;
}

}  // namespace lz::codegen_cuda
