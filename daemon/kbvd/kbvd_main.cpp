// kbvd: the kbv evaluation daemon (watch folder -> durable queue -> evaluator children).
#include <boost/program_options/errors.hpp>
#include <iostream>

#include "app/daemon.hpp"
#include "config/config.hpp"

int main(int argc, char** argv) {
  using namespace kbv::kbvd;
  std::optional<CommandLine> command_line;
  try {
    command_line = parse_command_line(argc, argv);
  } catch (const ConfigError& e) {
    std::cerr << "kbvd: " << e.what() << "\n";
    return kExitConfig;
  } catch (const std::exception& e) {
    std::cerr << "kbvd: " << e.what() << "\n(kbvd --help lists the options)\n";
    return 2;
  }
  if (!command_line) return kExitOk;
  if (command_line->check_only) return check_config(*command_line);
  Daemon daemon(std::move(*command_line));
  return daemon.run();
}
