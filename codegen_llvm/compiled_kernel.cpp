#include "codegen_llvm/compiled_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "absl/container/inlined_vector.h"
#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/kernel_emitter.h"
#include "codegen_llvm/value_ops.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/stable_hash.h"

namespace lz::codegen_llvm {

namespace {

// Elements per parallel chunk at least (below it a thread costs more than it saves).
constexpr int64_t kGrainElements = 32768;
// Inner points per partial reduction: fixed, so results do not depend on
// the thread count; the partial path serves reductions with few outer
// points and long rows (a full sum).
constexpr int64_t kPartialChunk = 65536;
constexpr int64_t kPartialMaxOuter = 64;
// Outputs at least this large are written with streaming stores (as the
// eager kernels do): they would only evict the inputs from the caches.
constexpr int64_t kStreamingBytes = int64_t{16} << 20;
// Stage values are kept (rather than recomputed) while one outer point's
// row of them stays in the L2 cache.
constexpr int64_t kScratchBytes = int64_t{256} << 10;

// One walked axis after reordering and merging: its extent and each access's stride.
struct Axis {
  int64_t size = 1;
  absl::InlinedVector<int64_t, 8> strides;
};

// Drops extent-1 axes and merges neighbours that every access walks as
// one (the outer stride is the inner extent times the inner stride).
void push_axis(std::vector<Axis>& axes, int64_t size, absl::InlinedVector<int64_t, 8> strides) {
  if (size == 1) return;
  if (!axes.empty()) {
    Axis& prev = axes.back();
    bool merge = prev.size != 0 && size != 0;
    for (size_t a = 0; merge && a < strides.size(); ++a) merge = prev.strides[a] == size * strides[a];
    if (merge) {
      prev.size *= size;
      prev.strides = std::move(strides);
      return;
    }
  }
  axes.push_back(Axis{size, std::move(strides)});
}

// Whether a reduction reads better down its columns (VariantSpec::columns):
// more of its loads step less far along the last outer axis than along the
// last inner one (a reduction over a leading axis, a row sum of a
// transpose) than the other way round.
bool prefers_columns(const ir::Kernel& k, const std::vector<Axis>& outer, const std::vector<Axis>& inner) {
  if (outer.empty() || inner.empty()) return false;
  int columns = 0, rows = 0;
  for (size_t a = 0; a < k.accesses.size(); ++a) {
    if (k.buffers[k.accesses[a].buffer].output) continue;
    const int64_t across = std::abs(outer.back().strides[a]), down = std::abs(inner.back().strides[a]);
    if (across != 0 && (down == 0 || across < down)) ++columns;
    if (down != 0 && (across == 0 || down < across)) ++rows;
  }
  return columns > rows;
}

// The loads of a pointwise kernel contiguous along the second-to-last
// walked axis while the vector loops run along the last (a transpose): a
// tiled variant copies them per tile (VariantSpec::tiled). Empty when none.
std::vector<bool> transposed_loads(const ir::Kernel& k, const std::vector<Axis>& outer) {
  std::vector<bool> transposed;
  if (outer.size() < 2) return transposed;
  const Axis& rows = outer[outer.size() - 2];
  bool any = false;
  for (size_t a = 0; a < k.accesses.size(); ++a) {
    // A gathered access is read at its own addresses, never from a tile.
    const bool t = !k.buffers[k.accesses[a].buffer].output && !k.accesses[a].gathered() &&
                   std::abs(rows.strides[a]) == 1 && std::abs(outer.back().strides[a]) > 1;
    transposed.push_back(t);
    any = any || t;
  }
  if (!any) transposed.clear();
  return transposed;
}

double as_double(int64_t bits) { return std::bit_cast<double>(bits); }
int64_t as_bits(double d) { return std::bit_cast<int64_t>(d); }

// Combines two partial accumulators of reduction `r` (codegen_llvm/kernel_abi.h).
int64_t combine_partials(const ir::Reduction& r, int64_t a, int64_t b) {
  if (is_floating_point(r.dtype)) {
    const double x = as_double(a), y = as_double(b);
    switch (r.op) {
      case ir::ReduceOp::Sum: return as_bits(x + y);
      case ir::ReduceOp::Prod: return as_bits(x * y);
      case ir::ReduceOp::Max: return as_bits((x != x || y != y) ? x + y : std::max(x, y));
      case ir::ReduceOp::Min: return as_bits((x != x || y != y) ? x + y : std::min(x, y));
      default: break;
    }
  }
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (r.op) {
    case ir::ReduceOp::Sum: return static_cast<int64_t>(ua + ub);
    case ir::ReduceOp::Prod: return static_cast<int64_t>(ua * ub);
    case ir::ReduceOp::Max: return std::max(a, b);
    case ir::ReduceOp::Min: return std::min(a, b);
    case ir::ReduceOp::All: return (a != 0 && b != 0) ? 1 : 0;
    case ir::ReduceOp::Any: return (a != 0 || b != 0) ? 1 : 0;
  }
  return a;
}

std::unique_ptr<llvm::Module> emit_or_fail(const ir::Kernel& k, const VariantSpec& spec, const std::string& prefix,
                                           llvm::LLVMContext& context) {
  try {
    return emit_kernel(k, spec, prefix, context);
  } catch (const UnsupportedKernel& u) {
    throw CompileFailure{"kernel " + k.name + ": " + u.reason};
  }
}

}  // namespace

struct CompiledKernel::Variant {
  std::shared_ptr<const void> code;  // keeps the functions below linked
  VariantKey key;
  std::string spec_text;  // "classes 121|columns": what variant_specs reports
  RunFn run = nullptr;
  PartialFn partial = nullptr;
  FinishFn finish = nullptr;
};

CompiledKernel::CompiledKernel(const ir::Kernel& k, CodegenOptions options)
    : k_(k),
      options_(options),
      text_(ir::print_kernel(k)),
      splittable_(is_splittable(k)),
      cache_bytes_per_point_(stage_cache_bytes_per_point(k)) {
  // Emitting (without optimising) finds unsupported operations now, while
  // the executor can still plan eager steps instead.
  VariantSpec spec{std::vector<StrideClass>(k.accesses.size(), StrideClass::Unit), 512, options_.math};
  llvm::LLVMContext context;
  emit_or_fail(k_, spec, "check", context);
}

CompiledKernel::~CompiledKernel() = default;

bool CompiledKernel::worth_compiling(const ir::KernelLaunch& launch, int64_t threshold, bool count) const {
  const int64_t seen = count ? launches_.fetch_add(1, std::memory_order_relaxed) + 1
                             : launches_.load(std::memory_order_relaxed) + 1;
  const int64_t points = std::max(ir::num_points(launch.domain), launch.whole_points);
  return points >= ir::kCompileAtOncePoints || seen >= threshold || num_variants() > 0;
}

double CompiledKernel::compile_ms() const {
  std::lock_guard<std::mutex> lock(mu_);
  return compile_ms_;
}

size_t CompiledKernel::num_variants() const {
  std::lock_guard<std::mutex> lock(mu_);
  return variants_.size();
}

std::vector<std::string> CompiledKernel::variant_specs() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> specs;
  for (const auto& v : variants_) specs.push_back(v->spec_text);
  return specs;
}

