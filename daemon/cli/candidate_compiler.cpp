// cli/candidate_compiler.cpp — find the compiler and the SDK, build the command, run it.
#include "cli/candidate_compiler.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "cli/paths.hpp"

extern char** environ;

namespace kbv::cli {

namespace {

namespace fs = std::filesystem;

bool is_executable_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value) return std::nullopt;
  return std::string(value);
}

// `name` as the shell would find it: itself when it holds a '/', else the first executable
// file of that name in $PATH.
std::optional<fs::path> on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable_file(name) ? std::optional<fs::path>(name) : std::nullopt;
  // An unset PATH is the system's default search path, as execvp takes it, not the current folder
  // (review: `env -u PATH kbv build` ran a ./g++ of the current folder).
  std::string path = environment("PATH").value_or("");
  if (path.empty()) {
    path.resize(::confstr(_CS_PATH, nullptr, 0));
    if (!path.empty()) ::confstr(_CS_PATH, path.data(), path.size());
    path = path.c_str();  // drop the terminating NUL confstr counts
  }
  size_t start = 0;
  while (start <= path.size()) {
    const size_t end = std::min(path.find(':', start), path.size());
    const fs::path candidate = fs::path(end == start ? "." : path.substr(start, end - start)) / name;
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

// A compiler named by an environment variable, which must exist.
std::optional<fs::path> named_by(const char* variable, const std::string& what) {
  const auto value = environment(variable);
  if (!value) return std::nullopt;
  if (const auto found = on_path(*value)) return found;
  throw ToolNotFound("$" + std::string(variable) + " names '" + *value + "', which is no executable file" +
                     (value->find('/') == std::string::npos ? " on PATH" : "") + " (fix: set " + variable + " to the " + what +
                     "'s path, or unset it to use the one on PATH)");
}

fs::path find_host_compiler() {
  if (const auto named = named_by("CXX", "C++ compiler")) return *named;
  for (const char* name : {"g++", "c++"})
    if (const auto found = on_path(name)) return *found;
  throw ToolNotFound("no C++ compiler: $CXX is unset and neither g++ nor c++ is on PATH (fix: install one, e.g. apt-get install g++, "
                     "or set CXX=/path/to/g++)");
}

fs::path find_cuda_compiler() {
  if (const auto named = named_by("CUDACXX", "CUDA compiler")) return *named;
  if (const auto found = on_path("nvcc")) return *found;
  std::vector<fs::path> looked;
  for (const char* home : {"CUDA_HOME", "CUDA_PATH"})
    if (const auto value = environment(home)) looked.push_back(fs::path(*value) / "bin" / "nvcc");
  looked.push_back("/usr/local/cuda/bin/nvcc");
  std::string places;
  for (const fs::path& path : looked) {
    if (is_executable_file(path)) return path;
    places += ", " + path.string();
  }
  throw ToolNotFound("no CUDA compiler: $CUDACXX is unset and nvcc is neither on PATH nor at " + places.substr(2) +
                     " (fix: install the CUDA toolkit, 12.0 or newer for C++20 — NVIDIA's cuda-toolkit package, or Debian's "
                     "nvidia-cuda-toolkit — and put its bin/ on PATH, or set CUDACXX=/path/to/nvcc)");
}

// Without throwing on a folder it may not read (review: a permission error escaped as std::terminate).
bool has_sdk(const fs::path& include) {
  std::error_code error;
  return fs::is_regular_file(include / "kbv" / "plugin.hpp", error);
}

}  // namespace

fs::path find_compiler(CandidateDevice device) { return device == CandidateDevice::cuda ? find_cuda_compiler() : find_host_compiler(); }

fs::path find_sdk_include() {
  const std::vector<fs::path> places = {(executable_directory() / ".." / "include").lexically_normal(), KBV_SOURCE_SDK_INCLUDE_DIR,
                                        KBV_INSTALL_SDK_INCLUDE_DIR};
  std::string looked;
  for (const fs::path& place : places) {
    if (has_sdk(place)) return place;
    looked += ", " + place.string();
  }
  throw ToolNotFound("kbv's SDK headers (kbv/plugin.hpp) are not in " + looked.substr(2) +
                     " (fix: install them beside kbv, cmake --install BUILD --prefix P --component sdk with kbv in P/bin, or build "
                     "with CMake and find_package(KbvSDK))");
}

std::vector<std::string> compile_command(const CompileRequest& request) {
  std::vector<std::string> argv = {request.compiler.string(), "-std=c++20", "-O3"};
  if (request.device == CandidateDevice::cuda) {
    argv.insert(argv.end(), {"-arch=" + request.cuda_arch, "-shared", "-cudart=shared",
                             "-Xcompiler=-fPIC,-fvisibility=hidden,-frecord-gcc-switches", "-Xlinker=-z,defs"});
  } else {
    argv.insert(argv.end(), {"-fPIC", "-shared", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-frecord-gcc-switches", "-Wl,-z,defs"});
  }
  argv.insert(argv.end(), {"-I" + request.sdk_include.string(), "-DKBV_PROBLEM=\"" + request.problem + "\"", request.source.string(), "-o",
                           request.output.string()});
  for (const std::string& library : request.libraries) argv.push_back("-l" + library);
  return argv;
}

std::string shell_line(const std::vector<std::string>& argv) {
  static const std::string kSafe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%";
  std::string line;
  for (const std::string& word : argv) {
    if (!line.empty()) line += ' ';
    if (!word.empty() && word.find_first_not_of(kSafe) == std::string::npos) {
      line += word;
      continue;
    }
    line += '\'';
    for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

int run_compiler(const std::vector<std::string>& argv) {
  std::vector<char*> pointers;
  for (const std::string& word : argv) pointers.push_back(const_cast<char*>(word.c_str()));
  pointers.push_back(nullptr);
  pid_t pid = 0;
  if (const int error = ::posix_spawn(&pid, argv.front().c_str(), nullptr, nullptr, pointers.data(), environ); error != 0)
    throw ToolNotFound("cannot start " + argv.front() + ": " + std::strerror(error));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw ToolNotFound("cannot wait for " + argv.front() + ": " + std::strerror(errno));
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace kbv::cli
