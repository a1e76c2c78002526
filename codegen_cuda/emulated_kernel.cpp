#include "codegen_cuda/emulated_kernel.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen_cuda/kernel_args.h"
#include "codegen_cuda/nvrtc.h"
#include "core/error.h"
#include "core/stable_hash.h"

namespace lz::codegen_cuda {

namespace {

namespace fs = std::filesystem;

// $LZ_HOST_CXX, else the compiler that built Lazuli (if it is still
// there), else c++ on the PATH.
std::string host_compiler() {
  if (const char* c = std::getenv("LZ_HOST_CXX")) return c;
#ifdef LZ_BUILD_CXX
  if (fs::exists(LZ_BUILD_CXX)) return LZ_BUILD_CXX;
#endif
  return "c++";
}

// -ffp-contract=off: no fused multiply-adds, as NVRTC is asked (--fmad=false).
// The same flags build the precompiled header and the kernels (GCC uses a
// precompiled header only with matching options).
constexpr const char* kFlags = "-std=c++20 -O1 -fPIC -ffp-contract=off -w";

// Removed at exit (loaded objects stay mapped after their files are gone).
std::string process_temp_dir() {
  static const std::string dir = [] {
    std::string pattern = (fs::temp_directory_path() / "lazuli-cuda-emu-XXXXXX").string();
    LZ_CHECK(mkdtemp(pattern.data()) != nullptr, InternalError, "[cuda emulator] cannot create a temporary directory");
    return pattern;
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(dir, ec);
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string hex(uint64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The translation unit: the kernels and, for each, an entry point that
// launches it and turns an emulator error into a message (the emulator
// header comes first, through -include).
std::string translation_unit(const std::string& combined, const std::vector<CudaSource>& sources) {
  std::string tu = combined;
  tu += "\n#include <string>\nstatic thread_local std::string lz_emu_error;\n";
  std::vector<std::string> seen;
  for (const CudaSource& src : sources) {
    if (std::find(seen.begin(), seen.end(), src.entry) != seen.end()) continue;
    seen.push_back(src.entry);
    tu += "extern \"C\" __attribute__((visibility(\"default\"))) const char* run_" + src.entry +
          "(unsigned grid, unsigned block, const void* args) {\n"
          "  try {\n"
          "    lz_emu::launch(grid, block, [&] { " + src.entry + "(*static_cast<const " + src.entry + "_args*>(args)); });\n"
          "    return nullptr;\n"
          "  } catch (const std::exception& e) {\n"
          "    lz_emu_error = e.what();\n"
          "    return lz_emu_error.c_str();\n"
          "  }\n"
          "}\n";
  }
  return tu;
}

// Runs the host compiler on `source`, writing `out` (through a temporary
// file and a rename: another process may be building the same file).
void compile_once(const std::string& source, const std::string& flags, const fs::path& out, const std::string& what) {
  if (fs::exists(out)) return;
  const std::string tag = std::to_string(getpid()) + "." + std::to_string(reinterpret_cast<uintptr_t>(&source));
  const bool header = out.extension() == ".gch";
  const fs::path src = out.string() + "." + tag + (header ? ".h" : ".cpp"), tmp = out.string() + "." + tag + ".tmp",
                 log = out.string() + "." + tag + ".log";
  {
    std::ofstream file(src);
    file << source;
    LZ_CHECK(file.good(), InternalError, "[cuda emulator] cannot write ", src.string());
  }
  const std::string cmd = host_compiler() + " " + kFlags + " " + flags + " -o '" + tmp.string() + "' '" +
                          src.string() + "' > '" + log.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string output = read_file(log);
  std::error_code ec;
  fs::remove(log, ec);
  if (rc != 0) {
    fs::remove(tmp, ec);
    LZ_FAIL(InternalError, "[cuda emulator] ", what, ": the host compiler failed (", cmd, "):\n", output,
            "\nsource kept in ", src.string());
  }
  fs::remove(src, ec);
  fs::rename(tmp, out, ec);
  LZ_CHECK(!ec, InternalError, "[cuda emulator] cannot move ", tmp.string(), " to ", out.string(), ": ", ec.message());
}

// The emulator header in `dir`, with a precompiled version beside it (the
// header's standard library includes are most of a kernel's compile time).
// Returns the header's path, for -include.
fs::path emulator_header(const fs::path& dir) {
  const std::string text(cuda_emulator_header());
  const fs::path h = dir / ("cuda_emu_" + hex(stable_hash(text + host_compiler() + kFlags)) + ".h");
  if (!fs::exists(h)) {
    const fs::path tmp = h.string() + "." + std::to_string(getpid());
    std::ofstream(tmp) << text;
    std::error_code ec;
    fs::rename(tmp, h, ec);
  }
  compile_once(text, "-x c++-header", h.string() + ".gch", "the emulator header");
  return h;
}

}  // namespace

EmulatedKernel::EmulatedKernel(const ir::Kernel& k, CudaSource source, const EmulatorOptions& options)
    : kernel_(k), options_(options), source_(std::move(source)) {
  LZ_CHECK(options_.block_threads >= 32 && options_.block_threads <= 1024 && options_.block_threads % 32 == 0,
           ValueError, "[cuda emulator] block_threads: expected a multiple of 32 in [32, 1024], got ",
           options_.block_threads);
}

std::unique_ptr<EmulatedKernel> EmulatedKernel::compile(const ir::Kernel& k, const EmulatorOptions& options) {
  return std::move(compile_all({k}, options)[0]);
}

std::vector<std::unique_ptr<EmulatedKernel>> EmulatedKernel::compile_all(const std::vector<ir::Kernel>& kernels,
                                                                         const EmulatorOptions& options) {
  std::vector<std::unique_ptr<EmulatedKernel>> out;
  std::vector<CudaSource> sources;
  for (const ir::Kernel& k : kernels) {
    out.emplace_back(new EmulatedKernel(k, generate_cuda_source(k), options));
    sources.push_back(out.back()->source_);
  }
  if (out.empty()) return out;
  const std::string combined = combined_source(sources);
  if (!options.nvrtc_archs.empty() && nvrtc_info().available) {
    for (const std::string& arch : options.nvrtc_archs) {
      const NvrtcResult r = nvrtc_compile(combined, "emulated", arch);
      LZ_CHECK(r.ok, InternalError, "[cuda emulator] NVRTC (", arch, ") rejects the generated source:\n", r.log,
               "\n--- source ---\n", combined);
    }
  }
  const fs::path dir = options.cache_dir.empty() ? fs::path(process_temp_dir()) : fs::path(options.cache_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path header = emulator_header(dir);
  const std::string tu = translation_unit(combined, sources);
  const fs::path so = dir / ("emu_" + hex(stable_hash(tu + header.string() + host_compiler() + kFlags)) + ".so");
  compile_once(tu, "-shared -include '" + header.string() + "'", so,
               kernels.size() == 1 ? "kernel " + kernels[0].name : std::to_string(kernels.size()) + " kernels");
  for (const std::unique_ptr<EmulatedKernel>& k : out) k->load(so.string());
  return out;
}

void EmulatedKernel::load(const std::string& library) {
  library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  LZ_CHECK(library_ != nullptr, InternalError, "[cuda emulator] cannot load ", library, ": ", dlerror());
  entry_ = reinterpret_cast<Entry>(dlsym(library_, ("run_" + source_.entry).c_str()));
  LZ_CHECK(entry_ != nullptr, InternalError, "[cuda emulator] ", library, " has no run_", source_.entry);
}

EmulatedKernel::~EmulatedKernel() {
  if (library_ != nullptr) dlclose(library_);
}

void EmulatedKernel::run(const ir::KernelLaunch& launch) const {
  const std::vector<uint64_t> args = pack_kernel_args(kernel_, launch);
  const LaunchShape shape = launch_shape(kernel_, launch, source_.row_kernel, options_.block_threads, options_.max_grid);
  if (shape.grid == 0) return;
  if (const char* error = entry_(shape.grid, shape.block, args.data())) {
    LZ_FAIL(InternalError, "[cuda emulator] kernel ", kernel_.name, " (", source_.entry, "): ", error);
  }
}

}  // namespace lz::codegen_cuda
