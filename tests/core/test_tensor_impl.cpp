#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <cstring>
#include <thread>
#include <vector>

#include "core/dispatch_key.h"
#include "core/empty_tensor.h"
#include "core/memory_overlap.h"
#include "core/tensor_impl.h"

using namespace lz;
using Catch::Matchers::Contains;

namespace {
SizeVec sv(std::initializer_list<int64_t> v) { return SizeVec(v.begin(), v.end()); }
SizeVec vec(IntArrayRef r) { return SizeVec(r.begin(), r.end()); }
}  // namespace

TEST_CASE("TensorImpl: dense constructor", "[core]") {
  Storage storage = make_storage(24 * sizeof(float), Device("cpu"));
  auto impl = make_intrusive<TensorImpl>(storage, kFloat32, sv({2, 3, 4}));
  CHECK(vec(impl->sizes()) == sv({2, 3, 4}));
  CHECK(vec(impl->strides()) == sv({12, 4, 1}));
  CHECK(impl->numel() == 24);
  CHECK(impl->dim() == 3);
  CHECK(impl->is_contiguous());
  CHECK(impl->storage_offset() == 0);
  CHECK(impl->itemsize() == 4);
  CHECK(impl->device() == Device("cpu"));
  CHECK(impl->key_set().has(DispatchKey::CPU));
  CHECK(impl->has_storage());
  CHECK(impl->storage() == storage);
  CHECK(impl->data() == storage->data());
  CHECK(impl->size(-1) == 4);
  CHECK(impl->stride(0) == 12);
  CHECK_THROWS_AS(impl->size(3), IndexError);
  CHECK_THROWS_AS(impl->stride(-4), IndexError);
  CHECK(impl->version_counter().current() == 0);
  CHECK_FALSE(impl->is_wrapped_number());
}

TEST_CASE("TensorImpl: a view shares storage and version counter", "[core]") {
  Tensor base = lz::arange(12, kFloat32);
  TensorImpl* b = base.unsafe_get_impl();
  auto view = make_intrusive<TensorImpl>(*b, sv({3, 2}), sv({1, 3}), 2);
  CHECK(view->storage() == b->storage());
  CHECK(&view->version_counter() == &b->version_counter());
  CHECK(view->shared_version_counter() == b->shared_version_counter());
  CHECK(view->dtype() == kFloat32);
  CHECK(view->device() == b->device());
  CHECK(view->key_set() == b->key_set());
  CHECK(view->numel() == 6);
  CHECK_FALSE(view->is_contiguous());
  CHECK(view->storage_offset() == 2);
  CHECK(view->data() == static_cast<char*>(b->storage()->data()) + 2 * sizeof(float));
  Tensor v(view);
  // Element [1][1] is storage element 2 + 1*1 + 1*3 = 6.
  CHECK(v.select(0, 1).select(0, 1).item<float>() == 6.0f);
  // A write through either bumps the counter both see.
  const uint64_t before = base._version();
  v.add_(1);
  CHECK(base._version() == before + 1);
  CHECK(v._version() == before + 1);
  base.mul_(2);
  CHECK(v._version() == before + 2);
  CHECK(base.data_ptr<float>()[6] == 14.0f);  // (6 + 1) * 2
  // The storage outlives the base handle.
  const uint32_t uses = b->storage().use_count();
  CHECK(uses >= 2);
  base = Tensor();
  CHECK(v.select(0, 0).select(0, 0).item<float>() == 6.0f);  // (2 + 1) * 2
}

TEST_CASE("TensorImpl: public view ops share storage and version", "[core]") {
  Tensor a = lz::zeros({4, 5});
  for (const Tensor& v : {a.t(), a.view({20}), a.slice(1, 1, 4), a.expand({2, 4, 5}), a.select(0, 2),
                          a.unsqueeze(0), a.narrow(0, 1, 2), a.permute({1, 0})}) {
    CHECK(v.unsafe_get_impl()->storage() == a.unsafe_get_impl()->storage());
    CHECK(v.unsafe_get_impl()->shared_version_counter() == a.unsafe_get_impl()->shared_version_counter());
  }
  CHECK(a.slice(1, 1, 4).storage_offset() == 1);
  CHECK(a.select(0, 2).storage_offset() == 10);
  CHECK(vec(a.t().strides()) == sv({1, 5}));
}

