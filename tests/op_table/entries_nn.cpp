// Table entries: nn operators.
#include "tests/op_table/entry_builders.h"

namespace lzt {

void add_nn_ops(std::vector<OpInfo>& t) { (void)t; }

}  // namespace lzt
