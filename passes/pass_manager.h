// The pass manager: runs a pipeline of graph passes over a Program, timing
// each, verifying the graph after each (a broken rewrite is reported as an
// InternalError naming the pass, not as a wrong answer later), and calling
// a dump hook after each so LZ_DUMP and lz-dump can show the IR between
// passes.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "passes/program.h"

namespace lz::passes {

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  // Rewrites `p` (possibly replacing p.graph with a new graph); returns
  // whether anything changed.
  virtual bool run(Program& p) = 0;
};

struct PassStat {
  std::string name;
  std::chrono::nanoseconds time{0};
  bool changed = false;
  size_t nodes_before = 0;
  size_t nodes_after = 0;
};

class PassManager {
 public:
  using DumpHook = std::function<void(std::string_view pass, const Program& after)>;

  PassManager& add(std::unique_ptr<Pass> pass);
  void set_verify(bool verify) { verify_ = verify; }
  void set_dump_hook(DumpHook hook) { dump_ = std::move(hook); }

  // Runs every pass once, in order; the statistics of the last run are in stats().
  void run(Program& p);
  const std::vector<PassStat>& stats() const { return stats_; }
  std::vector<std::string_view> pass_names() const;

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<PassStat> stats_;
  DumpHook dump_;
  bool verify_ = true;
};

// The passes by name ("dce", "cse", "fold", "simplify", "views"); throws
// ValueError naming an unknown pass and listing the known ones.
std::unique_ptr<Pass> make_pass(std::string_view name);
// A comma-separated pipeline ("dce,cse,simplify"); "default" is the
// canonicalisation pipeline materialisation runs; "none" (or "") no pass.
PassManager make_pipeline(std::string_view spec);
std::string_view default_pipeline_spec();

}  // namespace lz::passes
