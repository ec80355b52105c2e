// Builds the evaluator's argv from the configuration, the slot and the job.
#include "sched/evaluator_command.hpp"

#include <nlohmann/json.hpp>

namespace kbv::kbvd {

std::vector<std::string> evaluator_argv(const EvaluatorConfig& config, const DeviceSlot& slot,
                                        std::int64_t epoch, const Job* job) {
  std::vector<std::string> argv = {config.command.string(), "eval"};
  if (job) argv.push_back(job->stored_path.string());
  argv.insert(argv.end(), {"--json", "--device", slot.device});
  if (slot.gpu) argv.insert(argv.end(), {"--gpu", std::to_string(*slot.gpu)});
  if (job && !job->problem.empty()) argv.insert(argv.end(), {"--problem", job->problem});
  argv.insert(argv.end(), {"--epoch", std::to_string(epoch)});
  if (!config.key_file.empty()) argv.insert(argv.end(), {"--key-file", config.key_file.string()});
  for (const auto& path : config.forbid) argv.insert(argv.end(), {"--forbid", path.string()});
  if (!config.shapes.empty()) argv.insert(argv.end(), {"--shapes", config.shapes});
  argv.insert(argv.end(), config.extra_args.begin(), config.extra_args.end());
  if (!job) argv.push_back("--wait-for-candidate");
  return argv;
}

std::string spare_line(const Job& job) {
  nlohmann::json options = nlohmann::json::object();
  if (!job.problem.empty()) options["problem"] = job.problem;
  return job.stored_path.string() + "\t" + options.dump() + "\n";
}

}  // namespace kbv::kbvd
