// How generated CUDA C spells the kernel IR's scalars: the C types values
// are computed and stored in, the conversions between dtypes, literals, C
// math function names and the prelude's reduction codes. A helper family
// of plain functions with no generator state, shared by the generator's
// files (cuda_source.cpp, cuda_source_exprs.cpp). Internal to codegen_cuda.
#pragma once

#include <cstdint>
#include <string>

#include "core/scalar_type.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_cuda::detail {

inline bool is_float_type(ScalarType t) { return is_floating_point(t); }

// The C type an expression of dtype t is computed in: integers in 64 bits
// (wrapped to their width after every operation), 16-bit floats in float.
const char* compute_type(ScalarType t);

// The C type of one element in memory.
const char* storage_type(ScalarType t);

std::string wrap_int(const std::string& x, ScalarType t);

// The text of `x` (computed as `from`) converted to `to`, with the eager
// conversion rules (codegen_interp's convert()).
std::string convert(const std::string& x, ScalarType from, ScalarType to);

std::string float_literal(double v, ScalarType t);
std::string int_literal(int64_t v);

// C math function names for float and double operands.
const char* math_fn(ir::ScalarOp op, bool f32);

const char* reduce_code(ir::ReduceOp op);

}  // namespace lz::codegen_cuda::detail
