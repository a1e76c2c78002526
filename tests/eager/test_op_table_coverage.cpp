// Completeness: every operator core/operators.def declares is exercised by
// the operator table (tests/op_table), or is listed here with the reason it
// cannot be. An operator added to the list without a table entry fails this.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "core/dispatcher.h"
#include "tests/op_table/operator_coverage.h"

namespace {

using lz::OpId;

// Operators the table cannot call, and why.
const std::map<OpId, std::string>& not_in_op_table() {
  static const std::map<OpId, std::string> reasons = {
      {OpId::dropout_, "random: the table checks dropout's statistics; dropout_ (the same kernel, in place) is "
                       "tested in tests/eager/test_nn.cpp"},
      {OpId::norm_Scalar_out, "no public function reaches it: norm_out takes dims (libtorch's norm.out)"},
  };
  return reasons;
}

}  // namespace

TEST_CASE("every declared operator is called by the operator table or says why not", "[op_table][completeness]") {
  std::set<OpId> called;
  for (const lzt::OpInfo& op : lzt::op_table()) {
    const std::set<OpId> ids = lzt::operators_called(op);
    called.insert(ids.begin(), ids.end());
  }
  for (const std::string& gap : lzt::coverage_gaps(called, not_in_op_table())) FAIL_CHECK(gap);
  CHECK(called.size() > 300);
}
