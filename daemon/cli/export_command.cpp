// cli/export_command.cpp — `kbv export`: inputs of one family draw and their fp64 reference as
// .npy files, streamed tensor by tensor from the device's data plane, and a manifest.
//
// Exit status: 0 exported; 2 usage or bad input (unknown problem, shape set or family, an
// unwritable --out, an unusable device, an unreadable key). The message names the flag or
// file and the fix.
#include "cli/export_command.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/option_types.hpp"
#include "cli/paths.hpp"
#include "cli/problem_lookup.hpp"
#include "client/json_dump.hpp"
#include "eval/data_plane_factory.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/family_names.hpp"
#include "io/npy.hpp"
#include "io/whole_file.hpp"
#include "spec/catalog.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace kbv::cli {

namespace {

constexpr int kExportSlot = 0;

// A request that cannot be served: the message names the flag or file and the fix.
struct ExportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string family_list() {
  std::vector<std::string> names;
  for (uint32_t f = 0; f < inputs::kFamilyCount; ++f) {
    const auto family = static_cast<inputs::Family>(f);
    names.push_back(std::string(inputs::family_name(family)) + (inputs::is_hidden(family) ? "" : " (public)"));
  }
  return joined(names);
}

// Tensor names become file names: nothing that could leave the directory or hide a file.
void require_file_name(const std::string& name, const std::string& problem_file) {
  const bool safe = !name.empty() && name.front() != '.' &&
                    name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == std::string::npos;
  if (!safe) throw ExportError(problem_file + ": tensor name '" + name + "' cannot be a file name (fix: rename it to letters, digits and _)");
}

// What an export (this one, an earlier one, or one killed mid-way) writes: manifest.json, inputs/
// and reference/ with .npy files, and the temporaries of those writes and of the probe.
bool export_file_name(const std::string& name) {
  return name == "manifest.json" || name == "inputs" || name == "reference" || name.starts_with(".kbv-export-probe.") ||
         name.starts_with(std::string(io::kTemporaryPrefix) + "manifest.json");
}
bool tensor_file_name(const std::string& name) {
  return name.ends_with(".npy") || (name.starts_with(".") && name.find(".npy.tmp-") != std::string::npos);
}

// Whether `file` is an earlier export's manifest: a regular file (not a link) of kbv's fields.
bool export_manifest(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(file, error))) return false;
  std::ifstream in(file);
  const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  return manifest.is_object() && manifest.contains("kbv_version") && manifest.contains("problem") && manifest.contains("inputs") &&
         manifest["inputs"].is_array();
}

// --out is new, empty, or an earlier export's folder (its manifest.json kbv's); anything else in
// it is someone's and is refused (review: an export replaced same-named .npy files in whatever
// folder it was given, and an earlier export's tensors of another problem stayed beside the new
// ones). An earlier export's tensors are removed: the folder then holds this export alone.
void clear_earlier_export(const fs::path& out) {
  std::error_code error;
  if (!fs::is_directory(fs::symlink_status(out, error))) return;  // new, or not a folder: prepare_out_dir says so
  const auto refuse = [&](const fs::path& entry) {
    throw ExportError("--out: " + out.string() + " holds " + entry.string() +
                      ", which kbv export did not write: it writes into a new or empty folder, or over an earlier export of its own "
                      "(fix: choose a new folder with --out)");
  };
  std::vector<fs::path> earlier;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (!export_file_name(name)) refuse(entry.path());
    if (name != "inputs" && name != "reference") continue;
    if (!fs::is_directory(fs::symlink_status(entry.path(), error))) continue;  // a link or a file: prepare_out_dir refuses it
    for (const auto& tensor : fs::directory_iterator(entry.path())) {
      if (!tensor_file_name(tensor.path().filename().string()) || fs::is_directory(fs::symlink_status(tensor.path(), error)))
        refuse(tensor.path());
      earlier.push_back(tensor.path());
    }
  }
  if (!earlier.empty() && !export_manifest(out / "manifest.json"))
    throw ExportError("--out: " + out.string() + " holds " + earlier.front().string() +
                      " but no manifest.json of an earlier kbv export: the files may be someone's (fix: choose a new folder with --out)");
  for (const fs::path& tensor : earlier) fs::remove(tensor, error);  // a link itself, never its target
}

