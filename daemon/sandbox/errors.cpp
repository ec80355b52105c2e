// sandbox/errors.cpp — std::system_error construction for the sandbox layers.
#include "sandbox/errors.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>

namespace kbv::sandbox {

void throw_errno(const std::string& what) { throw_error(errno, what); }

void throw_error(int errno_value, const std::string& what) {
  throw std::system_error(errno_value, std::generic_category(), "sandbox: " + what);
}

void throw_invalid_policy(const std::string& what) {
  throw std::system_error(std::make_error_code(std::errc::invalid_argument), "sandbox policy: " + what);
}

std::string with_errno(const std::string& what, int errno_value) {
  return what + ": " + std::strerror(errno_value);
}

}  // namespace kbv::sandbox
