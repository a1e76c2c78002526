// Runs every entry of the operator test table eagerly: one Catch2 test case
// (and so one CTest test) per operator, covering all its dtypes and samples
// in functional, in-place and out= form, and its error inputs.
#include <catch2/catch.hpp>

#include <string>

#include "tests/op_table/entry_tests.h"
#include "tests/op_table/op_runner.h"

namespace {

void run_entry(const lzt::OpInfo& op) {
  for (lz::ScalarType dtype : op.dtypes) {
    for (const lzt::SampleInput& sample : op.samples(dtype)) {
      const std::string where = op.name + " [" + std::string(lz::to_string(dtype)) + "] " + sample.str();
      for (const auto& [form, result] :
           {std::pair{"functional", lzt::run_functional(op, sample)},
            std::pair{"in-place", lzt::run_inplace(op, sample)},
            std::pair{"out=", lzt::run_out(op, sample)}}) {
        if (result.empty()) {
          SUCCEED();
        } else {
          FAIL_CHECK(where << " (" << form << "): " << result);
        }
      }
    }
  }
  if (op.errors) {
    for (const lzt::ErrorInput& error : op.errors()) {
      const std::string result = lzt::run_error(op, error);
      if (result.empty()) {
        SUCCEED();
      } else {
        FAIL_CHECK(op.name << " error input " << error.input.str() << ": " << result);
      }
    }
  }
}

const bool registered = lzt::register_entry_tests("op table: ", "[eager][op_table]", &run_entry);

}  // namespace
