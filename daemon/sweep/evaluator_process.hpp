// sweep/evaluator_process.hpp — one `kbv eval` child of a standalone sweep: its own process group
// (killed as a whole at the deadline), SIGKILLed if the sweep dies (PR_SET_PDEATHSIG), stdin
// from /dev/null, stdout and stderr into files, no other inherited descriptor.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sched/outcome.hpp"

namespace kbv::sweep {

class EvaluatorProcess {
 public:
  // Starts argv[0] with argv; throws std::runtime_error when it cannot be started.
  EvaluatorProcess(const std::vector<std::string>& argv, const std::filesystem::path& stdout_file,
                   const std::filesystem::path& stderr_file);
  ~EvaluatorProcess();  // kills the group and reaps the child if it still runs
  EvaluatorProcess(const EvaluatorProcess&) = delete;
  EvaluatorProcess& operator=(const EvaluatorProcess&) = delete;

  // Non-blocking: how the child ended, once it has. Past `timeout_s` the group is killed and
  // the exit says timed_out.
  std::optional<kbvd::ChildExit> poll(double timeout_s);
  // Kills the group and reaps the child (the sweep is stopping).
  void kill();
  double elapsed_s() const;

 private:
  pid_t pid_ = -1;
  bool timed_out_ = false;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace kbv::sweep
