// daemon/sweep/progress.cpp — progress bar and progress lines.
#include "sweep/progress.hpp"

#include "client/printable.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kbv::sweep {
namespace {

constexpr int kBarWidth = 30;

std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(std::max(0.0, seconds));
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60) : fmt::format("{:02}:{:02}", s / 60, s % 60);
}

}  // namespace

Progress::Progress(std::FILE* out, bool terminal, std::chrono::seconds line_interval)
    : out_(out), terminal_(terminal), line_interval_(line_interval) {}

void Progress::start(const std::string& what, int total, int already) {
  what_ = what;
  total_ = total;
  already_ = already;
  done_ = already;
  started_ = last_line_ = std::chrono::steady_clock::now();
  last_line_done_ = done_;
  if (terminal_) draw(true);
  else fmt::print(out_, "{}: {} evaluations, {} already have a verdict for this epoch\n", what_, total_, already_);
  std::fflush(out_);
}

void Progress::finished_one(const std::string& verdict) {
  ++done_;
  ++verdicts_[verdict];
  draw(false);
}

void Progress::note(const std::string& line) {
  if (terminal_ && bar_drawn_) fmt::print(out_, "\r\033[K");
  fmt::print(out_, "{}\n", control::printable(line));  // notes quote file names and manifests: the submitter's bytes
  bar_drawn_ = false;
  if (terminal_) draw(true);
  std::fflush(out_);
}

void Progress::finish(const std::string& summary) {
  draw(true);
  if (terminal_ && bar_drawn_) fmt::print(out_, "\n");
  bar_drawn_ = false;
  fmt::print(out_, "{}: {}\n", what_, summary);
  std::fflush(out_);
}

std::string Progress::status_text() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  std::string text = fmt::format("{}/{} done", done_, total_);
  std::string counts;
  for (const auto& [verdict, n] : verdicts_) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, verdict);
  // The verdicts counted are this run's: on a resumed sweep, `done` also holds the earlier ones.
  if (!counts.empty()) text += " (" + counts + (already_ > 0 ? " this run" : "") + ")";
  text += ", " + clock_text(elapsed) + " elapsed";
  const int evaluated = done_ - already_;
  if (evaluated > 0 && done_ < total_) text += ", about " + clock_text(elapsed / evaluated * (total_ - done_)) + " left";
  return text;
}

void Progress::draw(bool force) {
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    const int filled = total_ > 0 ? kBarWidth * done_ / total_ : kBarWidth;
    fmt::print(out_, "\r\033[K{} [{}{}] {}", what_, std::string(static_cast<std::size_t>(filled), '#'),
               std::string(static_cast<std::size_t>(kBarWidth - filled), '.'), status_text());
    bar_drawn_ = true;
  } else if (done_ != last_line_done_ && (force || now - last_line_ >= line_interval_ || done_ == total_)) {
    fmt::print(out_, "{}: {}\n", what_, status_text());
    last_line_ = now;
    last_line_done_ = done_;
  }
  std::fflush(out_);
}

}  // namespace kbv::sweep
