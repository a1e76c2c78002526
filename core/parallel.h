// The CPU thread pool behind every parallel kernel. Work is split into at
// most get_num_threads() static chunks of at least `grain` iterations; the
// calling thread runs one chunk itself. Chunk boundaries depend only on the
// range, the grain and the thread count, so kernels that combine per-chunk
// results in chunk order are deterministic.
#pragma once

#include <cstdint>
#include <functional>

namespace lz {

// Threads used by parallel kernels; defaults to LZ_NUM_THREADS or the
// number of CPUs this process may run on.
int get_num_threads();
// ValueError unless n >= 1. Takes effect for the next parallel region.
void set_num_threads(int n);

// True inside a chunk of parallel_for (nested regions run inline).
bool in_parallel_region();

// Calls f(chunk_begin, chunk_end) over [begin, end). Runs inline when the
// range has at most `grain` iterations, with one thread, or when nested.
// The first exception thrown by a chunk is rethrown after all chunks end.
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& f);

// The number of chunks parallel_for would use for this range (>= 1), and
// chunk i's bounds: for kernels that keep one partial result per chunk.
int64_t parallel_chunks(int64_t begin, int64_t end, int64_t grain);

}  // namespace lz
