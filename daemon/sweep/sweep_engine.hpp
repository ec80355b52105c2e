// sweep/sweep_engine.hpp — one run of `kbv sweep SWEEP.yaml`, in order:
//
//   1. read the configuration (fatal errors: exit 2) and apply the command line's overrides
//   2. load the problem catalog
//   3. settle the epoch: kbvd's current one (through kbvd), else --epoch / epoch: / the calendar
//   4. standalone: load (or create) the secret key and take its public id
//   5. lock this shard of this epoch in the output folder (one sweep at a time per shard)
//   6. find the candidates, plan (current + re-verification, shards), write the plan file and
//      this shard's status file
//   7. evaluate what has no verdict for the epoch yet, within the budgets, each verdict written
//      to its own file as soon as it exists (resumable after kill -9)
//   8. write the shard's final status, then (unless it is one shard of several) the reports:
//      runs/<time>-epoch-<E>/ and copies at the top of the output folder; tell kbvd the
//      progress all along and the headline figures at the end (its /metrics; best effort)
//
// Exit status: 0 every planned evaluation of this shard has a verdict; 1 some have none (budget,
// signal, kbvd's epoch moved); 2 the configuration, the options or kbvd made the sweep
// impossible (the message names file, field and fix).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sweep/shard.hpp"
#include "sweep/slurm.hpp"
#include "sweep/sweep_config.hpp"

namespace kbv::sweep {

struct SweepOptions {
  std::filesystem::path config_file;
  std::filesystem::path evaluator;  // the kbv binary the standalone mode runs

  // Command-line overrides of the configuration (unset: the file decides).
  std::optional<Mode> mode;
  std::optional<std::uint64_t> epoch;
  std::optional<std::filesystem::path> output_dir, socket, key_file;
  std::optional<std::string> device;
  std::optional<std::vector<int>> gpus;
  std::optional<int> jobs;
  std::optional<std::int64_t> budget_evaluations;
  std::optional<double> budget_wall_s;
  ShardSpec shard;
  // A Slurm task's: evaluate the plan written at submission (OUT/epoch-E/plans/<id>.json) instead
  // of planning again, so a candidate added or removed between two tasks' starts moves no item to
  // another shard (each task would otherwise cut its own plan into shards).
  std::optional<std::string> plan_id;
  std::optional<bool> write_report;  // default: yes for a whole sweep, no for one shard of several
  bool terminal = false;             // draw a progress bar (stderr is a terminal)
};

int run_sweep(const SweepOptions& options);

// `kbv sweep --slurm` (slurm.hpp): settles the epoch and the key once, plans the sweep with
// N shards, writes the scripts into OUT/epoch-E/slurm/ and submits a job array of the shards
// not yet complete plus the merge job (or, with dry_run, prints them). Exit status: 0
// submitted (or printed), 2 the configuration, the key file or sbatch stopped it.
int submit_sweep_to_slurm(const SweepOptions& options, const SlurmOptions& slurm);

}  // namespace kbv::sweep
