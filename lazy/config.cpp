#include "lazy/config.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/error.h"
#include "lazy/executable_cache.h"

namespace lz::lazy {

namespace {

size_t env_size(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  size_t out = 0;
  if (v == nullptr || !absl::SimpleAtoi(v, &out) || out == 0) return fallback;
  return out;
}

Settings from_environment() {
  Settings s;
  s.node_limit = env_size("LZ_LAZY_NODE_LIMIT", s.node_limit);
  s.cache_capacity = env_size("LZ_LAZY_CACHE_SIZE", s.cache_capacity);
  if (const char* v = std::getenv("LZ_FORCE_EAGER")) {
    for (const auto name : absl::StrSplit(v, ',', absl::SkipWhitespace())) {
      s.force_eager.emplace_back(name.data(), name.size());
    }
  }
  if (const char* v = std::getenv("LZ_LAZY_STRICT")) s.strict = std::string_view(v) == "1";
  if (const char* v = std::getenv("LZ_NO_FUSION")) s.fusion = std::string_view(v) != "1";
  if (const char* v = std::getenv("LZ_PASSES")) s.pipeline = v;
  if (const char* v = std::getenv("LZ_CODEGEN")) {
    if (std::string_view(v) == "interp" || std::string_view(v) == "interpreter") s.codegen = Settings::Codegen::Interpreter;
    if (std::string_view(v) == "cuda-emu") s.codegen = Settings::Codegen::CudaEmulator;
  }
  if (const char* v = std::getenv("LZ_CUDA_ARCHS")) {
    s.cuda_archs.clear();
    for (const auto arch : absl::StrSplit(v, ',', absl::SkipWhitespace())) s.cuda_archs.emplace_back(arch);
  }
  if (const char* v = std::getenv("LZ_FAST_MATH")) s.fast_math = std::string_view(v) == "1";
  s.jit_threshold = static_cast<int64_t>(env_size("LZ_JIT_THRESHOLD", static_cast<size_t>(s.jit_threshold)));
  if (const char* v = std::getenv("LZ_JIT_ASYNC")) s.compile_in_background = std::string_view(v) != "0";
  if (const char* v = std::getenv("LZ_DUMP")) s.dump_dir = v;
  s.debug_level = static_cast<int>(env_size("LZ_DEBUG", 0));
  s.recompile_warn = env_size("LZ_RECOMPILE_WARN", s.recompile_warn);
  if (const char* v = std::getenv("LZ_JIT_FAULT")) s.jit_fault = v;
  if (const char* v = std::getenv("LZ_CHECK_EAGER")) s.check_eager = std::string_view(v) == "1";
  if (const char* v = std::getenv("LZ_LOWERING_FAULT")) s.lowering_fault = v;
  if (const char* v = std::getenv("LZ_PROFILE_STEPS")) s.profile_steps = std::string_view(v) == "1";
  return s;
}

struct State {
  std::mutex mutex;
  Settings settings = from_environment();
  // Read on every traced operator: kept apart from the mutex.
  std::atomic<size_t> node_limit{settings.node_limit};
  std::atomic<bool> strict{settings.strict};
  std::atomic<int> debug_level{settings.debug_level};
  std::atomic<Settings::Codegen> codegen{settings.codegen};
  std::atomic<bool> fast_math{settings.fast_math};
  std::atomic<int64_t> jit_threshold{settings.jit_threshold};
  std::atomic<bool> compile_in_background{settings.compile_in_background};
  std::atomic<bool> any_forced{!settings.force_eager.empty()};
  std::atomic<bool> check_eager{settings.check_eager};
  std::atomic<bool> profile_steps{settings.profile_steps};
};

State& state() {
  static State s;
  return s;
}

}  // namespace

Settings settings() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().settings;
}

void set_settings(const Settings& s) {
  LZ_CHECK(s.node_limit > 0, ValueError, "[lazy settings] node_limit must be positive");
  LZ_CHECK(s.cache_capacity > 0, ValueError, "[lazy settings] cache_capacity must be positive");
  bool recompile = false;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    // Executables compiled under other passes, fusion or codegen settings must not be reused.
    const Settings& old = state().settings;
    recompile = s.fusion != old.fusion || s.pipeline != old.pipeline || s.codegen != old.codegen ||
                s.fast_math != old.fast_math || s.jit_threshold != old.jit_threshold ||
                s.compile_in_background != old.compile_in_background ||
                s.cuda_archs != old.cuda_archs || s.jit_fault != old.jit_fault ||
                s.lowering_fault != old.lowering_fault;
    state().settings = s;
    state().node_limit = s.node_limit;
    state().strict = s.strict;
    state().debug_level = s.debug_level;
    state().codegen = s.codegen;
    state().fast_math = s.fast_math;
    state().jit_threshold = s.jit_threshold;
    state().compile_in_background = s.compile_in_background;
    state().any_forced = !s.force_eager.empty();
    state().check_eager = s.check_eager;
    state().profile_steps = s.profile_steps;
  }
  ExecutableCache::instance().set_capacity(s.cache_capacity);
  if (recompile) ExecutableCache::instance().clear();
}

namespace detail {

size_t node_limit() { return state().node_limit.load(std::memory_order_relaxed); }
bool strict() { return state().strict.load(std::memory_order_relaxed); }
int debug_level() { return state().debug_level.load(std::memory_order_relaxed); }
Settings::Codegen codegen() { return state().codegen.load(std::memory_order_relaxed); }
bool fast_math() { return state().fast_math.load(std::memory_order_relaxed); }
int64_t jit_threshold() { return state().jit_threshold.load(std::memory_order_relaxed); }
bool compile_in_background() { return state().compile_in_background.load(std::memory_order_relaxed); }

std::vector<std::string> cuda_archs() {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().settings.cuda_archs;
}

namespace {
bool fault_matches(const std::string& fault, std::string_view kernel) {
  return !fault.empty() && kernel.find(fault) != std::string_view::npos;
}
}  // namespace

bool jit_fault(std::string_view kernel) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return fault_matches(state().settings.jit_fault, kernel);
}

bool lowering_fault(std::string_view kernel) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return fault_matches(state().settings.lowering_fault, kernel);
}

bool check_eager() { return state().check_eager.load(std::memory_order_relaxed); }
bool profile_steps() { return state().profile_steps.load(std::memory_order_relaxed); }

bool forced_eager(std::string_view full_name, std::string_view base_name) {
  if (!state().any_forced.load(std::memory_order_relaxed)) return false;
  std::lock_guard<std::mutex> lock(state().mutex);
  for (const std::string& name : state().settings.force_eager) {
    if (name == full_name || name == base_name) return true;
  }
  return false;
}

}  // namespace detail
}  // namespace lz::lazy
