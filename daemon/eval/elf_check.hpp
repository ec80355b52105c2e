// eval/elf_check.hpp — a trusted look at a candidate file before any process loads it:
// is it a complete 64-bit ELF shared object for this machine, what does it link, what does
// one of its sections hold?
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbv::eval {

// The ELF machine (e_machine) this kbv runs on: EM_X86_64 or EM_AARCH64.
uint16_t host_elf_machine();
// "x86-64", "aarch64", … or "machine N" for one without a name here.
std::string elf_machine_name(uint16_t machine);

// nullopt when the file looks loadable; otherwise what is wrong, naming the file and the fix.
std::optional<std::string> check_shared_object(const std::filesystem::path& path);

// check_shared_object, and the file exports kbv's entry point (kbv_plugin_negotiate): a shared
// object without it is no candidate, refused as bad input before any worker loads it.
std::optional<std::string> check_candidate(const std::filesystem::path& path);

// True when the shared object's dynamic symbol table defines `symbol` (global or weak): what a
// loader could find with dlsym, read without loading anything.
bool defines_dynamic_symbol(const std::filesystem::path& path, const std::string& symbol);

// The DT_NEEDED entries of a shared object (empty when it has none or cannot be parsed).
std::vector<std::string> needed_libraries(const std::filesystem::path& path);

// True when a needed library is a compute library (cuBLAS, cuDNN, CUTLASS, BLAS, MKL…): the
// candidate may call it rather than ship its own kernel (docs/threat-model.md).
bool needs_compute_library(const std::vector<std::string>& needed);

// The bytes of the section named `name` (".comment", ".GCC.command.line"); nullopt when the
// file has no such section or its tables are out of bounds.
std::optional<std::string> section_contents(const std::filesystem::path& path, const std::string& name);

}  // namespace kbv::eval
