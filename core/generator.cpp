#include "core/generator.h"

namespace lz {

uint64_t GeneratorImpl::seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

void GeneratorImpl::set_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = 0;
}

GeneratorImpl::Range GeneratorImpl::reserve(uint64_t blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Range range{seed_, offset_};
  offset_ += blocks;
  return range;
}

uint64_t GeneratorImpl::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return offset_;
}

Generator default_generator() {
  // PyTorch's default seed, so a program that never seeds is still repeatable.
  static Generator* instance = new Generator(67280421310721ull);
  return *instance;
}

void manual_seed(uint64_t seed) { default_generator().set_seed(seed); }

}  // namespace lz
