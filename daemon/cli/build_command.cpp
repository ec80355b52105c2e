// cli/build_command.cpp — parse `kbv build`'s options, check them, compile, and check that what
// came out is a candidate.
//
// Exit status: 0 built; 1 the compiler failed (its diagnostics are above) or its output is no
// kbv candidate; 2 usage or bad input (no source, wrong extension for the device, unknown
// problem, bad --arch, no compiler or SDK headers found). The message names what and the fix.
#include "cli/build_command.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <regex>

#include "cli/candidate_compiler.hpp"
#include "cli/candidate_device.hpp"
#include "cli/command_line.hpp"
#include "cli/paths.hpp"
#include "cli/problem_lookup.hpp"
#include "eval/elf_check.hpp"
#include "spec/catalog.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace kbv::cli {

namespace {

constexpr int kExitBuildFailed = 1;

const CommandHelp kHelp = {
    "build", "build FILE.cu|FILE.cpp --problem P [--device cuda|host] [-o OUT.so] [--arch sm_90] [-l LIB]...",
    "Compile one candidate source into a plugin with the flags kbv_add_candidate() uses, without CMake: C++20, -O3,\n"
    "hidden visibility, -frecord-gcc-switches, -z defs, KBV_PROBLEM compiled in; CUDA (nvcc) for sm_90 unless --arch\n"
    "says otherwise, with the shared CUDA runtime. The compiler is $CXX, else g++ (host), or $CUDACXX, else nvcc (cuda);\n"
    "kbv's SDK headers are found beside the installed kbv or in the tree it was built from. The compiler's diagnostics\n"
    "pass through unchanged. The device follows the extension unless --device names it (.cu: cuda; .cpp: host).\n"
    "Exit status: 0 built, 1 compile failure (or the output is no kbv candidate), 2 usage or bad input."};

// .cu is CUDA source; these are C++ (a cuda candidate may be plain C++ that calls CUDA libraries).
bool is_cpp_extension(const std::string& extension) { return extension == ".cpp" || extension == ".cc" || extension == ".cxx"; }

// "sm_90", "sm_90a" or "90" -> "sm_90"…; nullopt for anything else.
std::optional<std::string> parse_arch(const std::string& text) {
  static const std::regex form(R"((sm_)?([0-9]{2,3}[af]?))");
  std::smatch match;
  if (!std::regex_match(text, match, form)) return std::nullopt;
  return "sm_" + match[2].str();
}

struct BuildError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A relative path the compiler reads as written: "./" before one starting with '-' (an option)
// or '@' (g++ and clang read an existing file named @FILE as more options: a source named
// "@k.cpp" holding "-wrapper /bin/sh,-c,…" ran a shell command, review).
fs::path as_compiler_operand(const fs::path& path) {
  const std::string text = path.string();
  if (path.is_relative() && !text.empty() && (text.front() == '-' || text.front() == '@')) return fs::path(".") / path;
  return path;
}

// The request from the options, or a BuildError naming the flag and the fix.
CompileRequest request_from(const po::variables_map& values, const std::vector<std::string>& sources) {
  if (sources.empty()) throw BuildError("no source file given (usage: kbv " + kHelp.synopsis + ")");
  CompileRequest request;
  request.source = sources.front();
  if (request.source.empty()) throw BuildError("an empty source name (fix: name the candidate's .cu or .cpp source)");
  request.source = as_compiler_operand(request.source);
  std::error_code error;
  if (!fs::exists(request.source, error)) throw BuildError(request.source.string() + ": no such file (fix: name the candidate's .cu or .cpp source)");
  if (!fs::is_regular_file(request.source, error))
    throw BuildError(request.source.string() + ": not a regular file (fix: name the candidate's .cu or .cpp source, not a folder or device)");
  const std::string extension = request.source.extension().string();
  if (extension != ".cu" && !is_cpp_extension(extension))
    throw BuildError(request.source.string() + ": a candidate source ends in .cu (CUDA) or .cpp, .cc, .cxx (C++), not '" + extension + "'");
  if (values.count("device")) {
    const std::string text = values["device"].as<std::string>();
    const auto device = parse_candidate_device(text);
    if (!device) throw BuildError("--device must be cuda or host, got '" + text + "'");
    request.device = *device;
  } else {
    request.device = extension == ".cu" ? CandidateDevice::cuda : CandidateDevice::host;
  }
  if (extension == ".cu" && request.device == CandidateDevice::host)
    throw BuildError(request.source.string() + " is CUDA source (.cu): a host candidate is C++ (.cpp) (fix: --device cuda, or rename it)");
  if (values.count("arch")) {
    if (request.device != CandidateDevice::cuda) throw BuildError("--arch is for --device cuda");
    const auto arch = parse_arch(values["arch"].as<std::string>());
    if (!arch) throw BuildError("--arch must name a CUDA architecture such as sm_90 or sm_100, got '" + values["arch"].as<std::string>() + "'");
    request.cuda_arch = *arch;
  }
  if (!values.count("problem")) throw BuildError("--problem is required: the problem this candidate implements (kbv problems lists them)");
  const ProblemCatalog catalog =
      ProblemCatalog::open(values.count("problems-dir") ? fs::path(values["problems-dir"].as<std::string>()) : default_problems_dir());
  request.problem = resolve_problem_name(catalog, values["problem"].as<std::string>());
  request.output = as_compiler_operand(values.count("output") ? fs::path(values["output"].as<std::string>()) : fs::path("lib" + request.source.stem().string() + ".so"));
  // Checked before the compiler runs: a wrong -o is the user's, not a compile failure, and a name
  // that is not a .so would overwrite whatever file it names (the candidate's own header, say).
  if (request.output.extension() != ".so")
    throw BuildError("-o " + request.output.string() + ": a candidate plugin's name ends in .so (fix: -o NAME.so)");
  if (fs::is_directory(request.output, error)) throw BuildError("-o " + request.output.string() + ": is a folder (fix: -o FOLDER/NAME.so)");
  const fs::path output_folder = request.output.has_parent_path() ? request.output.parent_path() : fs::path(".");
  if (!fs::is_directory(output_folder, error))
    throw BuildError("-o " + request.output.string() + ": the folder " + output_folder.string() + " does not exist (fix: create it first)");
  if (values.count("library")) request.libraries = values["library"].as<std::vector<std::string>>();
  return request;
}

}  // namespace

