// The loop-level kernel IR: what one fusion group computes, in terms both
// code generators (and the reference interpreter) consume without looking
// at the tensor-level graph.
//
// A kernel iterates a *domain*: a shape of `rank` axes, some of them
// reduction axes (the bit mask `reduce_axes`). Its extents are not in the
// IR: they are bound at run time (kernels are shape-generic), as are the
// data pointers, offsets and strides of every access.
//
//   kernel softmax_row  domain rank 2, reduce {1}
//     access a0 = in0 (f32, rank 2)
//     access a1 = out0 (f32, rank 2)
//     e0 : f32 = load a0
//     r0 : f32 = max(e0)                  (identity -inf)
//     e1 : f32 = reduced r0
//     e2 : f32 = sub e0, e1
//     e3 : f32 = exp e2
//     r1 : f32 = sum(e3)                  (identity 0)
//     e4 : f32 = reduced r1
//     e5 : f32 = div e3, e4
//     stage reduce r0; reduce r1; store a1 <- e5
//
// Semantics (the reference interpreter implements exactly this):
//   for every outer point o (the non-reduction axes), in any order/parallel:
//     for every stage, in order:
//       reduce r : acc = identity; for every inner point i (the reduction
//                  axes): acc = combine(acc, value of r.input at (o, i));
//                  the value of `reduced r` is acc for the rest of o
//       store s  : if s.reduced, write s.value at (o) (the value must not
//                  depend on the inner point; the access is aligned to the
//                  domain with extent 1 on the reduction axes), else write
//                  s.value at every (o, i)
// A kernel with no reduction axes has exactly one inner point.
//
// Accesses (loads and stores) name a kernel buffer and a chain of view
// steps taking that buffer's tensor to a tensor *aligned to the domain*:
// same rank, each axis either the domain's extent or 1 (broadcast, read at
// stride 0). The runtime resolves a chain to (offset, strides) with the
// eager view rules, so transposes, slices, expands and reshapes of
// contiguous data are index arithmetic, never a copy. A chain the strides
// of the bound tensor cannot express (a reshape of a transposed input) is
// resolved by the runtime through a contiguous copy; it stays correct.
//
// Scalar expressions form a DAG in definition order (operands have smaller
// ids). Every expression has a dtype; operations compute in their dtype with
// the eager operators' semantics (maximum propagates NaN, remainder takes
// the divisor's sign, integer division by zero is an error in eager and
// yields 0 here). Half types never appear as compute dtypes: lowering loads
// f16/bf16 into f32 and casts back at the store; a Cast to f16/bf16 (a
// conversion in the program) rounds, and only a Cast reads its result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/scalar_type.h"
#include "ir/scalar_op.h"

namespace lz::ir {

using ExprId = uint32_t;

struct Expr {
  ScalarOp op = ScalarOp::Constant;
  ScalarType dtype = ScalarType::Float;
  ExprId operands[3] = {0, 0, 0};
  uint32_t index = 0;  // Load, Gather: access; Param: parameter; Reduced: reduction; InPiece: piece
  double constant = 0; // Constant of a floating dtype
  int64_t iconstant = 0;  // Constant of an integral or bool dtype
};

// One view step of an access chain, applied with the eager view operator
// of the same name (ints are its attributes, in schema order).
struct ViewStep {
  enum class Kind : uint8_t {
    Permute,      // ints = dims
    Expand,       // ints = sizes (may hold -1)
    ExpandTo,     // expand to the sizes of shape reference ints[0] (right-aligned)
    Reshape,      // ints = sizes (may hold one -1)
    Slice,        // ints = dim, start, end, step (start/end as given; kNoBound = None)
    Select,       // ints = dim, index
    Unsqueeze,    // ints = dim
    Squeeze,      // ints = dims (empty: all size-1 dims)
    AsStrided,    // ints = n, sizes[n], strides[n], offset (offset from the contiguous base)
    Chunk,        // ints = dim, count, index: the index-th of count equal parts along dim
                  // (where a concatenation stores an operand; the size decides the part's bounds)
    Gathered,     // ints = dim: the dim a Gather's index walks becomes size 1, stride 0 (the
                  // launch keeps its extent and stride for the Gather); later steps see the rest
    NarrowTo,     // ints = shape ref: each dim longer than the ref's keeps its first elements
                  // (gather reads self's leading part where its index is smaller)
    Placed,       // ints = piece: the tensor is Kernel::pieces[piece] of the domain (its
                  // axis starts at the piece's start); trailing steps only, one per axis
  };
  static constexpr int64_t kNoBound = INT64_MIN;
  Kind kind = Kind::Permute;
  std::vector<int64_t> ints;
  bool operator==(const ViewStep&) const = default;
};
std::string_view to_string(ViewStep::Kind kind);
// A compact text identifying a chain of view steps (for hashing).
std::string key_of(const std::vector<ViewStep>& views);

// A tensor the kernel reads or writes, bound at run time.
struct KernelBuffer {
  ScalarType dtype = ScalarType::Float;
  uint32_t rank = 0;    // of the bound tensor, before any view step
  bool output = false;  // written by the kernel (a new contiguous tensor)
};

// A gathered access has one Gathered step: it is read only by Gather
// expressions, which add index * (the gathered dim's stride) to the point's
// address after checking the index against the dim's extent (an index
// outside [0, extent) is an error the launch reports after the kernel, as
// eager's kernels do).
struct Access {
  uint32_t buffer = 0;
  std::vector<ViewStep> views;  // buffer tensor -> tensor aligned to the domain
  bool gathered() const;
  bool operator==(const Access&) const = default;
};

// A piece of the domain along one axis: [start, start + size), where start
// is `offset` plus the sizes along `axis` of shape refs `after` and size is
// shape ref `size_ref`'s size along `axis` (a part of a concatenation of
// unequal parts, the input inside a padding). Clipped to the domain; an
// access Placed in it is read only at its points (the launch runs the
// domain in boxes along the pieces' bounds, each box wholly inside or
// outside each piece: InPiece is constant over a box).
struct Piece {
  uint32_t axis = 0;
  int64_t offset = 0;
  std::vector<uint32_t> after;
  uint32_t size_ref = 0;
  bool operator==(const Piece&) const = default;
};

enum class ReduceOp : uint8_t { Sum, Prod, Max, Min, All, Any };
std::string_view to_string(ReduceOp op);

struct Reduction {
  ReduceOp op = ReduceOp::Sum;
  ExprId input = 0;
  ScalarType dtype = ScalarType::Float;  // accumulator and result dtype
};

struct Store {
  uint32_t access = 0;
  ExprId value = 0;
  bool reduced = false;  // one value per outer point
};

struct Stage {
  enum class Kind : uint8_t { Reduce, Store };
  Kind kind = Kind::Store;
  uint32_t index = 0;  // reduction or store
};

struct Kernel {
  std::string name;             // for dumps and profiles: "fused_exp_add_sum"
  uint32_t rank = 0;            // domain rank
  uint64_t reduce_axes = 0;     // bit d: axis d is a reduction axis
  // The runtime binds the domain's extents to the sizes of shape reference
  // `domain_shape`; shape references are runtime shapes the kernel refers
  // to by number (the executor knows which tensor each stands for).
  uint32_t domain_shape = 0;
  uint32_t num_shape_refs = 0;
  uint32_t num_params = 0;
  std::vector<KernelBuffer> buffers;
  std::vector<Access> accesses;
  std::vector<Piece> pieces;
  std::vector<Expr> exprs;
  std::vector<Reduction> reductions;
  std::vector<Store> stores;
  std::vector<Stage> stages;

