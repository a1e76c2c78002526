// The generator behind generate_cuda_source (cuda_source.h), shared by the
// files that define its members: cuda_source.cpp (the translation unit,
// index arithmetic, the pointwise and row kernels) and cuda_source_exprs.cpp
// (expressions, loads and stores). One generator's state is shared by both,
// so the class is declared once here. Internal to codegen_cuda.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "codegen_cuda/cuda_source.h"
#include "codegen_cuda/kernel_args.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_cuda::detail {

using ir::ExprId;
using ir::ScalarOp;

class Generator {
 public:
  explicit Generator(const ir::Kernel& k) : k_(k), layout_(args_layout(k)) {}
  // Elements per thread in the vectorized dense path (16 bytes of float32;
  // the prelude's lz_vec holds this many).
  static constexpr int kVectorLanes = 4;

  CudaSource run();

 private:
  // ---- Index arithmetic (cuda_source.cpp) ----------------------------------
  std::string stride(uint32_t access, uint32_t axis) const;
  static std::string size(uint32_t axis);
  std::vector<uint32_t> axes(bool reduced) const;
  void decompose(std::ostream& o, const std::string& indent, const std::string& flat,
                 const std::vector<uint32_t>& dims, const std::vector<bool>& accesses, const std::string& off,
                 const std::string& init) const;
  std::vector<bool> accesses_of(const std::vector<bool>& used, int64_t store_access) const;

  // ---- Expressions (cuda_source_exprs.cpp) ---------------------------------
  void need(ExprId e, std::vector<bool>& used) const;
  void emit_exprs(std::ostream& o, const std::string& indent, const std::vector<bool>& used, const std::string& off);
  std::string operand(const ir::Expr& x, int i) const;
  ScalarType operand_type(const ir::Expr& x, int i) const;
  std::string expr(ExprId id, const std::string& off) const;
  static const char* compare_op(ScalarOp op);
  std::string truth(const ir::Expr& x, int i) const;
  std::string unary_float(const ir::Expr& x, bool f32) const;
  std::string unary_int(const ir::Expr& x, ScalarType t) const;
  std::string binary_float(const ir::Expr& x, bool f32) const;
  std::string binary_int(const ir::Expr& x, ScalarType t) const;

  // ---- Memory (cuda_source_exprs.cpp) --------------------------------------
  ScalarType buffer_dtype(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].dtype; }
  std::string element(uint32_t access, const std::string& off, bool write) const;
  std::string vector_type(uint32_t access) const;
  std::string load(uint32_t access, ScalarType t, const std::string& off) const;
  void store(std::ostream& o, const std::string& indent, const ir::Store& s, const std::string& off) const;

  // ---- Kernels (cuda_source.cpp) -------------------------------------------
  std::string flat_count(const std::vector<uint32_t>& dims) const;
  void emit_dense_check(std::ostream& o, const std::vector<bool>& accesses) const;
  void emit_dense_point(std::ostream& o, const std::string& indent, const std::vector<bool>& used,
                        const std::vector<bool>& accesses);
  void emit_vector_path(std::ostream& o, const std::vector<bool>& used, const std::vector<bool>& loaded,
                        const std::vector<bool>& accesses);
  void emit_pointwise_kernel(std::ostream& o);
  void emit_row_kernel(std::ostream& o);
  void emit_reduce_stage(std::ostream& o, uint32_t r, const std::vector<uint32_t>& inner);
  std::string identity(const ir::Reduction& red, ScalarType acc_t) const;
  void emit_store_stage(std::ostream& o, const ir::Store& s, const std::vector<uint32_t>& inner);

  const ir::Kernel& k_;
  ArgsLayout layout_;
  bool row_ = false;
  std::string lane_;  // non-empty while emitting the lanes of the vectorized path
};

}  // namespace lz::codegen_cuda::detail
