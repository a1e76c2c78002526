// lz-bench output: the terminal table, the --json file and the --svg chart,
// all written from one RunReport (results.h). No Lazuli types, no I/O beyond
// the stream given, so the formats can be tested on hand-made reports.
#pragma once

#include <ostream>

#include "results.h"

namespace lz::bench_runner {

// Fixed-width table (under 150 columns): a header line with the run's
// settings and start-up bandwidth, one row per workload, the W8 latency
// figures, a legend and a summary line.
void print_table(std::ostream& out, const RunReport& r);

// The whole report as one JSON object (key names are documented in
// report.cpp); non-finite numbers and absent W8 figures are written as null.
void write_json(std::ostream& out, const RunReport& r);

// A self-contained SVG bar chart: per workload an eager and a lazy bar whose
// length is the % of the copy bandwidth measured next to it, with the 100%
// line marked. Workloads that are not bandwidth-bound are drawn hatched.
void write_svg(std::ostream& out, const RunReport& r);

}  // namespace lz::bench_runner
