// daemon/sweep/report/vega_bundle.cpp — assemble Vega's modules into one inline script.
#include "sweep/report/vega_bundle.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace kbv::sweep::report {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDebianVegaDir = "/usr/share/javascript/vega";

// Module name as the others require it, and its file; dependencies come first. The
// geo/force/hierarchy/label/regression/voronoi/wordcloud/crossfilter modules are left out:
// the report's plots (bars, lines, rules, text, heatmaps) use none of their transforms.
const std::vector<std::pair<std::string, std::string>>& modules() {
  static const std::vector<std::pair<std::string, std::string>> list = {
      {"vega-util", "vega-util"},           {"vega-time", "vega-time"},
      {"vega-format", "vega-format"},       {"vega-loader", "vega-loader"},
      {"vega-dataflow", "vega-dataflow"},   {"vega-scale", "vega-scale"},
      {"vega-canvas", "vega-canvas"},       {"vega-scenegraph", "vega-scenegraph"},
      {"vega-expression", "vega-expression"}, {"vega-selections", "vega-selection"},
      {"vega-statistics", "vega-statistics"}, {"vega-functions", "vega-functions"},
      {"vega-event-selector", "vega-event-selector"}, {"vega-parser", "vega-parser"},
      {"vega-runtime", "vega-runtime"},     {"vega-view", "vega-view"},
      {"vega-transforms", "vega-transforms"}, {"vega-view-transforms", "vega-view-transforms"},
      {"vega-encode", "vega-encode"},
  };
  return list;
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Inline script text may not contain "</script": escape the slash (the same string in JS).
std::string script_safe(std::string text) {
  for (std::size_t at = text.find("</script"); at != std::string::npos; at = text.find("</script", at + 2)) text.replace(at, 2, "<\\/");
  return text;
}

}  // namespace

fs::path vega_directory() {
  if (const char* env = std::getenv("KBV_VEGA_DIR"); env && *env) return env;
  return kDebianVegaDir;
}

std::optional<std::string> vega_script(std::string* why_not) {
  const auto dir = vega_directory();
  std::string script =
      "var kbvVegaModules = {};\n"
      "function kbvVegaRequire(name) {\n"
      "  if (!(name in kbvVegaModules)) throw new Error('Vega module ' + name + ' is missing from the page');\n"
      "  return kbvVegaModules[name];\n"
      "}\n";
  for (const auto& [name, file] : modules()) {
    const auto path = dir / (file + ".min.js");
    const auto text = read_text(path);
    if (!text) {
      if (why_not)
        *why_not = fmt::format("{} is missing (fix: install Debian's libjs-vega, scripts/install-deps.sh does, or point $KBV_VEGA_DIR at a folder of Vega 5's module builds)",
                               path.string());
      return std::nullopt;
    }
    script += fmt::format("(function (require) {{ var module = {{exports: {{}}}}; var exports = module.exports;\n{}\n;kbvVegaModules['{}'] = module.exports; }})(kbvVegaRequire);\n",
                          script_safe(*text), name);
  }
  // What the upstream one-file bundle exports and registers.
  script +=
      "var vega = Object.assign({}, kbvVegaModules['vega-util'], kbvVegaModules['vega-scale'], kbvVegaModules['vega-scenegraph'],\n"
      "  kbvVegaModules['vega-dataflow'], kbvVegaModules['vega-parser'], kbvVegaModules['vega-view']);\n"
      "Object.assign(kbvVegaModules['vega-dataflow'].transforms, kbvVegaModules['vega-transforms'],\n"
      "  kbvVegaModules['vega-view-transforms'], kbvVegaModules['vega-encode']);\n";
  return script;
}

}  // namespace kbv::sweep::report
