// Renders status, result tables and one candidate's evaluations as aligned text.
#include "client/format.hpp"

#include "client/json_dump.hpp"
#include "client/printable.hpp"

#include <cstdio>
#include <sstream>

namespace kbv::control {
namespace {
using nlohmann::json;

// Every string shown comes through printable(): names and details are the candidates' words.
std::string text(const json& j, const char* key, const std::string& fallback = "-") {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return fallback;
  if (j[key].is_string()) return printable(j[key].get<std::string>());
  if (j[key].is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", j[key].get<double>());
    return buf;
  }
  return control::json_dump(j[key]);
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() > width) s = s.substr(0, width - 1) + "~";
  s.resize(width, ' ');
  return s;
}
}  // namespace

std::string format_status(const json& s) {
  std::ostringstream out;
  out << "kbvd " << text(s, "version") << "  pid " << text(s, "pid") << "  up " << text(s, "uptime_s")
      << " s  epoch " << text(s, "epoch") << (s.value("draining", false) ? "  DRAINING" : "") << "\n";
  out << "watch folder  " << text(s, "watch_dir") << "\n";
  out << "metrics       " << (s.value("metrics_port", 0) ? text(s, "metrics_listen") + " (port " +
                                                                 text(s, "metrics_port") + ")"
                                                           : std::string("off")) << "\n";
  const auto& store = s.value("store", json::object());
  if (!store.value("writable", true))
    out << "store         NOT WRITABLE: " << text(store, "error") << "; no new work until it is; "
        << text(store, "unsaved_results", "0") << " finished results kept in memory\n";
  const auto& q = s.value("queue", json::object());
  out << "queue         " << text(q, "waiting", "0") << " waiting, " << text(q, "running", "0")
      << " running\n";
  for (const auto& slot : s.value("slots", json::array())) {
    out << "slot " << pad(text(slot, "slot"), 5) << " " << pad(text(slot, "device"), 5) << " "
        << pad(text(slot, "state"), 8) << " spare " << pad(text(slot, "spare"), 8);
    if (slot.contains("evaluation"))
      out << " " << text(slot["evaluation"], "name") << " (" << text(slot["evaluation"], "running_s")
          << " s)";
    if (!slot.value("last_error", json()).is_null()) out << "  last error: " << text(slot, "last_error");
    out << "\n";
  }
  const auto& totals = s.value("totals", json::object());
  if (!totals.empty()) {
    out << "verdicts     ";
    for (const auto& [verdict, count] : totals.items()) out << " " << verdict << "=" << control::json_dump(count);
    out << "\n";
  }
  return out.str();
}

std::string format_results(const json& list) {
  std::ostringstream out;
  out << pad("#", 6) << pad("SHA256", 14) << pad("NAME", 28) << pad("PROBLEM", 16) << pad("STATE", 9)
      << pad("VERDICT", 18) << pad("xTF32", 8) << "xFP32\n";
  for (const auto& r : list.value("results", json::array())) {
    const auto& e = r.value("evaluation", json());
    out << pad(text(r, "candidate_id"), 6) << pad(text(r, "sha256").substr(0, 12), 14)
        << pad(text(r, "name"), 28) << pad(text(r, "problem"), 16) << pad(text(r, "state"), 9)
        << pad(text(e, "verdict"), 18) << pad(text(e, "speedup_vs_tf32"), 8)
        << text(e, "speedup_vs_fp32") << "\n";
  }
  return out.str();
}

std::string format_result(const json& r) {
  std::ostringstream out;
  out << "candidate " << text(r, "candidate_id") << "  " << text(r, "sha256") << "\n"
      << "name      " << text(r, "name") << "  (dropped " << text(r, "drop_count") << "x)\n"
      << "model     " << text(r, "model") << "  sample " << text(r, "sample_id") << "\n"
      << "problem   " << text(r, "problem") << "  tags " << control::json_dump(r.value("tags", json::array())) << "\n"
      << "state     " << text(r, "state") << "\n";
  for (const auto& e : r.value("evaluations", json::array())) {
    out << "  evaluation " << text(e, "id") << "  attempt " << text(e, "attempt") << "  epoch "
        << text(e, "epoch") << "  " << text(e, "device") << " slot " << text(e, "slot") << "  "
        << text(e, "state") << "  " << text(e, "verdict") << "  " << text(e, "evaluator_seconds")
        << " s\n";
    if (!e.value("detail", json()).is_null() && !text(e, "detail").empty())
      out << "    " << text(e, "detail") << "\n";
    if (!e.value("note", json()).is_null()) out << "    note: " << text(e, "note") << "\n";
  }
  return out.str();
}

std::string format_submit(const json& a) {
  std::ostringstream out;
  out << text(a, "name") << "  " << text(a, "sha256") << "  " << text(a, "result");
  if (a.contains("state")) out << " (candidate " << text(a, "candidate_id") << ", " << text(a, "state") << ")";
  if (a.contains("message") && !text(a, "message").empty()) out << "  (" << text(a, "message") << ")";
  out << "\n";
  return out.str();
}

}  // namespace kbv::control
