// cli/command_line.cpp — parse one subcommand's arguments, print its help or a usage error.
#include "cli/command_line.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace kbv::cli {

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "kbv " << command << ": " << message << " (see kbv " << command << " --help)\n";
  return kExitBadInput;
}

std::optional<po::variables_map> parse_command_line(const CommandHelp& help, const po::options_description& visible,
                                                    const std::vector<std::string>& args, int& exit_code,
                                                    const std::vector<Positional>& positionals, const po::options_description* hidden) {
  po::options_description shown("options");
  shown.add_options()("help,h", "show this help and exit");
  for (const auto& option : visible.options()) shown.add(option);  // one list, no empty group caption
  po::options_description all;
  all.add(shown);
  if (hidden) all.add(*hidden);
  po::options_description words;
  po::positional_options_description order;
  for (const Positional& positional : positionals) {
    if (positional.max_count < 0) words.add_options()(positional.name.c_str(), po::value<std::vector<std::string>>()->multitoken());
    else words.add_options()(positional.name.c_str(), po::value<std::vector<std::string>>());
    order.add(positional.name.c_str(), positional.max_count);
  }
  all.add(words);

  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(order).run(), values);
    if (values.count("help")) {
      std::cout << "usage: kbv " << help.synopsis << "\n\n" << help.description << "\n\n" << shown;
      exit_code = kExitOk;
      return std::nullopt;
    }
    po::notify(values);
  } catch (const po::too_many_positional_options_error&) {
    exit_code = usage_error(help.name, "too many arguments (usage: kbv " + help.synopsis + ")");
    return std::nullopt;
  } catch (const std::exception& error) {
    exit_code = usage_error(help.name, error.what());
    return std::nullopt;
  }
  exit_code = kExitOk;
  return values;
}

std::vector<std::string> positional_values(const po::variables_map& values, const std::string& name) {
  return values.count(name) ? values[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

}  // namespace kbv::cli
