// cli/calibrate_command.cpp — parse `kbv calibrate`'s options, then exec kbv-calibrate (beside
// this binary, built with the CUDA device) writing where evaluations look for ceilings unless
// told otherwise.
//
// Exit status: kbv-calibrate's; 2 usage, or kbv-calibrate missing or not runnable.
#include "cli/calibrate_command.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/paths.hpp"
#include "inputs/secret_key.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

int calibrate_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "calibrate", "calibrate [--out F] [--gpu N] [--problems-dir DIR] [--no-conv-algorithms]",
      "Measure this GPU's ceilings (copy bandwidth, TF32 and FP32 GEMM rates) for the physical floor, then run\n"
      "cudnnFind for every conv problem's baselines at their default size and remember the choice beside the\n"
      "ceilings. Needs kbv-calibrate beside kbv (CUDA builds). Exit status: kbv-calibrate's, 2 usage."};
  po::options_description options;
  options.add_options()("out", po::value<std::string>()->value_name("F"), "ceilings file (default: $KBV_CEILINGS or <state dir>/ceilings.json)")(
      "gpu", po::value<int>()->value_name("N"), "CUDA device ordinal (default 0)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs whose conv baselines to prepare (default: the bundled problems/)")(
      "no-conv-algorithms", "skip cudnnFind for the conv baselines");
  po::options_description hidden;  // the name kbv-calibrate itself uses
  hidden.add_options()("device", po::value<int>(), "same as --gpu");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code, {}, &hidden);
  if (!values) return exit_code;
  const int gpu = values->count("gpu") ? (*values)["gpu"].as<int>() : values->count("device") ? (*values)["device"].as<int>() : 0;

  const std::filesystem::path tool = executable_directory() / "kbv-calibrate";
  std::error_code error;
  if (!std::filesystem::exists(tool, error)) {
    std::cerr << "kbv calibrate: " << tool.string() << " not found (fix: build kbv with the CUDA device, -DKBV_CUDA=ON)\n";
    return kExitBadInput;
  }
  std::filesystem::path out = values->count("out") ? std::filesystem::path((*values)["out"].as<std::string>()) : inputs::default_ceilings_path();
  if (!values->count("out")) std::filesystem::create_directories(out.parent_path(), error);
  std::vector<std::string> argv_strings = {tool.string(), "--out", out.string()};
  argv_strings.insert(argv_strings.end(), {"--device", std::to_string(gpu)});
  argv_strings.insert(argv_strings.end(), {"--problems", values->count("problems-dir") ? (*values)["problems-dir"].as<std::string>()
                                                                                         : default_problems_dir().string()});
  if (values->count("no-conv-algorithms")) argv_strings.push_back("--no-conv-algorithms");
  std::vector<char*> argv_pointers;
  for (auto& arg : argv_strings) argv_pointers.push_back(arg.data());
  argv_pointers.push_back(nullptr);
  ::execv(tool.c_str(), argv_pointers.data());
  std::cerr << "kbv calibrate: cannot run " << tool.string() << ": " << std::strerror(errno) << "\n";
  return kExitBadInput;
}

}  // namespace kbv::cli
