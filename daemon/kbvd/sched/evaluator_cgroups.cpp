// daemon/kbvd/sched/evaluator_cgroups.cpp — makes, probes and sweeps the evaluators' cgroups (see
// evaluator_cgroups.hpp).
#include "sched/evaluator_cgroups.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <spdlog/spdlog.h>

namespace kbv::kbvd {
namespace {
// Every group kbvd makes starts so; a sweep takes only abandoned ones (their lock is free).
constexpr const char* kPrefix = "kbvd-";

std::string group_name(const std::string& what) { return kPrefix + std::to_string(::getpid()) + "-" + what; }
}  // namespace

EvaluatorCgroups EvaluatorCgroups::probe() {
  std::string why;
  const auto own = lifetime::own_cgroup(&why);
  if (!own) return off(why);
  auto group = lifetime::OwnedCgroup::create(*own, group_name("probe"), &why);
  if (!group) return off(why);
  // Joining needs write access to the common ancestor's cgroup.procs, which making a group does
  // not: try it in a child, as every evaluator will.
  const std::string procs = group->procs_file().string();
  const pid_t pid = ::fork();
  if (pid < 0) return off(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
    ::_exit(fd >= 0 && ::write(fd, "0", 1) == 1 ? 0 : (errno == 0 ? EIO : errno));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return off("cannot move a process into " + group->path().string() + ": " +
               std::strerror(WIFEXITED(status) ? WEXITSTATUS(status) : EIO));
  return EvaluatorCgroups(*own, "");
}

std::optional<lifetime::OwnedCgroup> EvaluatorCgroups::make() {
  if (!parent_) return std::nullopt;
  std::string why;
  auto group = lifetime::OwnedCgroup::create(*parent_, group_name(std::to_string(made_++)), &why);
  if (!group) spdlog::warn("evaluator without a cgroup of its own: {}", why);
  return group;
}

int EvaluatorCgroups::sweep_abandoned() const {
  return parent_ ? lifetime::sweep_abandoned_cgroups(*parent_, kPrefix) : 0;
}

}  // namespace kbv::kbvd
