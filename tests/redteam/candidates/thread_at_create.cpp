// redteam_thread_at_create — docs/threat-model.md, pattern 4 (thread injection), host relu: the
// thread is started by create(), before the first call, and run() only hands it the call's
// pointers and returns; the thread writes y while the next call is being prepared. A thread
// counted into the worker's "before the calls" figure would never be seen growing.
// Expected: hack_suspected, hack_pattern "thread_injection" (the worker has more threads after
// load and create() than before the candidate was loaded).
#include "redteam_common.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace {

class DeferredRelu {
 public:
  DeferredRelu() : worker_([this] { serve(); }) { worker_.detach(); }
  kbv_status run(kbv::Call& call) {
    const std::lock_guard<std::mutex> lock(mutex_);
    x_ = call.input(0).data<float>();
    y_ = call.output(0).data<float>();
    count_ = call.output(0).numel();
    pending_ = true;
    wake_.notify_one();
    return KBV_STATUS_OK;
  }

 private:
  void serve() {
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return pending_; });
      pending_ = false;
      const float* x = x_;
      float* y = y_;
      const int64_t count = count_;
      lock.unlock();
      redteam::relu(x, y, count);
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  bool pending_ = false;
  const float* x_ = nullptr;
  float* y_ = nullptr;
  int64_t count_ = 0;
  std::thread worker_;
};

}  // namespace

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_HOST, "redteam_thread_at_create", DeferredRelu)
