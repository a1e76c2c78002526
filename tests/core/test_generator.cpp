#include <thread>
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/generator.h"
#include "core/philox.h"

using namespace lz;

namespace {

using Words4 = std::array<uint32_t, 4>;

// Philox4x32-10 over a full 4-word counter and 2-word key, written from the
// Random123 description (Salmon et al., SC'11, and philox.h in Random123):
// round: (hi(M1*c2) ^ c1 ^ k0, lo(M1*c2), hi(M0*c0) ^ c3 ^ k1, lo(M0*c0));
// the key is bumped by the Weyl constants between rounds.
Words4 reference_philox(Words4 ctr, std::array<uint32_t, 2> key) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      key[0] += 0x9E3779B9u;
      key[1] += 0xBB67AE85u;
    }
    const uint64_t prod0 = uint64_t{0xD2511F53u} * ctr[0];
    const uint64_t prod1 = uint64_t{0xCD9E8D57u} * ctr[2];
    const uint32_t hi0 = static_cast<uint32_t>(prod0 >> 32), lo0 = static_cast<uint32_t>(prod0);
    const uint32_t hi1 = static_cast<uint32_t>(prod1 >> 32), lo1 = static_cast<uint32_t>(prod1);
    ctr = {hi1 ^ ctr[1] ^ key[0], lo1, hi0 ^ ctr[3] ^ key[1], lo0};
  }
  return ctr;
}

Words4 as_words(const PhiloxBlock& b) { return {b[0], b[1], b[2], b[3]}; }

std::vector<float> values(const Tensor& t) {
  const float* p = t.data_ptr<float>();
  return std::vector<float>(p, p + t.numel());
}

}  // namespace

