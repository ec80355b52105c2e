// verify/checksum.hpp — SHA-256 of raw bytes: input integrity around every call, and the
// candidate identity (sha256 of the .so file).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace kbv {

std::string sha256_hex(const void* data, size_t bytes);
// Throws std::runtime_error naming the file when it cannot be read.
std::string sha256_file_hex(const std::filesystem::path& path);

}  // namespace kbv
