// The memory bandwidth benchmarks are measured against: STREAM-style copy
// (a[i] = b[i]) and triad (a[i] = b[i] + s c[i]) over arrays far larger
// than the caches, split over Lazuli's threads, written with non-temporal
// stores as the kernels' large outputs are. On these virtual machines the
// bandwidth moves between levels within seconds, so the benchmarks measure
// it again next to every timed run rather than trusting one start-up figure.
// On a CUDA device the same two passes run on device memory (a
// device-to-device copy, and an add kernel), timed to the stream's end.
//
// One implementation for everything that reports "% of the copy": lz-bench
// (BandwidthProbe) and the Google Benchmark binaries of bench/ (stream_copy,
// bench/bandwidth.h). Built as the static library lz_bandwidth_probe
// (tools/lz_bench/CMakeLists.txt); it uses the public API only.
#pragma once

#include <cstdint>
#include <memory>

#include <lazuli/lazuli.h>

namespace lz::bench_runner {

// Copies n floats from src to dst with non-temporal stores (plain stores
// for dst's unaligned edges), split over lz::parallel_for in blocks of 64K
// floats, each thread fencing its stores. Moves 2 * 4 * n bytes.
void stream_copy(float* dst, const float* src, int64_t n);

class BandwidthProbe {
 public:
  // Three arrays of `elements` floats (default 64 MiB each) on `device`.
  explicit BandwidthProbe(int64_t elements = int64_t{16} << 20, Device device = Device(DeviceType::CPU));
  BandwidthProbe(const BandwidthProbe&) = delete;
  BandwidthProbe& operator=(const BandwidthProbe&) = delete;
  ~BandwidthProbe();

  // One timed pass each, in GB/s of bytes read plus bytes written.
  double copy_gbps();
  double triad_gbps();

 private:
  struct Arrays;
  struct DeviceArrays;
  std::unique_ptr<Arrays> arrays_;
  std::unique_ptr<DeviceArrays> device_arrays_;
};

}  // namespace lz::bench_runner
