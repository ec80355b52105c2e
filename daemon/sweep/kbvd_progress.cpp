// daemon/sweep/kbvd_progress.cpp — the "sweep" control messages, rate-limited and best effort.
#include "sweep/kbvd_progress.hpp"

#include "client/control_client.hpp"
#include "sweep/report/report_builder.hpp"

namespace kbv::sweep {

using nlohmann::json;

KbvdProgress::KbvdProgress(std::filesystem::path socket, std::string sweep, std::uint64_t epoch, bool enabled)
    : socket_(std::move(socket)), sweep_(std::move(sweep)), epoch_(epoch), enabled_(enabled) {}

void KbvdProgress::running(std::size_t planned, std::size_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (!enabled_ || (last_sent_ != std::chrono::steady_clock::time_point{} && now - last_sent_ < kMinInterval)) return;
  last_sent_ = now;
  send({{"state", "running"}, {"planned", planned}, {"done", done}});
}

void KbvdProgress::finished(std::size_t planned, std::size_t done, const json* report) {
  if (!enabled_) return;
  json message = {{"state", "finished"}, {"planned", planned}, {"done", done}, {"complete", planned == done}};
  if (report && report->contains("headline")) {
    const auto& headline = (*report)["headline"];
    const json by_model = headline.value("fast_1", json::object());  // kept alive for the loop
    json fast_1 = json::object();
    for (const auto& [model, value] : by_model.items()) fast_1[report::model_label(model)] = value;
    message["headline"] = {{"baseline", headline.value("baseline", json(nullptr))}, {"fast_1", fast_1}, {"regressions", headline.value("regressions", 0)}};
  }
  send(message);
}

void KbvdProgress::send(json message) {
  message["cmd"] = "sweep";
  message["sweep"] = sweep_;
  message["epoch"] = epoch_;
  try {
    control::request(socket_, message);
  } catch (const std::exception&) {
    enabled_ = false;  // no kbvd there, or one that does not take sweep reports: metrics are optional
  }
}

}  // namespace kbv::sweep