std::string CompiledKernel::llvm_ir() const {
  VariantSpec spec{std::vector<StrideClass>(k_.accesses.size(), StrideClass::Unit), JitEngine::instance().vector_bits(),
                   options_.math};
  return JitEngine::instance().optimized_ir(
      [&](llvm::LLVMContext& c) { return emit_or_fail(k_, spec, "lzk_" + k_.name, c); });
}

const CompiledKernel::Variant* CompiledKernel::find_variant(const VariantKey& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& v : variants_) {
    if (v->key == key) return v.get();
  }
  for (const Failed& f : failed_) {
    if (f.key == key) throw CompileFailure{f.reason};
  }
  return nullptr;
}

const CompiledKernel::Variant& CompiledKernel::variant(const VariantKey& key) const {
  if (const Variant* v = find_variant(key)) return *v;
  compile_variant(key);
  return *find_variant(key);
}

// What the JIT knows variant `key` by: its spec, cache key and symbols.
struct CompiledKernel::VariantCode {
  VariantSpec spec;
  std::string spec_text;  // "classes 121|columns"
  std::string text;       // the JIT's key
  std::string prefix;
  std::vector<std::string> symbols;
};

CompiledKernel::VariantCode CompiledKernel::code_of(const VariantKey& key) const {
  VariantCode c;
  c.spec = VariantSpec{key.classes, JitEngine::instance().vector_bits(), options_.math, key.streaming, key.cache_stages,
                       key.split,   key.columns, key.transposed, key.in_piece};
  c.spec_text = "classes ";
  for (StrideClass cls : key.classes) c.spec_text += static_cast<char>('0' + static_cast<int>(cls));
  if (key.streaming) c.spec_text += "|streaming";
  if (key.cache_stages) c.spec_text += "|cache_stages";
  if (key.split) c.spec_text += "|split";
  if (key.columns) c.spec_text += "|columns";
  if (c.spec.tiled()) {
    c.spec_text += "|tiled ";
    for (bool t : key.transposed) c.spec_text += t ? 't' : '-';
  }
  if (!key.in_piece.empty()) {
    c.spec_text += "|pieces ";
    for (bool p : key.in_piece) c.spec_text += p ? '1' : '0';
  }
  c.text = text_ + "|" + c.spec_text + (options_.math == MathMode::Fast ? "|fast" : "|precise");
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "lzk_%016llx", static_cast<unsigned long long>(stable_hash(c.text)));
  c.prefix = prefix;
  if (key.split) {
    c.symbols = {c.prefix + "_partial", c.prefix + "_finish"};
  } else {
    c.symbols = {c.prefix + "_run"};
  }
  return c;
}

