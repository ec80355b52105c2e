// tests/sdk/out_of_tree_project.hpp — what the SDK tests share: install kbv (whole, or only the
// `sdk` component) into a prefix, configure and build tests/sdk/out_of_tree against it as the
// README tells an author to, and read what came out (compile commands, CUDA architectures).
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace kbv::test {

// `cmake --install <kbv build> --prefix PREFIX [--component sdk]`; throws with the output when
// it fails.
void install_kbv(const std::filesystem::path& prefix, bool sdk_only);

// Configures tests/sdk/out_of_tree into `build_dir` with CMAKE_PREFIX_PATH=sdk_prefix, no build
// type, compile commands exported, plus `extra` -D arguments; then builds it. Throws with the
// output when either step fails.
void build_out_of_tree(const std::filesystem::path& sdk_prefix, const std::filesystem::path& build_dir, const std::vector<std::string>& extra);

// The compile command of the source whose path ends in `file_name`, from compile_commands.json.
std::string compile_command(const std::filesystem::path& build_dir, const std::string& file_name);

// The SM versions of the device code (cubins) embedded in a CUDA library's .nv_fatbin, read
// from each cubin's ELF header as LLVM's ELF.h describes EF_CUDA_SM (no cuobjdump needed).
std::set<int> embedded_sm_versions(const std::filesystem::path& library);

// `cuobjdump --list-elf LIBRARY` when cuobjdump is on PATH; empty when it is not.
std::string cuobjdump_list_elf(const std::filesystem::path& library);

// The nvcc kbv itself was configured with (empty in builds without CUDA).
std::string cuda_compiler();

}  // namespace kbv::test
