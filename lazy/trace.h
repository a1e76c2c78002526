// Trace: one thread's recording. It owns the graph being built, the tensors
// and generators bound to its inputs and generator slots, and the registry of live lazy tensors that
// may hold its values. Materialising a trace computes every value a live
// tensor still needs in one executable, stores the results in the tensors
// and clears the graph, so nodes no live tensor can reach are freed at the
// latest at the next materialisation, and the arenas are reused.
//
// Each thread records into its own trace (Trace::current()). Tensors may be
// destroyed or read on other threads, so a trace's state is guarded by its
// (recursive: recording re-enters the dispatcher) mutex, see trace_mutex.h.
#pragma once

#include <exception>
#include <mutex>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/lazy_hooks.h"
#include "ir/graph.h"
#include "lazy/graph_data.h"
#include "lazy/lazy_tensor_impl.h"
#include "lazy/trace_mutex.h"

namespace lz::lazy {

class Trace final : public RefCounted {
 public:
  // This thread's trace.
  static Trace& current();

  TraceMutex& mutex() { return mutex_; }
  ir::Graph& graph() { return graph_; }
  uint64_t epoch() const { return epoch_; }

  // A pending value of this trace.
  LazyValue pending(ir::ValueId id) {
    LazyValue v;
    v.trace = intrusive_ptr<Trace>(this);
    v.epoch = epoch_;
    v.id = id;
    return v;
  }

  // The graph value standing for a value the lazy layer holds (the data of
  // a materialised lazy tensor): one input per distinct tensor.
  ir::ValueId input_for(const Tensor& data);
  // The graph value standing for a user's eager tensor as it is now: its
  // value is taken as a snapshot (lazy/eager_values.h), again after each
  // in-place write, so later writes do not reach the graph.
  ir::ValueId input_for_eager(const Tensor& eager);

  // A generator slot (argument, or a node's implicit one) bound to `g`, a
  // snapshot taken in eager order.
  ir::Arg generator_arg(Generator g) {
    data_.generators.push_back(std::move(g));
    return graph_.generator_arg();
  }
  uint32_t add_generator(Generator g) {
    data_.generators.push_back(std::move(g));
    return graph_.add_generator();
  }

  // Registry of live lazy tensors that may hold values of this trace.
  void register_tensor(LazyTensorImpl& t);
  void unregister_tensor(LazyTensorImpl& t);
  size_t num_registered() const { return registry_.size(); }

  // The values of the graph that live tensors still need, ascending.
  std::vector<ir::ValueId> needed_values();

  // Runs everything the live tensors need and clears the graph. A no-op
  // when nothing is pending. Values whose computation raised keep the error
  // (rethrown when they are read); the others are computed regardless.
  // Returns the first output's error, or null.
  // With `requested` (the values the caller reads: pending values of this
  // trace), live values those read on the way that are cheap to compute
  // again are not stored but keep their cones (lazy/carry_over.h).
  std::exception_ptr materialize(SyncCause cause, std::span<const ir::ValueId> requested = {});

  // Makes the value a materialisation left pending in `t` (a base without
  // views holding cones) pending in this trace again, its cone copied in.
  void take_back(LazyTensorImpl& t);

 private:
  friend class Materializer;
  ir::ValueId add_input(Tensor data);
  TraceMutex mutex_;
  ir::Graph graph_;
  GraphData data_;
  uint64_t epoch_ = 1;
  // Graph inputs by the tensor they stand for. An eager tensor's entry
  // keeps it alive (so its address names it until the graph is cleared) and
  // notes its version at capture.
  struct Capture {
    ir::ValueId value = ir::kNone;
    uint64_t version = 0;
    Tensor eager;
  };
  absl::flat_hash_map<const TensorImpl*, Capture> inputs_;
  std::vector<LazyTensorImpl*> registry_;
  // Held while registry_ is not empty: a registered tensor may outlive the
  // thread that owns this trace, and the tensor holds a plain pointer.
  intrusive_ptr<Trace> self_while_registered_;
  bool materializing_ = false;
  // Nodes of graph_ copied from pending cones (take_back): values computed
  // from them are stored, so a cone is recomputed once, not again and again.
  absl::flat_hash_set<ir::NodeId> taken_back_;
  // The live values `requested` reads on the way that may stay pending.
  std::vector<ir::ValueId> values_to_leave_pending(std::span<const ir::ValueId> requested);
};

// Records into a fresh trace while it lives (what the thread had pending
// stays pending, untouched): an eager CUDA operator runs as a graph of its
// own without materialising the caller's lazy work.
class ScopedTrace {
 public:
  ScopedTrace();
  ~ScopedTrace();
  ScopedTrace(const ScopedTrace&) = delete;
  ScopedTrace& operator=(const ScopedTrace&) = delete;

 private:
  intrusive_ptr<Trace> trace_;
  Trace* previous_;
};

}  // namespace lz::lazy
