// eval/elf_check.cpp — ELF header and table bounds checks (no loading, no execution).
#include "eval/elf_check.hpp"

#include <elf.h>

#include <fstream>

namespace kbv::eval {

std::optional<std::string> check_shared_object(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error))
    return name + ": no such file (fix: pass the path of a built candidate .so)";
  const auto size = std::filesystem::file_size(path, error);
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in || error) return name + ": cannot be read (fix: check its permissions)";
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (in.gcount() < 4 || std::string(reinterpret_cast<const char*>(header.e_ident), 4) != "\x7f" "ELF")
    return name + ": not an ELF file (fix: pass a shared library built with kbv_add_candidate())";
  if (static_cast<size_t>(in.gcount()) < sizeof header)
    return name + ": truncated ELF header (" + std::to_string(size) + " bytes) (fix: rebuild the candidate; the file is incomplete)";
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_machine != EM_X86_64)
    return name + ": not a 64-bit x86-64 ELF object (fix: build it for this machine)";
  if (header.e_type != ET_DYN) return name + ": an ELF file but not a shared object (fix: build a MODULE/SHARED library)";
  const auto table_end = [](uint64_t offset, uint64_t count, uint64_t entry) { return offset + count * entry; };
  if (table_end(header.e_phoff, header.e_phnum, header.e_phentsize) > size ||
      table_end(header.e_shoff, header.e_shnum, header.e_shentsize) > size)
    return name + ": truncated (" + std::to_string(size) + " bytes, but its ELF tables reach further) (fix: rebuild the candidate; the file is incomplete)";
  return std::nullopt;
}

}  // namespace kbv::eval
