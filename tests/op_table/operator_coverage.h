// Which declared operators (core/operators.def) a piece of code reaches
// through the dispatcher, composites included. The completeness tests use it
// to map the operator table's entries, which call the public API, to the
// operators they exercise.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/op_id.h"
#include "tests/op_table/op_info.h"

namespace lz {
class Library;
}

namespace lzt {

// While one lives, every call of a declared operator on this thread is
// recorded: a TestingOnlyMode kernel (for composites: before they
// decompose) notes the id and passes the call on below the key. Do not
// combine with another TestingOnlyMode fallback.
class OperatorRecorder {
 public:
  OperatorRecorder();
  ~OperatorRecorder();
  OperatorRecorder(const OperatorRecorder&) = delete;
  OperatorRecorder& operator=(const OperatorRecorder&) = delete;

  const std::set<lz::OpId>& seen() const { return seen_; }

 private:
  std::unique_ptr<lz::Library> lib_;
  std::set<lz::OpId> seen_;
};

// Runs `op` on every sample eagerly, ignoring the results, in every form
// (functional, in-place, out=, error inputs) or only the functional one;
// returns the operators called.
enum class Forms { All, Functional };
std::set<lz::OpId> operators_called(const OpInfo& op, Forms forms = Forms::All);

// What a completeness test reports: each declared operator (except those
// `skip` says are out of scope) that is neither in `reached` nor listed in
// `reasons` ("<op>: not reached, and no reason given"), and each listed one
// that is reached ("<op>: reached, so its reason is stale"). Empty: complete.
std::vector<std::string> coverage_gaps(const std::set<lz::OpId>& reached,
                                       const std::map<lz::OpId, std::string>& reasons,
                                       const std::function<bool(lz::OpId)>& skip = {});

}  // namespace lzt
