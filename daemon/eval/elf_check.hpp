// eval/elf_check.hpp — a trusted look at a candidate file before any process loads it:
// is it a complete 64-bit ELF shared object for this machine?
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kbv::eval {

// nullopt when the file looks loadable; otherwise what is wrong, naming the file and the fix.
std::optional<std::string> check_shared_object(const std::filesystem::path& path);

}  // namespace kbv::eval