void CompiledKernel::add_variant(const VariantKey& key, std::string spec_text, const JitEngine::Result& r) const {
  auto v = std::make_unique<Variant>();
  v->code = r.code;
  v->key = key;
  v->spec_text = std::move(spec_text);
  if (key.split) {
    v->partial = reinterpret_cast<PartialFn>(r.addresses[0]);
    v->finish = reinterpret_cast<FinishFn>(r.addresses[1]);
  } else {
    v->run = reinterpret_cast<RunFn>(r.addresses[0]);
  }
  std::lock_guard<std::mutex> lock(mu_);
  compile_ms_ += r.ms;
  for (const auto& existing : variants_) {
    if (existing->key == key) return;
  }
  variants_.push_back(std::move(v));
}

// Compiled without holding mu_: launches of variants compiled already run
// meanwhile. Two threads compiling one key link the same code (the JIT's
// in-memory cache); the second keeps the first's Variant.
void CompiledKernel::compile_variant(const VariantKey& key) const {
  VariantCode c = code_of(key);
  JitEngine::Result r;
  try {
    r = JitEngine::instance().get(c.text, c.symbols,
                                  [&](llvm::LLVMContext& ctx) { return emit_or_fail(k_, c.spec, c.prefix, ctx); });
  } catch (const CompileFailure& f) {
    std::lock_guard<std::mutex> lock(mu_);
    failed_.push_back(Failed{key, f.reason});
    throw;
  }
  add_variant(key, std::move(c.spec_text), r);
}

bool CompiledKernel::load_cached_variant(const VariantKey& key) const {
  if (!JitEngine::started()) return false;
  VariantCode c = code_of(key);
  std::optional<JitEngine::Result> r = JitEngine::instance().find(c.text, c.symbols);
  if (!r) return false;
  add_variant(key, std::move(c.spec_text), *r);
  return true;
}

// Streaming stores need every unit-stride output aligned alike (see
// VariantSpec::streaming) and pay only for outputs beyond the caches.
bool CompiledKernel::use_streaming(const ir::KernelLaunch& launch, const std::vector<StrideClass>& classes,
                                   int64_t points) const {
#if defined(__x86_64__)
  int64_t bytes = 0, size = 0;
  const ir::BoundAccess* first = nullptr;
  for (const ir::Store& s : k_.stores) {
    if (s.reduced || classes[s.access] != StrideClass::Unit) continue;
    const ir::BoundAccess& b = launch.accesses[s.access];
    const auto es = static_cast<int64_t>(element_size(k_.buffers[k_.accesses[s.access].buffer].dtype));
    if (first == nullptr) {
      first = &b;
      size = es;
    } else if (es != size || b.strides != first->strides ||
               (reinterpret_cast<uintptr_t>(b.data) - reinterpret_cast<uintptr_t>(first->data)) % 64 != 0) {
      return false;
    }
    bytes += points * es;
  }
  return first != nullptr && bytes >= kStreamingBytes;
#else
  return false;
#endif
}

// Streamed stores of a column variant: every vector of a unit-stride output
// starts on a 64-byte boundary when its address, its strides other than
// the unit one, the band and the segments along the last outer axis
// (`segment` points; 0: one segment) are multiples of 64 bytes.
bool CompiledKernel::use_column_streaming(const ir::KernelLaunch& launch, const std::vector<StrideClass>& classes,
                                          int64_t points, int64_t band, int64_t segment) const {
#if defined(__x86_64__)
  int64_t bytes = 0;
  for (const ir::Store& s : k_.stores) {
    if (s.reduced) continue;
    if (classes[s.access] != StrideClass::Unit) return false;
    const ir::BoundAccess& b = launch.accesses[s.access];
    const auto es = static_cast<int64_t>(element_size(k_.buffers[k_.accesses[s.access].buffer].dtype));
    if (reinterpret_cast<uintptr_t>(b.data) % 64 != 0 || band * es % 64 != 0 || segment * es % 64 != 0) return false;
    for (int64_t stride : b.strides) {
      if (stride * es % 64 != 0 && stride != 1) return false;
    }
    bytes += points * es;
  }
  return bytes >= kStreamingBytes;
#else
  (void)launch, (void)classes, (void)points, (void)band, (void)segment;
  return false;
#endif
}