// The counter is made on first use (a write, a view); threads asking for it
// at once all get the same one.
TEST_CASE("TensorImpl: the version counter is made on first use, once", "[core]") {
  const Tensor fresh = lz::empty({3});
  CHECK(fresh._version() == 0);
  Tensor a = lz::empty({3});
  a.fill_(1);
  CHECK(a._version() == 1);
  Tensor view = a.slice(0, 1, 2);  // the counter exists: shared
  view.add_(1);
  CHECK(a._version() == 2);

  Tensor b = lz::empty({3});
  const Tensor b_view = b.view({3});  // made by the view
  CHECK(b_view.unsafe_get_impl()->shared_version_counter() == b.unsafe_get_impl()->shared_version_counter());
  b.fill_(2);
  CHECK(b_view._version() == 1);

  constexpr int kThreads = 8;
  for (int round = 0; round < 20; ++round) {
    const Tensor c = lz::zeros({2});
    std::vector<const VersionCounter*> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] { seen[static_cast<size_t>(t)] = &c.unsafe_get_impl()->version_counter(); });
    }
    for (std::thread& th : threads) th.join();
    for (const VersionCounter* v : seen) CHECK(v == &c.unsafe_get_impl()->version_counter());
  }
}

TEST_CASE("TensorImpl: set_sizes_and_strides recomputes numel and contiguity", "[core]") {
  Tensor t = lz::zeros({24});
  TensorImpl* impl = t.unsafe_get_impl();
  impl->set_sizes_and_strides(sv({3, 2}), sv({1, 3}), 4);
  CHECK(impl->numel() == 6);
  CHECK_FALSE(impl->is_contiguous());
  CHECK(impl->storage_offset() == 4);
  CHECK(t.is_contiguous() == false);
  impl->set_sizes_and_strides(sv({2, 3}), sv({3, 1}), 0);
  CHECK(impl->numel() == 6);
  CHECK(impl->is_contiguous());
  impl->set_sizes_and_strides(sv({4, 1, 3}), sv({3, 99, 1}), 0);
  CHECK(impl->numel() == 12);
  CHECK(impl->is_contiguous());  // size-1 dims do not matter
  impl->set_sizes_and_strides(sv({2, 0, 3}), sv({7, 7, 7}), 0);
  CHECK(impl->numel() == 0);
  CHECK(impl->is_contiguous());
  impl->set_sizes_and_strides(sv({}), sv({}), 5);
  CHECK(impl->numel() == 1);
  CHECK(impl->dim() == 0);
  impl->set_sizes_contiguous(sv({4, 6}));
  CHECK(vec(impl->strides()) == sv({6, 1}));
  CHECK(impl->numel() == 24);
  CHECK(impl->is_contiguous());
  CHECK_THROWS_AS(impl->set_sizes_contiguous(sv({-1, 2})), ValueError);
  CHECK_THROWS_AS(impl->set_sizes_and_strides(sv({2}), sv({1, 1}), 0), InternalError);
}

