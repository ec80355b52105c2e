// cli/main.cpp — the kbv command line: dispatch to subcommands.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/compare_outputs_command.hpp"
#include "cli/eval_command.hpp"
#include "cli/export_command.hpp"
#include "cli/problems_command.hpp"
#include "cli/paths.hpp"
#include "cli/report_command.hpp"
#include "cli/sweep_command.hpp"
#include "client/control_command.hpp"
#include "inputs/secret_key.hpp"

namespace {

void usage(std::ostream& out) {
  out << "usage: kbv <command> [options]\n"
         "  eval CANDIDATE.so...   evaluate candidates now, without a daemon (--help for options)\n"
         "  problems               list the problems kbv knows (--json)\n"
         "  export --problem P --out DIR   write a draw of P's inputs and kbv's fp64 reference as .npy (--help)\n"
         "  compare-outputs EXPORT_DIR OUTPUTS_DIR   compare outputs (.npy) with an export's reference (--json)\n"
         "  keygen                 create the secret key file (--key-file F)\n"
         "  sweep SWEEP.yaml       evaluate a sweep's candidates (through kbvd, or --standalone) and write its reports\n"
         "  report SWEEP_DIR       write a sweep's reports again (merging shards); --kbvd: from kbvd's store\n"
         "  calibrate              measure this GPU's ceilings for the physical floor (kbv-calibrate;\n"
         "                         stored in $KBV_CEILINGS or <state dir>/ceilings.json unless --out F),\n"
         "                         then remember cudnnFind's choice for every conv baseline\n"
         "  version                print kbv's version\n";
}

// `kbv calibrate [--out F] [--device N]`: kbv-calibrate (beside this binary, built with the
// CUDA device) writing where evaluations look for ceilings unless told otherwise.
int calibrate_command(const std::vector<std::string>& args) {
  const std::filesystem::path tool = kbv::cli::executable_directory() / "kbv-calibrate";
  std::error_code error;
  if (!std::filesystem::exists(tool, error)) {
    std::cerr << "kbv calibrate: " << tool.string() << " not found (fix: build kbv with the CUDA device, -DKBV_CUDA=ON)\n";
    return 2;
  }
  std::vector<std::string> argv_strings = {tool.string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  bool has_out = false;
  for (const auto& arg : args) has_out |= arg == "--out";
  if (!has_out) {
    const std::filesystem::path out = kbv::inputs::default_ceilings_path();
    std::filesystem::create_directories(out.parent_path(), error);
    argv_strings.insert(argv_strings.end(), {"--out", out.string()});
  }
  std::vector<char*> argv_pointers;
  for (auto& arg : argv_strings) argv_pointers.push_back(arg.data());
  argv_pointers.push_back(nullptr);
  ::execv(tool.c_str(), argv_pointers.data());
  std::cerr << "kbv calibrate: cannot run " << tool.string() << ": " << std::strerror(errno) << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "eval") return kbv::cli::eval_command(args);
  if (command == "problems") return kbv::cli::problems_command(args);
  if (command == "calibrate") return calibrate_command(args);
  if (command == "export") return kbv::cli::export_command(args);
  if (command == "compare-outputs") return kbv::cli::compare_outputs_command(args);
  if (command == "keygen") return kbv::cli::keygen_command(args);
  if (command == "sweep") return kbv::cli::sweep_command(args);
  if (command == "report") return kbv::cli::report_command(args);
  if (command == "status" || command == "submit" || command == "results" || command == "requeue")
    return kbv::control::run_control_command(argc, argv);
  if (command == "version" || command == "--version") {
    std::cout << "kbv " << KBV_VERSION << "\n";
    return 0;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    usage(std::cout);
    return 0;
  }
  std::cerr << "kbv: unknown command '" << command << "'\n";
  usage(std::cerr);
  return 2;
}
