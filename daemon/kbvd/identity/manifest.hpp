// The optional sidecar manifest beside a candidate: NAME.so.yaml or NAME.so.json.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbv::kbvd {

struct Manifest {
  std::string model;      // which model wrote the kernel
  std::string sample_id;  // the model's sample number or id
  std::string problem;    // passed to the evaluator as --problem
  std::vector<std::string> tags;
};

// A bad manifest; what() names the file, the field and the fix.
class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses manifest text; `json` selects JSON, else YAML. `file` is only used in errors.
Manifest parse_manifest(const std::string& text, bool json, const std::filesystem::path& file);

// The manifest beside `candidate` if one exists (both .yaml and .json is an error).
std::optional<Manifest> load_manifest_beside(const std::filesystem::path& candidate);

// The sidecar paths a candidate may have.
std::filesystem::path yaml_manifest_path(const std::filesystem::path& candidate);
std::filesystem::path json_manifest_path(const std::filesystem::path& candidate);

}  // namespace kbv::kbvd
