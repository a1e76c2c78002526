// The canonicalisation passes materialisation runs before fusion. Each is
// exact: a rewritten program computes bit-identical results for every
// input, every runtime scalar that is not special (ir::is_special_scalar)
// and every size the same graph hash admits. Sizes are never read to
// decide a rewrite (they are not hashed: an executable is reused across
// sizes); ranks, dtypes, attributes and special scalars are.
//
//   dce       drops nodes no output needs (Random ones too: their generator
//             slot was reserved at trace time).
//   cse       merges nodes with the same operator, attributes, operands and
//             runtime scalar/generator pool indices; never Random nodes,
//             nodes with a generator, or mutating ones.
//   simplify  algebraic identities exact in IEEE arithmetic: neg(neg(x)),
//             x*1, x/1, x-0, x+0 (integral only), widening cast chains.
//   views     transpose/t -> permute, permute chains, identity permutes,
//             view/reshape chains, expand chains, unsqueeze+squeeze.
//   fold      a pointwise mul/div/add/sub with a constant operand (zeros,
//             ones, full with a special fill) that provably changes nothing.
//
// Each pass's file (canonicalize_<name>.cpp) lists exactly what it rewrites
// and what it leaves alone, and why.
#pragma once

#include <memory>

#include "passes/pass_manager.h"

namespace lz::passes {

std::unique_ptr<Pass> make_dce_pass();
std::unique_ptr<Pass> make_cse_pass();
std::unique_ptr<Pass> make_simplify_pass();
std::unique_ptr<Pass> make_views_pass();
std::unique_ptr<Pass> make_fold_pass();

}  // namespace lz::passes
