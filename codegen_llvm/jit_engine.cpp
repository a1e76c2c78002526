#include "codegen_llvm/jit_engine.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Pass.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "absl/container/flat_hash_map.h"
#include "core/object_file_cache.h"
#include "codegen_llvm/runtime_support.h"

namespace lz::codegen_llvm {

namespace {

// Bumped whenever generated code changes for the same kernel text, so
// cached objects of older generators read as misses.
constexpr const char* kGeneratorVersion = "lz-codegen-5";

// The IR pipeline for generated kernels (opt's -passes syntax). The
// emitter writes vector loops already, so O3's loop vectoriser, unroller,
// inliner and its many repeated cleanups find nothing to do: measured on
// W1-W17's kernels, this pipeline compiles in ~6% of O3's IR time (O3's
// share was ~45% of a kernel's compile) and runs them at O3's speed.
// SROA turns the emitter's allocas (induction variables, accumulators)
// into registers, loop-rotate gives loops one branch per iteration, LICM
// hoists strides, splats and uniform values out of them, EarlyCSE and
// InstCombine fold the address arithmetic.
constexpr const char* kPipeline =
    "function(sroa,early-cse<memssa>,instcombine,simplifycfg,loop-mssa(loop-rotate,licm),early-cse,simplifycfg)";

// Machine code at CodeGenOpt::Less: ~12% less compile time than Default
// (mostly the post-RA scheduler it skips), the same kernel speed.
constexpr int kCodegenLevel = 1;

std::string error_text(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}

// The GNU build ID of the binary holding this code (liblazuli), read from
// its ELF notes: cached objects are only valid for the generator that
// produced them, and any rebuild of the library may change the generator.
// Falls back to this file's compile time when the linker wrote no ID.
std::string library_build_id() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&library_build_id), &info) == 0 || info.dli_fbase == nullptr) {
    return __DATE__ " " __TIME__;
  }
  struct Search {
    const void* base;
    std::string id;
  } search{info.dli_fbase, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* phdr, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (reinterpret_cast<const void*>(phdr->dlpi_addr) != s->base) return 0;  // another object
        for (int i = 0; i < phdr->dlpi_phnum; ++i) {
          const ElfW(Phdr)& h = phdr->dlpi_phdr[i];
          if (h.p_type != PT_NOTE) continue;
          const auto* begin = reinterpret_cast<const char*>(phdr->dlpi_addr + h.p_vaddr);
          for (const char* p = begin; p + sizeof(ElfW(Nhdr)) <= begin + h.p_memsz;) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::string_view(name, 3) == "GNU") {
              static const char* hex = "0123456789abcdef";
              for (uint32_t k = 0; k < note->n_descsz; ++k) {
                const auto b = static_cast<unsigned char>(desc[k]);
                s->id += hex[b >> 4];
                s->id += hex[b & 15];
              }
              return 1;
            }
            p = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 0;
      },
      &search);
  return search.id.empty() ? std::string(__DATE__ " " __TIME__) : search.id;
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

bool env_disabled(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && (std::string(v) == "0" || std::string(v) == "off");
}

}  // namespace

struct JitEngine::Impl {
  std::mutex mu;          // the maps, the disk cache, linking, stats
  std::mutex compile_mu;  // emitting, optimising and generating code (the TargetMachine)
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string cpu, features, host;
  unsigned vector_bits = 128;
  // One linked object, in a JITDylib of its own (so an object being
  // unlinked and a new link of the same symbols never meet): removed from
  // the JIT when the last Result::code holding it is released.
  struct Linked {
    llvm::orc::JITDylib* dylib = nullptr;
    std::vector<void*> addresses;
    Impl* engine = nullptr;
    ~Linked() {
      if (dylib == nullptr) return;
      if (llvm::Error e = engine->jit->getExecutionSession().removeJITDylib(*dylib)) llvm::consumeError(std::move(e));
      std::lock_guard<std::mutex> lock(engine->unlinked_mu);
      ++engine->unlinked;
    }
  };
  uint64_t next_dylib = 0;
  absl::flat_hash_map<std::string, std::weak_ptr<Linked>> linked;  // key + symbols -> the object, while held
  std::mutex unlinked_mu;  // a Linked may die on any thread, with or without `mu` held
  int64_t unlinked = 0;
  std::optional<ObjectFileCache> disk;
  JitStats stats;

