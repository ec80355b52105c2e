// daemon/sweep/report/report_plots.cpp — Vega specifications of the report's plots.
#include "sweep/report/report_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "sweep/report/report_builder.hpp"
#include "sweep/report/report_sections.hpp"

namespace kbv::sweep::report {
namespace {

using nlohmann::json;

constexpr const char* kVegaSchema = "https://vega.github.io/schema/vega/v5.json";
constexpr int kPlotHeight = 220;
constexpr int kMinPlotWidth = 320;
constexpr int kMaxPlotWidth = 960;
constexpr int kBarPixels = 26;      // per bar of a grouped bar chart
constexpr int kCellPixels = 54;     // per heatmap column
constexpr int kRowPixels = 26;      // per heatmap row
constexpr double kLogMargin = 1.25; // room above and below the extreme bars of a log axis
constexpr double kDarkShare = 0.6;  // heatmap cells past this share of the colour scale get white text

json base(const std::string& title, int width, int height) {
  return {{"$schema", kVegaSchema}, {"description", title}, {"title", {{"text", title}, {"anchor", "start"}}},
          {"width", width},         {"height", height},      {"padding", 5}, {"autosize", {{"type", "pad"}}}};
}

int bar_width(std::size_t bars) {
  return std::clamp(static_cast<int>(bars) * kBarPixels + 40, kMinPlotWidth, kMaxPlotWidth);
}

struct BarAxis {
  std::string title;
  std::string type = "linear";  // linear or log
  double low = 0, high = 1;     // domain
  double from = 0;              // where bars start (0, or 1 for speedups on a log axis)
};

// Bars of `value` per category, one bar per series side by side. Rows: {category, series, value, label}.
json grouped_bars(const std::string& title, const json& rows, const BarAxis& axis, const std::string& series_title) {
  std::set<std::string> series;
  for (const auto& row : rows) series.insert(row["series"].get<std::string>());
  json spec = base(title, bar_width(rows.size()), kPlotHeight);
  spec["data"] = json::array({{{"name", "table"}, {"values", rows}}});
  json value_scale = {{"name", "value"}, {"type", axis.type}, {"domain", {axis.low, axis.high}}, {"range", "height"}, {"nice", axis.type == "linear"}};
  if (axis.type == "log") value_scale["base"] = 10;
  spec["scales"] = json::array({
      {{"name", "category"}, {"type", "band"}, {"domain", {{"data", "table"}, {"field", "category"}, {"sort", true}}}, {"range", "width"}, {"padding", 0.2}},
      value_scale,
      {{"name", "color"}, {"type", "ordinal"}, {"domain", {{"data", "table"}, {"field", "series"}, {"sort", true}}}, {"range", "category"}},
  });
  spec["axes"] = json::array({
      {{"orient", "bottom"}, {"scale", "category"}, {"labelAngle", -30}, {"labelAlign", "right"}, {"labelLimit", 180}},
      {{"orient", "left"}, {"scale", "value"}, {"title", axis.title}, {"grid", true}},
  });
  if (series.size() > 1) spec["legends"] = json::array({{{"fill", "color"}, {"title", series_title}}});
  json bar = {{"type", "rect"}, {"from", {{"data", "facet"}}},
              {"encode", {{"enter", {{"x", {{"scale", "position"}, {"field", "series"}}},
                                     {"width", {{"scale", "position"}, {"band", 1}}},
                                     {"y", {{"scale", "value"}, {"field", "value"}}},
                                     {"y2", {{"scale", "value"}, {"value", axis.from}}},
                                     {"fill", {{"scale", "color"}, {"field", "series"}}},
                                     {"tooltip", {{"signal", "datum.category + ' / ' + datum.series + ': ' + datum.label"}}}}}}}};
  json label = {{"type", "text"}, {"from", {{"data", "facet"}}},
                {"encode", {{"enter", {{"x", {{"scale", "position"}, {"field", "series"}, {"band", 0.5}}},
                                       {"y", {{"scale", "value"}, {"field", "value"}, {"offset", -3}}},
                                       {"text", {{"field", "label"}}},
                                       {"align", {{"value", "center"}}},
                                       {"baseline", {{"value", "bottom"}}},
                                       {"fontSize", {{"value", 9}}}}}}}};
  spec["marks"] = json::array({{
      {"type", "group"},
      {"from", {{"facet", {{"data", "table"}, {"name", "facet"}, {"groupby", "category"}}}}},
      {"encode", {{"enter", {{"x", {{"scale", "category"}, {"field", "category"}}}}}}},
      {"signals", json::array({{{"name", "width"}, {"update", "bandwidth('category')"}}})},
      {"scales", json::array({{{"name", "position"}, {"type", "band"}, {"range", "width"}, {"domain", {{"data", "table"}, {"field", "series"}, {"sort", true}}}}})},
      {"marks", json::array({bar, label})},
  }});
  return spec;
}

// A log axis around 1 that holds every value, for ratios (speedup, memory).
BarAxis ratio_axis(const std::string& title, const json& rows) {
  double low = 1, high = 1;
  for (const auto& row : rows) {
    low = std::min(low, row["value"].get<double>());
    high = std::max(high, row["value"].get<double>());
  }
  return {title, "log", low / kLogMargin, high * kLogMargin, 1.0};
}

// Fraction per p, one line per model. Rows: {p, fraction, model}.
json fast_p_lines(const std::string& title, const json& rows) {
  json spec = base(title, 480, kPlotHeight);
  spec["data"] = json::array({{{"name", "table"}, {"values", rows}}});
  spec["scales"] = json::array({
      {{"name", "x"}, {"type", "linear"}, {"domain", {0, kFastPMax}}, {"range", "width"}},
      {{"name", "y"}, {"type", "linear"}, {"domain", {0, 1}}, {"range", "height"}},
      {{"name", "color"}, {"type", "ordinal"}, {"domain", {{"data", "table"}, {"field", "model"}, {"sort", true}}}, {"range", "category"}},
  });
  spec["axes"] = json::array({
      {{"orient", "bottom"}, {"scale", "x"}, {"title", "p (times the baseline's speed)"}},
      {{"orient", "left"}, {"scale", "y"}, {"title", "fraction correct and faster"}, {"format", ".0%"}, {"grid", true}},
  });
  spec["legends"] = json::array({{{"stroke", "color"}, {"title", "model"}}});
  json line = {{"type", "line"}, {"from", {{"data", "series"}}},
               {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "p"}}},
                                      {"y", {{"scale", "y"}, {"field", "fraction"}}},
                                      {"stroke", {{"scale", "color"}, {"field", "model"}}},
                                      {"strokeWidth", {{"value", 2}}},
                                      {"interpolate", {{"value", "step-after"}}}}}}}};
  spec["marks"] = json::array({
      {{"type", "group"}, {"from", {{"facet", {{"name", "series"}, {"data", "table"}, {"groupby", "model"}}}}}, {"marks", json::array({line})}},
      {{"type", "rule"},
       {"encode", {{"enter", {{"x", {{"scale", "x"}, {"value", 1}}}, {"y", {{"value", 0}}}, {"y2", {{"signal", "height"}}},
                              {"stroke", {{"value", "#888"}}}, {"strokeDash", {{"value", {4, 4}}}}}}}}},
  });
  return spec;
}

