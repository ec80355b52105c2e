// redteam_timer_patch_got — docs/threat-model.md, pattern 6 (timer patching), host relu: on its first call it
// walks every loaded object's relocations (dl_iterate_phdr), and points each GOT slot for
// clock_gettime / cudaEventElapsedTime / cuEventElapsedTime at a fake (a 10× slow monotonic
// clock, a 1 µs event timer), calling mprotect(PROT_WRITE) on read-only (full RELRO) pages
// first. Then it computes relu honestly; the log says how many slots it found, wrote, and was
// refused.
// Expected: the patch must not produce a speedup. hack_suspected, hack_pattern
// "timer_tampering" when a slot was written (kbv's own wall-clock bound disagrees with the
// worker's time), or sandbox_violation when the sandbox stops the mprotect; pass with
// host_relu's speed only if every write was refused.
#include "redteam_common.hpp"
#include "slow_clock.hpp"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include <cstring>

namespace {

struct PatchCount {
  int slots = 0, written = 0, refused = 0;
};

void* replacement_for(const char* name) {
  if (std::strcmp(name, "clock_gettime") == 0) return reinterpret_cast<void*>(&redteam::slow_clock_gettime);
  for (const char* timer : {"cudaEventElapsedTime", "cudaEventElapsedTime_v2", "cuEventElapsedTime",
                            "cuEventElapsedTime_v2"})
    if (std::strcmp(name, timer) == 0) return reinterpret_cast<void*>(&redteam::fake_event_elapsed_time);
  return nullptr;
}

#if defined(__x86_64__)
// Dynamic-section pointers are absolute once ld.so has relocated them, offsets before that.
ElfW(Addr) absolute(const dl_phdr_info* info, ElfW(Addr) pointer) {
  return pointer < info->dlpi_addr ? info->dlpi_addr + pointer : pointer;
}

void patch_table(const dl_phdr_info* info, const ElfW(Rela)* table, size_t bytes, const ElfW(Sym)* symbols,
                 const char* strings, PatchCount& count) {
  const long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
    const auto type = ELF64_R_TYPE(table[i].r_info);
    if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
    void* replacement = replacement_for(strings + symbols[ELF64_R_SYM(table[i].r_info)].st_name);
    if (replacement == nullptr) continue;
    ++count.slots;
    auto* slot = reinterpret_cast<void**>(info->dlpi_addr + table[i].r_offset);
    auto* slot_page = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1));
    if (mprotect(slot_page, static_cast<size_t>(page), PROT_READ | PROT_WRITE) != 0) {
      ++count.refused;
      continue;
    }
    *slot = replacement;
    ++count.written;
  }
}

int patch_object(dl_phdr_info* info, size_t, void* data) {
  auto& count = *static_cast<PatchCount*>(data);
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (dynamic == nullptr) return 0;
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  const ElfW(Rela)* plt = nullptr;
  const ElfW(Rela)* data_relocs = nullptr;
  size_t plt_bytes = 0, data_bytes = 0;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) switch (d->d_tag) {
      case DT_SYMTAB: symbols = reinterpret_cast<const ElfW(Sym)*>(absolute(info, d->d_un.d_ptr)); break;
      case DT_STRTAB: strings = reinterpret_cast<const char*>(absolute(info, d->d_un.d_ptr)); break;
      case DT_JMPREL: plt = reinterpret_cast<const ElfW(Rela)*>(absolute(info, d->d_un.d_ptr)); break;
      case DT_PLTRELSZ: plt_bytes = d->d_un.d_val; break;
      case DT_RELA: data_relocs = reinterpret_cast<const ElfW(Rela)*>(absolute(info, d->d_un.d_ptr)); break;
      case DT_RELASZ: data_bytes = d->d_un.d_val; break;
      default: break;
    }
  if (symbols == nullptr || strings == nullptr) return 0;
  if (plt != nullptr) patch_table(info, plt, plt_bytes, symbols, strings, count);
  if (data_relocs != nullptr) patch_table(info, data_relocs, data_bytes, symbols, strings, count);
  return 0;
}
#endif

bool g_patched = false;
}  // namespace

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_timer_patch_got")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_patched) {
    g_patched = true;
#if defined(__x86_64__)
    redteam::slow_clock_origin() = redteam::raw_monotonic_ns();
    PatchCount count;
    dl_iterate_phdr(&patch_object, &count);
    redteam::log("GOT timer patch: " + std::to_string(count.slots) + " slots, " + std::to_string(count.written) +
                 " written, " + std::to_string(count.refused) + " refused");
#else
    redteam::log("GOT timer patch: not implemented for this architecture");
#endif
  }
  return redteam::honest_relu(call);
}
