// Runs every entry of the operator test table eagerly: one Catch2 test case
// (and so one CTest test) per operator, covering all its dtypes and samples
// in functional, in-place and out= form, and its error inputs.
#include <catch2/catch.hpp>

#include <string>

#include "tests/op_table/entry_tests.h"
#include "tests/op_table/op_runner.h"

namespace {

void run_entry(const lzt::OpInfo& op) {
  lzt::check_entry(
      op,
      [&](const lzt::SampleInput& sample) {
        return lzt::FormResults{{"functional", lzt::run_functional(op, sample)},
                                {"in-place", lzt::run_inplace(op, sample)},
                                {"out=", lzt::run_out(op, sample)}};
      },
      [&](const lzt::ErrorInput& error) { return lzt::run_error(op, error); });
}

const bool registered = lzt::register_entry_tests("op table: ", "[eager][op_table]", &run_entry);

}  // namespace
