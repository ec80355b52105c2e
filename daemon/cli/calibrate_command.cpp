// cli/calibrate_command.cpp — parse `kbv calibrate`'s options, then exec kbv-calibrate (beside
// this binary, built with the CUDA device) writing where evaluations look for ceilings, or with
// --torch for the PyTorch calibration, unless told otherwise.
//
// Exit status: kbv-calibrate's; 2 usage, or kbv-calibrate missing or not runnable.
#include "cli/calibrate_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/paths.hpp"
#include "calibration/torch_calibration.hpp"
#include "inputs/secret_key.hpp"

namespace po = boost::program_options;

namespace kbv::cli {

int calibrate_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "calibrate",
      "calibrate [--out F] [--gpu N] [--problems-dir DIR] [--no-conv-algorithms]\n"
      "       kbv calibrate --torch [--python PATH] [--problem P]... [--shapes S]... [--kernelbench DIR] [--no-compile] [--max-duty D] [--stale]\n"
      "                     [--out F]",
      "Measure this GPU's ceilings (copy bandwidth, TF32 and FP32 GEMM rates) for the physical floor, then run\n"
      "cudnnFind for every conv problem's baselines at their default size and remember the choice beside the\n"
      "ceilings. With --torch: time PyTorch's forward of every problem and shape set (eager TF32, eager FP32,\n"
      "torch.compile) with kbv's protocol, in the same run as kbv's library baseline, and store the ratios that\n"
      "give every evaluation its speedups over PyTorch (docs/torch-calibration.md); PyTorch runs in a Python\n"
      "process of its own, never in kbv. Needs kbv-calibrate beside kbv (CUDA builds). Exit status:\n"
      "kbv-calibrate's (1 when PyTorch is unavailable), 2 usage."};
  po::options_description options;
  options.add_options()("out", po::value<std::string>()->value_name("F"),
                        "ceilings file (default: $KBV_CEILINGS or <state dir>/ceilings.json); with --torch the PyTorch calibration "
                        "(default: $KBV_TORCH_CALIBRATION or <state dir>/torch-baselines.json)")(
      "gpu", po::value<int>()->value_name("N"), "CUDA device ordinal (default 0)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs (default: the bundled problems/)")(
      "no-conv-algorithms", "skip cudnnFind for the conv baselines")(
      "torch", "calibrate against PyTorch instead (eager TF32, eager FP32, torch.compile)")(
      "python", po::value<std::string>()->value_name("PATH"), "with --torch: the Python with torch and CUDA (default: python3 on PATH)")(
      "problem", po::value<std::vector<std::string>>()->value_name("P"), "with --torch: only this problem (repeatable; default: all)")(
      "shapes", po::value<std::vector<std::string>>()->value_name("S"), "with --torch: only this shape set (repeatable; default: all)")(
      "kernelbench", po::value<std::string>()->value_name("DIR"),
      "with --torch: a KernelBench checkout's KernelBench/ folder, for problems imported from KernelBench (their forward is its Model)")(
      "torch-dir", po::value<std::string>()->value_name("DIR"), "with --torch: the folder holding kbv_torch/ (default: share/kbv/torch)")(
      "no-compile", "with --torch: leave torch.compile out (eager only: minutes faster)")(
      "stale", "with --torch: measure only the problems whose entry in the calibration file an evaluation could not use as it is (missing, "
               "stale after a library or spec change, unpaced); list the others as current")(
      "max-duty", po::value<double>()->value_name("D"),
      "with --torch: pace both timers so the GPU works at most this share of their wall, so the library and PyTorch are timed at one "
      "clock (default 0.25; 1: unpaced)");
  po::options_description hidden;  // the name kbv-calibrate itself uses
  hidden.add_options()("device", po::value<int>(), "same as --gpu");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code, {}, &hidden);
  if (!values) return exit_code;
  const int gpu = values->count("gpu") ? (*values)["gpu"].as<int>() : values->count("device") ? (*values)["device"].as<int>() : 0;
  const bool torch = values->count("torch") != 0;
  for (const char* torch_only : {"python", "problem", "shapes", "kernelbench", "torch-dir", "no-compile", "max-duty", "stale"})
    if (!torch && values->count(torch_only)) {
      std::cerr << "kbv calibrate: --" << torch_only << " needs --torch (see kbv calibrate --help)\n";
      return kExitBadInput;
    }

  const std::filesystem::path tool = executable_directory() / "kbv-calibrate";
  std::error_code error;
  if (!std::filesystem::exists(tool, error)) {
    std::cerr << "kbv calibrate: " << tool.string() << " not found (fix: build kbv with the CUDA device, -DKBV_CUDA=ON)\n";
    return kExitBadInput;
  }
  const std::filesystem::path default_out = torch ? calibration::default_torch_calibration_path() : inputs::default_ceilings_path();
  std::filesystem::path out = values->count("out") ? std::filesystem::path((*values)["out"].as<std::string>()) : default_out;
  if (!values->count("out")) std::filesystem::create_directories(out.parent_path(), error);
  std::vector<std::string> argv_strings = {tool.string(), "--out", out.string()};
  argv_strings.insert(argv_strings.end(), {"--device", std::to_string(gpu)});
  argv_strings.insert(argv_strings.end(), {"--problems", values->count("problems-dir") ? (*values)["problems-dir"].as<std::string>()
                                                                                         : default_problems_dir().string()});
  if (values->count("no-conv-algorithms")) argv_strings.push_back("--no-conv-algorithms");
  if (torch) {
    argv_strings.push_back("--torch");
    if (values->count("python")) argv_strings.insert(argv_strings.end(), {"--python", (*values)["python"].as<std::string>()});
    if (values->count("problem"))
      for (const auto& problem : (*values)["problem"].as<std::vector<std::string>>()) argv_strings.insert(argv_strings.end(), {"--problem", problem});
    if (values->count("shapes"))
      for (const auto& set : (*values)["shapes"].as<std::vector<std::string>>()) argv_strings.insert(argv_strings.end(), {"--shapes", set});
    if (values->count("kernelbench")) argv_strings.insert(argv_strings.end(), {"--kernelbench", (*values)["kernelbench"].as<std::string>()});
    if (values->count("torch-dir")) argv_strings.insert(argv_strings.end(), {"--torch-dir", (*values)["torch-dir"].as<std::string>()});
    if (values->count("no-compile")) argv_strings.push_back("--no-compile");
    if (values->count("stale")) argv_strings.push_back("--stale");
    if (values->count("max-duty")) argv_strings.insert(argv_strings.end(), {"--max-duty", fmt::format("{}", (*values)["max-duty"].as<double>())});
  }
  std::vector<char*> argv_pointers;
  for (auto& arg : argv_strings) argv_pointers.push_back(arg.data());
  argv_pointers.push_back(nullptr);
  ::execv(tool.c_str(), argv_pointers.data());
  std::cerr << "kbv calibrate: cannot run " << tool.string() << ": " << std::strerror(errno) << "\n";
  return kExitBadInput;
}

}  // namespace kbv::cli
