// What the first- and second-order gradchecks over the operator table share:
// the scalar an entry is reduced to, and the comparison of an analytic
// gradient with central finite differences, and the loop over the table.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

#include "tests/op_table/op_info.h"

namespace lzt {

bool all_finite(const lz::Tensor& t);

// The positions of the sample's float64 tensors (the ones differentiated).
std::vector<size_t> float64_inputs(const SampleInput& sample);

// sum_k <w_k, out_k> over the float64 outputs of `op` on `sample`: a random
// weighting, so the whole Jacobian is exercised and not only its column sums.
// Weights missing from `weights` are drawn (fixed seeds) and kept there.
// Undefined when the call has no float64 output.
lz::Tensor weighted_sum(const OpInfo& op, const SampleInput& sample, std::vector<lz::Tensor>* weights);

// A scalar function of a sample's tensors, evaluated eagerly.
using SampleFunction = std::function<double(const SampleInput&)>;

// "" when analytic[n], the gradient of f at `sample` with respect to
// sample.tensors[inputs[n]] (undefined: zero), matches central differences
// of f at up to `elements` elements spread over each input; else what
// differs. Elements where f has a kink or a jump are skipped (the formula's
// subgradient is accepted there). `value` is f(sample) and `magnitude` the
// size of the terms summed into it, which bounds its rounding error.
std::string compare_with_differences(const SampleFunction& f, const SampleInput& sample,
                                     const std::vector<size_t>& inputs,
                                     const std::vector<lz::Tensor>& analytic, double value,
                                     double magnitude, int64_t elements);

// One sample's check: "" when it holds, "skip: ..." when the sample cannot
// be checked, "missing: ..." when a formula is missing, else what differs.
using SampleCheck = std::function<std::string(const OpInfo&, const SampleInput&)>;

struct TableCoverage {
  std::set<std::string> checked;
  std::map<std::string, std::string> missing;  // operator -> why
};

// Runs `check` on the float64 samples of every table entry with reference
// values (of `only`'s operators when it is not empty); a sample's problem
// (or exception) fails the calling test case, named with `label`.
void check_table(const SampleCheck& check, const std::string& label, const std::set<std::string>& only,
                 TableCoverage* coverage);

}  // namespace lzt
