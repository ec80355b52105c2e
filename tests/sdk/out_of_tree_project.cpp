// tests/sdk/out_of_tree_project.cpp — install, configure, build, inspect (see the header).
#include "out_of_tree_project.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "eval/elf_check.hpp"

namespace kbv::test {

namespace {

// Configuring checks the compilers; building compiles nvcc's device code: minutes on a loaded
// two-core machine, never more.
constexpr std::chrono::minutes kCMakeTimeout{10};
// e_machine of CUDA device code (LLVM's ELF.h: EM_CUDA).
constexpr uint16_t kElfMachineCuda = 190;
// ELF ABI version from which the SM number sits in e_flags bits 8..15 (LLVM's ELF.h:
// ELFABIVERSION_CUDA_V2, EF_CUDA_SM_MASK 0xff00); below it, bits 0..7 (EF_CUDA_SM).
constexpr uint8_t kCudaAbiV2 = 8;

CommandResult run_checked(const std::vector<std::string>& argv, const std::string& what) {
  Command command;
  command.argv = argv;
  command.timeout = kCMakeTimeout;
  const CommandResult result = run_command(command);
  if (result.exit_code != 0)
    throw std::runtime_error(what + " failed (" + describe(command) + ", exit " + std::to_string(result.exit_code) + "):\n" + result.out +
                             "\n" + result.err);
  return result;
}

}  // namespace

std::string cuda_compiler() { return KBV_TEST_CUDA_COMPILER; }

void install_kbv(const std::filesystem::path& prefix, bool sdk_only) {
  std::vector<std::string> argv = {KBV_TEST_CMAKE, "--install", KBV_BUILD_DIR, "--prefix", prefix.string()};
  if (sdk_only) argv.insert(argv.end(), {"--component", "sdk"});
  run_checked(argv, sdk_only ? "installing the sdk component" : "installing kbv");
}

void build_out_of_tree(const std::filesystem::path& sdk_prefix, const std::filesystem::path& build_dir, const std::vector<std::string>& extra) {
  std::vector<std::string> configure = {KBV_TEST_CMAKE, "-S", KBV_OUT_OF_TREE_DIR, "-B", build_dir.string(), "-DCMAKE_PREFIX_PATH=" + sdk_prefix.string(),
                                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"};
  configure.insert(configure.end(), extra.begin(), extra.end());
  run_checked(configure, "configuring the out-of-tree project");
  run_checked({KBV_TEST_CMAKE, "--build", build_dir.string()}, "building the out-of-tree project");
}

std::string compile_command(const std::filesystem::path& build_dir, const std::string& file_name) {
  std::ifstream file(build_dir / "compile_commands.json");
  const nlohmann::json commands = nlohmann::json::parse(file, nullptr, false);
  if (!commands.is_array()) throw std::runtime_error((build_dir / "compile_commands.json").string() + " is missing or not a JSON array");
  for (const auto& entry : commands) {
    const std::string source = entry.value("file", "");
    if (source.size() >= file_name.size() && source.compare(source.size() - file_name.size(), file_name.size(), file_name) == 0)
      return entry.value("command", "");
  }
  throw std::runtime_error("no compile command for " + file_name + " in " + (build_dir / "compile_commands.json").string());
}

std::set<int> embedded_sm_versions(const std::filesystem::path& library) {
  const auto fatbin = eval::section_contents(library, ".nv_fatbin");
  std::set<int> versions;
  if (!fatbin) return versions;
  for (size_t at = fatbin->find("\x7f" "ELF"); at != std::string::npos; at = fatbin->find("\x7f" "ELF", at + 1)) {
    if (at + sizeof(Elf64_Ehdr) > fatbin->size()) break;
    Elf64_Ehdr header;
    std::memcpy(&header, fatbin->data() + at, sizeof header);
    if (header.e_machine != kElfMachineCuda) continue;
    const bool v2 = header.e_ident[EI_ABIVERSION] >= kCudaAbiV2;
    versions.insert(static_cast<int>(v2 ? (header.e_flags >> 8) & 0xff : header.e_flags & 0xff));
  }
  return versions;
}

std::string cuobjdump_list_elf(const std::filesystem::path& library) {
  Command which;
  which.argv = {"/bin/sh", "-c", "command -v cuobjdump"};
  if (run_command(which).exit_code != 0) return "";
  return run_checked({"cuobjdump", "--list-elf", library.string()}, "cuobjdump").out;
}

}  // namespace kbv::test
