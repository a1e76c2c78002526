// libFuzzer target: lz::parse_schema on arbitrary bytes. A schema that parses
// must print (str()) to a canonical text that parses back to the same text,
// as function_schema.h promises.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/schema_parser.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  lz_fuzz::expect_value_or_lz_error([&] {
    const lz::FunctionSchema s = lz::parse_schema(text);
    const std::string printed = s.str();
    if (lz::parse_schema(printed).str() != printed) {
      std::fprintf(stderr, "round trip changed the schema: %s\n", printed.c_str());
      std::abort();
    }
  });
  return 0;
}
