// cli/report_command.hpp — `kbv report`: write a sweep's reports from its output folder (also
// merging the shards of a job array), or a report of one epoch from kbvd's store.
#pragma once

#include <string>
#include <vector>

namespace kbv::cli {

int report_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
