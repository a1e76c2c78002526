// Kernel IR names (ir/kernel_ir.h); the verifier and the printer are in
// kernel_verifier.cpp and kernel_printer.cpp.
#include "ir/kernel_ir.h"

namespace lz::ir {

std::string_view to_string(ViewStep::Kind kind) {
  switch (kind) {
    case ViewStep::Kind::Permute: return "permute";
    case ViewStep::Kind::Expand: return "expand";
    case ViewStep::Kind::ExpandTo: return "expand_to";
    case ViewStep::Kind::Reshape: return "reshape";
    case ViewStep::Kind::Slice: return "slice";
    case ViewStep::Kind::Select: return "select";
    case ViewStep::Kind::Unsqueeze: return "unsqueeze";
    case ViewStep::Kind::Squeeze: return "squeeze";
    case ViewStep::Kind::AsStrided: return "as_strided";
    case ViewStep::Kind::Chunk: return "chunk";
    case ViewStep::Kind::Gathered: return "gathered";
    case ViewStep::Kind::NarrowTo: return "narrow_to";
    case ViewStep::Kind::Placed: return "placed";
  }
  return "?";
}

std::string_view to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Max: return "max";
    case ReduceOp::Min: return "min";
    case ReduceOp::All: return "all";
    case ReduceOp::Any: return "any";
  }
  return "?";
}

}  // namespace lz::ir
