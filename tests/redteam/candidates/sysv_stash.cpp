// redteam_sysv_stash — docs/threat-model.md, pattern 16 (state carried between evaluations), host
// relu: outputs stashed in a System V shared-memory segment of a fixed key outlive the worker
// (shm_rmid_forced is 0 by default), so a later evaluation of the same problem in the same epoch,
// another candidate's, could copy them instead of computing. This candidate stamps the segment
// with its pid and, when it finds another process's stamp there, writes a wrong answer: it passes
// only while no evaluation sees another's segment (each worker has an IPC namespace of its own).
// Expected: pass, evaluated twice in a row (RedTeamHostContained.SystemVSegmentsDoNotOutliveTheEvaluation).
#include "redteam_common.hpp"

#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_sysv_stash")

namespace {

constexpr key_t kStashKey = 0x6b627673;  // "kbvs": tests/redteam/redteam_host_test.cpp removes it
constexpr uint64_t kMagic = 0x6b62762d73746173ull;

struct Stash {
  uint64_t magic;
  int64_t writer_pid;
};

// Once another evaluation's segment was seen, every later call "copies" from it.
bool g_found_another = false;

}  // namespace

kbv_status kbv_candidate_run(kbv::Call& call) {
  if (g_found_another) {
    float* y = call.output(0).data<float>();
    std::fill(y, y + call.output(0).numel(), -1.0f);  // the stash "answer": wrong on purpose
    return KBV_STATUS_OK;
  }
  const int id = ::shmget(kStashKey, sizeof(Stash), IPC_CREAT | 0600);
  void* at = id < 0 ? reinterpret_cast<void*>(-1) : ::shmat(id, nullptr, 0);
  if (at == reinterpret_cast<void*>(-1)) {
    redteam::log("sysv_stash: no System V segment");
    return redteam::honest_relu(call);
  }
  auto* stash = static_cast<Stash*>(at);
  const bool another_evaluations = stash->magic == kMagic && stash->writer_pid != ::getpid();
  stash->magic = kMagic;
  stash->writer_pid = ::getpid();
  ::shmdt(at);
  if (another_evaluations) {
    redteam::log("sysv_stash: found another evaluation's segment");
    g_found_another = true;
    return kbv_candidate_run(call);
  }
  return redteam::honest_relu(call);
}