// Colour per cell. Rows: {x, y, value (number or null), text}.
// `dark_above`: values beyond which a cell is dark enough for white text.
json heatmap(const std::string& title, const json& rows, const std::string& x_title, const std::string& y_title, const json& color_scale,
             const std::string& legend_title, const std::string& dark_test) {
  std::set<std::string> xs, ys;
  for (const auto& row : rows) {
    xs.insert(row["x"].get<std::string>());
    ys.insert(row["y"].get<std::string>());
  }
  json spec = base(title, std::clamp(static_cast<int>(xs.size()) * kCellPixels, 120, kMaxPlotWidth),
                   std::max(static_cast<int>(ys.size()) * kRowPixels, 2 * kRowPixels));
  spec["data"] = json::array({{{"name", "table"}, {"values", rows}}});
  spec["scales"] = json::array({
      {{"name", "x"}, {"type", "band"}, {"domain", {{"data", "table"}, {"field", "x"}, {"sort", true}}}, {"range", "width"}, {"padding", 0.05}},
      {{"name", "y"}, {"type", "band"}, {"domain", {{"data", "table"}, {"field", "y"}, {"sort", true}}}, {"range", "height"}, {"padding", 0.05}},
      color_scale,
  });
  spec["axes"] = json::array({
      {{"orient", "bottom"}, {"scale", "x"}, {"title", x_title}, {"labelAngle", -30}, {"labelAlign", "right"}, {"labelLimit", 180}},
      {{"orient", "left"}, {"scale", "y"}, {"title", y_title}, {"labelLimit", 180}},
  });
  spec["legends"] = json::array({{{"fill", "color"}, {"type", "gradient"}, {"title", legend_title}}});
  spec["marks"] = json::array({
      {{"type", "rect"}, {"from", {{"data", "table"}}},
       {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "x"}}}, {"width", {{"scale", "x"}, {"band", 1}}},
                              {"y", {{"scale", "y"}, {"field", "y"}}}, {"height", {{"scale", "y"}, {"band", 1}}},
                              {"fill", json::array({{{"test", "datum.value === null"}, {"value", "#e4e4e4"}}, {{"scale", "color"}, {"field", "value"}}})},
                              {"tooltip", {{"signal", "datum.x + ' / ' + datum.y + ': ' + datum.text"}}}}}}}},
      {{"type", "text"}, {"from", {{"data", "table"}}},
       {"encode", {{"enter", {{"x", {{"scale", "x"}, {"field", "x"}, {"band", 0.5}}}, {"y", {{"scale", "y"}, {"field", "y"}, {"band", 0.5}}},
                              {"text", {{"field", "text"}}}, {"align", {{"value", "center"}}}, {"baseline", {{"value", "middle"}}},
                              {"fill", json::array({{{"test", dark_test}, {"value", "white"}}, {{"value", "black"}}})},
                              {"fontSize", {{"value", 10}}}}}}}},
  });
  return spec;
}

