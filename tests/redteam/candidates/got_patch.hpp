// got_patch.hpp — point the kbv-worker executable's GOT slot for a libc function at a
// replacement (mprotect on the RELRO page first), keeping the original: what the red-team
// candidates that hook the worker's own calls (its sendmsg, its clock) share.
#pragma once

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace redteam {

struct GotPatch {
  const char* name;
  void* replacement;
  void** original;  // the slot's previous value, when not null
  bool every_object = false;  // all loaded objects, not only the executable
  int written = 0;
};

#if defined(__x86_64__)
inline ElfW(Addr) dynamic_address(const dl_phdr_info* info, ElfW(Addr) pointer) {
  return pointer < info->dlpi_addr ? info->dlpi_addr + pointer : pointer;
}

inline int patch_got_of_object(dl_phdr_info* info, size_t, void* data) {
  auto& patch = *static_cast<GotPatch*>(data);
  if (!patch.every_object && info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dynamic == nullptr) return 0;
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  const ElfW(Rela)* plt = nullptr;
  size_t plt_bytes = 0;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) switch (d->d_tag) {
      case DT_SYMTAB: symbols = reinterpret_cast<const ElfW(Sym)*>(dynamic_address(info, d->d_un.d_ptr)); break;
      case DT_STRTAB: strings = reinterpret_cast<const char*>(dynamic_address(info, d->d_un.d_ptr)); break;
      case DT_JMPREL: plt = reinterpret_cast<const ElfW(Rela)*>(dynamic_address(info, d->d_un.d_ptr)); break;
      case DT_PLTRELSZ: plt_bytes = d->d_un.d_val; break;
      default: break;
    }
  if (symbols == nullptr || strings == nullptr || plt == nullptr) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < plt_bytes / sizeof(ElfW(Rela)); ++i) {
    if (std::strcmp(strings + symbols[ELF64_R_SYM(plt[i].r_info)].st_name, patch.name) != 0) continue;
    auto* slot = reinterpret_cast<void**>(info->dlpi_addr + plt[i].r_offset);
    auto* slot_page = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1));
    if (mprotect(slot_page, static_cast<size_t>(page), PROT_READ | PROT_WRITE) != 0) continue;
    if (patch.original != nullptr) *patch.original = *slot;
    *slot = patch.replacement;
    mprotect(slot_page, static_cast<size_t>(page), PROT_READ);
    ++patch.written;
  }
  return 0;
}
#endif

// How many slots now point at the replacement (0 where the architecture is not handled).
inline int patch_got(GotPatch patch) {
#if defined(__x86_64__)
  dl_iterate_phdr(&patch_got_of_object, &patch);
#endif
  return patch.written;
}

}  // namespace redteam
