#include "lazy/eager_check.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "core/error.h"
#include "core/ops_copy.h"
#include "ir/printer.h"
#include "lazy/config.h"
#include "lazy/compile.h"
#include "lazy/tolerance.h"

namespace lz::lazy {

namespace {

using ir::ValueId;

std::vector<double> values_of(const Tensor& t) {
  const Tensor d = t.to(kFloat64).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

double magnitude(const Tensor& t) {
  double m = 0;
  for (double v : values_of(t)) {
    if (std::isfinite(v)) m = std::max(m, std::abs(v));
  }
  return m;
}

// What the tolerance rule may assume of a value: how it was rounded, and
// whether it can be compared at all (a step function of a rounded value
// may land a whole step away, and everything computed from it with it).
struct Numerics {
  Rounding rounding;
  bool reliable = true;
};

// Follows the graph's nodes (in order: operands first), with the magnitudes
// of the reference values known so far.
std::vector<Numerics> numerics_of(const ir::Graph& g, const GraphData& data,
                                  const absl::flat_hash_map<ValueId, Tensor>& reference) {
  std::vector<Numerics> out(g.num_values());
  for (ir::NodeId id = 0; id < g.num_nodes(); ++id) {
    const ir::Node& n = g.node(id);
    if (n.is_input()) {
      Numerics& v = out[n.first_output];
      v.rounding.unit = unit_roundoff(g.value(n.first_output).type.dtype);
      v.rounding.scale = magnitude(data.input(n.input_index));
      continue;
    }
    Numerics in;
    int64_t largest_dim = 1, largest_operand = 1;
    for (ValueId o : n.operands) {
      const Numerics& a = out[o];
      in.rounding.exact = in.rounding.exact && a.rounding.exact;
      in.rounding.unit = std::max(in.rounding.unit, a.rounding.unit);
      in.rounding.scale = std::max(in.rounding.scale, a.rounding.scale);
      in.rounding.steps += a.rounding.steps;
      in.reliable = in.reliable && a.reliable;
      const TensorMeta& t = g.value(o).type;
      for (int64_t s : t.sizes) largest_dim = std::max(largest_dim, s);
      largest_operand = std::max(largest_operand, checked_numel(t.sizes, "operand"));
    }
    const TagSet tags = n.op->tags;
    for (uint32_t k = 0; k < n.num_outputs; ++k) {
      const ValueId v = n.first_output + k;
      const TensorMeta& type = g.value(v).type;
      const bool is_float = unit_roundoff(type.dtype) > 0;
      Numerics r = in;
      r.rounding.unit = std::max(r.rounding.unit, unit_roundoff(type.dtype));
      if (!tags.has(Tag::View)) {
        // A pointwise step rounds once; a reduction once per value it adds;
        // anything else (a product, a scan) once per element of its longest axis.
        const int64_t numel = std::max<int64_t>(1, checked_numel(type.sizes, "result"));
        r.rounding.steps += tags.has(Tag::Pointwise)   ? 1.0
                            : tags.has(Tag::Reduction) ? static_cast<double>(largest_operand) / numel
                                                       : static_cast<double>(largest_dim);
        r.rounding.exact = in.rounding.exact && !is_float;
        r.reliable = in.reliable && (in.rounding.exact || (is_float && !tags.has(Tag::StepFunction)));
      }
      if (auto it = reference.find(v); it != reference.end()) {
        r.rounding.scale = std::max(r.rounding.scale, magnitude(it->second));
      }
      out[v] = r;
    }
  }
  return out;
}

// How `lazy` differs from `eager` beyond the rule, or nullopt.
std::optional<std::string> difference(const Tensor& lazy, const Tensor& eager, const Numerics& n) {
  std::ostringstream os;
  os.precision(9);
  if (lazy.sizes() != eager.sizes() || lazy.dtype() != eager.dtype()) {
    os << "lazy " << lazy.dtype() << shape_str(lazy.sizes()) << ", eager " << eager.dtype() << shape_str(eager.sizes());
    return os.str();
  }
  if (!n.reliable) return std::nullopt;
  const std::vector<double> e = values_of(eager), a = values_of(lazy);
  const std::optional<Mismatch> m = first_mismatch(e, a, n.rounding, eager.dtype());
  if (!m) return std::nullopt;
  double largest = 0;
  size_t at = 0;
  for (size_t k = 0; k < e.size(); ++k) {
    const double d = std::isnan(e[k]) != std::isnan(a[k]) ? INFINITY : std::abs(e[k] - a[k]);
    if (d > largest) largest = d, at = k;
  }
  os << "element " << m->index << ": lazy " << m->actual << ", eager " << m->expected << " (allowed difference "
     << m->allowed << "); largest difference " << largest << " at element " << at;
  return os.str();
}

// Runs `outputs` of g, planned with `options`, on fresh copies of `data`'s
// inputs (a run may write into its inputs' memory).
std::vector<Tensor> run_on_copies(const ir::Graph& g, const GraphData& data, std::span<const ValueId> outputs,
                                  const CompileOptions& options) {
  GraphData copies;
  copies.generators = data.generators;
  for (const Tensor& t : data.inputs) copies.inputs.push_back(clone(t));
  const std::unique_ptr<Executable> exe = compile(g, copies, outputs, options);
  uint64_t bytes = 0;
  return exe->run(g, copies, outputs, &bytes);
}

// Every value the outputs are computed from (graph inputs excluded), in order.
std::vector<ValueId> cone_of(const ir::Graph& g, std::span<const ValueId> outputs) {
  std::vector<uint8_t> needed(g.num_nodes(), 0);
  for (ValueId v : outputs) needed[g.value(v).node] = 1;
  for (ir::NodeId id = static_cast<ir::NodeId>(g.num_nodes()); id-- > 0;) {
    if (!needed[id]) continue;
    for (ValueId o : g.node(id).operands) needed[g.value(o).node] = 1;
  }
  std::vector<ValueId> values;
  for (ir::NodeId id = 0; id < g.num_nodes(); ++id) {
    const ir::Node& n = g.node(id);
    if (!needed[id] || n.is_input()) continue;
    for (uint32_t k = 0; k < n.num_outputs; ++k) values.push_back(n.first_output + k);
  }
  return values;
}

std::string write_dump(const ir::Graph& g, std::span<const ValueId> outputs, const Executable& exe) {
  namespace fs = std::filesystem;
  const std::string configured = settings().dump_dir;
  std::error_code ec;
  const fs::path dir = configured.empty() ? fs::temp_directory_path(ec) / "lazuli-check-eager" : fs::path(configured);
  fs::create_directories(dir, ec);
  char name[64];
  std::snprintf(name, sizeof name, "check_eager_%016llx.txt", static_cast<unsigned long long>(g.hash_of(outputs)));
  const fs::path file = dir / name;
  std::ofstream os(file);
  os << "# traced graph\n" << ir::print_graph(g, outputs) << "\n# plan\n" << exe.plan_text();
  return os ? file.string() : "(not written: " + file.string() + ")";
}

[[noreturn]] void report(const ir::Graph& g, ValueId v, const std::string& what, std::span<const ValueId> outputs,
                         const Executable& exe) {
  const ir::Node& n = g.producer(v);
  std::ostringstream operands;
  for (size_t i = 0; i < n.operands.size(); ++i) {
    operands << (i ? ", " : "") << "%" << n.operands[i] << " " << ir::print_type(g.value(n.operands[i]).type);
  }
  LZ_FAIL(InternalError, "[LZ_CHECK_EAGER] lazy and eager results differ at node ", ir::print_node(g, g.value(v).node),
          "\n  operator ", n.op->name, " (", operands.str(), ") -> %", v, " ", ir::print_type(g.value(v).type),
          "\n  ", what, "\n  graph and plan written to ", write_dump(g, outputs, exe));
}

}  // namespace

EagerCheck::EagerCheck(const GraphData& data) {
  before_.generators = data.generators;
  before_.inputs.reserve(data.inputs.size());
  for (const Tensor& t : data.inputs) before_.inputs.push_back(clone(t));
}

void EagerCheck::verify(const ir::Graph& g, std::span<const ValueId> outputs, std::span<const Tensor> values,
                        const Executable& exe) const {
  const std::vector<Tensor> reference = run_on_copies(g, before_, outputs, CompileOptions::reference());
  absl::flat_hash_map<ValueId, Tensor> known;
  for (size_t i = 0; i < outputs.size(); ++i) known.emplace(outputs[i], reference[i]);
  const std::vector<Numerics> numerics = numerics_of(g, before_, known);
  std::optional<size_t> first;
  std::string what;
  for (size_t i = 0; i < outputs.size() && !first; ++i) {
    if (std::optional<std::string> d = difference(values[i], reference[i], numerics[outputs[i]])) first = i, what = *d;
  }
  if (!first) return;
  // Which node went wrong: every intermediate value computed both ways, the
  // first (in order) that differs.
  const std::vector<ValueId> all = cone_of(g, outputs);
  const std::vector<Tensor> lazy_all = run_on_copies(g, before_, all, CompileOptions::from_settings());
  const std::vector<Tensor> eager_all = run_on_copies(g, before_, all, CompileOptions::reference());
  known.clear();
  for (size_t i = 0; i < all.size(); ++i) known.emplace(all[i], eager_all[i]);
  const std::vector<Numerics> all_numerics = numerics_of(g, before_, known);
  for (size_t i = 0; i < all.size(); ++i) {
    if (std::optional<std::string> d = difference(lazy_all[i], eager_all[i], all_numerics[all[i]])) {
      report(g, all[i], *d, outputs, exe);
    }
  }
  report(g, outputs[*first], what, outputs, exe);
}

}  // namespace lz::lazy
