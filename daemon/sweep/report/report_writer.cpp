// daemon/sweep/report/report_writer.cpp — the four report files, written whole.
#include "sweep/report/report_writer.hpp"

#include "sweep/report/report_csv.hpp"
#include "sweep/report/report_html.hpp"
#include "sweep/report/report_markdown.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep::report {

WrittenReport write_report_files(const nlohmann::json& report, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const auto page = report_html(report);
  write_file_atomically(folder / "report.json", report.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  write_file_atomically(folder / "results.csv", report_csv(report));
  write_file_atomically(folder / "report.md", report_markdown(report));
  write_file_atomically(folder / "report.html", page.html);
  return {page.plots, page.vega_error};
}

}  // namespace kbv::sweep::report
