// Program_options front end: --config, --set FIELD=VALUE and shorthands for common fields.
#include "app/command_line.hpp"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <iostream>

namespace kbv::kbvd {
namespace po = boost::program_options;

std::optional<CommandLine> parse_command_line(int argc, const char* const argv[]) {
  po::options_description options("kbvd — the kbv evaluation daemon\n\nOptions");
  // Shorthand options: name -> the config field each sets.
  const std::vector<std::pair<std::string, std::string>> shorthands = {
      {"watch-dir", "watch.dir"},           {"state-dir", "store.state_dir"},
      {"socket", "control.socket"},         {"metrics-listen", "metrics.listen"},
      {"evaluator", "evaluator.command"},   {"timeout", "evaluator.timeout_s"},
      {"device", "devices.kind"},           {"gpus", "devices.gpus"},
      {"log-level", "log.level"}};
  options.add_options()("help,h", "print this help")("version", "print the version")(
      "config,c", po::value<std::string>(),
      "configuration file (default: $KBVD_CONFIG, else /etc/kbv/kbvd.yaml if present)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override any field: --set SECTION.FIELD=VALUE (repeatable)")(
      "check-config", "check the configuration, the folders, the control socket's path and that the "
                      "evaluator runs, without changing anything; print a summary and exit (0 OK, 78 not)");
  for (const auto& [name, field] : shorthands)
    options.add_options()(name.c_str(), po::value<std::string>(), fmt::format("sets {}", field).c_str());

  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, options), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << options << "\nSignals: SIGTERM drains, SIGHUP reloads the configuration.\n"
                            "Exit status: 0 after a clean drain, 78 (EX_CONFIG) on a configuration error, 1 otherwise.\n";
    return std::nullopt;
  }
  if (vm.count("version")) {
    std::cout << "kbvd " << KBV_VERSION << "\n";
    return std::nullopt;
  }
  CommandLine cl;
  if (vm.count("config")) {
    cl.config_file = vm["config"].as<std::string>();
  } else if (const char* env = std::getenv("KBVD_CONFIG"); env && *env) {
    cl.config_file = env;
  } else if (std::error_code ec; std::filesystem::exists("/etc/kbv/kbvd.yaml", ec)) {
    cl.config_file = "/etc/kbv/kbvd.yaml";
  }
  for (const auto& [name, field] : shorthands)
    if (vm.count(name)) cl.overrides.push_back({field, vm[name].as<std::string>(), "--" + name});
  if (vm.count("set")) {
    for (const auto& item : vm["set"].as<std::vector<std::string>>()) {
      const auto eq = item.find('=');
      if (eq == std::string::npos)
        throw ConfigError(fmt::format("option --set {}: expected SECTION.FIELD=VALUE; fix: write "
                                      "e.g. --set evaluator.timeout_s=600", item));
      cl.overrides.push_back({item.substr(0, eq), item.substr(eq + 1), "--set"});
    }
  }
  cl.check_only = vm.count("check-config") != 0;
  return cl;
}

}  // namespace kbv::kbvd
