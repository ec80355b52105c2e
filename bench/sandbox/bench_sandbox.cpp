// bench/sandbox/bench_sandbox.cpp — what apply_sandbox adds to a worker's start: the median
// over kRuns of fork → apply_sandbox → exit → reaped, against fork → exit → reaped.
// Target (lead's brief): under 50 ms added. Prints the figures and the layers applied.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sandbox/sandbox.hpp"

namespace {

constexpr int kRuns = 50;
constexpr double kTargetAddedMs = 50.0;

using Clock = std::chrono::steady_clock;

// One fork → (sandbox) → _exit → waitpid, in milliseconds; exit status 2 marks a failed apply.
double time_one_start(const kbv::sandbox::SandboxPolicy* policy, bool* failed) {
  const auto start = Clock::now();
  const pid_t child = ::fork();
  if (child == 0) {
    if (policy) {
      try {
        kbv::sandbox::apply_sandbox(*policy);
      } catch (const std::exception& failure) {
        std::fprintf(stderr, "apply_sandbox: %s\n", failure.what());
        ::_exit(2);
      }
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  const auto end = Clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) *failed = true;
  return std::chrono::duration<double, std::milli>(end - start).count();
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t middle = samples.size() / 2;
  return samples.size() % 2 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

}  // namespace

int main() {
  char pattern[] = "/tmp/kbv-bench-sandbox-XXXXXX";
  if (!::mkdtemp(pattern)) return 1;
  const std::filesystem::path root = pattern;
  std::filesystem::create_directories(root / "scratch");
  if (std::FILE* key = std::fopen((root / "secret.key").c_str(), "w")) std::fclose(key);
  const bool cuda = std::filesystem::exists("/dev/nvidiactl");  // the worker's CUDA policy on a GPU host
  kbv::sandbox::SandboxPolicy policy =
      kbv::sandbox::worker_policy(root / "scratch", "/proc/self/exe", {(root / "secret.key").string()}, cuda);

  bool failed = false;
  std::vector<double> bare, sandboxed;
  for (int run = 0; run < kRuns; ++run) {  // interleaved, so drift hits both alike
    bare.push_back(time_one_start(nullptr, &failed));
    sandboxed.push_back(time_one_start(&policy, &failed));
  }
  std::filesystem::remove_all(root);
  if (failed) {
    std::fprintf(stderr, "a sandboxed child failed; figures are not meaningful\n");
    return 1;
  }
  const double bare_ms = median(bare), sandboxed_ms = median(sandboxed);
  std::printf("policy: %s\n", kbv::sandbox::describe_policy(policy).c_str());
  std::printf("fork -> exit, reaped:                 median %.3f ms (min %.3f, max %.3f) over %d runs\n", bare_ms,
              *std::min_element(bare.begin(), bare.end()), *std::max_element(bare.begin(), bare.end()), kRuns);
  std::printf("fork -> apply_sandbox -> exit, reaped: median %.3f ms (min %.3f, max %.3f) over %d runs\n", sandboxed_ms,
              *std::min_element(sandboxed.begin(), sandboxed.end()), *std::max_element(sandboxed.begin(), sandboxed.end()), kRuns);
  const double added = sandboxed_ms - bare_ms;
  std::printf("added by apply_sandbox: %.3f ms (target < %.0f ms: %s)\n", added, kTargetAddedMs, added < kTargetAddedMs ? "met" : "MISSED");
  return 0;
}
