// sandbox/violation_handler.hpp — the SIGSYS handler behind SCMP_ACT_TRAP: it reports the
// refused syscall on the violation fd and makes the syscall return -EPERM, so the worker
// (and the candidate) go on and the evaluator can give the verdict "sandbox_violation".
#pragma once

namespace kbv::sandbox {

// Installs the handler (process-wide) and unblocks SIGSYS in the calling thread. `fd` < 0:
// refuse without reporting. The record is one native-endian int32 per violation (a write of
// 4 bytes to a pipe is atomic). The fd is made non-blocking: when the pipe is full, records are
// dropped rather than the worker blocked. A worker that blocks or ignores SIGSYS instead dies by it
// (the kernel forces a trapped SIGSYS): the evaluator treats death by SIGSYS as a violation.
void install_violation_handler(int fd);

}  // namespace kbv::sandbox
