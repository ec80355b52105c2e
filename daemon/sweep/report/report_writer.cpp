// daemon/sweep/report/report_writer.cpp — the four report files, written whole.
#include "sweep/report/report_writer.hpp"

#include "client/json_dump.hpp"
#include "io/whole_file.hpp"
#include "sweep/report/report_csv.hpp"
#include "sweep/report/report_html.hpp"
#include "sweep/report/report_markdown.hpp"
#include "sweep/sweep_folder.hpp"

namespace kbv::sweep::report {

WrittenReport write_report_files(const nlohmann::json& report, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  const auto page = report_html(report);
  io::write_file_whole(folder / "report.json", control::json_dump(report, 1) + "\n");
  io::write_file_whole(folder / "results.csv", report_csv(report));
  io::write_file_whole(folder / "report.md", report_markdown(report));
  io::write_file_whole(folder / "report.html", page.html);
  return {page.plots, page.vega_error};
}

}  // namespace kbv::sweep::report
