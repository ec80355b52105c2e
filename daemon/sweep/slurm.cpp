// daemon/sweep/slurm.cpp — the job array's and the merge job's sbatch scripts; sbatch itself.
#include "sweep/slurm.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "client/printable.hpp"
#include "sweep/json_text.hpp"

extern char** environ;

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// `value` as it may stand in an #SBATCH line: sbatch reads those lines unquoted, so a space splits
// the argument and a line break ends the directives, the rest of the line a bash command (review:
// an output_dir of "/x\ntouch /tmp/p #" ran in both scripts).
std::string directive_value(const std::string& value, const char* what) {
  for (const char c : value)
    if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f || c == '"' || c == '\'')
      throw SlurmError(fmt::format("{} {} holds a space, a quote or a control character, which an #SBATCH line cannot carry; fix: use a "
                                   "path or name without them",
                                   what, control::printable(value)));
  return value;
}

// The #SBATCH lines both scripts share.
std::string common_directives(const SlurmJob& job) {
  std::string out;
  if (job.partition) out += fmt::format("#SBATCH --partition={}\n", directive_value(*job.partition, "--partition"));
  out += "#SBATCH --ntasks=1\n";
  return out;
}

std::string read_all(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;) text.append(buffer, n);
  return text;
}

}  // namespace

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-=:,+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string slurm_array_range(const std::vector<int>& shards) {
  if (shards.empty()) throw SlurmError("a job array needs at least one shard to run");
  std::vector<int> ids;
  for (const int shard : shards) ids.push_back(shard - 1);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string range;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    range += (range.empty() ? "" : ",") + (j == i ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return range;
}

std::string slurm_array_script(const SlurmJob& job) {
  std::string script = "#!/bin/bash\n";
  script += fmt::format("# kbv sweep '{}', epoch {}: its {} shards as one Slurm job array, written by `kbv sweep --slurm`\n", job.name,
                        job.epoch, job.shard_count);
  script += "# (docs/sweeps.md, \"Slurm\"). Task i runs shard i+1; merge.sbatch runs `kbv report` after every task.\n";
  script += fmt::format("#SBATCH --job-name=kbv-sweep-{}\n", job.name);
  script += fmt::format("#SBATCH --array={}\n", slurm_array_range(job.shards));
  script += common_directives(job);
  if (job.gpus_per_task && *job.gpus_per_task > 0) script += fmt::format("#SBATCH --gpus-per-task={}\n", *job.gpus_per_task);
  script += fmt::format("#SBATCH --cpus-per-task={}\n", job.cpus_per_task);
  script += fmt::format("#SBATCH --output={}\n", directive_value((job.slurm_dir / "logs" / "task-%a-job-%A.out").string(), "output_dir"));
  script += "set -eu\n";
  script += fmt::format("exec {} sweep {} --standalone --shard $((SLURM_ARRAY_TASK_ID+1))/{} --epoch {} --plan {} --key-file {} --output {} --device {}",
                        shell_quote(job.kbv.string()), shell_quote(job.config_file.string()), job.shard_count, job.epoch,
                        shell_quote(job.plan_id), shell_quote(job.key_file.string()), shell_quote(job.output_dir.string()),
                        shell_quote(job.device));
  if (job.jobs) script += fmt::format(" --jobs {}", *job.jobs);
  for (const auto& word : job.task_args) script += " " + shell_quote(word);
  script += " --no-report\n";
  return script;
}

std::string slurm_merge_script(const SlurmJob& job) {
  std::string script = "#!/bin/bash\n";
  script += fmt::format("# kbv sweep '{}', epoch {}: merges the shards' verdicts into the reports, written by `kbv sweep --slurm`.\n", job.name,
                        job.epoch);
  script += "# Submitted with --dependency=afterany:<array job id>: it runs however the tasks ended; a task that failed or\n";
  script += "# was cancelled is a missing or incomplete shard in the report (exit 1), never dropped candidates.\n";
  script += fmt::format("#SBATCH --job-name=kbv-report-{}\n", job.name);
  script += common_directives(job);
  script += fmt::format("#SBATCH --output={}\n", directive_value((job.slurm_dir / "logs" / "merge-job-%j.out").string(), "output_dir"));
  script += "set -eu\n";
  script += fmt::format("exec {} report {} --epoch {}\n", shell_quote(job.kbv.string()), shell_quote(job.output_dir.string()), job.epoch);
  return script;
}

std::vector<std::string> slurm_merge_arguments(const std::optional<std::string>& array_job_id) {
  if (!array_job_id) return {};
  return {"--dependency=afterany:" + *array_job_id};
}

std::vector<int> shards_to_submit(const SweepFolder& folder, const Plan& plan) {
  std::vector<int> shards;
  for (int index = 1; index <= plan.shard_count; ++index) {
    bool complete = false;
    try {
      const auto status = read_json_file(shard_status_path(folder, plan, {index, plan.shard_count}));
      complete = json_text(status, "state") == "finished" && status.value("planned", -1) == status.value("evaluated", -2);
    } catch (const std::exception&) {
      complete = false;  // missing or unreadable: never started, or started and lost
    }
    if (!complete) shards.push_back(index);
  }
  return shards;
}

void check_private_key_file(const fs::path& key_file) {
  struct stat info {};
  if (::stat(key_file.c_str(), &info) != 0)
    throw SlurmError(fmt::format("{}: cannot read the secret key ({}); fix: create it with `kbv keygen --key-file {}` on a folder every node "
                                 "can read, or name another with --key-file",
                                 key_file.string(), std::strerror(errno), key_file.string()));
  if ((info.st_mode & 077) != 0)
    throw SlurmError(fmt::format("{}: the secret key has mode {:04o}, so other users can read or change it, and every task of the job "
                                 "array reads it; fix: chmod 600 {}",
                                 key_file.string(), info.st_mode & 07777, shell_quote(key_file.string())));
  if (info.st_uid != ::geteuid())
    throw SlurmError(fmt::format("{}: the secret key belongs to uid {}, not to you (uid {}), so the tasks cannot be sure to read it; "
                                 "fix: use a key file of your own (kbv keygen) with mode 0600",
                                 key_file.string(), info.st_uid, ::geteuid()));
}

std::string submit_with_sbatch(const std::string& sbatch, const std::vector<std::string>& arguments, const fs::path& script) {
  std::vector<std::string> argv = {sbatch, "--parsable"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  argv.push_back(script.string());
  std::vector<char*> pointers;
  for (auto& word : argv) pointers.push_back(word.data());
  pointers.push_back(nullptr);

  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::tmpfile(), &std::fclose), err(std::tmpfile(), &std::fclose);
  if (!out || !err) throw SlurmError(fmt::format("cannot make a temporary file for sbatch's output: {}", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fileno(out.get()), 1);
  posix_spawn_file_actions_adddup2(&actions, fileno(err.get()), 2);
  pid_t pid = -1;
  const int spawned = ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw SlurmError(fmt::format("cannot run {} ({}); fix: run kbv sweep --slurm where Slurm's client commands are installed (a login "
                                 "node; Debian: slurm-client) and in PATH, or write the scripts with --dry-run and submit them yourself",
                                 sbatch, std::strerror(spawned)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string stdout_text = read_all(out.get()), stderr_text = trim(read_all(err.get()));
  std::string command;
  for (const auto& word : argv) command += (command.empty() ? "" : " ") + shell_quote(word);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw SlurmError(fmt::format("`{}` failed ({}): \"{}\"; fix: see sbatch's message (partition, account, limits); --partition and "
                                 "--gpus-per-task change what is asked for",
                                 command, WIFEXITED(status) ? fmt::format("exit {}", WEXITSTATUS(status)) : fmt::format("signal {}", WTERMSIG(status)),
                                 stderr_text));
  std::string id = trim(stdout_text.substr(0, stdout_text.find('\n')));
  id = id.substr(0, id.find(';'));  // --parsable: "id" or "id;cluster"
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw SlurmError(fmt::format("`{}` printed no job id (stdout \"{}\", stderr \"{}\"); fix: check that it is Slurm's sbatch", command,
                                 trim(stdout_text), stderr_text));
  return id;
}

}  // namespace kbv::sweep
