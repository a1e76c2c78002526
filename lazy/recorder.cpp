#include "lazy/recorder.h"

#include <memory>

#include "core/error.h"
#include "lazy/functionalize.h"

namespace lz::lazy {

void check_has_value(const LazyValue& v, const LazyTensorImpl& owner) {
  if (v.failed()) std::rethrow_exception(v.error);
  LZ_INTERNAL_ASSERT(v.data.defined() || (v.pending() && v.epoch == v.trace->epoch()),
                     "a live lazy tensor (shape ", shape_str(owner.sizes()), ", ", owner.dtype(), ") lost its ",
                     v.pending() ? "pending value %" + std::to_string(v.id) : std::string("value"),
                     ": its trace was run without computing it");
}

ir::ValueId resolve(Trace& tr, LazyValue& v, const LazyTensorImpl& owner) {
  if (v.pending() && v.trace.get() != &tr) {
    // Another thread's trace: run it, then use the value as an input here.
    intrusive_ptr<Trace> other = v.trace;
    (void)other->materialize(SyncCause::CrossThread);
  }
  check_has_value(v, owner);
  if (v.pending()) return v.id;
  return tr.input_for(v.data);
}

ir::ValueId value_in(Trace& tr, const Tensor& t) {
  LazyTensorImpl* l = lazy_impl(t);
  if (l == nullptr) return tr.input_for_eager(t);
  if (l->own_value().cones) tr.take_back(*l);  // left pending by the last materialisation
  if (!l->is_current()) refresh_view(tr, *l);
  return resolve(tr, l->own_value(), *l);
}

namespace {

// Scratch space reused by every recording on this thread.
struct Scratch {
  std::vector<ir::Arg> args;
  std::vector<ir::ValueId> operands;
  std::vector<int64_t> ints;
};

Generator snapshot(const Generator& g) { return Generator(g.impl()->snapshot_and_advance()); }

// Writes the argument into `a` (a default Arg: None) in place.
void attribute(ir::Graph& g, const SchemaType& type, const IValue& v, Scratch& s, ir::Arg& a) {
  if (v.is_none()) return;
  if (type.is_list) {
    switch (type.base) {
      case BaseType::Int: a = g.int_list_arg(v.to_int_list()); return;
      case BaseType::Float: a = g.double_list_arg(v.to_double_list()); return;
      case BaseType::Bool: {
        s.ints.clear();
        for (bool b : v.to_bool_list()) s.ints.push_back(b ? 1 : 0);
        a = g.int_list_arg(s.ints, ir::ArgKind::BoolList);
        return;
      }
      default: break;
    }
    LZ_FAIL(NotImplementedError, "[lazy] cannot record a list of ", to_string(type.base));
  }
  switch (type.base) {
    case BaseType::Scalar: a = g.scalar_arg(v.to_scalar()); return;
    case BaseType::Int: a.kind = ir::ArgKind::Int; a.i = v.to_int(); return;
    case BaseType::Float: a.kind = ir::ArgKind::Double; a.d = v.to_double(); return;
    case BaseType::Bool: a.kind = ir::ArgKind::Bool; a.i = v.to_bool() ? 1 : 0; return;
    case BaseType::Str: a = g.string_arg(v.to_string_view()); return;
    case BaseType::ScalarType: a.kind = ir::ArgKind::ScalarType; a.i = static_cast<int64_t>(v.to_scalar_type()); return;
    case BaseType::Device:
      a.kind = ir::ArgKind::Device;
      a.i = static_cast<int64_t>(v.to_device().type());
      a.index = static_cast<uint32_t>(v.to_device().index());
      return;
    case BaseType::Layout: a.kind = ir::ArgKind::Layout; a.i = static_cast<int64_t>(v.to_layout()); return;
    case BaseType::MemoryFormat:
      a.kind = ir::ArgKind::MemoryFormat;
      a.i = static_cast<int64_t>(v.to_memory_format());
      return;
    case BaseType::Generator:  // record_call binds generators
    case BaseType::Tensor: break;
  }
  LZ_INTERNAL_ASSERT(false, "tensor arguments are operands");
}

}  // namespace

ir::ValueId record_call(Trace& tr, const OperatorHandle& op, const IValue* args,
                        const MetaList& outputs) {
  // Recording nests (an operand that is a stale view records its refresh
  // first), so each depth has its own scratch.
  struct Scratches {
    std::vector<std::unique_ptr<Scratch>> by_depth;
    size_t depth = 0;
  };
  thread_local Scratches scratches;  // one thread-local: each costs a lookup here
  Scratches& local = scratches;
  if (local.depth == local.by_depth.size()) local.by_depth.push_back(std::make_unique<Scratch>());
  Scratch& s = *local.by_depth[local.depth++];
  struct Leave {
    Scratches& local;
    ~Leave() { --local.depth; }
  } leave{local};
  s.args.clear();
  s.operands.clear();
  ir::Graph& g = tr.graph();
  const auto& arguments = op.schema().arguments();
  const bool random = op.has_tag(Tag::Random);
  bool has_generator_argument = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const SchemaType& type = arguments[i].type;
    const IValue& v = args[i];
    ir::Arg& a = s.args.emplace_back();  // written in place: see Graph::scalar_arg
    if (type.base == BaseType::Tensor) {
      if (!type.is_list) {
        if (!v.is_none() && v.to_tensor().defined()) {
          a.kind = ir::ArgKind::Tensor;
          a.index = static_cast<uint32_t>(s.operands.size());
          s.operands.push_back(value_in(tr, v.to_tensor()));
        }
      } else if (!type.element_optional) {
        a.kind = ir::ArgKind::TensorList;
        a.index = static_cast<uint32_t>(s.operands.size());
        for (const Tensor& t : v.to_tensor_list()) s.operands.push_back(value_in(tr, t));
        a.count = static_cast<uint32_t>(s.operands.size() - a.index);
      } else {
        s.ints.clear();
        for (const std::optional<Tensor>& t : v.to_optional_tensor_list()) {
          if (t && t->defined()) {
            s.ints.push_back(static_cast<int64_t>(s.operands.size()));
            s.operands.push_back(value_in(tr, *t));
          } else {
            s.ints.push_back(-1);
          }
        }
        a = g.int_list_arg(s.ints, ir::ArgKind::OptTensorList);
      }
    } else if (type.base == BaseType::Generator) {
      has_generator_argument = true;
      // A random op without an explicit generator draws from the default
      // one: set its call slot aside now, in eager order.
      if (!v.is_none()) {
        a = tr.generator_arg(snapshot(v.to_generator()));
      } else if (random) {
        a = tr.generator_arg(snapshot(default_generator()));
      }
    } else {
      attribute(g, type, v, s, a);
    }
  }
  uint32_t implicit_generator = ir::kNone;
  if (random && !has_generator_argument) implicit_generator = tr.add_generator(snapshot(default_generator()));
  return g.add_node(op.entry(), s.args, s.operands, std::span(outputs.data(), outputs.size()),
                    implicit_generator);
}

Tensor make_lazy_result(Trace& tr, const TensorMeta& type, ir::ValueId id) {
  auto impl = make_intrusive<LazyTensorImpl>(type, tr.pending(id));
  tr.register_tensor(*impl);
  return Tensor(std::move(impl));
}

Tensor lazy_wrapper(Trace& tr, const LazyValue& v, const TensorMeta& type) {
  auto impl = make_intrusive<LazyTensorImpl>(type, v);
  tr.register_tensor(*impl);
  return Tensor(std::move(impl));
}

}  // namespace lz::lazy
