#include "codegen_cuda/kernel_args.h"

#include <algorithm>
#include <bit>

#include "core/error.h"

namespace lz::codegen_cuda {

ArgsLayout args_layout(const ir::Kernel& k) {
  ArgsLayout l;
  l.rank_slots = std::max<uint32_t>(1, k.rank);
  l.num_accesses = std::max<uint32_t>(1, static_cast<uint32_t>(k.accesses.size()));
  l.param_slots = std::max<uint32_t>(1, k.num_params);
  return l;
}

std::vector<uint64_t> pack_kernel_args(const ir::Kernel& k, const ir::KernelLaunch& launch) {
  LZ_CHECK(launch.domain.size() == k.rank && launch.accesses.size() == k.accesses.size() &&
               launch.params.size() == k.num_params,
           ValueError, "[codegen_cuda] kernel ", k.name, ": the launch binds ", launch.domain.size(), " axes, ",
           launch.accesses.size(), " accesses and ", launch.params.size(), " params; the kernel has ", k.rank, ", ",
           k.accesses.size(), " and ", k.num_params);
  const ArgsLayout l = args_layout(k);
  std::vector<uint64_t> w(l.words(), 0);
  size_t at = 0;
  for (uint32_t d = 0; d < l.rank_slots; ++d) w[at++] = d < k.rank ? static_cast<uint64_t>(launch.domain[d]) : 1;
  for (uint32_t a = 0; a < l.num_accesses; ++a) {
    for (uint32_t d = 0; d < l.rank_slots; ++d) {
      const bool bound = a < launch.accesses.size() && d < launch.accesses[a].strides.size();
      w[at++] = bound ? static_cast<uint64_t>(launch.accesses[a].strides[d]) : 0;
    }
  }
  for (uint32_t a = 0; a < l.num_accesses; ++a) {
    w[at++] = a < launch.accesses.size() ? reinterpret_cast<uintptr_t>(launch.accesses[a].data) : 0;
  }
  const size_t fparam = at, iparam = at + l.param_slots, pfloat = at + 2 * l.param_slots;
  for (size_t p = 0; p < launch.params.size(); ++p) {
    const Scalar& s = launch.params[p];
    if (s.is_floating_point()) {
      w[fparam + p] = std::bit_cast<uint64_t>(s.to_double());
      w[pfloat + p] = 1;
    } else {
      w[iparam + p] = static_cast<uint64_t>(s.is_bool() ? (s.to_bool() ? 1 : 0) : s.to_long());
    }
  }
  return w;
}

LaunchShape launch_shape(const ir::Kernel& k, const ir::KernelLaunch& launch, bool row_kernel,
                         uint32_t block_threads, uint32_t max_grid) {
  int64_t points = 1, outer = 1;
  for (uint32_t d = 0; d < k.rank; ++d) {
    points *= launch.domain[d];
    if (((k.reduce_axes >> d) & 1) == 0) outer *= launch.domain[d];
  }
  LaunchShape s;
  s.block = block_threads;
  const int64_t blocks = row_kernel ? outer : (points + block_threads - 1) / block_threads;
  s.grid = static_cast<uint32_t>(std::clamp<int64_t>(blocks, 0, max_grid));
  if (points == 0 && !row_kernel) s.grid = 0;
  return s;
}

}  // namespace lz::codegen_cuda