TEST_CASE("TensorImpl: contiguous strides skip size-1 and size-0 dims, numel is checked", "[core]") {
  // Each case: sizes -> strides (a size <= 1 does not scale the strides outside it).
  const std::vector<std::pair<SizeVec, SizeVec>> cases = {
      {sv({}), sv({})},
      {sv({5}), sv({1})},
      {sv({2, 1, 3}), sv({3, 3, 1})},
      {sv({4, 0, 3}), sv({3, 3, 1})},
      {sv({1, 1}), sv({1, 1})},
      {sv({3, 2, 5, 7}), sv({70, 35, 7, 1})},
  };
  for (const auto& [sizes, strides] : cases) {
    INFO(shape_str(sizes));
    auto impl = make_intrusive<TensorImpl>(kFloat32, Device("cpu"), DispatchKeySet(), sizes);
    CHECK(vec(impl->strides()) == strides);
    CHECK(vec(impl->strides()) == contiguous_strides(sizes));
    CHECK(impl->is_contiguous());
    CHECK(impl->numel() == checked_numel(sizes, "test"));
  }
  CHECK_THROWS_AS(make_intrusive<TensorImpl>(kFloat32, Device("cpu"), DispatchKeySet(), sv({2, -1})), ValueError);
  CHECK_THROWS_AS(
      make_intrusive<TensorImpl>(kFloat32, Device("cpu"), DispatchKeySet(), sv({int64_t{1} << 40, int64_t{1} << 40})),
      ValueError);
}

TEST_CASE("intrusive_ptr: make_intrusive holds one reference, and moves (also to a base) move it", "[core]") {
  auto impl = make_intrusive<TensorImpl>(kFloat32, Device("cpu"), DispatchKeySet(), sv({2}));
  CHECK(impl.use_count() == 1);
  intrusive_ptr<TensorImpl> copy = impl;
  CHECK(impl.use_count() == 2);
  copy.reset();
  CHECK(impl.use_count() == 1);
  TensorImpl* raw = impl.get();
  intrusive_ptr<RefCounted> base = std::move(impl);
  CHECK_FALSE(impl);
  CHECK(base.get() == raw);
  CHECK(base.use_count() == 1);
  const Tensor t(make_intrusive<TensorImpl>(kFloat32, Device("cpu"), DispatchKeySet(), sv({3})));
  CHECK(t.use_count() == 1);
}

TEST_CASE("TensorImpl: storage-less impls (lazy tensors)", "[core]") {
  auto impl = make_intrusive<TensorImpl>(kFloat16, Device("cpu"), DispatchKeySet(), sv({2, 5}));
  CHECK_FALSE(impl->has_storage());
  CHECK(impl->numel() == 10);
  CHECK(impl->itemsize() == 2);
  CHECK(impl->is_contiguous());
  CHECK_THROWS_AS(impl->data(), InternalError);
}

TEST_CASE("wrapped_scalar_tensor", "[core]") {
  const Tensor d = wrapped_scalar_tensor(2.5);
  CHECK(d.dim() == 0);
  CHECK(d.numel() == 1);
  CHECK(d.dtype() == kFloat64);
  CHECK(d.unsafe_get_impl()->is_wrapped_number());
  CHECK(d.item<double>() == 2.5);
  CHECK(d.is_cpu());
  const Tensor i = wrapped_scalar_tensor(int64_t{-3});
  CHECK(i.dtype() == kInt64);
  CHECK(i.item<int64_t>() == -3);
  CHECK(i.unsafe_get_impl()->is_wrapped_number());
  const Tensor b = wrapped_scalar_tensor(true);
  CHECK(b.dtype() == kBool);
  CHECK(b.item<bool>());
  // Ordinary 0-dim tensors are not wrapped numbers.
  CHECK_FALSE(lz::scalar_tensor(2.5).unsafe_get_impl()->is_wrapped_number());
  CHECK_FALSE(lz::zeros({}).unsafe_get_impl()->is_wrapped_number());
}

