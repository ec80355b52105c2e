// redteam_timer_patch_cuda — docs/threat-model.md, pattern 6 (timer patching), CUDA relu: on its first call it
// walks every loaded object's relocations (dl_iterate_phdr) and points each GOT slot for
// cudaEventElapsedTime at a wrapper that calls the real function and reports a hundredth of
// its answer (mprotect(PROT_WRITE) first: the worker is linked with full RELRO). The relu itself
// is honest and runs on the call's stream, so CUPTI sees every kernel inside the timed window:
// nothing ran on another stream, only the clock lies.
// Expected: hack_suspected, hack_pattern "timer_tampering" (not stream_injection): the events
// measure less than the span of the kernels CUPTI saw between them.
#include "redteam_common.cuh"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace {

constexpr float kShrink = 100.0f;  // the issue's report: 0.035 ms claimed for 3.6 ms of work

using ElapsedTime = cudaError_t (*)(float*, cudaEvent_t, cudaEvent_t);
ElapsedTime g_real_elapsed = nullptr;

cudaError_t shrunk_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t end) {
  const cudaError_t status = g_real_elapsed(ms, start, end);
  if (status == cudaSuccess) *ms /= kShrink;
  return status;
}

struct PatchCount {
  int slots = 0, written = 0, refused = 0;
};

bool is_elapsed_time(const char* name) {
  return std::strcmp(name, "cudaEventElapsedTime") == 0 || std::strcmp(name, "cudaEventElapsedTime_v2") == 0;
}

#if defined(__x86_64__)
ElfW(Addr) absolute(const dl_phdr_info* info, ElfW(Addr) pointer) {
  return pointer < info->dlpi_addr ? info->dlpi_addr + pointer : pointer;
}

void patch_table(const dl_phdr_info* info, const ElfW(Rela)* table, size_t bytes, const ElfW(Sym)* symbols, const char* strings,
                 PatchCount& count) {
  const long page = sysconf(_SC_PAGESIZE);
  for (size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
    const auto type = ELF64_R_TYPE(table[i].r_info);
    if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
    if (!is_elapsed_time(strings + symbols[ELF64_R_SYM(table[i].r_info)].st_name)) continue;
    ++count.slots;
    auto* slot = reinterpret_cast<void**>(info->dlpi_addr + table[i].r_offset);
    auto* slot_page = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(slot) & ~static_cast<uintptr_t>(page - 1));
    if (mprotect(slot_page, static_cast<size_t>(page), PROT_READ | PROT_WRITE) != 0) {
      ++count.refused;
      continue;
    }
    // The slot holds the real function (immediate binding): keep it to call through.
    if (g_real_elapsed == nullptr && *slot != reinterpret_cast<void*>(&shrunk_elapsed_time))
      g_real_elapsed = reinterpret_cast<ElapsedTime>(*slot);
    *slot = reinterpret_cast<void*>(&shrunk_elapsed_time);
    ++count.written;
  }
}

int patch_object(dl_phdr_info* info, size_t, void* data) {
  auto& count = *static_cast<PatchCount*>(data);
  const ElfW(Dyn)* dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
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

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_CUDA, "redteam_timer_patch_cuda")

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (!g_patched) {
    g_patched = true;
#if defined(__x86_64__)
    PatchCount count;
    dl_iterate_phdr(&patch_object, &count);
    if (g_real_elapsed == nullptr) g_real_elapsed = &cudaEventElapsedTime;  // nothing patched: harmless
    redteam::log("cudaEventElapsedTime GOT patch: " + std::to_string(count.slots) + " slots, " + std::to_string(count.written) +
                 " written, " + std::to_string(count.refused) + " refused");
#else
    redteam::log("cudaEventElapsedTime GOT patch: not implemented for this architecture");
#endif
  }
  return redteam::launch_relu(call.input(0).data<float>(), call.output(0).data<float>(), call.output(0).numel(),
                              redteam::stream_of(call));
}