  void prepare(llvm::Module& m) {
    m.setDataLayout(tm->createDataLayout());
    m.setTargetTriple(tm->getTargetTriple().str());
    for (llvm::Function& f : m) {
      if (f.isDeclaration()) continue;
      f.addFnAttr("target-cpu", cpu);
      f.addFnAttr("target-features", features);
      // Explicit 512-bit vectors stay 512 bits wide (x86 otherwise splits
      // them for CPUs where it prefers 256).
      const std::string bits = std::to_string(vector_bits);
      f.addFnAttr("prefer-vector-width", bits);
      f.addFnAttr("min-legal-vector-width", bits);
    }
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(m, &os)) throw CompileFailure{"generated IR is invalid: " + os.str()};
  }

  // The IR pass pipeline, in opt's -passes syntax. LZ_JIT_PIPELINE
  // replaces it (e.g. "default<O3>"), for measuring what a pipeline buys.
  static std::string pipeline() {
    const char* v = std::getenv("LZ_JIT_PIPELINE");
    return v != nullptr && *v != '\0' ? std::string(v) : std::string(kPipeline);
  }

  void optimize(llvm::Module& m) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = false;
    tuning.SLPVectorization = false;
    tuning.LoopUnrolling = false;
    // LZ_LLVM_OPTIONS=-time-passes: LLVM's per-pass timers (printed to stderr).
    llvm::PassInstrumentationCallbacks callbacks;
    std::optional<llvm::StandardInstrumentations> timers;
    if (llvm::TimePassesIsEnabled) {
      timers.emplace(false);
      timers->registerCallbacks(callbacks, &fam);
    }
    llvm::PassBuilder pb(tm.get(), tuning, llvm::None, timers ? &callbacks : nullptr);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (llvm::Error e = pb.parsePassPipeline(mpm, pipeline())) {
      throw CompileFailure{"bad pass pipeline '" + pipeline() + "': " + error_text(std::move(e))};
    }
    mpm.run(m, mam);
  }

  // LZ_JIT_DUMP=dir: every compiled variant's optimised IR as dir/<symbol>.ll.
  static void dump(const std::string& dir, const std::string& name, const llvm::Module& m) {
    std::error_code ec;
    llvm::raw_fd_ostream out(dir + "/" + name + ".ll", ec);
    if (!ec) m.print(out, nullptr);
  }

  // ... and its object file, with the address each symbol was linked at
  // (to match profiles of JIT code: perf shows raw addresses).
  static void dump_object(const std::string& dir, const std::vector<std::string>& symbols, const std::vector<void*>& at,
                          const std::string& object) {
    std::error_code ec;
    llvm::raw_fd_ostream out(dir + "/" + symbols.front() + ".o", ec);
    if (!ec) out << object;
    llvm::raw_fd_ostream map(dir + "/addresses.txt", ec, llvm::sys::fs::OF_Append);
    for (size_t i = 0; !ec && i < symbols.size(); ++i) map << symbols[i] << " " << at[i] << "\n";
  }

  std::string object_of(llvm::Module& m) {
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream out(buffer);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, out, nullptr, llvm::CGFT_ObjectFile)) {
      throw CompileFailure{"the target cannot emit object files"};
    }
    pm.run(m);
    if (llvm::TimePassesIsEnabled) llvm::reportAndResetTimings(&llvm::errs());
    return std::string(buffer.data(), buffer.size());
  }

  // The code of `full_key` from memory or the disk cache. Called with `mu` held.
  std::optional<Result> cached(const std::string& full_key, const std::vector<std::string>& symbols);
  std::string full_key(const std::string& key, const std::vector<std::string>& symbols) const;

  // Links `object` into a JITDylib of its own, which resolves the rest
  // (kernel helpers, libm) through the main one. Called with `mu` held.
  std::shared_ptr<Linked> link(const std::string& object, const std::string& name, const std::vector<std::string>& symbols) {
    auto l = std::make_shared<Linked>();
    l->engine = this;
    l->dylib = &jit->getExecutionSession().createBareJITDylib("lzk_object_" + std::to_string(next_dylib++));
    l->dylib->addToLinkOrder(jit->getMainJITDylib());
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, name);
    if (llvm::Error e = jit->addObjectFile(*l->dylib, std::move(buffer))) {
      throw CompileFailure{"linking failed: " + error_text(std::move(e))};
    }
    for (const std::string& s : symbols) {
      auto sym = jit->lookup(*l->dylib, s);
      if (!sym) throw CompileFailure{"symbol " + s + " missing: " + error_text(sym.takeError())};
      l->addresses.push_back(reinterpret_cast<void*>(static_cast<uintptr_t>(sym->getAddress())));
    }
    return l;
  }
};

namespace {
std::atomic<JitEngine*> g_engine{nullptr};
}

JitEngine& JitEngine::instance() {
  static JitEngine* engine = [] {
    auto* e = new JitEngine();  // never destroyed: kernels may run during static destruction
    g_engine.store(e);
    return e;
  }();
  return *engine;
}

