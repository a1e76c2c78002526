// libFuzzer target: lz::ir::parse_graph on arbitrary bytes. The parser must
// either reject the text with a ValueError naming the line (ir/parser.h) or
// return a graph that verifies and whose printed text is a fixed point of
// print(parse(...)) - the contract the round-trip tests rely on.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  lz_fuzz::expect_value_or_lz_error([&] {
    lz::ir::ParsedGraph parsed;
    try {
      parsed = lz::ir::parse_graph(text);
    } catch (const lz::ValueError& e) {
      if (std::strncmp(e.what(), "parse_graph: line ", 18) != 0) {
        std::fprintf(stderr, "rejection without a line number: %s\n", e.what());
        std::abort();
      }
      return;
    }
    // Past this point any exception is a bug: the text parsed.
    try {
      lz::ir::verify_graph(parsed.graph, parsed.outputs);
      const std::string printed = lz::ir::print_graph(parsed.graph, parsed.outputs);
      const lz::ir::ParsedGraph again = lz::ir::parse_graph(printed);
      if (lz::ir::print_graph(again.graph, again.outputs) != printed) {
        std::fprintf(stderr, "print(parse(printed)) != printed:\n%s\n", printed.c_str());
        std::abort();
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "a parsed graph failed to verify or round-trip: %s\n", e.what());
      std::abort();
    }
  });
  return 0;
}
