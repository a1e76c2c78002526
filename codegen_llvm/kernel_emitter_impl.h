// The class behind emit_kernel (kernel_emitter.h), shared by the files that
// define its members: kernel_emitter.cpp (setup, functions, loops and
// segments), kernel_emitter_exprs.cpp (loads, stores, expression
// evaluation) and kernel_emitter_stages.cpp (stage loops, reductions,
// prefetching, the entry points' bodies). One emitter's state is shared by
// all of them, so the class is declared once here. Internal to
// codegen_llvm (includes LLVM headers).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/kernel_emitter.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm::detail {

using ir::ExprId;
using ir::ScalarOp;
using llvm::Value;

class Emitter {
 public:
  Emitter(const ir::Kernel& k, const VariantSpec& spec, llvm::Module& m);

  void emit(const std::string& prefix);

 private:
  using Ptrs = std::vector<Value*>;

  // ---- Functions and loops (kernel_emitter.cpp) ----------------------------
  void emit_function(const std::string& name, std::vector<llvm::Type*> extra,
                     const std::function<void(llvm::Function*)>& body);
  Value* field(Value* args, unsigned i, llvm::Type* ty);
  void load_args(Value* args);
  Value* stride(uint32_t access, Value* axis);
  Value* size(Value* axis);
  Value* entry_alloca(llvm::Type* ty);
  void emit_while(Value* begin, Value* end, const std::function<Value*(Value*)>& body);
  void emit_for(Value* begin, Value* end, Value* step, const std::function<void(Value*)>& body);
  void emit_masked(Value* j, Value* count, const std::function<void(ValueOps&, Value*)>& body);
  Ptrs axis_offsets(Value* linear, Value* first, Value* last, const Ptrs& extra);
  void for_segments(Value* begin, Value* end, Value* first, const Ptrs& extra,
                    const std::function<void(const Ptrs&, Value*, Value*)>& body);

  // ---- Expressions (kernel_emitter_exprs.cpp) ------------------------------
  ScalarType buffer_dtype(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].dtype; }
  bool is_output(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].output; }
  bool is_gathered(uint32_t access) const { return k_.accesses[access].gathered(); }

  Value* load(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j);
  Value* element(const Ptrs& ptrs, uint32_t a, Value* j);
  Value* gather(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j, Value* index);
  Value* lane_pointers(const Ptrs& ptrs, uint32_t a, Value* j, unsigned w);
  void store(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j, Value* v, bool aligned = false);

  // Evaluates expressions at one point (or one vector of points). Loads of
  // outputs are not remembered: an earlier stage of the same loop may have
  // stored them since.
  struct Eval {
    Emitter& em;
    ValueOps& ops;
    const Ptrs& ptrs;
    Value* j;
    std::vector<Value*> memo;
    Eval(Emitter& e, ValueOps& o, const Ptrs& p, Value* at);

    Eval& scalar();
    std::unique_ptr<ValueOps> scalar_ops;
    std::unique_ptr<Eval> scalar_eval;

    Value* get(ExprId id);
    Value* compute(ExprId id);
  };

  bool is_uniform(ExprId id);
  Value* scratch_access(ValueOps& ops, int32_t slot, ExprId id, Value* j, Value* value);

  // ---- Stage loops (kernel_emitter_stages.cpp) -----------------------------
  struct Hoist;  // loads the segment's broadcast inputs once (kernel_emitter_stages.cpp)

  void store_segment(const std::vector<uint32_t>& stores, const Ptrs& ptrs, Value* n);
  int64_t streamed_access(const std::vector<uint32_t>& stores) const;
  llvm::Type* outer_acc_type(const ir::Reduction& r);
  ScalarType outer_acc_dtype(const ir::Reduction& r);
  void reduce_segment(const std::vector<uint32_t>& reds, const Ptrs& ptrs, Value* n, const Ptrs& accs);
  void prefetch_next_row(const Ptrs& ptrs, Value* j);
  Value* rows_ahead(uint32_t a);
  void prefetch_ahead(const Ptrs& ptrs, Value* j);
  Ptrs start_accumulators(const std::vector<uint32_t>& reds);
  void finish_accumulators(const std::vector<uint32_t>& reds, const Ptrs& accs);
  void reduced_stores(const std::vector<uint32_t>& stores, const Ptrs& outer);
  void emit_pointwise_run(Value* begin, Value* end);
  size_t prefetching_group(const std::vector<StageGroup>& groups) const;
  void emit_reduction_run(Value* begin, Value* end);
  std::vector<uint32_t> all_reductions() const;
  void emit_partial(Value* o, Value* inner_begin, Value* inner_end, Value* out);
  void emit_finish(Value* o, Value* in);

  // ---- Tiled pointwise kernels (kernel_emitter_tiles.cpp) -----------------
  void emit_tiled_run(Value* begin, Value* end);

  // ---- Column reductions (kernel_emitter_columns.cpp) ----------------------
  struct ColumnArrays;
  ColumnArrays column_arrays(const std::vector<uint32_t>& reds, bool widened, int64_t band);
  Value* column_slot(const ColumnArrays& a, uint32_t r, bool vector, Value* index);
  void each_column(Value* count, const std::function<void(ValueOps&, Value*, Value*, bool)>& body);
  void emit_column_run(Value* begin, Value* end);
  void column_band(const std::vector<StageGroup>& groups, const Ptrs& offsets, Value* count, int64_t band);

  const ir::Kernel& k_;
  const VariantSpec& spec_;
  llvm::Module& m_;
  llvm::LLVMContext& c_;
  llvm::IRBuilder<> b_;
  llvm::Type* i64_ = nullptr;
  llvm::StructType* args_ty_ = nullptr;
  llvm::StructType* slot_ty_ = nullptr;
  unsigned width_ = 16;
  // Per function being emitted.
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  Value *num_outer_ = nullptr, *num_inner_ = nullptr, *rank_ = nullptr, *sizes_ = nullptr, *strides_ = nullptr,
        *inner_count_ = nullptr;
  Ptrs base_;
  Ptrs seg_stride_;   // per access: the stride along the axis vectors run along (the last; columns: last outer)
  Ptrs walk_stride_;  // per access: the stride along the last axis (for_segments' segments)
  Ptrs hoisted_;                 // per access: its value for the current segment, when loaded once
  StageCache cache_;             // cache_stages variants: the values kept between groups
  std::vector<uint8_t> uniform_; // per expression: is_uniform (computed on first use)
  Ptrs next_row_;                // run of a reduction: per access, the stride to the next outer point
  bool prefetch_rows_ = false;  // set while emitting the group that prefetches the next row
  bool prefetch_ahead_ = false;  // set while emitting a streaming loop (prefetch_ahead)
  Ptrs scratch_;                 // per slot: its scratch row
  int32_t group_ = -1;           // the stage group whose inner loops are being emitted (run of a reduction), else -1
  Value* seg_first_ = nullptr;   // the inner index of the current segment's first point
  std::vector<Value*> leaf_;     // per expression: Param / ReduceCount values (scalars)
  // Per Param expression of a kernel with many of them: a stack slot
  // holding its value, reloaded at each vector use (see load_args).
  std::vector<Value*> leaf_slot_;
  std::vector<Value*> reduced_;  // per reduction: its value at the current outer point
  Ptrs gather_stride_, gather_extent_;  // per gathered access: its gathered axis (else null)
  Value* fault_ = nullptr;              // KernelArgs::fault, when the kernel gathers
  Value* mask_ = nullptr;  // inside emit_masked: the vector's live lanes (loads and stores of the others do nothing)
};

}  // namespace lz::codegen_llvm::detail