void correctness(const json& report, std::vector<Plot>& plots) {
  json rows = json::array();
  for (const auto& m : report["models"])
    if (m["correctness_rate"].is_number())
      rows.push_back({{"category", model_label(m["model"])}, {"series", "correctness rate"}, {"value", m["correctness_rate"]},
                      {"label", percent_text(m["correctness_rate"])}});
  if (rows.empty()) return;
  plots.push_back({"plot-correctness", "models", grouped_bars("Correctness rate per model", rows, {"passed / evaluated"}, "")});
}

void speedups(const json& report, std::vector<Plot>& plots) {
  json rows = json::array();
  for (const auto& m : report["models"])
    for (const auto& b : report["baselines"]) {
      const auto& g = m["speedup"][b.get<std::string>()]["geomean"];
      if (g.is_number()) rows.push_back({{"category", model_label(m["model"])}, {"series", "vs " + b.get<std::string>()}, {"value", g}, {"label", speedup_text(g)}});
    }
  if (!rows.empty())
    plots.push_back({"plot-geomean", "models",
                     grouped_bars("Geometric-mean speedup of passing candidates (log scale, bars from 1×)", rows,
                                  ratio_axis("speedup over the baseline", rows), "baseline")});
  json memory = json::array();
  for (const auto& m : report["models"])
    if (const auto& g = m["memory_ratio"]["geomean"]; g.is_number())
      memory.push_back({{"category", model_label(m["model"])}, {"series", "memory ratio"}, {"value", g}, {"label", speedup_text(g)}});
  if (!memory.empty())
    plots.push_back({"plot-memory", "models",
                     grouped_bars("Peak device memory over the baseline's (geometric mean of passes, log scale)", memory,
                                  ratio_axis("memory ratio", memory), "")});
}

void fast_p(const json& report, std::vector<Plot>& plots) {
  for (const auto& b : report["baselines"]) {
    const auto baseline = b.get<std::string>();
    json rows = json::array();
    for (const auto& m : report["models"]) {
      const auto& curve = m["speedup"][baseline]["fast_p"];
      for (std::size_t i = 0; i < curve.size(); ++i)
        if (curve[i].is_number()) rows.push_back({{"p", report["p_grid"][i]}, {"fraction", curve[i]}, {"model", model_label(m["model"])}});
    }
    if (!rows.empty()) plots.push_back({"plot-fast-p-" + baseline, "fast_p", fast_p_lines("fast_p against " + baseline + " (dashed: p = 1)", rows)});
  }
}

