// lz_fuzz: the differential fuzzer's command line. Generates programs from
// consecutive seeds, runs each eagerly and in every chosen mode, and on a
// disagreement prints the seed, the minimised program (text form, ready for
// tests/fuzz/regressions/) and its lazy IR. docs/fuzzing-and-sanitizers.md,
// "Differential fuzzing", has the commands.
#include <csignal>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <lazuli/lazuli.h>

#include "tests/fuzz/fuzz_generator.h"
#include "tests/fuzz/fuzz_minimise.h"
#include "tests/fuzz/fuzz_runner.h"

namespace {

using namespace lzf;

constexpr const char* kUsage =
    "usage: lz_fuzz [--seed N] [--programs N] [--minutes M] [--modes interp,llvm,nofuse,cuda-emu]\n"
    "               [--max-ops N] [--replays N] [--keep-going] [--no-minimise] [--replay FILE]\n"
    "  --seed N       the first seed (default 1); program k uses seed N+k\n"
    "  --programs N   how many programs (default 1000; 0 with --minutes: until then)\n"
    "  --minutes M    stop after M minutes\n"
    "  --modes LIST   lazy modes compared with eager (default interp,llvm,nofuse)\n"
    "  --max-ops N    operator steps per program, at most (default 12)\n"
    "  --replays N    runs of each program again with new values, numbers and sizes,\n"
    "                 through the executables the first run cached (default 2)\n"
    "  --keep-going   go on after a failing program (default: stop at the first)\n"
    "  --no-minimise  report failing programs as generated\n"
    "  --replay FILE  check the program in FILE (text form) instead of generating\n";

volatile sig_atomic_t current_seed_set = 0;
char crash_note[160];

// A crash cannot be reported from C++; say which program it was and re-raise.
void on_crash(int sig) {
  if (current_seed_set) (void)!write(2, crash_note, strlen(crash_note));
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void note_program(uint64_t seed) {
  std::snprintf(crash_note, sizeof crash_note,
                "\nlz_fuzz: crashed on seed %llu (replay: lz_fuzz --seed %llu --programs 1)\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  current_seed_set = 1;
}

struct Args {
  uint64_t seed = 1;
  int64_t programs = 1000;
  double minutes = 0;
  std::vector<Mode> modes = {Mode::Interp, Mode::Llvm, Mode::NoFusion};
  GeneratorOptions generator;
  int replays = 2;
  bool keep_going = false;
  bool minimise = true;
  std::string replay;
};

[[noreturn]] void usage_error(const std::string& why) {
  std::cerr << "lz_fuzz: " << why << "\n" << kUsage;
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(flag + " needs a value");
      return argv[++i];
    };
    auto number = [&](const std::string& v) {
      try {
        size_t used = 0;
        const double d = std::stod(v, &used);
        if (used != v.size() || d < 0) throw std::invalid_argument(v);
        return d;
      } catch (const std::exception&) {
        usage_error(flag + " takes a non-negative number, not \"" + v + "\"");
      }
    };
    if (flag == "--seed") {
      a.seed = static_cast<uint64_t>(number(next()));
    } else if (flag == "--programs") {
      a.programs = static_cast<int64_t>(number(next()));
    } else if (flag == "--minutes") {
      a.minutes = number(next());
    } else if (flag == "--max-ops") {
      a.generator.max_ops = std::max(1, static_cast<int>(number(next())));
    } else if (flag == "--modes") {
      a.modes.clear();
      std::stringstream list(next());
      for (std::string m; std::getline(list, m, ',');) {
        const std::optional<Mode> mode = mode_from_name(m);
        if (!mode || *mode == Mode::Eager) usage_error("unknown mode \"" + m + "\" (interp, llvm, nofuse, cuda-emu)");
        a.modes.push_back(*mode);
      }
    } else if (flag == "--replays") {
      a.replays = static_cast<int>(number(next()));
    } else if (flag == "--keep-going") {
      a.keep_going = true;
    } else if (flag == "--no-minimise") {
      a.minimise = false;
    } else if (flag == "--replay") {
      a.replay = next();
    } else if (flag == "--help" || flag == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else {
      usage_error("unknown option \"" + flag + "\"");
    }
  }
  if (a.programs == 0 && a.minutes == 0) usage_error("--programs 0 needs --minutes");
  return a;
}

void report_failure(const Program& p, const std::string& failure, const Args& a, std::optional<uint64_t> seed) {
  std::cout << "\nFAIL" << (seed ? " seed=" + std::to_string(*seed) : std::string()) << ": " << failure << "\n";
  Program shown = p;
  if (a.minimise) {
    shown = minimise(p, [&](const Program& c) { return check_program(c, a.modes, a.replays); });
    std::cout << "minimised from " << p.steps.size() << " to " << shown.steps.size() << " steps; now fails with:\n  "
              << check_program(shown, a.modes, a.replays) << "\n";
  }
  std::cout << "--- program ---\n" << to_text(shown) << "--- lazy IR ---\n" << trace_text(shown) << "---\n" << std::flush;
}

int replay(const Args& a) {
  std::ifstream in(a.replay);
  if (!in) usage_error("cannot read \"" + a.replay + "\"");
  std::stringstream text;
  text << in.rdbuf();
  const Program p = parse_program(text.str());
  const std::string failure = check_program(p, a.modes, a.replays);
  if (failure.empty()) {
    std::cout << "lz_fuzz: " << a.replay << ": " << p.steps.size() << " steps agree in every mode\n";
    return 0;
  }
  report_failure(p, failure, a, std::nullopt);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse_args(argc, argv);
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_crash);
  try {
    if (!a.replay.empty()) return replay(a);
    const auto start = std::chrono::steady_clock::now();
    auto elapsed_s = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    int64_t programs = 0, steps = 0, error_steps = 0;
    std::vector<uint64_t> failing;
    std::set<std::string> ops_seen;
    lz::lazy::reset_metrics();
    for (uint64_t seed = a.seed; a.programs == 0 || programs < a.programs; ++seed) {
      if (a.minutes > 0 && elapsed_s() > a.minutes * 60) break;
      note_program(seed);
      const Program p = generate_program(seed, a.generator);
      const Outcome eager = run_program(p, Mode::Eager);
      for (size_t i = 0; i < p.steps.size(); ++i) {
        if (p.steps[i].kind == Step::Kind::Op) ops_seen.insert(p.steps[i].op);
        if (!eager.errors[i].empty()) ++error_steps;
      }
      ++programs;
      steps += static_cast<int64_t>(p.steps.size());
      const std::string failure = check_program(p, a.modes, a.replays);
      if (!failure.empty()) {
        failing.push_back(seed);
        report_failure(p, failure, a, seed);
        if (!a.keep_going) break;
      }
      if (programs % 100 == 0) {
        std::cerr << "lz_fuzz: " << programs << " programs, " << failing.size() << " failing, " << elapsed_s() << " s\n";
      }
    }
    const lz::lazy::LazyMetrics m = lz::lazy::metrics();
    std::cout << "lz_fuzz: " << programs << " programs (seeds " << a.seed << ".." << a.seed + programs - 1 << "), "
              << steps << " steps (" << error_steps << " raising, in every mode alike), " << ops_seen.size()
              << " operators; modes eager";
    for (Mode m : a.modes) std::cout << "," << mode_name(m);
    std::cout << "; " << failing.size() << " failing";
    for (uint64_t s : failing) std::cout << " " << s;
    std::cout << "; " << elapsed_s() << " s\n"
              << "lz_fuzz: lazy side: " << m.graphs_materialized << " graphs, " << m.kernels_compiled
              << " kernels planned, " << m.jit_compiled << " compiled by LLVM, " << m.eager_steps_total
              << " eager steps, " << m.cache_hits << " executable cache hits (" << m.cache_misses
              << " misses), " << m.graphs_failed << " graphs with failing values; " << a.replays
              << " replays per program and mode\n";
    return failing.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "lz_fuzz: " << e.what() << "\n";
    return 2;
  }
}
