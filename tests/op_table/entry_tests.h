// Registers one Catch2 test case (so one CTest test) per entry of the
// operator test table, named "<prefix><entry name>", running `run` on the
// entry. Call it from a namespace-scope initialiser, before Catch2's main.
#pragma once

#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <string>

#include "tests/op_table/op_info.h"

namespace lzt {

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
