// cli/paths.hpp — where kbv finds its worker, problems and key when not told.
#pragma once

#include <filesystem>

namespace kbv::cli {

// The directory holding the running executable (/proc/self/exe).
std::filesystem::path executable_directory();
// kbv-worker beside this executable, unless $KBV_WORKER names another.
std::filesystem::path default_worker_binary();
// $KBV_PROBLEMS_DIR; else ../share/kbv/problems beside the executable (an installed kbv); else
// the source tree's problems/ (a build tree); else problems/ beside the executable (a bundle);
// else the install location.
std::filesystem::path default_problems_dir();

}  // namespace kbv::cli
