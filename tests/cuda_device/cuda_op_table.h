// The operator test table with its inputs on a CUDA device: every entry's
// functional, in-place and out= forms, and its error inputs, checked
// against the CPU reference (values only: host copies never share
// storage). test_cuda_emulated runs it on the emulated driver, and
// test_cuda_real on a real GPU (the device kit, scripts/device_check.sh).
#pragma once

#include <lazuli/lazuli.h>

#include "tests/op_table/op_info.h"

namespace lz_cuda_test {

void check_op_table_entry(const lzt::OpInfo& op, const lz::Device& device);

}  // namespace lz_cuda_test
