// sweep/slurm.hpp — `kbv sweep SWEEP.yaml --slurm` (docs/sweeps.md, "Slurm"): one Slurm job array
// whose task I runs `kbv sweep --standalone --shard I+1/N` with the epoch, the key file and the plan
// fixed at submission, and a merge job (`kbv report OUT`) that starts after every task ends, however it
// ended (afterany): a failed or cancelled task is a missing shard in the report. A resubmission
// runs only the shards whose status file does not say they finished every evaluation.
//
// This file builds the scripts and runs sbatch; planning the sweep is sweep_engine's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sweep/plan.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep {

// CPUs a task asks for per evaluation it runs at once: the evaluator's and its worker's processes
// each keep a core busy through a timed call (they wait by polling), so one CPU for both would
// put a host candidate's time under the scheduler's and slow every CUDA round trip. Slurm's
// default is one CPU per task.
inline constexpr int kCpusPerEvaluation = 2;
inline constexpr int kMaxCpusPerTask = 4096;

// Slurm's own limit on array task ids (MaxArraySize's default is 1001: ids 0..1000).
inline constexpr int kMaxSlurmArraySize = 1000;

struct SlurmOptions {
  std::optional<std::string> partition;
  std::optional<int> gpus_per_task;  // unset: 1 for device cuda, none on the host
  std::optional<int> array_size;     // unset: the previous submission's, else one task per problem
  std::optional<int> cpus_per_task;  // unset: kCpusPerEvaluation per evaluation a task runs at once
  bool dry_run = false;              // print the scripts and the sbatch commands, submit nothing
  std::string sbatch = "sbatch";     // the program (a path, or a name looked up in PATH)
};

// Submission or scripts cannot go on; what() names the file or option and the fix.
class SlurmError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the two scripts need: everything is an absolute path, fixed at submission.
struct SlurmJob {
  std::filesystem::path kbv;          // this kbv binary
  std::filesystem::path config_file;  // SWEEP.yaml
  std::filesystem::path output_dir;   // the sweep's output folder
  std::filesystem::path key_file;     // the one key every task reads
  std::filesystem::path slurm_dir;    // OUT/epoch-E/slurm: scripts, submission.json, logs/
  std::string name;                   // the sweep's name
  std::uint64_t epoch = 0;
  std::string plan_id;                // the plan every task evaluates (OUT/epoch-E/plans/<id>.json)
  int shard_count = 1;                // N: the array's size
  std::vector<int> shards;            // the shards (1-based) this submission runs
  std::string device = "host";
  std::optional<int> jobs;            // --jobs for every task
  std::vector<std::string> task_args; // more options for every task (the command line's budgets)
  std::optional<std::string> partition;
  std::optional<int> gpus_per_task;
  int cpus_per_task = kCpusPerEvaluation;  // #SBATCH --cpus-per-task of the array's tasks
};

// Slurm's --array value for shards (1-based): task id = shard - 1; runs are compressed
// ("0-2", "0,2,4-6"). Throws SlurmError when `shards` is empty.
std::string slurm_array_range(const std::vector<int>& shards);
// The job array's sbatch script and the merge job's.
std::string slurm_array_script(const SlurmJob& job);
std::string slurm_merge_script(const SlurmJob& job);
// sbatch's arguments before the script: the merge job depends on the array (nullopt: no
// array was submitted, the merge runs on its own).
std::vector<std::string> slurm_merge_arguments(const std::optional<std::string>& array_job_id);

// The shards of `plan` a submission must run: those whose status file is missing, unreadable,
// not "finished", or finished with fewer verdicts than planned (ascending).
std::vector<int> shards_to_submit(const SweepFolder& folder, const Plan& plan);

// Refuses (SlurmError) a key file others can read or write: every task of the array reads it.
void check_private_key_file(const std::filesystem::path& key_file);

// Runs `sbatch --parsable ARGS SCRIPT` and returns the job id. Throws SlurmError when sbatch
// cannot be started (not installed) or fails (its stderr quoted).
std::string submit_with_sbatch(const std::string& sbatch, const std::vector<std::string>& arguments, const std::filesystem::path& script);

// A word the shell reads back unchanged ('…' with ' escaped), for the scripts.
std::string shell_quote(const std::string& word);

}  // namespace kbv::sweep
