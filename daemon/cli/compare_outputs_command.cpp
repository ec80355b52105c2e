// cli/compare_outputs_command.cpp — load an export's manifest and fp64 reference, load
// OUTPUTS_DIR/<name>.npy for every output, compare each with compare_output() (the host
// evaluator's rule) under the manifest's tolerance, and print one line (or JSON) per output.
//
// Exit status: 0 every output within tolerance; 1 some output outside it; 2 usage or bad
// input (no manifest, a missing or malformed .npy, a shape that differs from the reference's).
#include "cli/compare_outputs_command.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "client/json_dump.hpp"
#include "io/npy.hpp"
#include "io/whole_file.hpp"
#include "spec/catalog.hpp"
#include "verify/compare.hpp"

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace kbv::cli {

namespace {

constexpr int kExitOutsideTolerance = 1;
constexpr const char* kUsage = "usage: kbv compare-outputs EXPORT_DIR OUTPUTS_DIR [--json]";

struct CompareInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One output to compare: its reference and the candidate's array, both mapped.
struct OutputPair {
  std::string name;
  std::unique_ptr<npy::MappedNpy> reference;
  std::unique_ptr<npy::MappedNpy> output;
};

// A manifest is a few kilobytes; one past this is not kbv export's.
constexpr std::size_t kMaxManifestBytes = std::size_t{1} << 20;

nlohmann::json load_manifest(const fs::path& path) {
  // Opened without blocking and checked to be a plain file (review: a FIFO named manifest.json
  // hung the command), read up to a bound.
  const io::BoundedRead read = io::read_bounded_file(path, kMaxManifestBytes);
  if (read.refused)
    throw CompareInputError(path.string() + ": cannot read the manifest as a file of at most 1 MiB (fix: run kbv export --out EXPORT_DIR first, then pass that EXPORT_DIR)");
  nlohmann::json manifest = nlohmann::json::parse(read.text, nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) throw CompareInputError(path.string() + ": not a JSON object (fix: export again with kbv export)");
  return manifest;
}

double tolerance_field(const nlohmann::json& manifest, const fs::path& path, const char* field) {
  if (!manifest.contains("tolerance") || !manifest["tolerance"].is_object() || !manifest["tolerance"].contains(field) ||
      !manifest["tolerance"][field].is_number())
    throw CompareInputError(path.string() + ": field 'tolerance." + field + "' missing or not a number (fix: export again with kbv export)");
  const double value = manifest["tolerance"][field].get<double>();
  if (!std::isfinite(value) || value < 0)
    throw CompareInputError(path.string() + ": field 'tolerance." + field + "' is " + std::to_string(value) +
                            ", not a bound (fix: export again with kbv export)");
  return value;
}

Shape shape_of(const nlohmann::json& entry, const fs::path& path) {
  if (!entry.contains("shape") || !entry["shape"].is_array()) throw CompareInputError(path.string() + ": a reference entry has no 'shape' (fix: export again)");
  Shape shape;
  for (const auto& dim : entry["shape"]) {
    if (!dim.is_number_integer()) throw CompareInputError(path.string() + ": a reference shape holds a non-integer (fix: export again)");
    shape.push_back(dim.get<int64_t>());
  }
  return shape;
}

// Validates every file before any comparison, so bad input is reported as such (exit 2)
// whatever the outputs' values.
std::vector<OutputPair> open_pairs(const fs::path& export_dir, const fs::path& outputs_dir, const nlohmann::json& manifest,
                                   const fs::path& manifest_path) {
  if (!manifest.contains("reference") || !manifest["reference"].is_array() || manifest["reference"].empty())
    throw CompareInputError(manifest_path.string() + ": field 'reference' missing or empty (fix: export again with kbv export)");
  std::vector<OutputPair> pairs;
  for (const auto& entry : manifest["reference"]) {
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() || !entry.contains("file") || !entry["file"].is_string())
      throw CompareInputError(manifest_path.string() + ": a 'reference' entry lacks 'name' or 'file' (fix: export again with kbv export)");
    OutputPair pair;
    pair.name = entry["name"].get<std::string>();
    const Shape declared = shape_of(entry, manifest_path);
    pair.reference = std::make_unique<npy::MappedNpy>(export_dir / entry["file"].get<std::string>());
    if (pair.reference->dtype() != npy::DType::float64 || pair.reference->shape() != declared)
      throw CompareInputError(pair.reference->path().string() + ": holds " + std::string(npy::dtype_name(pair.reference->dtype())) + " " +
                              to_string(pair.reference->shape()) + ", the manifest says float64 " + to_string(declared) + " (fix: export again)");
    const fs::path output_path = outputs_dir / (pair.name + ".npy");
    std::error_code error;
    if (!fs::exists(output_path, error))
      throw CompareInputError(output_path.string() + ": not found: output '" + pair.name + "' is missing (fix: save it with np.save('" +
                              output_path.string() + "', y) as float32 of shape " + to_string(declared) + ")");
    pair.output = std::make_unique<npy::MappedNpy>(output_path);
    if (pair.output->shape() != declared)
      throw CompareInputError(output_path.string() + ": shape " + to_string(pair.output->shape()) + ", but output '" + pair.name + "' has shape " +
                              to_string(declared) + " (fix: save the output with the reference's shape)");
    if (pair.output->dtype() != npy::DType::float32 && pair.output->dtype() != npy::DType::float64)
      throw CompareInputError(output_path.string() + ": holds " + std::string(npy::dtype_name(pair.output->dtype())) + ", but every output is float32 " +
                              "(fix: save it with np.save(path, y.astype(np.float32)))");
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

// kbv's rule on fp32 outputs; a float64 output is rounded to float32 first, as a candidate's
// output would be.
// The manifest is an editable file: where kbv knows its problem, the tolerance must be the
// problem's own, so a loosened bound (atol 1e30) cannot turn a wrong output into a pass.
void check_against_catalog(const std::string& problem, const Tolerance& tolerance, const fs::path& path) {
  std::optional<ProblemCatalog> catalog;
  try {
    catalog.emplace(ProblemCatalog::open(default_problems_directory()));
  } catch (const std::exception&) {
    return;  // no catalog here: the manifest's tolerance is all there is
  }
  // Review: a manifest with its problem deleted, or renamed to one kbv does not know, skipped the
  // check and let atol 1e30 pass a wrong output.
  if (!catalog->contains(problem))
    throw CompareInputError(path.string() + ": field 'problem' is '" + problem + "', not one of kbv's problems (fix: export again with kbv export)");
  const Tolerance& own = catalog->get(problem).tolerance;
  if (own.atol == tolerance.atol && own.rtol == tolerance.rtol && own.rel_l2 == tolerance.rel_l2 && own.outlier_fraction == tolerance.outlier_fraction)
    return;
  char text[256];
  std::snprintf(text, sizeof text, "(atol %g, rtol %g, rel_l2 %g, outlier_fraction %g here; %g, %g, %g, %g in kbv's problem)", tolerance.atol,
                tolerance.rtol, tolerance.rel_l2, tolerance.outlier_fraction, own.atol, own.rtol, own.rel_l2, own.outlier_fraction);
  throw CompareInputError(path.string() + ": field 'tolerance' is not problem " + problem + "'s " + text +
                          " (fix: export again with kbv export; the manifest is not where a bound is set)");
}

CompareResult compare_pair(const OutputPair& pair, const Tolerance& tolerance) {
  const std::span<const double> reference = pair.reference->doubles();
  const int64_t row_length = local_rms_row_length(pair.output->shape());
  if (pair.output->dtype() == npy::DType::float32)
    return compare_output(pair.output->floats().data(), reference.data(), pair.output->count(), row_length, tolerance);
  const std::span<const double> wide = pair.output->doubles();
  std::vector<float> narrowed(wide.begin(), wide.end());
  return compare_output(narrowed.data(), reference.data(), pair.output->count(), row_length, tolerance);
}

}  // namespace

int compare_outputs_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "compare-outputs", "compare-outputs EXPORT_DIR OUTPUTS_DIR [--json]",
      "Compare OUTPUTS_DIR/<output>.npy (float32 or float64) with EXPORT_DIR's fp64 reference (written by kbv export)\n"
      "under the problem's tolerance, with the rule the evaluator applies to a candidate (a manifest whose tolerance is not\n"
      "the problem's own in kbv's problems is refused: export again).\n"
      "Exit status: 0 every output within tolerance, 1 some outside, 2 usage or bad input."};
  po::options_description options;
  options.add_options()("json", "print one JSON object instead of text");
  int exit_code = kExitOk;
  const auto values = parse_command_line(help, options, args, exit_code, {{"directory", 2}});
  if (!values) return exit_code;
  const bool json = values->count("json") != 0;
  const std::vector<std::string> positional = positional_values(*values, "directory");
  auto bad_input = [&](const std::string& message) {
    std::cerr << "kbv compare-outputs: " << message << "\n";
    if (json) std::cout << control::json_dump(nlohmann::json{{"passed", false}, {"error", message}}) << "\n";
    return kExitBadInput;
  };
  if (positional.size() != 2) return bad_input(std::string("expected EXPORT_DIR and OUTPUTS_DIR (") + kUsage + ")");
  const fs::path export_dir = positional[0];
  const fs::path outputs_dir = positional[1];

  Tolerance tolerance;
  std::vector<OutputPair> pairs;
  std::string problem;
  try {
    const fs::path manifest_path = export_dir / "manifest.json";
    const nlohmann::json manifest = load_manifest(manifest_path);
    tolerance = {tolerance_field(manifest, manifest_path, "atol"), tolerance_field(manifest, manifest_path, "rtol"),
                 tolerance_field(manifest, manifest_path, "rel_l2")};
    // Exports before the outlier rule carry no such field: none allowed.
    if (manifest["tolerance"].contains("outlier_fraction"))
      tolerance.outlier_fraction = tolerance_field(manifest, manifest_path, "outlier_fraction");
    if (!manifest.contains("problem") || !manifest["problem"].is_string() || manifest["problem"].get_ref<const std::string&>().empty())
      throw CompareInputError(manifest_path.string() + ": field 'problem' missing or not text (fix: export again with kbv export)");
    problem = manifest["problem"].get<std::string>();
    check_against_catalog(problem, tolerance, manifest_path);
    pairs = open_pairs(export_dir, outputs_dir, manifest, manifest_path);
  } catch (const std::exception& error) {
    return bad_input(error.what());
  }

  std::vector<CompareResult> results;
  nlohmann::json reports = nlohmann::json::array();
  for (const OutputPair& pair : pairs) {
    const CompareResult result = compare_pair(pair, tolerance);
    results.push_back(result);
    reports.push_back({{"name", pair.name},
                       {"file", pair.output->path().string()},
                       {"dtype", std::string(npy::dtype_name(pair.output->dtype()))},
                       {"passed", result.passed},
                       {"elements", result.elements},
                       {"violations", result.violations},
                       {"nonfinite_where_ref_finite", result.nonfinite_where_ref_finite},
                       {"first_violation_index", result.first_violation_index},
                       {"max_abs_error", result.max_abs_error},
                       {"max_rel_error", result.max_rel_error},
                       {"rel_l2_error", result.rel_l2_error},
                       {"ref_rms", result.ref_rms},
                       {"summary", result.summary()}});
    if (!json)
      std::printf("%s: %s  max abs error %.3e  rel L2 error %.3e  (%s)\n", pair.name.c_str(), result.passed ? "passed" : "FAILED",
                  result.max_abs_error, result.rel_l2_error, result.summary().c_str());
  }
  const CompareResult merged = merge_results(results);
  if (json) {
    // Paths and names need not be UTF-8: dumped with replacement, never a type_error (review).
    std::cout << control::json_dump(nlohmann::json{{"problem", problem},
                                {"passed", merged.passed},
                                {"tolerance", {{"atol", tolerance.atol}, {"rtol", tolerance.rtol}, {"rel_l2", tolerance.rel_l2}}},
                                {"max_abs_error", merged.max_abs_error},
                                {"rel_l2_error", merged.rel_l2_error},
                                {"outputs", reports}})
              << "\n";
  } else {
    std::printf("%s: %s (atol %g, rtol %g, rel_l2 %g)\n", problem.c_str(),
                merged.passed ? "every output within tolerance" : "some output outside tolerance", tolerance.atol, tolerance.rtol, tolerance.rel_l2);
  }
  return merged.passed ? 0 : kExitOutsideTolerance;
}

}  // namespace kbv::cli
