// cli/option_types.cpp — the checks behind Unsigned and PositiveSeconds.
#include "cli/option_types.hpp"

#include <boost/program_options.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace kbv::cli {

namespace po = boost::program_options;

void validate(boost::any& out, const std::vector<std::string>& values, Unsigned*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  bool digits = !text.empty();
  for (const char c : text) digits = digits && c >= '0' && c <= '9';
  errno = 0;
  const unsigned long long value = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
  if (!digits || errno == ERANGE) throw po::invalid_option_value(text);  // "the argument ('-1') for option '--epoch' is invalid"
  out = Unsigned{static_cast<uint64_t>(value)};
}

void validate(boost::any& out, const std::vector<std::string>& values, PositiveSeconds*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0)
    throw po::invalid_option_value(text);
  out = PositiveSeconds{value};
}

}  // namespace kbv::cli
