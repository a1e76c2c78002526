// How the lazy layer takes eager tensors' values and gives values back as
// if it copied them, without copying (core/storage.h, Note [Snapshots]):
// - an eager tensor made lazy (to_lazy()) or used by a lazy operator is
//   held through a snapshot: the user may go on writing it, and the lazy
//   value keeps what it had when it was taken, as eagerly;
// - the tensor to_eager() returns is the caller's to write, laid out as
//   clone() would lay it out: the value's memory moves to it and the lazy
//   side keeps a snapshot (a copy only where clone() would make one
//   contiguous, or the memory is shared).
#pragma once

#include "core/tensor.h"

namespace lz::lazy {

// A tensor with `eager`'s geometry and dtype over a snapshot of its storage.
Tensor snapshot_of_eager(const Tensor& eager);

// A tensor with `data`'s value and clone()'s layout that the caller may
// write without changing `data`: `data`'s memory, which `data` then reads as
// a snapshot, or a copy when the layout is not dense or the memory is not
// `data`'s alone.
Tensor hand_out(const Tensor& data);

}  // namespace lz::lazy
