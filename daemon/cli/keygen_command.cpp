// cli/keygen_command.cpp — `kbv keygen [--key-file F]`: create the secret key (mode 0600).
//
// Exit status: 0 created; 2 usage, or the key cannot be created (it exists, or the directory is
// not writable): the message names the file.
#include "cli/keygen_command.hpp"

#include <iostream>

#include "cli/command_line.hpp"
#include "inputs/secret_key.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

int keygen_command(const std::vector<std::string>& args) {
  const CommandHelp help = {"keygen", "keygen [--key-file F]",
                            "Create the secret key that decides every hidden input family (mode 0600; refuses to overwrite one).\n"
                            "kbv eval creates it on first use as well. Exit status: 0 created, 2 usage or cannot create."};
  po::options_description options;
  options.add_options()("key-file", po::value<std::string>()->value_name("F"), "where to create it (default: $KBV_KEY_FILE or ~/.local/state/kbv/secret.key)");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code);
  if (!values) return exit_code;
  std::filesystem::path path;
  try {
    // Inside the try: the default path throws where no home folder is known (review).
    path = values->count("key-file") ? std::filesystem::path((*values)["key-file"].as<std::string>()) : inputs::default_key_path();
    inputs::SecretKey::create(path);
    std::cout << "created " << path.string() << " (mode 0600; keep it private: it decides every hidden input)\n";
    return kExitOk;
  } catch (const std::exception& error) {
    std::cerr << "kbv keygen: " << error.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace kbv::cli
