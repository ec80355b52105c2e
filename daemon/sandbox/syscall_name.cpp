// sandbox/syscall_name.cpp — syscall number → name for violation reports (libseccomp's table).
#include <seccomp.h>

#include <cstdlib>
#include <string>

#include "sandbox/sandbox.hpp"

namespace kbv::sandbox {

std::string syscall_name(int number) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, number);
  if (!name) return "syscall " + std::to_string(number);
  std::string result = name;
  std::free(name);
  return result;
}

}  // namespace kbv::sandbox