// Creates DIR, DIR/inputs and DIR/reference, proves DIR writable before any work is done and
// removes an earlier manifest.
void prepare_out_dir(const fs::path& out) {
  clear_earlier_export(out);
  std::error_code error;
  for (const fs::path& dir : {out, out / "inputs", out / "reference"}) {
    fs::create_directories(dir, error);
    // inputs/ and reference/ themselves, not links to elsewhere (review: a planted link had the
    // export replace files in the folder it pointed at).
    const bool linked = dir != out && fs::is_symlink(fs::symlink_status(dir, error));
    if (error || !fs::is_directory(dir) || linked)
      throw ExportError("--out: cannot create directory " + dir.string() + ": " +
                        (error ? error.message() : linked ? "a symbolic link is in the way" : "a file is in the way") +
                        " (fix: choose a writable directory with --out)");
  }
  // Proved writable with a file mkstemp makes (O_EXCL: a link planted at a fixed probe name was
  // followed and truncated its target, review).
  std::string probe = (out / ".kbv-export-probe.XXXXXX").string();
  const int probe_fd = ::mkstemp(probe.data());
  if (probe_fd < 0) throw ExportError("--out: cannot write in " + out.string() + " (fix: choose a writable directory with --out)");
  ::close(probe_fd);
  ::unlink(probe.c_str());
  // An earlier export's manifest would vouch for files this export is about to replace.
  fs::remove(out / "manifest.json", error);
}

nlohmann::json tensor_entry(const std::string& name, const Shape& shape, npy::DType dtype, const std::string& file) {
  return {{"name", name}, {"shape", shape}, {"dtype", std::string(npy::dtype_name(dtype))}, {"file", file}};
}

// An input's .npy dtype: its own (numpy's names match kbv's: float32, int64, bool).
npy::DType npy_dtype_of(DType dtype) {
  switch (dtype) {
    case DType::int64: return npy::DType::int64;
    case DType::boolean: return npy::DType::boolean;
    case DType::float32: break;
  }
  return npy::DType::float32;
}

}  // namespace

