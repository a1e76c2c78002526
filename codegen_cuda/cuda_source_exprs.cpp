// The generator's expressions (cuda_source_impl.h): one `const T e<i> = ...;`
// per needed expression of the kernel IR, and the loads and stores of the
// accesses they read and write. Separate from the kernels' loops and index
// arithmetic (cuda_source.cpp), which place these statements.
#include <ostream>
#include <string>
#include <vector>

#include "codegen_cuda/cuda_scalar_text.h"
#include "codegen_cuda/cuda_source_impl.h"
#include "core/error.h"

namespace lz::codegen_cuda::detail {

// Marks e and everything it reads.
void Generator::need(ExprId e, std::vector<bool>& used) const {
  if (used[e]) return;
  used[e] = true;
  const ir::Expr& x = k_.exprs[e];
  for (int i = 0; i < ir::arity(x.op); ++i) need(x.operands[i], used);
}

// Emits `const T e<i> = ...;` for every needed expression, in id order
// (operands come first). `off` names the per-access offsets in scope.
void Generator::emit_exprs(std::ostream& o, const std::string& indent, const std::vector<bool>& used,
                           const std::string& off) {
  for (ExprId i = 0; i < k_.exprs.size(); ++i) {
    if (!used[i]) continue;
    o << indent << "const " << compute_type(k_.exprs[i].dtype) << " e" << i << " = " << expr(i, off) << ";\n";
  }
}

std::string Generator::operand(const ir::Expr& x, int i) const { return "e" + std::to_string(x.operands[i]); }
ScalarType Generator::operand_type(const ir::Expr& x, int i) const { return k_.exprs[x.operands[i]].dtype; }

std::string Generator::expr(ExprId id, const std::string& off) const {
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

const char* Generator::compare_op(ScalarOp op) {
  switch (op) {
    case ScalarOp::Eq: return " == ";
    case ScalarOp::Ne: return " != ";
    case ScalarOp::Lt: return " < ";
    case ScalarOp::Le: return " <= ";
    case ScalarOp::Gt: return " > ";
    default: return " >= ";
  }
}
std::string Generator::truth(const ir::Expr& x, int i) const { return "(" + operand(x, i) + " != 0)"; }

std::string Generator::unary_float(const ir::Expr& x, bool f32) const {
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

std::string Generator::unary_int(const ir::Expr& x, ScalarType t) const {
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

std::string Generator::binary_float(const ir::Expr& x, bool f32) const {
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
    case ScalarOp::Pow: case ScalarOp::Atan2: case ScalarOp::Fmod:
      return std::string(math_fn(x.op, f32)) + "(" + a + ", " + b + ")";
    default: break;
  }
  LZ_FAIL(NotImplementedError, "[codegen_cuda] kernel ", k_.name, ": no CUDA form for ", ir::to_string(x.op),
          " on ", to_string(x.dtype));
}

std::string Generator::binary_int(const ir::Expr& x, ScalarType t) const {
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

std::string Generator::element(uint32_t access, const std::string& off, bool write) const {
  // In the vectorized path, lane `lane_` of the access's register vector.
  if (!lane_.empty()) return std::string(write ? "lzw" : "lzv") + std::to_string(access) + ".x[" + lane_ + "]";
  return std::string("((") + (write ? "" : "const ") + storage_type(buffer_dtype(access)) + "*)a.data[" +
         std::to_string(access) + "])[" + off + std::to_string(access) + "]";
}
std::string Generator::vector_type(uint32_t access) const {
  return std::string("lz_vec<") + storage_type(buffer_dtype(access)) + ">";
}

std::string Generator::load(uint32_t access, ScalarType t, const std::string& off) const {
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

void Generator::store(std::ostream& o, const std::string& indent, const ir::Store& s, const std::string& off) const {
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

}  // namespace lz::codegen_cuda::detail
