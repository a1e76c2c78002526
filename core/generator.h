// Random number generators. A Generator is a seed plus a position in its
// Philox stream; random operators reserve a range of the stream and compute
// their numbers from it, so results depend only on the seed and call order.
#pragma once

#include <cstdint>
#include <mutex>

#include "core/intrusive_ptr.h"

namespace lz {

class GeneratorImpl final : public RefCounted {
 public:
  explicit GeneratorImpl(uint64_t seed) : seed_(seed) {}

  uint64_t seed() const;
  // Restarts the stream from `seed`.
  void set_seed(uint64_t seed);
  // Reserves `blocks` consecutive Philox blocks of the current stream.
  struct Range {
    uint64_t key;          // the seed the blocks belong to
    uint64_t first_block;  // index of the first reserved block
  };
  Range reserve(uint64_t blocks);
  uint64_t offset() const;

 private:
  mutable std::mutex mutex_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : impl_(make_intrusive<GeneratorImpl>(seed)) {}
  explicit Generator(intrusive_ptr<GeneratorImpl> impl) : impl_(std::move(impl)) {}

  uint64_t seed() const { return impl_->seed(); }
  void set_seed(uint64_t seed) { impl_->set_seed(seed); }
  GeneratorImpl* impl() const { return impl_.get(); }
  friend bool operator==(const Generator& a, const Generator& b) { return a.impl_ == b.impl_; }

 private:
  intrusive_ptr<GeneratorImpl> impl_;
};

// The process-wide CPU generator used when a random op gets no generator.
Generator default_generator();
// Seeds the default generator (torch::manual_seed).
void manual_seed(uint64_t seed);
// A new independent generator (at::make_generator<CPUGeneratorImpl>(seed)).
inline Generator make_generator(uint64_t seed) { return Generator(seed); }

}  // namespace lz
