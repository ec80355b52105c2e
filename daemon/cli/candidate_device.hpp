// cli/candidate_device.hpp — the two devices a candidate is written for (kbv/plugin.h's
// kbv_device), as `kbv prompt` and `kbv build` name them, with what each implies: the source
// file's extension, the KBV_DEVICE_* constant, the shape set `kbv eval` uses there.
#pragma once

#include <optional>
#include <string>

namespace kbv::cli {

enum class CandidateDevice { host, cuda };

// "host" or "cuda"; nullopt for anything else.
std::optional<CandidateDevice> parse_candidate_device(const std::string& text);
const char* device_name(CandidateDevice device);       // "host", "cuda"
const char* device_constant(CandidateDevice device);   // "KBV_DEVICE_HOST", "KBV_DEVICE_CUDA"
const char* source_extension(CandidateDevice device);  // ".cpp", ".cu"
// The shape set `kbv eval --device D` evaluates when --shapes is not given.
const char* default_shape_set(CandidateDevice device);  // "small", "default"

}  // namespace kbv::cli
