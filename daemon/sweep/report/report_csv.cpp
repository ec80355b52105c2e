// daemon/sweep/report/report_csv.cpp — results.csv from report.json's candidates.
#include "sweep/report/report_csv.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "client/json_dump.hpp"
#include "client/printable.hpp"

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

// Text a spreadsheet would run as a formula (=, +, -, @, tab or CR first: a model name
// "=HYPERLINK(…)") gets a leading apostrophe, OWASP's advice; numbers, negative ones included,
// are left alone.
std::string formula_guarded(const std::string& raw) {
  if (raw.empty() || std::string_view("=+-@\t\r").find(raw.front()) == std::string_view::npos) return raw;
  char* end = nullptr;
  std::strtod(raw.c_str(), &end);
  return end == raw.c_str() + raw.size() ? raw : "'" + raw;
}

std::string cell(const json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_float()) return fmt::format("{:.17g}", value.get<double>());
  if (value.is_array()) {
    std::string joined;
    // Each item guarded on its own: where ';' separates a spreadsheet's fields (some locales), a
    // tag "=2+5" after another would start a cell of its own (review).
    for (const auto& item : value) joined += (joined.empty() ? "" : ";") + formula_guarded(cell(item));
    return joined;
  }
  return control::json_dump(value);
}

}  // namespace

std::string csv_field(const std::string& raw) {
  // A line break (a candidate's multi-line error in `detail`) is written as the two characters
  // \n or \r: every row stays one line, for line tools and for readers that split on newlines.
  // Other control characters are escaped too (review: a candidate named "x\x1b]52;…" wrote the
  // clipboard of whoever ran `cat results.csv`; a NUL in detail reached the file raw).
  const std::string text = control::printable(formula_guarded(raw));
  // Quoted also where ';' is in it: the field separator of spreadsheets in some locales.
  if (text.find_first_of(",\";") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string report_csv(const json& report) {
  static const std::vector<std::string> kLeading = {"key", "sha256", "name", "path", "model", "sample_id", "problem", "level", "tags",
                                                    "role", "shard", "status", "verdict", "hack_pattern", "failed_family", "flags"};
  static const std::vector<std::string> kTrailing = {"memory_ratio", "candidate_median_s", "wall_s", "prior_epoch",
                                                     "prior_verdict", "regression", "via", "detail"};
  std::vector<std::string> baselines;
  for (const char* list : {"baselines", "baselines_without_figures"})
    for (const auto& name : report.value(list, json::array())) baselines.push_back(name.get<std::string>());
  std::string out;
  const auto line = [&](const std::vector<std::string>& fields) {
    std::string text;
    for (const auto& field : fields) text += (text.empty() ? "" : ",") + csv_field(field);
    out += text + "\n";
  };
  std::vector<std::string> header = kLeading;
  for (const auto& baseline : baselines) header.push_back("speedup_vs_" + baseline);
  header.insert(header.end(), kTrailing.begin(), kTrailing.end());
  header.insert(header.begin() + 2, "epoch");
  line(header);
  const auto epoch = report.value("sweep", json::object()).value("epoch", json(nullptr));
  for (const auto& row : report.value("candidates", json::array())) {
    std::vector<std::string> fields;
    for (const auto& name : kLeading) fields.push_back(cell(row.value(name, json(nullptr))));
    for (const auto& baseline : baselines) fields.push_back(cell(row.value("speedup", json::object()).value(baseline, json(nullptr))));
    for (const auto& name : kTrailing) fields.push_back(cell(row.value(name, json(nullptr))));
    fields.insert(fields.begin() + 2, cell(epoch));
    line(fields);
  }
  return out;
}

}  // namespace kbv::sweep::report
