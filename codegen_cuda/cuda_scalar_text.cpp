// The definitions of cuda_scalar_text.h: how generated CUDA C spells
// scalar types, conversions, literals and math functions. Separate from the
// generator (cuda_source.cpp, cuda_source_exprs.cpp): plain functions of a
// dtype or an operation, with no kernel in sight.
#include "codegen_cuda/cuda_scalar_text.h"

#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace lz::codegen_cuda::detail {

using ir::ScalarOp;

const char* compute_type(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Double: return "double";
    case ScalarType::Float: case ScalarType::Half: case ScalarType::BFloat16: return "float";
    default: return "lz_i64";
  }
}

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

}  // namespace lz::codegen_cuda::detail
