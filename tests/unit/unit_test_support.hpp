// unit_test_support.hpp — what several unit tests share: a problem written inline as YAML, loaded and
// resolved at its small set as kbv loads a file, and float32 values rounded to fewer mantissa bits
// (an oracle for TF32 and bf16 operands that does not share code with the daemon's rounding).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "spec/problem.hpp"

namespace kbv::test {

// `text`, a whole problem spec, through load_problem_file (a temporary file) and resolve_problem.
inline ResolvedProblem inline_problem(const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("kbv-unit-problem-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << text;
  Problem problem = load_problem_file(path);
  std::filesystem::remove(path);
  return resolve_problem(problem, "small");
}

// float32 `value` rounded to `bits` mantissa bits (nearest, ties to even): TF32 keeps 10, bf16 7.
inline double rounded_mantissa(double value, int bits) {
  const auto f = static_cast<float>(value);
  uint32_t word;
  std::memcpy(&word, &f, sizeof word);
  const int drop = 23 - bits;
  word = (word + ((1u << (drop - 1)) - 1) + ((word >> drop) & 1u)) & ~((1u << drop) - 1);
  float out;
  std::memcpy(&out, &word, sizeof out);
  return out;
}

}  // namespace kbv::test
