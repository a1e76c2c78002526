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

GeneratorImpl::Range GeneratorImpl::reserve(uint64_t /*blocks*/) {
  std::lock_guard<std::mutex> lock(mutex_);
  return Range{stream_key(seed_, offset_++), 0};
}

intrusive_ptr<GeneratorImpl> GeneratorImpl::snapshot_and_advance() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto snapshot = make_intrusive<GeneratorImpl>(seed_);
  snapshot->offset_ = offset_++;
  return snapshot;
}

uint64_t stream_key(uint64_t seed, uint64_t call) {
  // splitmix64 of (seed, call): distinct, well-mixed keys per slot; slot 0
  // of seed s is keyed by s itself, so a fresh generator's first stream is
  // the plain philox4x32_10(seed, block).
  if (call == 0) return seed;
  uint64_t z = seed + call * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

namespace {
thread_local GeneratorImpl* tls_default_override = nullptr;
}  // namespace

DefaultGeneratorGuard::DefaultGeneratorGuard(Generator g)
    : previous_(tls_default_override), installed_(std::move(g)) {
  tls_default_override = installed_.impl();
}

DefaultGeneratorGuard::~DefaultGeneratorGuard() { tls_default_override = previous_; }

uint64_t GeneratorImpl::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return offset_;
}

namespace {
Generator& process_generator() {
  // PyTorch's default seed, so a program that never seeds is still repeatable.
  static Generator* instance = new Generator(67280421310721ull);
  return *instance;
}
}  // namespace

Generator default_generator() {
  if (tls_default_override != nullptr) [[unlikely]] {
    return Generator(intrusive_ptr<GeneratorImpl>(tls_default_override));
  }
  return process_generator();
}

void manual_seed(uint64_t seed) { process_generator().set_seed(seed); }

}  // namespace lz
