// cli/paths.cpp — locate the worker binary and the problems directory.
#include "cli/paths.hpp"

#include <cstdlib>

#include "spec/catalog.hpp"

namespace kbv::cli {

std::filesystem::path executable_directory() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : self.parent_path();
}

std::filesystem::path default_worker_binary() {
  if (const char* env = std::getenv("KBV_WORKER"); env && *env) return env;
  return executable_directory() / "kbv-worker";
}

std::filesystem::path default_problems_dir() {
  if (const char* env = std::getenv("KBV_PROBLEMS_DIR"); env && *env) return env;
  std::error_code error;
  // An installed kbv uses the problems installed with it, even when the source tree it was
  // built from is still there.
  if (const auto installed = executable_directory() / ".." / "share" / "kbv" / "problems"; std::filesystem::is_directory(installed, error))
    return installed.lexically_normal();
  const auto built_from = default_problems_directory();  // the source tree's problems/, else the install prefix's
  if (std::filesystem::is_directory(built_from, error)) return built_from;
  for (const auto& bundled : {executable_directory() / "problems", executable_directory() / ".." / "problems"})
    if (std::filesystem::is_directory(bundled, error)) return bundled.lexically_normal();
  return built_from;
}

}  // namespace kbv::cli