TEST_CASE("Philox4x32-10: Random123 known-answer vectors", "[core]") {
  // The test-local reference must reproduce all three published vectors.
  CHECK(reference_philox({0, 0, 0, 0}, {0, 0}) == Words4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(reference_philox({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
        Words4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(reference_philox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
        Words4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
  // The library's (64-bit key, 64-bit counter) form can express the first one directly.
  CHECK(as_words(philox4x32_10(0, 0)) == Words4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  STATIC_REQUIRE(philox4x32_10(0, 0)[0] == 0x6627e8d5u);
}

TEST_CASE("Philox4x32-10: library matches the 4-word reference (counter words 2-3 zero)", "[core]") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t key = i < 4 ? ~uint64_t{0} * (i & 1) : rng();
    const uint64_t counter = i < 4 ? ~uint64_t{0} * (i >> 1) : rng();
    const Words4 want = reference_philox(
        {static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32), 0, 0},
        {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)});
    INFO("key " << key << " counter " << counter);
    REQUIRE(as_words(philox4x32_10(key, counter)) == want);
  }
  // Neighbouring counters and keys give unrelated blocks.
  CHECK(philox4x32_10(1, 0) != philox4x32_10(0, 0));
  CHECK(philox4x32_10(0, 1) != philox4x32_10(0, 0));
  CHECK(philox4x32_10(0, uint64_t{1} << 32) != philox4x32_10(0, 1));
}

TEST_CASE("uint32_to_unit_float maps onto the unit interval with 24 bits", "[core]") {
  CHECK(uint32_to_unit_float(0) == 0.0f);
  CHECK(uint32_to_unit_float(0xffffffffu) < 1.0f);
  CHECK(uint32_to_unit_float(0xffffffffu) == 1.0f - 1.0f / 16777216.0f);
  CHECK(uint32_to_unit_float(0x80000000u) == 0.5f);
  CHECK(uint32_to_unit_float(0xff) == 0.0f);  // the low 8 bits are dropped
}

TEST_CASE("Generator: seed, set_seed and reserve", "[core]") {
  Generator g = make_generator(42);
  CHECK(g.seed() == 42);
  CHECK(g.impl()->offset() == 0);
  // Each reservation is one call slot with a stream of its own.
  const GeneratorImpl::Range r1 = g.impl()->reserve(5);
  CHECK(r1.key == 42);  // slot 0 is keyed by the seed itself
  CHECK(r1.first_block == 0);
  CHECK(g.impl()->offset() == 1);
  const GeneratorImpl::Range r2 = g.impl()->reserve(3);
  CHECK(r2.key == stream_key(42, 1));
  CHECK(r2.key != r1.key);
  CHECK(r2.first_block == 0);
  CHECK(g.impl()->offset() == 2);
  g.set_seed(7);
  CHECK(g.seed() == 7);
  CHECK(g.impl()->offset() == 0);  // a new seed restarts the stream
  CHECK(g.impl()->reserve(1).key == 7);
  // Copies share the stream; make_generator gives a new one.
  Generator copy = g;
  CHECK(copy == g);
  copy.impl()->reserve(10);
  CHECK(g.impl()->offset() == 2);
  CHECK_FALSE(make_generator(7) == g);
}

TEST_CASE("Generator: a snapshot serves the slot its source skips", "[core]") {
  Generator g = make_generator(11);
  g.impl()->reserve(1);
  Generator snap(g.impl()->snapshot_and_advance());
  CHECK(g.impl()->offset() == 2);
  CHECK(snap.impl()->reserve(4).key == stream_key(11, 1));
  CHECK(g.impl()->reserve(4).key == stream_key(11, 2));
  // Keys of different slots and seeds differ.
  CHECK(stream_key(11, 1) != stream_key(11, 2));
  CHECK(stream_key(11, 1) != stream_key(12, 1));
}

TEST_CASE("Generator: DefaultGeneratorGuard replaces the default on this thread only", "[core]") {
  Generator mine = make_generator(5);
  const Generator before = default_generator();
  {
    DefaultGeneratorGuard guard(mine);
    CHECK(default_generator() == mine);
    bool other_thread_sees_process_default = false;
    std::thread([&] { other_thread_sees_process_default = default_generator() == before; }).join();
    CHECK(other_thread_sees_process_default);
  }
  CHECK(default_generator() == before);
}

TEST_CASE("randn: same seed gives the same numbers and manual_seed restarts the default stream", "[core]") {
  manual_seed(1234);
  CHECK(default_generator().seed() == 1234);
  const std::vector<float> a = values(lz::randn({257}));
  const std::vector<float> a2 = values(lz::randn({257}));
  CHECK(a != a2);  // the stream moved on
  manual_seed(1234);
  CHECK(values(lz::randn({257})) == a);
  CHECK(values(lz::randn({257})) == a2);
  manual_seed(1235);
  CHECK(values(lz::randn({257})) != a);
  CHECK(default_generator() == default_generator());  // one process-wide generator
}

TEST_CASE("randn: explicit generators are independent of each other and of the default", "[core]") {
  Generator g1 = make_generator(99), g2 = make_generator(99);
  const std::vector<float> x1 = values(lz::randn({100}, g1));
  lz::randn({50});           // default generator
  lz::randn({30}, make_generator(99));
  const std::vector<float> y1 = values(lz::randn({100}, g1));
  const std::vector<float> x2 = values(lz::randn({100}, g2));
  const std::vector<float> y2 = values(lz::randn({100}, g2));
  CHECK(x1 == x2);
  CHECK(y1 == y2);
  CHECK(x1 != y1);
  // Drawing from g1 does not move the default generator.
  const uint64_t default_offset = default_generator().impl()->offset();
  lz::randn({64}, g1);
  CHECK(default_generator().impl()->offset() == default_offset);
}

TEST_CASE("randn: reserves Philox blocks and draws from them", "[core]") {
  Generator g = make_generator(5);
  lz::randn({10}, g);
  CHECK(g.impl()->offset() == 1);
  lz::randn({0}, g);  // an empty call still takes its slot
  CHECK(g.impl()->offset() == 2);
  lz::randn({3}, g, kFloat64);
  CHECK(g.impl()->offset() == 3);
  // The first samples are a Box-Muller transform of block 0 of the stream.
  Generator h = make_generator(5);
  const Tensor t = lz::randn({2}, h);
  const PhiloxBlock b = philox4x32_10(5, 0);
  const float u1 = 1.0f - uint32_to_unit_float(b[0]);
  const float u2 = uint32_to_unit_float(b[1]);
  const float r = std::sqrt(-2.0f * std::log(u1));
  CHECK_THAT(t.data_ptr<float>()[0], Catch::Matchers::WithinRel(r * std::cos(6.2831853f * u2), 1e-5f));
  CHECK_THAT(t.data_ptr<float>()[1], Catch::Matchers::WithinRel(r * std::sin(6.2831853f * u2), 1e-5f));
}

TEST_CASE("randn: samples look standard normal", "[core]") {
  Generator g = make_generator(2024);
  const std::vector<float> v = values(lz::randn({200000}, g));
  double sum = 0, sum_sq = 0;
  int within_one = 0;
  for (float x : v) {
    REQUIRE(std::isfinite(x));
    sum += x;
    sum_sq += static_cast<double>(x) * x;
    within_one += std::fabs(x) < 1.0f;
  }
  const double n = static_cast<double>(v.size());
  const double mean = sum / n;
  const double var = sum_sq / n - mean * mean;
  CHECK(std::fabs(mean) < 0.01);       // ~4.5 sigma
  CHECK(std::fabs(var - 1.0) < 0.015);
  CHECK(std::fabs(within_one / n - 0.6827) < 0.005);
  // rand is uniform on [0, 1).
  const Tensor u = lz::rand({100000}, g);
  const float* p = u.data_ptr<float>();
  double usum = 0;
  for (int64_t i = 0; i < u.numel(); ++i) {
    REQUIRE(p[i] >= 0.0f);
    REQUIRE(p[i] < 1.0f);
    usum += p[i];
  }
  CHECK(std::fabs(usum / 100000 - 0.5) < 0.005);
}
