// A small intrusive reference-counted pointer. Tensors, storages and
// generators are handles to objects that carry their own atomic count, so a
// handle is one pointer wide and copying it is one atomic increment.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace lz {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;

  uint32_t use_count() const { return refcount_.load(std::memory_order_relaxed); }

 private:
  template <class T>
  friend class intrusive_ptr;
  void retain() const { refcount_.fetch_add(1, std::memory_order_relaxed); }
  // The first reference to a fresh object: nobody else can see it yet, so
  // a plain store, not an atomic increment.
  void adopt() const { refcount_.store(1, std::memory_order_relaxed); }
  void release() const {
    if (refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  mutable std::atomic<uint32_t> refcount_{0};
};

template <class T>
class intrusive_ptr {
 public:
  intrusive_ptr() = default;
  intrusive_ptr(std::nullptr_t) {}
  // Takes a fresh object (count 0) or shares an existing one.
  explicit intrusive_ptr(T* p) : p_(p) {
    if (p_) p_->retain();
  }
  intrusive_ptr(const intrusive_ptr& o) : p_(o.p_) {
    if (p_) p_->retain();
  }
  intrusive_ptr(intrusive_ptr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <class U>
  intrusive_ptr(const intrusive_ptr<U>& o) : p_(o.get()) {
    if (p_) p_->retain();
  }
  // Moving between related types moves the reference: no count traffic.
  template <class U>
  intrusive_ptr(intrusive_ptr<U>&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  ~intrusive_ptr() {
    if (p_) p_->release();
  }
  intrusive_ptr& operator=(const intrusive_ptr& o) {
    intrusive_ptr(o).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& o) noexcept {
    intrusive_ptr(std::move(o)).swap(*this);
    return *this;
  }
  void swap(intrusive_ptr& o) noexcept { std::swap(p_, o.p_); }
  void reset() { intrusive_ptr().swap(*this); }
  // Hands the reference to the caller as a plain pointer (this becomes
  // null); reclaim() takes such a reference back.
  [[nodiscard]] T* detach() { return std::exchange(p_, nullptr); }
  static intrusive_ptr reclaim(T* p) {
    intrusive_ptr r;
    r.p_ = p;
    return r;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  uint32_t use_count() const { return p_ ? p_->use_count() : 0; }

  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) { return a.p_ == b.p_; }

 private:
  template <class U>
  friend class intrusive_ptr;
  template <class U, class... Args>
  friend intrusive_ptr<U> make_intrusive(Args&&... args);
  struct Fresh {};
  intrusive_ptr(T* fresh, Fresh) : p_(fresh) { p_->adopt(); }

  T* p_ = nullptr;
};

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>(new T(std::forward<Args>(args)...), typename intrusive_ptr<T>::Fresh{});
}

}  // namespace lz