void problem_heatmaps(const json& report, std::vector<Plot>& plots) {
  for (const auto& b : report["baselines"]) {
    const auto baseline = b.get<std::string>();
    json rows = json::array();
    double extreme = 1;  // |log2| at the colour scale's ends
    for (const auto& p : report["problems"])
      for (const auto& cell : p["models"]) {
        const auto& g = cell["geomean_speedup"][baseline];
        const json value = g.is_number() ? json(std::log2(g.get<double>())) : json(nullptr);
        if (value.is_number()) extreme = std::max(extreme, std::abs(value.get<double>()));
        rows.push_back({{"x", p["problem"]}, {"y", model_label(cell["model"])}, {"value", value},
                        {"text", g.is_number() ? speedup_text(g) : fmt::format("– ({}/{})", cell["passed"].get<int>(), cell["evaluated"].get<int>())}});
      }
    if (rows.empty()) continue;
    const json color = {{"name", "color"}, {"type", "linear"}, {"domain", {-extreme, extreme}}, {"range", {{"scheme", "redblue"}}}, {"zero", false}};
    plots.push_back({"plot-heatmap-" + baseline, "problems",
                     heatmap("Speedup over " + baseline + " by problem and model (grey: no passing candidate)", rows, "problem", "model", color,
                             "log2 speedup", fmt::format("datum.value !== null && abs(datum.value) > {}", kDarkShare * extreme))});
  }
}

void hack_counts(const json& report, std::vector<Plot>& plots) {
  json rows = json::array();
  for (const char* kind : {"hacks", "flags"})
    for (const auto& m : report["models"])
      for (const auto& [name, n] : m[kind].items())
        rows.push_back({{"category", std::string(kind == std::string("hacks") ? "hack: " : "flag: ") + name},
                        {"series", model_label(m["model"])}, {"value", n}, {"label", std::to_string(n.get<int>())}});
  if (rows.empty()) return;
  double high = 1;
  for (const auto& row : rows) high = std::max(high, row["value"].get<double>());
  plots.push_back({"plot-hacks", "hacks", grouped_bars("Hacks suspected (by pattern) and flags raised", rows, {"candidates", "linear", 0, high, 0}, "model")});
}

void public_gap(const json& report, std::vector<Plot>& plots) {
  json rows = json::array();
  double high = 1;
  for (const auto& m : report["models"]) {
    const auto label = model_label(m["model"]);
    for (const auto& [series, value] : {std::pair<std::string, json>{"pass", m["passed"]}, {"passes public inputs only", m["passes_public_inputs_only"]}}) {
      rows.push_back({{"category", label}, {"series", series}, {"value", value}, {"label", std::to_string(value.get<int>())}});
      high = std::max(high, value.get<double>());
    }
  }
  if (rows.empty()) return;
  plots.push_back({"plot-public-gap", "public_gap",
                   grouped_bars("Passing candidates, and candidates that pass only the public inputs", rows, {"candidates", "linear", 0, high, 0}, "")});
}

void transitions(const json& report, std::vector<Plot>& plots) {
  const auto& c = report["comparison"];
  if (c.is_null() || c["transitions"].empty()) return;
  json rows = json::array();
  double high = 1;
  for (const auto& t : c["transitions"]) {
    rows.push_back({{"x", t["from"]}, {"y", t["to"]}, {"value", t["count"]}, {"text", std::to_string(t["count"].get<int>())}});
    high = std::max(high, t["count"].get<double>());
  }
  const json color = {{"name", "color"}, {"type", "linear"}, {"domain", {0, high}}, {"range", {{"scheme", "blues"}}}};
  plots.push_back({"plot-transitions", "comparison",
                   heatmap("Verdicts: previous sweep (x) to this one (y), candidates in both", rows, "previous verdict", "verdict now", color, "candidates",
                           fmt::format("datum.value > {}", kDarkShare * high))});
}

}  // namespace

std::vector<Plot> report_plots(const json& report) {
  std::vector<Plot> plots;
  correctness(report, plots);
  speedups(report, plots);
  fast_p(report, plots);
  problem_heatmaps(report, plots);
  hack_counts(report, plots);
  public_gap(report, plots);
  transitions(report, plots);
  return plots;
}

}  // namespace kbv::sweep::report
