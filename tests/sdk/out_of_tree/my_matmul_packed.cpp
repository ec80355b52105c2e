// tests/sdk/out_of_tree/my_matmul_packed.cpp — an out-of-tree author's stateful host candidate (KBV_CANDIDATE_CLASS):
// c = a·b with b transposed into a buffer the state keeps, so each output element is a dot
// product of two contiguous rows. The buffer is sized on the first call and reused after.
#include <kbv/plugin.hpp>

#include <string>
#include <vector>

class PackedMatmul {
 public:
  PackedMatmul() { kbv::log(1, "my_matmul_packed: state created"); }
  ~PackedMatmul() { kbv::log(1, "my_matmul_packed: state destroyed after " + std::to_string(calls_) + " calls"); }

  kbv_status run(kbv::Call& call) {
    const kbv::Tensor a = call.input("a"), b = call.input("b"), c = call.output("c");
    const int64_t m = a.dim(0), k = a.dim(1), n = b.dim(1);
    if (a.rank() != 2 || b.rank() != 2 || b.dim(0) != k || c.numel() != m * n) {
      kbv::set_error("expected a[M,K], b[K,N] and c[M,N]");
      return KBV_STATUS_INVALID_ARGUMENT;
    }
    b_transposed_.resize(static_cast<size_t>(k * n));  // allocates on the first call only
    const float* bp = b.data<float>();
    for (int64_t row = 0; row < k; ++row)
      for (int64_t col = 0; col < n; ++col) b_transposed_[static_cast<size_t>(col * k + row)] = bp[row * n + col];
    const float* ap = a.data<float>();
    float* cp = c.data<float>();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (int64_t p = 0; p < k; ++p) sum += ap[i * k + p] * b_transposed_[static_cast<size_t>(j * k + p)];
        cp[i * n + j] = sum;
      }
    ++calls_;
    return KBV_STATUS_OK;
  }

 private:
  std::vector<float> b_transposed_;
  long calls_ = 0;
};

KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_HOST, "my_matmul_packed", PackedMatmul)
