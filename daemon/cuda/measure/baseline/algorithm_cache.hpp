// baseline/algorithm_cache.hpp — the cuDNN convolution algorithm each baseline chose with
// cudnnFind (PyTorch's benchmark mode), remembered per machine in kbv's state directory
// (inputs::default_algorithm_cache_path()). Find runs every algorithm on the full problem: 0.74 s
// of the TF32 baseline's setup for KernelBench's conv2d on the H200 (2026-11-29), for an answer
// that only changes with the GPU model, the cuDNN version, the problem and the math mode, which
// make up the key. Pure host code: JSON in a file, replaced atomically.
//
// Trust: the file lives beside the secret key, writable only by kbv's user; a forged entry could
// only make a baseline slower (a speedup inflated), which is why entries are checked against the
// mode's allowed math types before use (ops/common/baseline/cudnn_convolution.cpp) and why docs/threat-model.md lists it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace kbv::cuda::measure {

struct AlgorithmChoice {
  int algorithm = 0;  // cudnnConvolutionFwdAlgo_t
  int math_type = 0;  // cudnnMathType_t
};

class AlgorithmCache {
 public:
  explicit AlgorithmCache(std::filesystem::path file) : file_(std::move(file)) {}

  // The remembered choice for `key`; nullopt when there is none or the file cannot be read
  // (a malformed file is reported once on stderr and rewritten by the next remember()).
  std::optional<AlgorithmChoice> find(const std::string& key) const;

  // Adds or replaces `key` and writes the file (a temporary file renamed over it). Returns
  // false, with `error` set, when it cannot be written: the cache only saves time.
  bool remember(const std::string& key, const AlgorithmChoice& choice, std::string* error = nullptr) const;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
};

}  // namespace kbv::cuda::measure
