// Cutting a failing fuzz program down (delta reduction): drop steps, route
// a step's users to its first operand, shrink and simplify inputs, keeping
// each change that still fails the same way (the same mode and kind of
// disagreement), until nothing more can go or the run budget is spent.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_program.h"

namespace lzf {

// "" when the program passes, else its failure ("<mode>: <kind>: ...").
using FailureCheck = std::function<std::string(const Program&)>;

// What two failures must share to count as the same: "<mode>: <kind>".
std::string failure_signature(const std::string& failure);

// The smallest program found that fails like `p` (which must fail).
Program minimise(const Program& p, const FailureCheck& fails, int max_runs = 300);

// `p` without the marked steps and every step that uses their values,
// renumbered.
Program drop_steps(const Program& p, const std::vector<bool>& drop);

}  // namespace lzf
