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
  } catch (const std::exception& e) {
    std::cerr << "kbvd: " << e.what() << "\n(kbvd --help lists the options)\n";
    return 2;
  }
  if (!command_line) return 0;
  if (command_line->check_only) {
    try {
      const auto config = load_config(command_line->config_file, command_line->overrides);
      std::cout << "kbvd: configuration OK ("
                << (config.file.empty() ? std::string("built-in defaults") : config.file.string())
                << "): watch " << config.watch.dir.string() << ", state " << config.store.state_dir.string()
                << ", socket " << config.control.socket.string() << ", evaluator "
                << config.evaluator.command.string() << "\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "kbvd: " << e.what() << "\n";
      return 1;
    }
  }
  Daemon daemon(std::move(*command_line));
  return daemon.run();
}
