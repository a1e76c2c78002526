// lz::indexing: libtorch's x.index({...}) and x.index_put_({...}, v), the
// C++ form of Python's x[...]:
//   using namespace lz::indexing;
//   x.index({Slice(1, None), 0})          x[1:, 0]
//   x.index({"...", None, Slice(None, None, 2)})   x[..., None, ::2]
//   x.index({idx})                        x[idx] (an integer tensor)
//   x.index_put_({Slice(), 1}, 5)         x[:, 1] = 5
// Integers, slices, None, Ellipsis and bools give views of x (as select,
// slice and unsqueeze); integer tensors gather (a copy), broadcast together,
// and their dims go where the indexed dims were when those are adjacent,
// first otherwise (NumPy's rule). A bool (or uint8) mask tensor stands for
// the integer tensors of its nonzero() coordinates: lazily, a sync of the
// mask, since the result's size depends on its values.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <variant>

#include "core/tensor.h"

namespace lz::indexing {

// Python's a:b:c; each part defaults as in Python (None).
class Slice {
 public:
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt)
      : start_(start), stop_(stop), step_(step.value_or(1)) {}
  std::optional<int64_t> start() const { return start_; }
  std::optional<int64_t> stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  std::optional<int64_t> start_, stop_;
  int64_t step_;
};

struct EllipsisIndexType {};
inline constexpr EllipsisIndexType Ellipsis{};
// A new dim of size 1 (Python's None), and a slice bound left out.
inline constexpr std::nullopt_t None = std::nullopt;

class TensorIndex {
 public:
  TensorIndex(std::nullopt_t) : v_(std::monostate{}) {}
  TensorIndex(EllipsisIndexType) : v_(EllipsisIndexType{}) {}
  // "..." as libtorch accepts it; any other string is a ValueError.
  TensorIndex(const char* text);
  template <class T>
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  TensorIndex(T i) : v_(static_cast<int64_t>(i)) {}
  TensorIndex(bool b) : v_(b) {}
  TensorIndex(Slice s) : v_(s) {}
  TensorIndex(Tensor t) : v_(std::move(t)) {}

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_ellipsis() const { return std::holds_alternative<EllipsisIndexType>(v_); }
  bool is_integer() const { return std::holds_alternative<int64_t>(v_); }
  bool is_boolean() const { return std::holds_alternative<bool>(v_); }
  bool is_slice() const { return std::holds_alternative<Slice>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  int64_t integer() const { return std::get<int64_t>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const Slice& slice() const { return std::get<Slice>(v_); }
  const Tensor& tensor() const { return std::get<Tensor>(v_); }

 private:
  std::variant<std::monostate, EllipsisIndexType, int64_t, bool, Slice, Tensor> v_;
};

}  // namespace lz::indexing