void CompiledKernel::run(const ir::KernelLaunch& launch) const {
  int64_t fault = 0;
  run_bound(launch, &fault, nullptr);
  LZ_CHECK(fault == 0, IndexError, "[", k_.name, "] a gathered index is out of bounds");
}

bool CompiledKernel::run_if_compiled(const ir::KernelLaunch& launch, VariantKey* missing) const {
  int64_t fault = 0;
  if (!run_bound(launch, &fault, missing)) return false;
  LZ_CHECK(fault == 0, IndexError, "[", k_.name, "] a gathered index is out of bounds");
  return true;
}

bool CompiledKernel::has_code_for(const ir::KernelLaunch& launch, VariantKey* missing) const {
  return run_bound(launch, nullptr, missing, /*only_check=*/true);
}

bool CompiledKernel::run_bound(const ir::KernelLaunch& launch, int64_t* fault, VariantKey* missing,
                               bool only_check) const {
  const size_t rank = k_.rank, num_access = k_.accesses.size();
  LZ_INTERNAL_ASSERT(launch.domain.size() == rank && launch.accesses.size() == num_access &&
                         launch.params.size() == k_.num_params,
                     "kernel ", k_.name, ": launch does not match the kernel");
  // Outer (kept) axes first, then the reduction axes, each group merged.
  std::vector<Axis> outer, inner;
  int64_t outer_count = 1, inner_count = 1;
  for (size_t d = 0; d < rank; ++d) {
    absl::InlinedVector<int64_t, 8> strides(num_access);
    for (size_t a = 0; a < num_access; ++a) strides[a] = launch.accesses[a].strides[d];
    const bool reduced = (k_.reduce_axes >> d) & 1;
    (reduced ? inner_count : outer_count) *= launch.domain[d];
    push_axis(reduced ? inner : outer, launch.domain[d], std::move(strides));
  }
  if (outer_count == 0) return true;
  const bool split = splittable_ && inner_count >= 2 * kPartialChunk && outer_count < kPartialMaxOuter;
  // Column and tiled variants pay off beyond the caches; smaller launches
  // share the plain variants (fewer to compile).
  const bool large = outer_count * inner_count >= kGrainElements;
  const bool columns = has_reductions(k_) && !split && large && prefers_columns(k_, outer, inner);
  const Axis unit{1, absl::InlinedVector<int64_t, 8>(num_access, 0)};
  if (outer.empty()) outer.push_back(unit);
  if (has_reductions(k_) && inner.empty()) inner.push_back(unit);

  // The axis the vector loops run along: the last walked one, or for a
  // column variant the last outer one.
  const std::vector<Axis>& vector_group = has_reductions(k_) && !columns ? inner : outer;
  std::vector<StrideClass> classes(num_access);
  for (size_t a = 0; a < num_access; ++a) {
    const int64_t s = vector_group.back().strides[a];
    classes[a] = s == 0 ? StrideClass::Broadcast : s == 1 ? StrideClass::Unit : StrideClass::Strided;
  }
  // A tiled variant reads its transposed loads from an L1 block, with unit stride.
  const std::vector<bool> transposed =
      has_reductions(k_) || !large ? std::vector<bool>{} : transposed_loads(k_, outer);
  const bool tiled = !transposed.empty();
  for (size_t a = 0; a < transposed.size(); ++a) {
    if (transposed[a]) classes[a] = StrideClass::Unit;
  }
  const int64_t scratch_bytes = inner_count * cache_bytes_per_point_;
  const bool cache_stages = scratch_bytes > 0 && scratch_bytes <= kScratchBytes && !split && !columns;
  const bool streaming = !split && (columns ? use_column_streaming(launch, classes, outer_count * inner_count,
                                                                     column_band_points(k_),
                                                                     outer.size() == 1 ? 0 : outer.back().size)
                                            : use_streaming(launch, classes, outer_count * inner_count));
  VariantKey key{std::move(classes), streaming, cache_stages, split, columns, transposed,
                 std::vector<bool>(launch.in_piece.begin(), launch.in_piece.end())};
  const Variant* compiled = missing != nullptr ? find_variant(key) : &variant(key);
  if (compiled == nullptr) {
    *missing = std::move(key);
    return false;
  }
  if (only_check) return true;
  const Variant& v = *compiled;

  const size_t num_axes = outer.size() + inner.size();
  absl::InlinedVector<int64_t, 8> sizes;
  absl::InlinedVector<int64_t, 32> strides(num_access * num_axes);
  for (const std::vector<Axis>* group : {&outer, &inner}) {
    for (const Axis& ax : *group) sizes.push_back(ax.size);
  }
  for (size_t a = 0; a < num_access; ++a) {
    size_t i = 0;
    for (const std::vector<Axis>* group : {&outer, &inner}) {
      for (const Axis& ax : *group) strides[a * num_axes + i++] = ax.strides[a];
    }
  }
  absl::InlinedVector<char*, 8> data(num_access);
  absl::InlinedVector<int64_t, 16> gathers(2 * num_access);
  for (size_t a = 0; a < num_access; ++a) {
    data[a] = static_cast<char*>(launch.accesses[a].data);
    gathers[2 * a] = launch.accesses[a].gather_stride;
    gathers[2 * a + 1] = launch.accesses[a].gather_extent;
  }
  absl::InlinedVector<ParamSlot, 4> params(launch.params.size());
  for (size_t p = 0; p < params.size(); ++p) {
    const Scalar& s = launch.params[p];
    if (s.is_floating_point()) {
      params[p] = ParamSlot{s.to_double(), 0, 1};
    } else {
      params[p] = ParamSlot{0, s.is_bool() ? (s.to_bool() ? 1 : 0) : s.to_long(), 0};
    }
  }
  KernelArgs args;
  args.num_outer = static_cast<int64_t>(outer.size());
  args.num_inner = static_cast<int64_t>(inner.size());
  args.sizes = sizes.data();
  args.strides = strides.data();
  args.data = data.data();
  args.params = params.data();
  args.inner_count = inner_count;
  args.gathers = gathers.data();
  args.fault = fault;

  if (tiled) {  // blocks of kTileRows rows
    const int64_t rows = outer_count / outer.back().size;
    const int64_t blocks = (rows + kTileRows - 1) / kTileRows;
    const int64_t grain = std::max<int64_t>(1, kGrainElements / (kTileRows * outer.back().size));
    parallel_for(0, blocks, grain, [&](int64_t b, int64_t e) { v.run(&args, b, e); });
    return true;
  }
  if (!has_reductions(k_)) {
    parallel_for(0, outer_count, kGrainElements, [&](int64_t b, int64_t e) { v.run(&args, b, e); });
    return true;
  }
  if (columns) {  // whole bands per thread
    const int64_t band = column_band_points(k_);
    const int64_t bands = (outer_count + band - 1) / band;
    const int64_t grain = std::max<int64_t>(1, kGrainElements / (band * std::max<int64_t>(1, inner_count)));
    parallel_for(0, bands, grain,
                 [&](int64_t b, int64_t e) { v.run(&args, b * band, std::min(outer_count, e * band)); });
    return true;
  }
  if (!split) {
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, inner_count));
    parallel_for(0, outer_count, grain, [&](int64_t b, int64_t e) {
      if (!cache_stages) return v.run(&args, b, e);
      // One row per thread, reused; 64-byte aligned, so its vectors never
      // straddle two cache lines.
      thread_local std::vector<char> scratch;
      scratch.resize(static_cast<size_t>(scratch_bytes) + 64);
      KernelArgs own = args;
      own.scratch = scratch.data() + (64 - reinterpret_cast<uintptr_t>(scratch.data()) % 64) % 64;
      v.run(&own, b, e);
    });
    return true;
  }
  // Few long reductions: fixed chunks reduced in parallel, combined in chunk order.
  const int64_t chunks = (inner_count + kPartialChunk - 1) / kPartialChunk;
  const size_t nred = k_.reductions.size();
  std::vector<int64_t> partials(static_cast<size_t>(outer_count * chunks) * nred);
  parallel_for(0, outer_count * chunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / chunks, c = t % chunks;
      v.partial(&args, o, c * kPartialChunk, std::min(inner_count, (c + 1) * kPartialChunk),
                partials.data() + static_cast<size_t>(t) * nred);
    }
  });
  std::vector<int64_t> acc(nred);
  for (int64_t o = 0; o < outer_count; ++o) {
    const int64_t* first = partials.data() + static_cast<size_t>(o * chunks) * nred;
    std::copy(first, first + nred, acc.begin());
    for (int64_t c = 1; c < chunks; ++c) {
      for (size_t r = 0; r < nred; ++r) acc[r] = combine_partials(k_.reductions[r], acc[r], first[c * nred + r]);
    }
    v.finish(&args, o, acc.data());
  }
  return true;
}

}  // namespace lz::codegen_llvm
