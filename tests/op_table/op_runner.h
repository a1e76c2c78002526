// Runs table entries and compares their outputs with the references. Every
// function returns "" on success, else a description of the first problem,
// so any test framework (and the lazy/CUDA suites later) can report it.
#pragma once

#include <string>
#include <vector>

#include "tests/op_table/op_info.h"

namespace lzt {

Tolerance tolerance_of(const OpInfo& op, lz::ScalarType result);

// Outputs against expectations: count, sizes, dtype, then values.
std::string compare_outputs(const OpInfo& op, const std::vector<lz::Tensor>& actual,
                            const std::vector<Expected>& expected);

// The functional form against the reference (or op.check).
std::string run_functional(const OpInfo& op, const SampleInput& sample);
// The in-place form on a clone of the first input: the reference result
// when it fits self, a ShapeError when the shapes differ, a TypeError when
// the result dtype cannot be cast into self's. "" when op.inplace is null.
std::string run_inplace(const OpInfo& op, const SampleInput& sample);
// The out= form into empty outputs (resized) and into preallocated,
// transposed ones. "" when op.out is null.
std::string run_out(const OpInfo& op, const SampleInput& sample);
// The operator must throw the expected type with the expected message.
std::string run_error(const OpInfo& op, const ErrorInput& error);

// op.check without its storage-sharing assertions (a view shares its
// input's storage, a copy does not), for suites whose results are values
// computed elsewhere (lazily, on a device) and only the values must match.
std::function<std::string(const SampleInput&, const std::vector<lz::Tensor>&)> values_only_check(const OpInfo& op);

}  // namespace lzt
