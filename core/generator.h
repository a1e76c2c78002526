// Random number generators. A Generator is a seed plus a count of the
// random-operator calls it has served. Every call of a random operator takes
// exactly one call slot, whatever its size: slot k owns the Philox stream
// keyed by stream_key(seed, k), starting at block 0. So results depend only on
// the seed and the order of calls, and a lazy trace can set a call's slot
// aside at record time (snapshot_and_advance) without knowing how many
// numbers the kernel will draw when it finally runs.
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
  // Takes the next call slot: `blocks` Philox blocks of its own stream.
  struct Range {
    uint64_t key;          // the Philox key of the slot's stream
    uint64_t first_block;  // index of the first reserved block (always 0)
  };
  Range reserve(uint64_t blocks);
  // Call slots taken since the last seeding.
  uint64_t offset() const;
  // A new generator that will serve this one's next call slot, while this
  // one skips past it: the random op recorded now and run later draws
  // exactly what it would have drawn eagerly.
  intrusive_ptr<GeneratorImpl> snapshot_and_advance();

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

// The Philox key of call slot `call` of a generator seeded with `seed`.
uint64_t stream_key(uint64_t seed, uint64_t call);

// The process-wide CPU generator used when a random op gets no generator
// (or, on this thread, the one a DefaultGeneratorGuard installed).
Generator default_generator();

// Makes default_generator() return `g` on this thread while alive (a lazy
// executor replays a recorded random op with the slot set aside for it).
class DefaultGeneratorGuard {
 public:
  explicit DefaultGeneratorGuard(Generator g);
  ~DefaultGeneratorGuard();
  DefaultGeneratorGuard(const DefaultGeneratorGuard&) = delete;
  DefaultGeneratorGuard& operator=(const DefaultGeneratorGuard&) = delete;

 private:
  GeneratorImpl* previous_;
  Generator installed_;
};
// Seeds the default generator (torch::manual_seed).
void manual_seed(uint64_t seed);
// A new independent generator (at::make_generator<CPUGeneratorImpl>(seed)).
inline Generator make_generator(uint64_t seed) { return Generator(seed); }

}  // namespace lz
