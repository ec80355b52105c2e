// eval/elf_check.cpp — ELF header and table bounds checks, DT_NEEDED and named sections (no
// loading, no execution).
#include "eval/elf_check.hpp"

#include <kbv/plugin.h>

#include <elf.h>

#include <cstring>
#include <iterator>

#include <fstream>
#include <vector>

namespace kbv::eval {

namespace {
// The largest file kbv treats as a candidate: every check reads it whole and the worker loads a
// copy, so a huge (or sparse) file would fill memory and the temporary folder. Honest candidates,
// CUDA fatbins for every architecture and a statically linked library included, stay far below.
// kbvd refuses beyond its own watch.max_file_bytes (256 MiB by default) before this.
constexpr uintmax_t kMaxCandidateBytes = uintmax_t{1} << 30;
// Candidates are loaded into kbv-worker, built for the same machine as this binary.
#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
#error "kbv runs on x86-64 or aarch64 Linux; add this machine's EM_ value here"
#endif

std::vector<char> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The section headers of a 64-bit ELF image, or empty when its table is out of bounds.
std::vector<Elf64_Shdr> section_headers(const std::vector<char>& bytes, Elf64_Ehdr& header) {
  if (bytes.size() < sizeof(Elf64_Ehdr)) return {};
  std::memcpy(&header, bytes.data(), sizeof header);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shoff + static_cast<uint64_t>(header.e_shnum) * sizeof(Elf64_Shdr) > bytes.size())
    return {};
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  std::memcpy(sections.data(), bytes.data() + header.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  return sections;
}
}  // namespace

uint16_t host_elf_machine() { return kHostMachine; }

std::string elf_machine_name(uint16_t machine) {
  switch (machine) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "aarch64";
    case EM_386: return "i386";
    case EM_ARM: return "arm";
    case EM_PPC64: return "ppc64";
    case EM_RISCV: return "riscv";
    default: return "machine " + std::to_string(machine);
  }
}

std::optional<std::string> check_shared_object(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    return name + ": is a directory, not a candidate (fix: pass the path of a built candidate .so inside it)";
  if (!std::filesystem::exists(path, error)) return name + ": no such file (fix: pass the path of a built candidate .so)";
  if (!std::filesystem::is_regular_file(path, error))
    return name + ": not a regular file (a pipe, a device or a socket; fix: pass the path of a built candidate .so)";
  const auto size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxCandidateBytes)
    return name + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(kMaxCandidateBytes >> 20) +
           " MiB kbv reads as a candidate (fix: pass the built candidate .so; a file this large is not one)";
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in || error) return name + ": cannot be read (fix: check its permissions)";
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (in.gcount() < 4 || std::string(reinterpret_cast<const char*>(header.e_ident), 4) != "\x7f" "ELF")
    return name + ": not an ELF file (fix: pass a shared library built with kbv_add_candidate())";
  if (static_cast<size_t>(in.gcount()) < sizeof header)
    return name + ": truncated ELF header (" + std::to_string(size) + " bytes) (fix: rebuild the candidate; the file is incomplete)";
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB)
    return name + ": not a 64-bit little-endian ELF object (fix: build it for this machine, " + elf_machine_name(kHostMachine) + ")";
  if (header.e_machine != kHostMachine)
    return name + ": built for " + elf_machine_name(header.e_machine) + ", but kbv runs on " + elf_machine_name(kHostMachine) +
           " (fix: build the candidate on or for this machine)";
  if (header.e_type != ET_DYN) return name + ": an ELF file but not a shared object (fix: build a MODULE/SHARED library)";
  const auto table_end = [](uint64_t offset, uint64_t count, uint64_t entry) { return offset + count * entry; };
  if (table_end(header.e_phoff, header.e_phnum, header.e_phentsize) > size ||
      table_end(header.e_shoff, header.e_shnum, header.e_shentsize) > size)
    return name + ": truncated (" + std::to_string(size) + " bytes, but its ELF tables reach further) (fix: rebuild the candidate; the file is incomplete)";
  return std::nullopt;
}

