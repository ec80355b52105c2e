// sweep/report/report_plots.hpp — the plots of report.html as Vega 5 specifications, built from
// report.json: correctness rate, geometric-mean speedup and memory ratio per model, fast_p curves
// per baseline, hack and flag counts, a problem × model speedup heatmap per baseline, the
// public-vs-hidden gap, and the verdict transitions since the previous sweep.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kbv::sweep::report {

struct Plot {
  std::string id;       // element id in the page
  std::string section;  // the report section it belongs to (report_sections.hpp)
  nlohmann::json spec;  // a complete Vega 5 specification, data inline
};

// Only plots with something to show: a report without hacks has no hack plot.
std::vector<Plot> report_plots(const nlohmann::json& report);

}  // namespace kbv::sweep::report