TEST_CASE("empty_tensor and empty_strided_tensor", "[core]") {
  const Tensor t = empty_tensor(sv({2, 3}), kInt32, Device("cpu"));
  CHECK(vec(t.sizes()) == sv({2, 3}));
  CHECK(t.dtype() == kInt32);
  CHECK(t.is_contiguous());
  CHECK(t.unsafe_get_impl()->storage()->nbytes() == 24);
  const Tensor s = empty_strided_tensor(sv({2, 3}), sv({1, 2}), kFloat32, Device("cpu"));
  CHECK(vec(s.strides()) == sv({1, 2}));
  CHECK_FALSE(s.is_contiguous());
  // Elements reach offset (2-1)*1 + (3-1)*2 = 5, so 6 are needed.
  CHECK(s.unsafe_get_impl()->storage()->nbytes() == 6 * sizeof(float));
  const Tensor z = empty_strided_tensor(sv({2, 0}), sv({1, 1}), kFloat32, Device("cpu"));
  CHECK(z.numel() == 0);
  CHECK(z.unsafe_get_impl()->storage()->nbytes() == 0);
  CHECK_THROWS_AS(empty_strided_tensor(sv({2, 3}), sv({1}), kFloat32, Device("cpu")), ShapeError);
  CHECK_THROWS_AS(empty_strided_tensor(sv({2}), sv({-1}), kFloat32, Device("cpu")), ValueError);
  CHECK_THROWS_AS(empty_tensor(sv({2, -3}), kFloat32, Device("cpu")), ValueError);
  CHECK_THROWS_AS(empty_tensor(sv({int64_t{1} << 62}), kFloat64, Device("cpu")), ValueError);
}