  bool is_reduction() const { return reduce_axes != 0; }
};

// ---- Building ---------------------------------------------------------------
// Appends expressions, deduplicating identical ones (same op, dtype,
// operands, payload), so lowering several consumers of one value yields one
// expression. Deduplication is hashed: building stays linear in the size of
// the kernel.
class KernelBuilder {
 public:
  explicit KernelBuilder(Kernel* k) : k_(k) {}
  ExprId load(uint32_t access, ScalarType dtype);
  ExprId constant(double value, ScalarType dtype);
  ExprId param(uint32_t index, ScalarType dtype);
  ExprId reduce_count(ScalarType dtype);
  ExprId reduced(uint32_t reduction);
  ExprId in_piece(uint32_t piece);
  uint32_t add_piece(Piece p);  // deduplicated
  ExprId gather(uint32_t access, ExprId index, ScalarType dtype);
  ExprId unary(ScalarOp op, ExprId a, ScalarType dtype);
  ExprId cast(ExprId a, ScalarType dtype);  // a itself when already of dtype
  ExprId binary(ScalarOp op, ExprId a, ExprId b, ScalarType dtype);
  ExprId select(ExprId cond, ExprId a, ExprId b, ScalarType dtype);
  uint32_t add_buffer(ScalarType dtype, uint32_t rank, bool output);
  uint32_t add_access(Access a);  // deduplicated
  uint32_t add_reduction(ReduceOp op, ExprId input, ScalarType dtype);  // appends its stage
  uint32_t add_store(uint32_t access, ExprId value, bool reduced);      // appends its stage
  ScalarType dtype_of(ExprId e) const { return k_->exprs[e].dtype; }

 private:
  ExprId add(const Expr& e);
  Kernel* k_;
  absl::flat_hash_map<std::string, ExprId> exprs_;     // bytes of an Expr -> its id
  absl::flat_hash_map<std::string, uint32_t> accesses_;  // printed access -> its id
};

// ---- Checking and printing ----------------------------------------------------
// Empty when well formed, else what is wrong, one problem per line ("e3:
// operand e7 is defined later"); checks ids, arities, dtypes (comparison
// and logical results b8, select conditions b8, arithmetic operands of the
// result's dtype, no f16/bf16 compute dtypes, floating-only ops on floats),
// view step attributes, that every reduction and store is in exactly one
// stage, that a stage uses `reduced r` only after r's stage, that outputs
// are only stored (and loaded only through an access an earlier stage
// stored)... as far as the IR alone can tell: whether a reduced store's
// loads vary along the reduction axes depends on the bound strides.
std::string verify_kernel(const Kernel& k);

// The text form shown above (stable, for golden tests and dumps). Buffers
// are named in0.. / out0.. (inputs and outputs numbered separately, in
// buffer order); an access's view steps follow its buffer
// ("access a0 = in0 (f16, rank 2): unsqueeze(0), expand_to(s1)"); a
// reduction prints right after the expression it reduces; a reduced store
// prints as "store.reduced a1 <- e4". A line "shapes N (domain sK), params P"
// follows the header when any of those is non-zero, and buffers no access
// names print as "buffer in1 (b8, rank 1) unused". Constants print in the
// shortest text that reads back bit-exactly. Never throws.
std::string print_kernel(const Kernel& k);

}  // namespace lz::ir