bool JitEngine::started() { return g_engine.load() != nullptr; }

JitStats JitEngine::current_stats() {
  JitEngine* e = g_engine.load();
  return e == nullptr ? JitStats{} : e->stats();
}

JitEngine::JitEngine() : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // LLVM's own command-line options, for measuring and debugging the JIT
  // (e.g. LZ_LLVM_OPTIONS=-time-passes). Read once: the engine is made once.
  if (const char* options = std::getenv("LZ_LLVM_OPTIONS")) {
    static std::vector<std::string> words;  // LLVM keeps pointers into them
    std::istringstream in(options);
    for (std::string w; in >> w;) words.push_back(w);
    std::vector<const char*> argv{"lazuli"};
    for (const std::string& w : words) argv.push_back(w.c_str());
    llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "", &llvm::errs());
  }
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw CompileFailure{"no LLVM target for this host: " + error_text(jtmb.takeError())};
  // Machine code at kCodegenLevel (Aggressive measured ~35% more compile
  // time than Default for the same kernels' speed). LZ_JIT_CODEGEN=0..3 replaces the machine-code level, for measuring.
  const char* level = std::getenv("LZ_JIT_CODEGEN");
  const int codegen_level = level != nullptr && *level >= '0' && *level <= '3' ? *level - '0' : kCodegenLevel;
  jtmb->setCodeGenOptLevel(static_cast<llvm::CodeGenOpt::Level>(codegen_level));
  // Constants addressed relative to the code (one object is linked as one
  // allocation), not through 64-bit absolute addresses kept in registers.
  jtmb->setCodeModel(llvm::CodeModel::Small);
  jtmb->setRelocationModel(llvm::Reloc::PIC_);
  Impl& d = *impl_;
  d.cpu = jtmb->getCPU();
  d.features = jtmb->getFeatures().getString();
  auto tm = jtmb->createTargetMachine();
  if (!tm) throw CompileFailure{"cannot create the target machine: " + error_text(tm.takeError())};
  d.tm = std::move(*tm);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
  if (!jit) throw CompileFailure{"cannot create the JIT: " + error_text(jit.takeError())};
  d.jit = std::move(*jit);
  // libm and the compiler runtime (float64 math, fmod, half conversions
  // on CPUs without F16C) come from the process.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(d.jit->getDataLayout().getGlobalPrefix());
  if (!process) throw CompileFailure{"cannot search the process's symbols: " + error_text(process.takeError())};
  d.jit->getMainJITDylib().addGenerator(std::move(*process));
  // Helpers kernels call (codegen_llvm/runtime_support.h), by address: the
  // library's own symbols need not be exported.
  llvm::orc::SymbolMap helpers;
  helpers[d.jit->mangleAndIntern(kAxisOffsetsSymbol)] = llvm::JITEvaluatedSymbol(
      llvm::pointerToJITTargetAddress(&lz_jit_axis_offsets), llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  if (llvm::Error e = d.jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(helpers)))) {
    throw CompileFailure{"cannot define the kernel helpers: " + error_text(std::move(e))};
  }
  const auto has = [&](const char* f) { return d.features.find(std::string("+") + f) != std::string::npos; };
  d.vector_bits = has("avx512f") ? 512 : has("avx") ? 256 : 128;
  if (const char* v = std::getenv("LZ_VECTOR_BITS")) {
    const int bits = std::atoi(v);
    if (bits == 128 || bits == 256 || bits == 512) d.vector_bits = static_cast<unsigned>(bits);
  }
  d.host = std::string(kGeneratorVersion) + "|build " + library_build_id() + "|llvm " + LZ_LLVM_VERSION + "|" + d.cpu +
           "|" + d.features + "|" + std::to_string(d.vector_bits) + "|" + Impl::pipeline() + "|" + std::to_string(codegen_level);
  if (!env_disabled("LZ_KERNEL_CACHE")) d.disk.emplace(ObjectFileCache::default_dir(), ObjectFileCache::default_max_bytes());
}

JitEngine::~JitEngine() = default;

const std::string& JitEngine::cpu() const { return impl_->cpu; }
const std::string& JitEngine::features() const { return impl_->features; }
unsigned JitEngine::vector_bits() const { return impl_->vector_bits; }

