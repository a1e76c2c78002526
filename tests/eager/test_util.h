// Shared helpers of the eager operator tests: Catch2 assertion macros over
// the raw tensor access of tests/op_table/tensor_access.h.
#pragma once

#include <catch2/catch.hpp>

#include "tests/op_table/tensor_access.h"


// CHECK that a tensor holds `expected` (a std::vector<double>) within the
// tolerance of its dtype: CHECK_VALUES(tensor, expected). Variadic so that
// arguments may contain commas.
#define CHECK_VALUES(...) CHECK(::lzt::check_values(__VA_ARGS__) == "")
// CHECK_VALUES_TOL(tensor, expected, rtol, atol)
#define CHECK_VALUES_TOL(...) CHECK(::lzt::mismatch(__VA_ARGS__) == "")
#define CHECK_SHAPE(t, ...) CHECK(::lzt::sizes_vec((t).sizes()) == std::vector<int64_t> __VA_ARGS__)
#define CHECK_STRIDES(t, ...) CHECK(::lzt::sizes_vec((t).strides()) == std::vector<int64_t> __VA_ARGS__)
