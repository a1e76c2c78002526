#include "codegen_cuda/device_kernel.h"

#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include "codegen_cuda/emulated_kernel.h"
#include "codegen_cuda/kernel_args.h"
#include "codegen_cuda/nvrtc.h"
#include "core/cuda/runtime.h"
#include "core/cuda/device.h"
#include "core/cuda/driver.h"
#include "core/error.h"
#include "core/object_file_cache.h"

namespace lz::codegen_cuda {

namespace {

using namespace cuda::detail;

std::atomic<int64_t> compiles{0}, memory_hits{0}, disk_hits{0}, launches{0};

// One cache object per directory (it keeps the directory's trim state).
const ObjectFileCache& disk_cache(const std::string& dir) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ObjectFileCache>> caches;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ObjectFileCache>& c = caches[dir];
  if (!c) c = std::make_unique<ObjectFileCache>(dir);
  return *c;
}

}  // namespace

std::string cached_device_code(const CudaSource& source, const std::string& arch, const std::string& cache_dir,
                               const std::string& kernel) {
  const NvrtcInfo& nvrtc = nvrtc_info();
  LZ_CHECK(nvrtc.available, DeviceError, "[cuda kernel ", kernel, "] NVRTC unavailable: ", nvrtc.reason);
  const std::string key = "device code|nvrtc " + std::to_string(nvrtc.major) + "." + std::to_string(nvrtc.minor) + "|" +
                          arch + "|" + source.code;
  const ObjectFileCache* disk = cache_dir.empty() ? nullptr : &disk_cache(cache_dir);
  if (disk) {
    if (std::optional<std::string> hit = disk->load(key)) {
      ++disk_hits;
      return *hit;
    }
  }
  ++compiles;
  const NvrtcResult r = nvrtc_compile(source.code, source.entry, arch);
  LZ_CHECK(r.ok, InternalError, "[cuda kernel ", kernel, "] NVRTC (", arch, ") rejects the generated source:\n",
           r.log, "\n--- source ---\n", source.code);
  // PTX is loaded as a NUL-terminated string.
  std::string code = r.cubin.empty() ? r.ptx + '\0' : std::string(r.cubin.begin(), r.cubin.end());
  if (disk) disk->store(key, code);
  return code;
}

DeviceKernel::DeviceKernel(const ir::Kernel& k, CudaSource source, int device, const DeviceKernelOptions& options)
    : kernel_(k), source_(std::move(source)), device_(device), options_(options) {
  const cuda::DeviceProperties& props = cuda::device_properties(device);
  if (props.emulated) {
    EmulatorOptions emu;
    emu.cache_dir = options.cache_dir.empty() ? std::string() : options.cache_dir + "-emu";
    ++compiles;
    emulated_ = EmulatedKernel::compile(k, emu);
    return;
  }
  const std::string arch =
      options.arch.empty() ? nvrtc_target(props.major * 10 + props.minor, nvrtc_supported_archs()) : options.arch;
  const std::string code = cached_device_code(source_, arch, options.cache_dir, k.name);
  const DriverApi& api = driver_api("cuda kernel");
  activate(device, "cuda kernel");
  check(api.cuModuleLoadData(&module_, code.data()), "cuModuleLoadData", "cuda kernel");
  check(api.cuModuleGetFunction(&function_, module_, source_.entry.c_str()), "cuModuleGetFunction", "cuda kernel");
}

DeviceKernel::~DeviceKernel() {
  // Modules live as long as the process's contexts; unloading at exit races the driver's own teardown.
  if (module_ != nullptr && cuda::is_available()) {
    driver_api("cuda kernel").cuModuleUnload(module_);
  }
}

std::shared_ptr<const DeviceKernel> DeviceKernel::get(const ir::Kernel& k, int device,
                                                      const DeviceKernelOptions& options) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int, std::string>, std::shared_ptr<const DeviceKernel>> kernels;
  CudaSource source = generate_cuda_source(k);
  const auto key = std::make_tuple(source.entry, device, options.arch);
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<const DeviceKernel>& slot = kernels[key];
  if (slot) {
    ++memory_hits;
    return slot;
  }
  slot.reset(new DeviceKernel(k, std::move(source), device, options));
  return slot;
}

void DeviceKernel::launch(const ir::KernelLaunch& launch) const {
  ++launches;
  if (emulated_) return emulated_->run(launch);
  const LaunchShape shape = launch_shape(kernel_, launch, source_.row_kernel, options_.block_threads, options_.max_grid);
  if (shape.grid == 0) return;
  std::vector<uint64_t> args = pack_kernel_args(kernel_, launch);
  void* params[] = {args.data()};
  void* stream = activate(device_, "cuda kernel");
  check(driver_api("cuda kernel").cuLaunchKernel(function_, shape.grid, 1, 1, shape.block, 1, 1, 0, stream, params,
                                                 nullptr),
        "cuLaunchKernel", kernel_.name.c_str());
}

DeviceKernelStats device_kernel_stats() { return {compiles.load(), memory_hits.load(), disk_hits.load(), launches.load()}; }

}  // namespace lz::codegen_cuda