int build_command(const std::vector<std::string>& args) {
  const std::string arch_help = std::string("CUDA architecture (default: ") + kDefaultCudaArch + ")";
  po::options_description options;
  options.add_options()("problem", po::value<std::string>()->value_name("P"), "the problem it implements: a name or KernelBench's L1/19 (required)")(
      "device", po::value<std::string>()->value_name("D"), "cuda or host (default: cuda for .cu, host for .cpp)")(
      "output,o", po::value<std::string>()->value_name("OUT.so"), "the plugin to write (default: lib<FILE's stem>.so here)")(
      "arch", po::value<std::string>()->value_name("sm_NN"), arch_help.c_str())(
      "library,l", po::value<std::vector<std::string>>()->composing()->value_name("LIB"), "link a library, e.g. -l cublas (repeatable)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)")(
      "verbose,v", "print the compiler's command line before running it");
  int exit_code = kExitOk;
  const auto values = parse_command_line(kHelp, options, args, exit_code, {{"source", 1}});
  if (!values) return exit_code;
  CompileRequest request;
  try {
    request = request_from(*values, positional_values(*values, "source"));
  } catch (const BuildError& error) {
    return usage_error("build", error.what());
  } catch (const std::exception& error) {  // the problem catalog: unknown problem, bad spec
    std::cerr << "kbv build: " << error.what() << "\n";
    return kExitBadInput;
  }
  // The compiler writes a private file beside OUT.so, renamed over it once checked: two builds
  // to one OUT.so each leave a whole plugin and report the one they wrote, and a failed build
  // leaves the previous OUT.so untouched.
  const fs::path output = request.output;
  std::string staging = (output.has_parent_path() ? output.parent_path() / ("." + output.filename().string()) : fs::path("." + output.filename().string())).string() +
                        ".building-XXXXXX.so";
  const int staging_fd = ::mkstemps(staging.data(), 3);
  if (staging_fd < 0) return usage_error("build", "-o " + output.string() + ": cannot write in its folder (" + std::strerror(errno) + "; fix: check its permissions)");
  ::close(staging_fd);
  struct RemoveStaging {
    std::string path;
    ~RemoveStaging() {
      if (!path.empty()) ::unlink(path.c_str());
    }
  } remove_staging{staging};
  request.output = staging;
  std::vector<std::string> argv;
  try {
    request.compiler = find_compiler(request.device);
    request.sdk_include = find_sdk_include();
    argv = compile_command(request);
    if (values->count("verbose")) std::cout << shell_line(argv) << std::endl;
    if (const int status = run_compiler(argv); status != 0) {
      std::cerr << "kbv build: " << request.compiler.filename().string() << " failed (exit status " << status << ") building "
                << request.source.string() << " (the compiler's messages are above; kbv build --verbose prints the command)\n";
      return kExitBuildFailed;
    }
  } catch (const ToolNotFound& error) {
    std::cerr << "kbv build: " << error.what() << "\n";
    return kExitBadInput;
  }
  if (const auto problem = eval::check_candidate(request.output)) {
    std::string text = *problem;
    if (const auto at = text.find(staging); at != std::string::npos) text.replace(at, staging.size(), output.string());
    std::cerr << "kbv build: " << text << "\n";
    return kExitBuildFailed;
  }
  if (::rename(staging.c_str(), output.c_str()) != 0) {
    std::cerr << "kbv build: -o " << output.string() << ": cannot be replaced (" << std::strerror(errno) << ")\n";
    return kExitBuildFailed;
  }
  remove_staging.path.clear();
  request.output = output;
  std::cout << "built " << request.output.string() << " (problem " << request.problem << ", device " << device_name(request.device)
            << "); evaluate it: kbv eval " << request.output.string() << " --device " << device_name(request.device) << "\n";
  return kExitOk;
}

}  // namespace kbv::cli
