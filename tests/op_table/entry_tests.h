// Running the operator test table under Catch2: one test case (so one CTest
// test) per entry, and the loop over an entry's dtypes, samples and error
// inputs that every suite (eager, lazy, later fused and CUDA) shares.
#pragma once

#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tests/op_table/op_info.h"

namespace lzt {

// One way of running a sample ("functional", "in-place", ...) and its
// result: "" when it passed, else what went wrong.
using FormResults = std::vector<std::pair<std::string, std::string>>;

// Runs `forms` on every sample of every dtype of `op` and `error` on each of
// its error inputs; each non-empty result fails the test case, naming the
// dtype, the sample and the form.
inline void check_entry(const OpInfo& op, const std::function<FormResults(const SampleInput&)>& forms,
                        const std::function<std::string(const ErrorInput&)>& error) {
  for (lz::ScalarType dtype : op.dtypes) {
    for (const SampleInput& sample : op.samples(dtype)) {
      const std::string where = op.name + " [" + std::string(lz::to_string(dtype)) + "] " + sample.str();
      for (const auto& [form, result] : forms(sample)) {
        if (result.empty()) {
          SUCCEED();
        } else {
          FAIL_CHECK(where << " (" << form << "): " << result);
        }
      }
    }
  }
  if (!op.errors) return;
  for (const ErrorInput& e : op.errors()) {
    const std::string result = error(e);
    if (result.empty()) {
      SUCCEED();
    } else {
      FAIL_CHECK(op.name << " error input " << e.input.str() << ": " << result);
    }
  }
}

// Registers a test case "<prefix><entry name>" per entry, running `run` on
// it. Call it from a namespace-scope initialiser, before Catch2's main.
inline bool register_entry_tests(const std::string& prefix, const std::string& tags,
                                 std::function<void(const OpInfo&)> run) {
  class EntryTest : public Catch::ITestInvoker {
   public:
    EntryTest(std::string name, std::function<void(const OpInfo&)> run)
        : name_(std::move(name)), run_(std::move(run)) {}
    void invoke() const override { run_(find_op(name_)); }

   private:
    std::string name_;
    std::function<void(const OpInfo&)> run_;
  };
  static std::deque<std::string> strings;  // Catch keeps references to names and tags
  strings.push_back(tags);
  const std::string& tag_string = strings.back();
  for (const OpInfo& op : op_table()) {
    strings.push_back(prefix + op.name);
    Catch::AutoReg(new EntryTest(op.name, run), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags{Catch::StringRef(strings.back()), Catch::StringRef(tag_string)});
  }
  return true;
}

}  // namespace lzt
