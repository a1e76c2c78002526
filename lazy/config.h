// Settings of the lazy layer. Each starts from an environment variable read
// once at start-up and can be changed from code:
//   LZ_LAZY_NODE_LIMIT=n   a trace with n nodes is materialised automatically
//                          before the next operator (default 100000)
//   LZ_LAZY_CACHE_SIZE=n   executables kept in the LRU cache (default 1024)
//   LZ_FORCE_EAGER=op,...  these operators are never traced: each call
//                          materialises its inputs and runs eagerly (counted
//                          as eager fallbacks); names match "add" or "add.Tensor"
//   LZ_LAZY_STRICT=1       an operator that cannot be traced raises
//                          NotImplementedError naming it instead of falling back
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lz::lazy {

struct Settings {
  size_t node_limit = 100000;
  size_t cache_capacity = 1024;
  std::vector<std::string> force_eager;
  bool strict = false;
};

Settings settings();
// ValueError for a zero node limit or cache capacity.
void set_settings(const Settings& s);

namespace detail {
size_t node_limit();
bool strict();
// Whether `op` ("add.Tensor", base name "add") is forced to run eagerly.
bool forced_eager(std::string_view full_name, std::string_view base_name);
}  // namespace detail

}  // namespace lz::lazy
