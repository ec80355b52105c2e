// sandbox/errors.hpp — the two ways apply_sandbox fails: a syscall error, or a bad policy.
#pragma once

#include <string>

namespace kbv::sandbox {

// Throws std::system_error(errno, what).
[[noreturn]] void throw_errno(const std::string& what);
// Throws std::system_error(errno_value, what).
[[noreturn]] void throw_error(int errno_value, const std::string& what);
// Throws std::system_error(errc::invalid_argument, "sandbox policy: " + what).
[[noreturn]] void throw_invalid_policy(const std::string& what);

// "what: strerror(errno_value)", for report lines.
std::string with_errno(const std::string& what, int errno_value);

}  // namespace kbv::sandbox
