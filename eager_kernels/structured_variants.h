// Structured operators whose in-place or out= variants PyTorch names
// differently from what Library::def_structured derives (it appends "_" to
// the name and turns overload "X" into "X_out", "Tensor" into "out"):
//   pow.Tensor_Scalar -> pow_.Scalar, pow.Tensor_Scalar_out
//   remainder.Tensor  -> remainder_.Tensor, remainder.Tensor_out
//   div.Tensor_mode   -> div_.Tensor_mode, div.out_mode
// def_structured_named registers the three schemas as written, each with the
// meta function and the kernel generated from meta + impl, and links them as
// variants of the functional operator (as def_structured does).
#pragma once

#include <string>
#include <string_view>

#include "core/op_registration.h"

namespace lz {

template <auto Meta, auto Impl>
void def_structured_named(Library& lib, TagSet tags, std::string_view functional,
                          std::string_view inplace, std::string_view out) {
  using S = detail::Structured<Meta, Impl>;
  OpBuilder f = lib.def(functional);
  f.tags(tags).meta(Meta).kernel(DispatchKey::CPU, &S::functional);
  std::optional<OperatorHandle> inplace_handle, out_handle;
  if (!inplace.empty()) {
    OpBuilder b = lib.def(inplace);
    b.tags(tags.add(Tag::Inplace)).meta(Meta).kernel(DispatchKey::CPU, &S::inplace);
    S::inplace_name = b.handle().name();
    inplace_handle = b.handle();
  }
  if (!out.empty()) {
    OpBuilder b = lib.def(out);
    b.tags(tags.add(Tag::Out)).meta(Meta).kernel(DispatchKey::CPU, &S::out);
    S::out_name = b.handle().name();
    out_handle = b.handle();
  }
  Dispatcher::singleton().link_variants(f.handle(), inplace_handle, out_handle);
}

}  // namespace lz
