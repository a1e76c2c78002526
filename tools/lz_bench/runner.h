// Measuring one workload eager and lazy (lz-bench's core, separate from
// option parsing and printing).
#pragma once

#include "bandwidth.h"
#include "results.h"
#include "workloads.h"

namespace lz::bench_runner {

struct RunOptions {
  bool quick = false;
  int repetitions = 10;
  ScalarType dtype = kFloat32;
  Device device = Device(DeviceType::CPU);  // inputs are moved there; runs wait for the device
};

// Runs `w` eagerly and lazily: the lazy result against the eager one, the
// first lazy call in a fresh executable cache, then `repetitions` timed
// eager and lazy runs, each next to a bandwidth measurement.
WorkloadResult measure(const Workload& w, const RunOptions& options, BandwidthProbe& bandwidth);

}  // namespace lz::bench_runner
