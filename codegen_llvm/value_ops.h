// The kernel IR's scalar operations as LLVM IR, at one vector width (1 =
// scalar IR): each function mirrors the reference interpreter's semantics
// (codegen_interp/scalar_semantics.h) so compiled and interpreted kernels
// agree. Values carry their *compute* type: i1 for bool, i8/i32/i64 for
// integers (uint8 is unsigned), float for float32 and the 16-bit floats
// (a float16/bfloat16 value is a float already rounded to that precision),
// double for float64. Internal to codegen_llvm (includes LLVM headers).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/vector_math.h"
#include "core/scalar_type.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_llvm {

// Thrown while emitting a kernel the code generator does not support (the
// executor then runs the group through eager kernels and says why).
struct UnsupportedKernel {
  std::string reason;
};

llvm::Type* compute_type(llvm::LLVMContext& c, ScalarType t);  // scalar
llvm::Type* memory_type(llvm::LLVMContext& c, ScalarType t);   // scalar element in memory

class ValueOps {
 public:
  ValueOps(llvm::IRBuilder<>& b, unsigned width, MathMode mode) : b_(b), width_(width), mode_(mode) {}

  unsigned width() const { return width_; }
  llvm::IRBuilder<>& builder() { return b_; }
  llvm::Type* type(ScalarType t) const;  // compute type at this width
  llvm::Value* splat(llvm::Value* scalar) const;
  llvm::Value* constant(const ir::Expr& e) const;
  llvm::Value* constant_of(double value, ScalarType t) const;

  // Loaded memory elements (memory type at this width) -> compute values, and back.
  llvm::Value* from_memory(llvm::Value* v, ScalarType t) const;
  llvm::Value* to_memory(llvm::Value* v, ScalarType t) const;
  // The eager conversion between dtypes (bool is != 0, NaN is true; float ->
  // integer truncates, out-of-range and NaN give the x86 "indefinite" value).
  llvm::Value* convert(llvm::Value* v, ScalarType from, ScalarType to) const;
  llvm::Value* truth(llvm::Value* v, ScalarType t) const;  // != 0 as i1

  llvm::Value* unary(ir::ScalarOp op, llvm::Value* x, ScalarType operand, ScalarType result) const;
  llvm::Value* binary(ir::ScalarOp op, llvm::Value* a, llvm::Value* b, ScalarType operand, ScalarType result) const;

  // a / b for a divisor that does not change inside the loop (its
  // reciprocal is hoisted): a * (1/b) refined by one FMA correction step
  // (Markstein), the correctly rounded quotient for normal operands, with
  // the divisor rescaled when 1/b would overflow or lose bits, and infinite
  // and zero divisors giving IEEE's results. A division costs ~5 ns per 16
  // lanes here, the multiply and two FMAs a few cycles.
  llvm::Value* div_by_invariant(llvm::Value* a, llvm::Value* b, ScalarType result) const;

  // Reductions: identity and combine of the accumulator dtype, and the
  // deterministic tree reduction of a vector accumulator to a scalar.
  llvm::Value* identity(ir::ReduceOp op, ScalarType t) const;
  llvm::Value* combine(ir::ReduceOp op, llvm::Value* acc, llvm::Value* v, ScalarType t) const;
  llvm::Value* horizontal(ir::ReduceOp op, llvm::Value* vec, ScalarType t) const;

 private:
  llvm::Value* round_to(llvm::Value* v, ScalarType t) const;  // float -> float16/bfloat16 precision
  llvm::Value* float_unary(ir::ScalarOp op, llvm::Value* x) const;
  llvm::Value* int_unary(ir::ScalarOp op, llvm::Value* x, ScalarType t) const;
  llvm::Value* float_binary(ir::ScalarOp op, llvm::Value* a, llvm::Value* b) const;
  llvm::Value* int_binary(ir::ScalarOp op, llvm::Value* a, llvm::Value* b, ScalarType t) const;
  llvm::Value* quotient(llvm::Value* a, llvm::Value* d, ScalarType t, bool floor) const;
  llvm::Value* compare(ir::ScalarOp op, llvm::Value* a, llvm::Value* b, ScalarType t) const;
  llvm::Value* float_to_int(llvm::Value* v, ScalarType to) const;
  llvm::Value* fconst(llvm::Type* like, double value) const;
  llvm::Value* iconst(llvm::Type* like, uint64_t value) const;

  llvm::IRBuilder<>& b_;
  unsigned width_;
  MathMode mode_;
};

}  // namespace lz::codegen_llvm
