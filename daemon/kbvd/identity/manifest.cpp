// Parses and validates sidecar manifests (YAML or JSON) with errors naming field and fix.
#include "identity/manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/printable.hpp"
#include "sandbox/unique_fd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace kbv::kbvd {
namespace {

namespace fs = std::filesystem;

// Bounds that keep one manifest from bloating the store or the CLI's tables.
constexpr std::size_t kMaxTextChars = 256;
constexpr std::size_t kMaxTags = 32;
constexpr std::size_t kMaxManifestBytes = 64 * 1024;

[[noreturn]] void fail(const fs::path& file, const std::string& field, const std::string& problem,
                       const std::string& fix) {
  throw ManifestError(fmt::format("{}: {}: {}; fix: {}", file.string(), field, problem, fix));
}

std::string checked_text(const fs::path& file, const std::string& field, const std::string& value) {
  if (value.size() > kMaxTextChars)
    fail(file, field, fmt::format("longer than {} characters", kMaxTextChars), "shorten it");
  // C0 controls and DEL, and the C1 controls in UTF-8 (0xC2 0x80..0x9F: U+009B is a one-character
  // CSI that terminals act on, as they do on ESC [).
  bool control = false;
  for (size_t i = 0; i < value.size() && !control; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    const auto next = i + 1 < value.size() ? static_cast<unsigned char>(value[i + 1]) : 0;
    control = c < 0x20 || c == 0x7f || (c == 0xc2 && next >= 0x80 && next <= 0x9f);
  }
  if (control) fail(file, field, "contains control characters", "use printable text");
  // Reports, JSON records and the store hold it as text: bytes that are not UTF-8 would make a
  // JSON dump throw (it ended `kbv sweep`) or be replaced where it is shown.
  if (!control::is_printable_utf8(value)) fail(file, field, "is not valid UTF-8", "save the manifest as UTF-8 text");
  return value;
}

void check_problem(const fs::path& file, const std::string& problem) {
  static const std::regex name("[a-z0-9_]+");
  if (!problem.empty() && !std::regex_match(problem, name))
    fail(file, "problem", fmt::format("'{}' is not a problem name", problem),
         "use the name of a problems/*.yaml file, e.g. relu");
}

// The same shape for both syntaxes: field name -> scalar or list of scalars.
struct Fields {
  std::vector<std::pair<std::string, std::string>> scalars;
  std::vector<std::string> tags;
  bool has_tags = false;
};

// An unknown key is named as such before its value's shape is judged ("modle: {x: 1}" is a typo of
// model, not a field that wants a single value).
void check_known_field(const fs::path& file, const std::string& key) {
  if (key != "model" && key != "sample_id" && key != "problem" && key != "tags")
    fail(file, key, "unknown field", "use only model, sample_id, problem and tags");
}

// Both syntaxes checked every key (check_known_field) as they read it.
Manifest build(const Fields& fields, const fs::path& file) {
  Manifest m;
  for (const auto& [key, value] : fields.scalars) {
    if (key == "model") m.model = checked_text(file, key, value);
    else if (key == "sample_id") m.sample_id = checked_text(file, key, value);
    else if (key == "problem") m.problem = checked_text(file, key, value);
  }
  check_problem(file, m.problem);
  if (fields.tags.size() > kMaxTags)
    fail(file, "tags", fmt::format("more than {} tags", kMaxTags), "keep the tags that matter");
  for (const auto& tag : fields.tags) m.tags.push_back(checked_text(file, "tags", tag));
  return m;
}

Fields from_yaml(const std::string& text, const fs::path& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(file, fmt::format("line {}", e.mark.line + 1), e.msg, "correct the YAML syntax");
  }
  if (!root.IsDefined() || root.IsNull()) return {};
  if (!root.IsMap()) fail(file, "(document)", "must be a mapping", "write 'model: NAME' etc.");
  Fields f;
  for (const auto& entry : root) {
    if (!entry.first.IsScalar()) fail(file, "(document)", "a field name must be a plain word", "write 'model: NAME' etc.");
    const auto key = entry.first.Scalar();
    check_known_field(file, key);
    if (key == "tags") {
      if (!entry.second.IsSequence())
        fail(file, "tags", "must be a list of strings", "write 'tags: [a, b]'");
      for (const auto& t : entry.second) {
        if (!t.IsScalar()) fail(file, "tags", "every tag must be a string", "write 'tags: [a, b]'");
        f.tags.push_back(t.Scalar());
      }
      continue;
    }
    if (!entry.second.IsScalar())
      fail(file, key, "must be a single value", fmt::format("write '{}: VALUE'", key));
    f.scalars.emplace_back(key, entry.second.Scalar());
  }
  return f;
}

