// RegistrationHandle: undoes one registration (an operator, a kernel, a
// fallback) when destroyed. Libraries registered at start-up release their
// handles and stay registered for the life of the process.
#pragma once

#include <functional>
#include <utility>

namespace lz {

class [[nodiscard]] RegistrationHandle {
 public:
  RegistrationHandle() = default;
  explicit RegistrationHandle(std::function<void()> undo) : undo_(std::move(undo)) {}
  RegistrationHandle(RegistrationHandle&& o) noexcept : undo_(std::exchange(o.undo_, nullptr)) {}
  RegistrationHandle& operator=(RegistrationHandle&& o) noexcept {
    if (this != &o) {
      reset();
      undo_ = std::exchange(o.undo_, nullptr);
    }
    return *this;
  }
  RegistrationHandle(const RegistrationHandle&) = delete;
  RegistrationHandle& operator=(const RegistrationHandle&) = delete;
  ~RegistrationHandle() { reset(); }

  // Undoes the registration now.
  void reset() {
    if (undo_) std::exchange(undo_, nullptr)();
  }
  // Keeps the registration forever.
  void release() { undo_ = nullptr; }

 private:
  std::function<void()> undo_;
};

}  // namespace lz