std::optional<std::string> check_candidate(const std::filesystem::path& path) {
  if (auto problem = check_shared_object(path)) return problem;
  if (!defines_dynamic_symbol(path, KBV_NEGOTIATE_SYMBOL))
    return path.string() + ": does not export " KBV_NEGOTIATE_SYMBOL
                           " (fix: use KBV_CANDIDATE(...) from <kbv/plugin.hpp>, or export the function with C linkage)";
  return std::nullopt;
}

namespace {
// Prefixes of sonames that provide ready-made compute kernels.
constexpr const char* kComputeLibraries[] = {"libcublas", "libcublasLt", "libcudnn", "libcutlass", "libcufft", "libcusparse",
                                             "libcusolver", "libnvrtc", "libopenblas", "libblas", "libmkl", "libtorch", "libdnnl"};
}  // namespace

std::vector<std::string> needed_libraries(const std::filesystem::path& path) {
  const std::vector<char> bytes = read_all(path);
  std::vector<std::string> needed;
  Elf64_Ehdr header{};
  const std::vector<Elf64_Shdr> sections = section_headers(bytes, header);
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_type != SHT_DYNAMIC || section.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[section.sh_link];
    if (section.sh_offset + section.sh_size > bytes.size() || strings.sh_offset + strings.sh_size > bytes.size()) continue;
    for (uint64_t at = section.sh_offset; at + sizeof(Elf64_Dyn) <= section.sh_offset + section.sh_size; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry;
      std::memcpy(&entry, bytes.data() + at, sizeof entry);
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag == DT_NEEDED && entry.d_un.d_val < strings.sh_size)
        needed.emplace_back(bytes.data() + strings.sh_offset + entry.d_un.d_val,
                            strnlen(bytes.data() + strings.sh_offset + entry.d_un.d_val, strings.sh_size - entry.d_un.d_val));
    }
  }
  return needed;
}

std::optional<std::string> section_contents(const std::filesystem::path& path, const std::string& name) {
  const std::vector<char> bytes = read_all(path);
  Elf64_Ehdr header{};
  const std::vector<Elf64_Shdr> sections = section_headers(bytes, header);
  if (header.e_shstrndx >= sections.size()) return std::nullopt;
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  if (names.sh_offset + names.sh_size > bytes.size()) return std::nullopt;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name >= names.sh_size) continue;
    const char* section_name = bytes.data() + names.sh_offset + section.sh_name;
    if (std::string(section_name, strnlen(section_name, names.sh_size - section.sh_name)) != name) continue;
    if (section.sh_type == SHT_NOBITS || section.sh_offset + section.sh_size > bytes.size()) return std::nullopt;
    return std::string(bytes.data() + section.sh_offset, section.sh_size);
  }
  return std::nullopt;
}

bool defines_dynamic_symbol(const std::filesystem::path& path, const std::string& symbol) {
  const std::vector<char> bytes = read_all(path);
  Elf64_Ehdr header{};
  const std::vector<Elf64_Shdr> sections = section_headers(bytes, header);
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_DYNSYM || table.sh_link >= sections.size()) continue;
    const Elf64_Shdr& strings = sections[table.sh_link];
    if (table.sh_offset + table.sh_size > bytes.size() || strings.sh_offset + strings.sh_size > bytes.size()) continue;
    for (uint64_t at = table.sh_offset; at + sizeof(Elf64_Sym) <= table.sh_offset + table.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym entry;
      std::memcpy(&entry, bytes.data() + at, sizeof entry);
      const unsigned binding = ELF64_ST_BIND(entry.st_info);
      if (entry.st_shndx == SHN_UNDEF || entry.st_name >= strings.sh_size || (binding != STB_GLOBAL && binding != STB_WEAK)) continue;
      const char* name = bytes.data() + strings.sh_offset + entry.st_name;
      if (std::string(name, strnlen(name, strings.sh_size - entry.st_name)) == symbol) return true;
    }
  }
  return false;
}

bool needs_compute_library(const std::vector<std::string>& needed) {
  for (const std::string& library : needed)
    for (const char* prefix : kComputeLibraries)
      if (library.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace kbv::eval