Fields from_json(const std::string& text, const fs::path& file) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    fail(file, fmt::format("byte {}", e.byte), "is not valid JSON", "correct the JSON syntax");
  } catch (const nlohmann::json::exception& e) {  // a number past a double's range (1e999), say
    fail(file, "(document)", std::string("cannot be read as JSON: ") + e.what(), "write numbers a double can hold, or quote them");
  }
  if (!root.is_object()) fail(file, "(document)", "must be an object", "write {\"model\": ...}");
  Fields f;
  for (const auto& [key, value] : root.items()) {
    check_known_field(file, key);
    if (key == "tags") {
      if (!value.is_array()) fail(file, "tags", "must be an array of strings", "write \"tags\": [\"a\"]");
      for (const auto& t : value) {
        if (!t.is_string()) fail(file, "tags", "every tag must be a string", "quote each tag");
        f.tags.push_back(t.get<std::string>());
      }
      continue;
    }
    if (value.is_string()) f.scalars.emplace_back(key, value.get<std::string>());
    else if (value.is_number_integer()) f.scalars.emplace_back(key, value.dump());
    else
      fail(file, key, "must be a string (sample_id may be an integer)", "quote the value");
  }
  return f;
}

}  // namespace

Manifest parse_manifest(const std::string& text, bool json, const fs::path& file) {
  return build(json ? from_json(text, file) : from_yaml(text, file), file);
}

fs::path yaml_manifest_path(const fs::path& candidate) { return fs::path(candidate.string() + ".yaml"); }
fs::path json_manifest_path(const fs::path& candidate) { return fs::path(candidate.string() + ".json"); }

std::optional<Manifest> load_manifest_beside(const fs::path& candidate) {
  const auto yaml = yaml_manifest_path(candidate);
  const auto json = json_manifest_path(candidate);
  std::error_code ec;
  // Present as themselves (a link is present, and refused below), not as what they point at.
  const bool has_yaml = fs::symlink_status(yaml, ec).type() != fs::file_type::not_found && !ec;
  const bool has_json = fs::symlink_status(json, ec).type() != fs::file_type::not_found && !ec;
  if (has_yaml && has_json)
    fail(json, "(file)", "both NAME.so.yaml and NAME.so.json exist", "keep only one of them");
  if (!has_yaml && !has_json) return std::nullopt;
  const auto& path = has_yaml ? yaml : json;
  // Read through one descriptor that is the file itself: a sidecar that is a link would have
  // kbvd read (and echo in errors, and store) any file its user can read, and a size checked by
  // path could be another file's by the time it is read (review).
  const sandbox::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat info {};
  if (!fd.valid() && errno == ELOOP) fail(path, "(file)", "is a symbolic link", "put the manifest itself beside the candidate");
  if (!fd.valid()) fail(path, "(file)", "cannot be read", "make it readable by kbvd");
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) fail(path, "(file)", "is not a regular file", "put the manifest itself beside the candidate");
  // A manifest names who a candidate is from: it counts only from the candidate's own submitter
  // (review: another member of group kbv dropped a manifest beside a taken candidate and
  // rewrote its model). With the candidate gone from the folder there is no owner to match.
  struct stat so {};
  if (::lstat(candidate.c_str(), &so) != 0)
    fail(path, "(file)", "has no candidate beside it to belong to", "put the manifest beside its candidate, or remove it");
  if (so.st_uid != info.st_uid)
    fail(path, "(file)", fmt::format("is owned by uid {}, its candidate by uid {}", info.st_uid, so.st_uid),
         "a manifest is taken only from the candidate's own submitter: drop both as one user");
  std::string text(kMaxManifestBytes + 1, '\0');
  std::size_t got = 0;
  for (ssize_t n; got < text.size() && (n = ::read(fd.get(), text.data() + got, text.size() - got)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "(file)", "cannot be read", "make it readable by kbvd");
    got += static_cast<std::size_t>(n);
  }
  if (got > kMaxManifestBytes) fail(path, "(file)", fmt::format("larger than {} bytes", kMaxManifestBytes), "shorten it");
  text.resize(got);
  return parse_manifest(text, has_json, path);
}

}  // namespace kbv::kbvd
