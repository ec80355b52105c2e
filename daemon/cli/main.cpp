// cli/main.cpp — the kbv command line: one table of subcommands, dispatch, and `kbv --help`.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/build_command.hpp"
#include "cli/calibrate_command.hpp"
#include "cli/command_line.hpp"
#include "cli/compare_outputs_command.hpp"
#include "cli/eval_command.hpp"
#include "cli/export_command.hpp"
#include "cli/keygen_command.hpp"
#include "cli/problems_command.hpp"
#include "cli/prompt_command.hpp"
#include "cli/report_command.hpp"
#include "cli/sweep_command.hpp"
#include "client/control_command.hpp"
#include "client/printable.hpp"

namespace {

// The control commands talk to a running kbvd; they parse their own words (kbvctl's parser),
// so they get the whole command line.
int control_command(const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> words = {"kbv", name};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  return kbv::control::run_control_command(static_cast<int>(words.size()), argv.data());
}

int version_command(const std::vector<std::string>& args) {
  const kbv::cli::CommandHelp help = {"version", "version", "Print kbv's version."};
  int exit_code = kbv::cli::kExitOk;
  if (!kbv::cli::parse_command_line(help, boost::program_options::options_description(), args, exit_code)) return exit_code;
  std::cout << "kbv " << KBV_VERSION << "\n";
  return kbv::cli::kExitOk;
}

struct Subcommand {
  const char* name;
  const char* synopsis;  // shown in `kbv --help`, after "kbv "
  const char* summary;
  int (*run)(const std::string& name, const std::vector<std::string>& args);
};

template <int (*Command)(const std::vector<std::string>&)>
int plain(const std::string&, const std::vector<std::string>& args) {
  return Command(args);
}

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"eval", "eval CANDIDATE.so... [options]", "evaluate candidates now, without a daemon", &plain<kbv::cli::eval_command>},
      {"problems", "problems [NAME | L1/19] [--level N]", "list the problems (--level, --source filter them), or show one in full",
       &plain<kbv::cli::problems_command>},
      {"prompt", "prompt PROBLEM [--device cuda|host]", "print a prompt a language model can write a candidate from", &plain<kbv::cli::prompt_command>},
      {"build", "build FILE.cu|FILE.cpp --problem P", "compile a candidate source into a plugin (kbv_add_candidate's flags, no CMake)",
       &plain<kbv::cli::build_command>},
      {"export", "export --problem NAME --out DIR", "write a draw of a problem's inputs and kbv's fp64 reference as .npy",
       &plain<kbv::cli::export_command>},
      {"compare-outputs", "compare-outputs EXPORT_DIR OUTPUTS_DIR", "compare outputs (.npy) with an export's reference",
       &plain<kbv::cli::compare_outputs_command>},
      {"keygen", "keygen [--key-file F]", "create the secret key that decides the hidden inputs", &plain<kbv::cli::keygen_command>},
      {"calibrate", "calibrate [--out F] [--torch]", "measure this GPU's ceilings and conv algorithms; --torch: PyTorch's times (CUDA builds)", &plain<kbv::cli::calibrate_command>},
      {"sweep", "sweep SWEEP.yaml [options]", "evaluate a sweep's candidates (kbvd or --standalone) and write its reports",
       &plain<kbv::cli::sweep_command>},
      {"report", "report SWEEP_DIR | --kbvd --out DIR", "write a sweep's reports (shards merged), or an epoch's from kbvd",
       &plain<kbv::cli::report_command>},
      {"submit", "submit FILE.so [--manifest M]", "kbvd: copy a candidate into the watch folder (atomically)", &control_command},
      {"status", "status [--json]", "kbvd: daemon, queue and slots", &control_command},
      {"results", "results [list|show ID] [--json]", "kbvd: finished and queued candidates, or one in full", &control_command},
      {"requeue", "requeue ID", "kbvd: evaluate a finished candidate again", &control_command},
      {"version", "version", "print kbv's version", &plain<version_command>},
  };
  return table;
}

void usage(std::ostream& out) {
  out << "usage: kbv COMMAND [options]     (kbv COMMAND --help for its options)\n\n";
  for (const Subcommand& command : subcommands()) {
    std::string synopsis = command.synopsis;
    synopsis.resize(std::max<size_t>(synopsis.size(), 38), ' ');
    out << "  " << synopsis << " " << command.summary << "\n";
  }
  out << "\nThe kbvd commands reach the daemon over its control socket ($KBV_SOCKET, else /run/kbvd/control.sock).\n";
}

const Subcommand* find(const std::string& name) {
  for (const Subcommand& command : subcommands())
    if (name == command.name) return &command;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return kbv::cli::kExitBadInput;
  }
  const std::string name = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (name == "--version") return version_command({});
  if (name == "help" || name == "--help" || name == "-h") {
    // `kbv help COMMAND` is `kbv COMMAND --help`.
    if (!args.empty()) {
      if (const Subcommand* command = find(args.front())) return command->run(command->name, {"--help"});
      std::cerr << "kbv help: unknown command '" << kbv::control::printable(args.front()) << "'\n";
      usage(std::cerr);
      return kbv::cli::kExitBadInput;
    }
    usage(std::cout);
    return kbv::cli::kExitOk;
  }
  if (const Subcommand* command = find(name)) {
    // Each command reports its own errors with the file, the field and the fix; this is the last
    // resort for one a command did not foresee, so it is an exit status 2 with its text, never
    // std::terminate (review: a JSON type_error escaped compare-outputs as SIGABRT).
    try {
      return command->run(command->name, args);
    } catch (const std::exception& error) {
      std::cerr << "kbv " << name << ": " << kbv::control::printable(error.what()) << "\n";
      return kbv::cli::kExitBadInput;
    }
  }
  std::cerr << "kbv: unknown command '" << kbv::control::printable(name) << "'\n";
  usage(std::cerr);
  return kbv::cli::kExitBadInput;
}
