// cli/main.cpp — the kbv command line: dispatch to subcommands.
#include <iostream>
#include <string>
#include <vector>

#include "cli/eval_command.hpp"
#include "cli/problems_command.hpp"
#include "client/control_command.hpp"

namespace {

void usage(std::ostream& out) {
  out << "usage: kbv <command> [options]\n"
         "  eval CANDIDATE.so...   evaluate candidates now, without a daemon (--help for options)\n"
         "  problems               list the problems kbv knows (--json)\n"
         "  keygen                 create the secret key file (--key-file F)\n"
         "  version                print kbv's version\n";
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
  if (command == "keygen") return kbv::cli::keygen_command(args);
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
