// cli/option_types.hpp — option values Boost.Program_options would otherwise take wrongly: it reads
// "-1" into an unsigned option as 2^64 − 1 (an epoch nobody meant) and accepts 0, negative or NaN
// seconds. These refuse such text at parse time, so the usage error names the option and value.
#pragma once

#include <boost/any.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace kbv::cli {

// A whole number ≥ 0 written in decimal digits (an epoch, a seed).
struct Unsigned {
  uint64_t value = 0;
};

// A finite number of seconds > 0 (a timeout, a budget).
struct PositiveSeconds {
  double value = 0;
};

// Boost.Program_options' customisation points (found by argument-dependent lookup).
void validate(boost::any& out, const std::vector<std::string>& values, Unsigned*, int);
void validate(boost::any& out, const std::vector<std::string>& values, PositiveSeconds*, int);

}  // namespace kbv::cli
