// cli/export_command.hpp — `kbv export`: write one draw of a problem's inputs and kbv's fp64
// reference for them as .npy files with a manifest (for PyTorch parity checks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kbv::cli {

// The seed `kbv export` uses unless --seed is given: a fixed constant ("kbvx" in ASCII), so
// two exports of one problem, shape set and family hold the same values.
constexpr uint64_t kDefaultExportSeed = 0x6b627678;

int export_command(const std::vector<std::string>& args);

}  // namespace kbv::cli