int export_command(const std::vector<std::string>& args) {
  const CommandHelp help = {
      "export", "export --problem NAME --out DIR [options]",
      "Write one draw of a problem's inputs (each in its dtype: float32, int64 or bool, as a candidate receives them) and\n"
      "kbv's fp64 reference for them as .npy files, with manifest.json (shapes, tolerance, family, seed). Compare outputs computed elsewhere\n"
      "with kbv compare-outputs. Exit status: 0 exported, 2 usage or bad input."};
  po::options_description options;
  options.add_options()(
      "problem", po::value<std::string>()->value_name("NAME"), "problem whose inputs and reference to export (a name, or KernelBench's L1/19; kbv problems lists them)")(
      "out", po::value<std::string>()->value_name("DIR"), "directory to write manifest.json, inputs/*.npy and reference/*.npy into (new or empty; an earlier export there is replaced)")(
      "shapes", po::value<std::string>()->value_name("SET"), "shape set (default: small on host, default on cuda)")(
      "device", po::value<std::string>()->default_value("host"), "host or cuda: where inputs and reference are computed")(
      "gpu", po::value<int>()->default_value(0), "CUDA device ordinal")(
      "family", po::value<std::string>()->default_value("uniform01"),
      "input family (default: the public uniform01; a hidden family needs the secret key and is named in the output)")(
      "seed", po::value<Unsigned>()->default_value(Unsigned{kDefaultExportSeed}, std::to_string(kDefaultExportSeed)), "the draw's seed (default: the fixed 0x6b627678)")(
      "epoch", po::value<Unsigned>(), "hidden family only: the epoch whose parameters to use (default: the current week)")(
      "key-file", po::value<std::string>()->value_name("F"), "hidden family only: secret key (default: $KBV_KEY_FILE or ~/.local/state/kbv/secret.key)")(
      "problems-dir", po::value<std::string>()->value_name("DIR"), "problem specs directory (default: $KBV_PROBLEMS_DIR, else the installed or bundled problems/)");
  int exit_code = kExitOk;
  const auto parsed = parse_command_line(help, options, args, exit_code);
  if (!parsed) return exit_code;
  const po::variables_map& vm = *parsed;
  try {
    if (!vm.count("problem")) throw ExportError("--problem is required (fix: kbv export --problem NAME --out DIR; kbv problems lists the names)");
    if (!vm.count("out")) throw ExportError("--out is required (fix: kbv export --problem NAME --out DIR)");
    const std::string device = vm["device"].as<std::string>();
    if (device != "host" && device != "cuda") throw ExportError("--device must be host or cuda, got '" + device + "'");
    const int gpu = vm["gpu"].as<int>();
    const std::string problem_text = vm["problem"].as<std::string>();
    const std::string family_text = vm["family"].as<std::string>();
    const uint64_t seed = vm["seed"].as<Unsigned>().value;
    const fs::path out = vm["out"].as<std::string>();

    const ProblemCatalog catalog = ProblemCatalog::open(vm.count("problems-dir") ? fs::path(vm["problems-dir"].as<std::string>()) : default_problems_dir());
    std::string problem_name;
    try {
      problem_name = resolve_problem_name(catalog, problem_text);
    } catch (const std::invalid_argument& error) {
      throw ExportError(std::string("--problem: ") + error.what());
    }
    const Problem& problem = catalog.get(problem_name);
    const std::string shape_set = vm.count("shapes") ? vm["shapes"].as<std::string>() : device == "host" ? "small" : "default";
    if (!problem.shape_sets.count(shape_set)) {
      std::vector<std::string> known;
      for (const auto& [name, symbols] : problem.shape_sets) known.push_back(name);
      throw ExportError("--shapes: problem '" + problem_name + "' has no shape set '" + shape_set + "' (fix: use one of: " + joined(known) + ")");
    }
    const auto family = inputs::family_from_name(family_text);
    if (!family) throw ExportError("--family: unknown family '" + family_text + "' (fix: use one of: " + family_list() + ")");

    inputs::FamilyDraw draw;
    draw.family = *family;
    draw.hidden = inputs::is_hidden(*family);
    uint64_t epoch = 0;
    if (draw.hidden) {
      // The hidden parameters come from the key: keep this process out of reach like kbv eval.
      ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
      const fs::path key_file = vm.count("key-file") ? fs::path(vm["key-file"].as<std::string>()) : inputs::default_key_path();
      epoch = vm.count("epoch") ? vm["epoch"].as<Unsigned>().value : inputs::epoch_at(std::chrono::system_clock::now());
      const inputs::SecretKey key = inputs::SecretKey::load(key_file);
      draw = inputs::draw_family(key, epoch, problem_name, *family, 0);
    }
    const ResolvedProblem resolved = resolve_problem(problem, shape_set);
    for (const auto& decl : problem.inputs) require_file_name(decl.name, problem.file);
    for (const auto& decl : problem.outputs) require_file_name(decl.name, problem.file);
    prepare_out_dir(out);

    const std::unique_ptr<eval::DataPlane> plane = eval::make_data_plane(resolved, device, gpu);
    plane->allocate(1);
    plane->prepare(kExportSlot, draw, seed);

    // One .npy per tensor, streamed from the data plane in chunks; returns its manifest entry.
    const auto export_tensor = [&](const std::string& folder, const std::string& name, const Shape& shape, npy::DType dtype,
                                   const auto& read) {
      const std::string file = folder + "/" + name + ".npy";
      npy::NpyWriter writer(out / file, shape, dtype);
      read([&](auto chunk) {
        if constexpr (std::is_same_v<decltype(chunk), std::span<const unsigned char>>) writer.write_raw(chunk);
        else writer.write(chunk);
      });
      writer.close();
      return tensor_entry(name, shape, dtype, file);
    };
    nlohmann::json input_entries = nlohmann::json::array();
    for (size_t i = 0; i < resolved.input_shapes.size(); ++i) {
      nlohmann::json entry = export_tensor(
          "inputs", problem.inputs[i].name, resolved.input_shapes[i], npy_dtype_of(problem.inputs[i].dtype), [&](const auto& write) {
            plane->read_input(kExportSlot, i, [&](std::span<const unsigned char> bytes) { write(bytes); });
          });
      if (problem.inputs[i].dtype == DType::int64)
        entry["range"] = {{"low", resolved.input_ranges[i].low}, {"high", resolved.input_ranges[i].high}};
      input_entries.push_back(std::move(entry));
    }
    nlohmann::json reference_entries = nlohmann::json::array();
    for (size_t o = 0; o < resolved.output_shapes.size(); ++o)
      reference_entries.push_back(export_tensor("reference", problem.outputs[o].name, resolved.output_shapes[o], npy::DType::float64,
                                                [&](const auto& sink) { plane->read_reference(kExportSlot, o, sink); }));

    const Tolerance& tolerance = problem.tolerance;
    nlohmann::json manifest = {
        {"kbv_version", KBV_VERSION},
        {"problem", problem_name},
        {"shape_set", shape_set},
        {"device", device},
        {"family", family_text},
        {"family_hidden", draw.hidden},
        {"seed", seed},
        {"symbols", problem.shape_sets.at(shape_set)},
        {"tolerance", {{"atol", tolerance.atol}, {"rtol", tolerance.rtol}, {"rel_l2", tolerance.rel_l2}, {"outlier_fraction", tolerance.outlier_fraction}}},
        {"inputs", input_entries},
        {"reference", reference_entries},
        {"note", "inputs are the values a candidate receives, each in its dtype (float32, int64, bool; C order, in the candidate's input "
                 "order); reference is kbv's fp64 "
                 "reference for them. To compare, save each output as OUTPUTS_DIR/<name>.npy (float32, the reference's shape) and run "
                 "`kbv compare-outputs EXPORT_DIR OUTPUTS_DIR`: an element passes when |out - ref| <= atol * rms(ref) + rtol * |ref|; "
                 "an output passes when every element does, none is NaN/Inf where the reference is finite, and "
                 "||out - ref||_2 / ||ref||_2 <= rel_l2 (docs/problem-spec.md)."}};
    if (draw.hidden) {
      manifest["epoch"] = epoch;
      manifest["family_param"] = draw.params.a;
      manifest["family_params"] = {
          {"a", draw.params.a}, {"b", draw.params.b}, {"structure_seed", draw.params.structure}, {"discrete_word", draw.params.discrete}};
    }
    // Written last and renamed into place: a manifest means a complete export.
    const fs::path manifest_path = out / "manifest.json";
    try {
      io::write_file_whole(manifest_path, control::json_dump(manifest, 2) + "\n");
    } catch (const std::runtime_error& failure) {
      throw ExportError(std::string(failure.what()) + " (fix: free space in --out's file system)");
    }

    std::cout << "kbv export: " << problem_name << " (" << shape_set << " shapes, " << device << " device), family " << family_text
              << (draw.hidden ? " (HIDDEN: keep this export private)" : " (public)") << ", seed " << seed << " -> " << out.string() << "\n";
    for (const auto& entry : input_entries)
      std::cout << "  input     " << entry["name"].get<std::string>() << " " << entry["shape"].dump() << " " << entry["dtype"].get<std::string>() << "\n";
    for (const auto& entry : reference_entries) std::cout << "  reference " << entry["name"].get<std::string>() << " " << entry["shape"].dump() << " float64\n";
    if (draw.hidden)
      std::cerr << "kbv export: exported the hidden family " << family_text << " with epoch " << epoch << "'s parameter " << draw.params.a << "\n";
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "kbv export: " << error.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace kbv::cli
