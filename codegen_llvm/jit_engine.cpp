#include "codegen_llvm/jit_engine.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string_view>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
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
constexpr const char* kGeneratorVersion = "lz-codegen-3";

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
  std::mutex mu;
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

  // LZ_OPT_LEVEL=0..3 (default 3), for measuring what the pipeline buys.
  static llvm::OptimizationLevel opt_level() {
    const char* v = std::getenv("LZ_OPT_LEVEL");
    switch (v == nullptr ? '3' : v[0]) {
      case '0': return llvm::OptimizationLevel::O0;
      case '1': return llvm::OptimizationLevel::O1;
      case '2': return llvm::OptimizationLevel::O2;
      default: return llvm::OptimizationLevel::O3;
    }
  }

  void optimize(llvm::Module& m) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // The generated loops are vectorised already: the loop and SLP
    // vectorisers would only spend compile time looking at them.
    // Unrolling would copy loop bodies that are already 16 lanes wide (and
    // scalar remainders that run < 16 times): compile time, no speed.
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = false;
    tuning.SLPVectorization = false;
    tuning.LoopUnrolling = false;
    llvm::PassBuilder pb(tm.get(), tuning);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(opt_level()).run(m, mam);
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
    return std::string(buffer.data(), buffer.size());
  }

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

JitStats JitEngine::current_stats() {
  JitEngine* e = g_engine.load();
  return e == nullptr ? JitStats{} : e->stats();
}

JitEngine::JitEngine() : impl_(std::make_unique<Impl>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) throw CompileFailure{"no LLVM target for this host: " + error_text(jtmb.takeError())};
  // IR is optimised at O3; machine code at the default level: the
  // aggressive one measured ~35% more compile time for the same kernels' speed.
  jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Default);
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
           "|" + d.features + "|" + std::to_string(d.vector_bits);
  if (!env_disabled("LZ_KERNEL_CACHE")) d.disk.emplace(ObjectFileCache::default_dir(), ObjectFileCache::default_max_bytes());
}

JitEngine::~JitEngine() = default;

const std::string& JitEngine::cpu() const { return impl_->cpu; }
const std::string& JitEngine::features() const { return impl_->features; }
unsigned JitEngine::vector_bits() const { return impl_->vector_bits; }

JitEngine::Result JitEngine::get(const std::string& key, const std::vector<std::string>& symbols, const EmitFn& emit) {
  Impl& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  const auto start = std::chrono::steady_clock::now();
  std::string full_key = d.host + "|" + key;
  for (const std::string& s : symbols) full_key += "|" + s;
  Result r;
  const auto linked = [&](std::shared_ptr<Impl::Linked> l) {
    r.addresses = l->addresses;
    d.linked[full_key] = l;
    r.code = std::move(l);
  };
  if (auto it = d.linked.find(full_key); it != d.linked.end()) {
    if (std::shared_ptr<Impl::Linked> l = it->second.lock()) {
      ++d.stats.memory_hits;
      r.addresses = l->addresses;
      r.code = std::move(l);
      return r;
    }
    d.linked.erase(it);  // unlinked since: link it again
  }
  if (d.disk) {
    if (std::optional<std::string> object = d.disk->load(full_key)) {
      try {
        linked(d.link(*object, symbols.front(), symbols));
        r.ms = ms_since(start);
        ++d.stats.disk_hits;
        d.stats.load_ms += r.ms;
        return r;
      } catch (const CompileFailure&) {
        // A cached object that does not link is rebuilt below.
      }
    }
  }
  try {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> m = emit(context);
    d.prepare(*m);
    auto phase = std::chrono::steady_clock::now();
    d.optimize(*m);
    d.stats.optimize_ms += ms_since(phase);
    const char* dump_dir = std::getenv("LZ_JIT_DUMP");
    if (dump_dir != nullptr) d.dump(dump_dir, symbols.front(), *m);
    phase = std::chrono::steady_clock::now();
    const std::string object = d.object_of(*m);
    d.stats.codegen_ms += ms_since(phase);
    linked(d.link(object, symbols.front(), symbols));
    if (dump_dir != nullptr) d.dump_object(dump_dir, symbols, r.addresses, object);
    if (d.disk) d.disk->store(full_key, object);
  } catch (const CompileFailure&) {
    ++d.stats.failures;
    throw;
  }
  r.ms = ms_since(start);
  r.compiled = true;
  ++d.stats.compiled;
  d.stats.compile_ms += r.ms;
  return r;
}

std::string JitEngine::optimized_ir(const EmitFn& emit) {
  Impl& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
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
