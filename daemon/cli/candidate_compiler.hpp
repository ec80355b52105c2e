// cli/candidate_compiler.hpp — compile one candidate source into a plugin the way
// kbv_add_candidate() does (plugin-sdk/cmake/KbvSDKCandidate.cmake), without CMake: the
// compiler for the device, kbv's SDK headers, and the command line.
//
// The flags are kbv_add_candidate()'s: C++20 (for .cu files too), -O3, position independent,
// hidden visibility (inline functions too, on the host), the compile flags recorded in the
// library (-frecord-gcc-switches, which `kbv eval` reads to tell an unoptimised build), linked
// with -z defs so a missing symbol fails here and not at load time, KBV_PROBLEM compiled in;
// CUDA candidates for sm_90 unless told otherwise, linked to the shared CUDA runtime.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/candidate_device.hpp"

namespace kbv::cli {

// A tool kbv build needs and cannot find; what() says where it looked and how to get it.
struct ToolNotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The architecture CUDA candidates are built for unless --arch says otherwise, as
// kbv_add_candidate(): Hopper, the H100/H200 kbv is measured on.
inline constexpr const char* kDefaultCudaArch = "sm_90";

struct CompileRequest {
  std::filesystem::path compiler;     // find_compiler()
  std::filesystem::path sdk_include;  // find_sdk_include(): holds kbv/plugin.hpp
  std::filesystem::path source;
  std::filesystem::path output;
  std::string problem;                // compiled in as KBV_PROBLEM
  CandidateDevice device = CandidateDevice::host;
  std::string cuda_arch = kDefaultCudaArch;
  std::vector<std::string> libraries;  // linked as -l<name>, after the source
};

// host: $CXX, else g++ or c++ on PATH. cuda: $CUDACXX, else nvcc on PATH, else
// $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc. Throws ToolNotFound.
std::filesystem::path find_compiler(CandidateDevice device);

// The directory holding kbv/plugin.hpp: ../include beside the running kbv (an installed kbv or
// the SDK installed with it), else the source tree's plugin-sdk/include (a build tree), else
// the install prefix's include/. Throws ToolNotFound naming every place it looked.
std::filesystem::path find_sdk_include();

// The compiler's argv (argv[0] is the compiler).
std::vector<std::string> compile_command(const CompileRequest& request);

// The argv as one shell line, each word quoted where the shell needs it.
std::string shell_line(const std::vector<std::string>& argv);

// Runs argv with kbv's stdin, stdout and stderr, so the compiler's diagnostics reach the user
// as it writes them; returns its exit status (128 + N when signal N ended it). Throws
// ToolNotFound when it cannot be started.
int run_compiler(const std::vector<std::string>& argv);

}  // namespace kbv::cli
