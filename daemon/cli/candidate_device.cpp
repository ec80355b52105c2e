// cli/candidate_device.cpp — host and cuda, and what each implies for a candidate.
#include "cli/candidate_device.hpp"

namespace kbv::cli {

std::optional<CandidateDevice> parse_candidate_device(const std::string& text) {
  if (text == "host") return CandidateDevice::host;
  if (text == "cuda") return CandidateDevice::cuda;
  return std::nullopt;
}

const char* device_name(CandidateDevice device) { return device == CandidateDevice::cuda ? "cuda" : "host"; }
const char* device_constant(CandidateDevice device) { return device == CandidateDevice::cuda ? "KBV_DEVICE_CUDA" : "KBV_DEVICE_HOST"; }
const char* source_extension(CandidateDevice device) { return device == CandidateDevice::cuda ? ".cu" : ".cpp"; }
// As eval/evaluator.cpp chooses when EvalOptions::shape_set is empty.
const char* default_shape_set(CandidateDevice device) { return device == CandidateDevice::cuda ? "default" : "small"; }

}  // namespace kbv::cli