std::optional<JitEngine::Result> JitEngine::Impl::cached(const std::string& full_key, const std::vector<std::string>& symbols) {
  const auto start = std::chrono::steady_clock::now();
  if (auto it = linked.find(full_key); it != linked.end()) {
    if (std::shared_ptr<Linked> l = it->second.lock()) {
      ++stats.memory_hits;
      Result r;
      r.addresses = l->addresses;
      r.code = std::move(l);
      return r;
    }
    linked.erase(it);  // unlinked since: link it again
  }
  if (!disk) return std::nullopt;
  std::optional<std::string> object = disk->load(full_key);
  if (!object) return std::nullopt;
  try {
    std::shared_ptr<Linked> l = link(*object, symbols.front(), symbols);
    linked[full_key] = l;
    Result r;
    r.addresses = l->addresses;
    r.code = std::move(l);
    r.ms = ms_since(start);
    ++stats.disk_hits;
    stats.load_ms += r.ms;
    return r;
  } catch (const CompileFailure&) {
    return std::nullopt;  // a cached object that does not link is rebuilt
  }
}

std::string JitEngine::Impl::full_key(const std::string& key, const std::vector<std::string>& symbols) const {
  std::string k = host + "|" + key;
  for (const std::string& s : symbols) k += "|" + s;
  return k;
}

std::optional<JitEngine::Result> JitEngine::find(const std::string& key, const std::vector<std::string>& symbols) {
  Impl& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  return d.cached(d.full_key(key, symbols), symbols);
}

// Compiles with `compile_mu` held, not `mu`: find() (a launch asking for
// cached code) never waits for another kernel's compile.
JitEngine::Result JitEngine::get(const std::string& key, const std::vector<std::string>& symbols, const EmitFn& emit) {
  Impl& d = *impl_;
  const auto start = std::chrono::steady_clock::now();
  const std::string full_key = d.full_key(key, symbols);
  {
    std::lock_guard<std::mutex> lock(d.mu);
    if (std::optional<Result> hit = d.cached(full_key, symbols)) return std::move(*hit);
  }
  std::string object;
  double optimize_ms = 0, codegen_ms = 0;
  const char* dump_dir = std::getenv("LZ_JIT_DUMP");
  try {
    std::lock_guard<std::mutex> compiling(d.compile_mu);
    {
      // Compiled by the thread this one waited for.
      std::lock_guard<std::mutex> lock(d.mu);
      if (std::optional<Result> hit = d.cached(full_key, symbols)) return std::move(*hit);
    }
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> m = emit(context);
    d.prepare(*m);
    if (dump_dir != nullptr) d.dump(dump_dir, symbols.front() + ".input", *m);
    auto phase = std::chrono::steady_clock::now();
    d.optimize(*m);
    optimize_ms = ms_since(phase);
    if (dump_dir != nullptr) d.dump(dump_dir, symbols.front(), *m);
    phase = std::chrono::steady_clock::now();
    object = d.object_of(*m);
    codegen_ms = ms_since(phase);
  } catch (const CompileFailure&) {
    std::lock_guard<std::mutex> lock(d.mu);
    ++d.stats.failures;
    throw;
  }
  std::lock_guard<std::mutex> lock(d.mu);
  d.stats.optimize_ms += optimize_ms;
  d.stats.codegen_ms += codegen_ms;
  std::shared_ptr<Impl::Linked> l;
  if (auto it = d.linked.find(full_key); it != d.linked.end()) l = it->second.lock();  // linked meanwhile
  if (l == nullptr) {
    try {
      l = d.link(object, symbols.front(), symbols);
    } catch (const CompileFailure&) {
      ++d.stats.failures;
      throw;
    }
    d.linked[full_key] = l;
    if (dump_dir != nullptr) d.dump_object(dump_dir, symbols, l->addresses, object);
    if (d.disk) d.disk->store(full_key, object);
  }
  Result r;
  r.addresses = l->addresses;
  r.code = std::move(l);
  r.ms = ms_since(start);
  r.compiled = true;
  ++d.stats.compiled;
  d.stats.compile_ms += r.ms;
  return r;
}

std::string JitEngine::optimized_ir(const EmitFn& emit) {
  Impl& d = *impl_;
  std::lock_guard<std::mutex> lock(d.compile_mu);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m = emit(context);
  d.prepare(*m);
  d.optimize(*m);
  std::string text;
  llvm::raw_string_ostream os(text);
  m->print(os, nullptr);
  return os.str();
}

JitStats JitEngine::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  JitStats s = impl_->stats;
  std::lock_guard<std::mutex> unlinked_lock(impl_->unlinked_mu);
  s.unlinked = impl_->unlinked;
  return s;
}

void JitEngine::set_disk_cache(bool enabled, const std::string& dir) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->disk.reset();
  if (enabled) impl_->disk.emplace(dir.empty() ? ObjectFileCache::default_dir() : dir, ObjectFileCache::default_max_bytes());
}

}  // namespace lz::codegen_llvm
