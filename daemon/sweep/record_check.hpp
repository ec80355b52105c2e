// sweep/record_check.hpp — whether a result record read back from a sweep folder can be used:
// the sweep counts it as a verdict, plans re-verification from it, and the report counts its
// figures only when it is whole, of the kinds kbv writes, and where it lies (its key and epoch
// are those of its file). A damaged record is named and evaluated again, never counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace kbv::sweep {

// KernelBench has levels 1 to 4 and kbv's own problems say 1 or 2: a level above this is damage.
constexpr double kHighestLevel = 1000;

// Why `record` cannot be trusted ("evaluation is a string", "speedup.vs_library_fp32 is 1e+308",
// "verdict is missing"), or nullopt when its fields are of the kinds kbv writes.
// Red-team: an `evaluation` of "garbage" counted as a pass; a 1e308 speedup made a geomean of
// 9.8e153; `{}` counted as evaluated with a blank verdict; `[]` in an earlier epoch aborted every
// later sweep (a type_error from the re-verification plan).
std::optional<std::string> record_damage(const nlohmann::json& record);

// As record_damage, and the record must lie where it says: its `key` is the file's name and its
// `epoch` the folder's (a record copied in from another epoch would count as this epoch's verdict).
std::optional<std::string> record_damage(const nlohmann::json& record, const std::string& key, std::uint64_t epoch);

}  // namespace kbv::sweep