TEST_CASE("store_scalar / load_scalar round-trip every dtype", "[core]") {
  alignas(8) unsigned char buf[8];
  for (ScalarType t : {kBool, kUInt8, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    INFO(t);
    store_scalar(buf, t, Scalar(1));
    CHECK(load_scalar(buf, t).to_double() == 1.0);
    store_scalar(buf, t, Scalar(true));
    CHECK(load_scalar(buf, t).to_bool());
  }
  store_scalar(buf, kFloat16, Scalar(0.1));
  CHECK(load_scalar(buf, kFloat16).to_double() == static_cast<double>(static_cast<float>(Half(0.1f))));
  store_scalar(buf, kInt64, Scalar(int64_t{1} << 60));
  CHECK(load_scalar(buf, kInt64).to_long() == (int64_t{1} << 60));
  CHECK(load_scalar(buf, kInt64).kind() == Scalar::Kind::Int);
  store_scalar(buf, kFloat64, Scalar(0.1));
  CHECK(load_scalar(buf, kFloat64).kind() == Scalar::Kind::Double);
  store_scalar(buf, kBool, Scalar(false));
  CHECK(load_scalar(buf, kBool).kind() == Scalar::Kind::Bool);
  CHECK_THROWS_AS(store_scalar(buf, kUInt8, Scalar(300)), ValueError);
  CHECK_THROWS_AS(store_scalar(buf, kInt32, Scalar(3e9)), ValueError);
}

TEST_CASE("overlap_kind", "[core]") {
  Tensor a = lz::zeros({10});
  Tensor b = lz::zeros({10});
  CHECK(overlap_kind(a, a) == Overlap::Full);
  CHECK(overlap_kind(a, a.view({10})) == Overlap::Full);
  CHECK(overlap_kind(a, b) == Overlap::None);  // different storages
  CHECK(overlap_kind(a.slice(0, 0, 5), a.slice(0, 5, 10)) == Overlap::None);
  CHECK(overlap_kind(a.slice(0, 0, 6), a.slice(0, 5, 10)) == Overlap::Partial);
  CHECK(overlap_kind(a, a.slice(0, 2, 4)) == Overlap::Partial);
  CHECK(overlap_kind(a.slice(0, 2, 4), a.slice(0, 2, 4)) == Overlap::Full);
  CHECK(overlap_kind(a.view({2, 5}), a.view({5, 2})) == Overlap::Partial);  // same memory, other shape
  Tensor m = lz::zeros({3, 3});
  CHECK(overlap_kind(m, m.t()) == Overlap::Partial);
  CHECK(overlap_kind(m.select(0, 0), m.select(0, 2)) == Overlap::None);
  CHECK(overlap_kind(m.select(1, 0), m.select(1, 1)) == Overlap::Partial);  // interleaved columns: conservative
  CHECK(overlap_kind(a.slice(0, 3, 3), a) == Overlap::None);               // empty
  CHECK(overlap_kind(Tensor(), a) == Overlap::None);
  CHECK(overlap_kind(a, Tensor()) == Overlap::None);
}

TEST_CASE("has_internal_overlap", "[core]") {
  Tensor a = lz::zeros({3});
  CHECK_FALSE(has_internal_overlap(a));
  CHECK_FALSE(has_internal_overlap(lz::zeros({2, 3}).t()));
  CHECK(has_internal_overlap(a.expand({4, 3})));
  CHECK(has_internal_overlap(lz::zeros({1}).expand({5})));
  CHECK_FALSE(has_internal_overlap(lz::zeros({1}).expand({1})));
  CHECK_FALSE(has_internal_overlap(lz::zeros({}).unsqueeze(0)));
  CHECK_FALSE(has_internal_overlap(lz::zeros({1, 0}).expand({4, 0})));  // no elements, none shared
  CHECK_NOTHROW(check_no_internal_overlap("add_", "self", a));
  CHECK_THROWS_AS(check_no_internal_overlap("add_", "self", a.expand({2, 3})), ValueError);
  CHECK_THROWS_WITH(check_no_internal_overlap("add_", "self", a.expand({2, 3})),
                    Contains("[add_]") && Contains("self") && Contains("[2, 3]") && Contains("[0, 1]"));
}

TEST_CASE("resize_tensor grows storage and keeps the contents", "[core]") {
  Tensor t = lz::tensor({1.0f, 2.0f});
  resize_tensor(t, sv({4, 5}));
  CHECK(vec(t.sizes()) == sv({4, 5}));
  CHECK(vec(t.strides()) == sv({5, 1}));
  CHECK(t.numel() == 20);
  CHECK(t.is_contiguous());
  CHECK(t.unsafe_get_impl()->storage()->nbytes() >= 20 * sizeof(float));
  CHECK(t.data_ptr<float>()[0] == 1.0f);
  CHECK(t.data_ptr<float>()[1] == 2.0f);
  float* p = t.data_ptr<float>();
  for (int i = 0; i < 20; ++i) p[i] = static_cast<float>(i);  // the whole range is writable
  // Shrinking keeps the storage.
  const size_t nbytes = t.unsafe_get_impl()->storage()->nbytes();
  resize_tensor(t, sv({3}));
  CHECK(t.numel() == 3);
  CHECK(t.unsafe_get_impl()->storage()->nbytes() == nbytes);
  // The storage offset counts: a view at offset 3 resized to 10 needs 13 elements.
  Tensor base = lz::zeros({5});
  Tensor view = base.slice(0, 3, 5);
  resize_tensor(view, sv({10}));
  CHECK(view.storage_offset() == 3);
  CHECK(view.unsafe_get_impl()->storage()->nbytes() >= 13 * sizeof(float));
  CHECK(base.unsafe_get_impl()->storage() == view.unsafe_get_impl()->storage());
  // Empty result.
  resize_tensor(view, sv({0}));
  CHECK(view.numel() == 0);
}

TEST_CASE("resize_tensor leaves the tensor unchanged when storage cannot grow", "[core]") {
  float external[4] = {1, 2, 3, 4};
  Tensor t = lz::from_blob(external, {4});
  CHECK_THROWS_AS(resize_tensor(t, sv({100})), ValueError);
  // Still a 4-element view of the caller's memory, not 100 elements past its end.
  CHECK(vec(t.sizes()) == sv({4}));
  CHECK(t.numel() == 4);
  CHECK(t.data_ptr<float>() == external);
  resize_tensor(t, sv({2, 2}));  // same size fits
  CHECK(vec(t.sizes()) == sv({2, 2}));
  CHECK_THROWS_AS(resize_tensor(t, sv({-1})), ValueError);
  CHECK(vec(t.sizes()) == sv({2, 2}));
}
