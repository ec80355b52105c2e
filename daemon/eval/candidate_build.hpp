// eval/candidate_build.hpp — what a candidate's compiler recorded about how it was built, so
// the result can say (without gating) that a candidate was timed unoptimised.
//
// The record is the compile command lines GCC and Clang keep in the library: the section
// .GCC.command.line (-frecord-gcc-switches, which kbv_add_candidate() adds) or GCC's
// DW_AT_producer strings in .debug_str (-g). Neither is there by default, and Clang's
// producer string carries no flags, so for many libraries the answer is "unknown": kbv says
// so rather than guess. The record covers host code only: nvcc optimises device code unless
// -G, and that is not read here.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::eval {

struct BuildRecord {
  enum class Optimisation { optimised, unoptimised, unknown };
  Optimisation optimisation = Optimisation::unknown;
  std::string source;                    // where the command lines came from, or why none
  std::vector<std::string> levels;       // the effective -O level of each recorded line ("-O0" when none)
  int unoptimised_lines = 0;

  // {"optimisation", "source", "levels", "note"?} for the result's candidate.build.
  nlohmann::json to_json() const;
  // A sentence for the author when the record shows unoptimised code; nullopt otherwise.
  std::optional<std::string> note() const;
};

std::string_view optimisation_name(BuildRecord::Optimisation optimisation);

// The effective optimisation flag of one compile command line: the last -O… token, "-O0" when
// there is none (GCC's and Clang's default).
std::string effective_optimisation_flag(const std::string& command_line);

// Classifies recorded command lines (empty: unknown). -O0 and -Og count as unoptimised.
BuildRecord classify_command_lines(const std::vector<std::string>& command_lines, const std::string& source);

// Reads the record from the library at `path`.
BuildRecord read_build_record(const std::filesystem::path& path);

}  // namespace kbv::eval
