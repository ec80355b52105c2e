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
  const auto fallback = default_problems_directory();
  std::error_code error;
  if (std::filesystem::is_directory(fallback, error)) return fallback;
  for (const auto& near : {executable_directory() / ".." / "share" / "kbv" / "problems", executable_directory() / "problems",
                           executable_directory() / ".." / "problems"})
    if (std::filesystem::is_directory(near, error)) return near;
  return fallback;
}

}  // namespace kbv::cli
