// sweep/progress.hpp — a sweep's progress on stderr: a bar redrawn in place on a terminal, plain
// lines (at most one per interval, and at the end) otherwise, e.g. under systemd or in CI logs.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

namespace kbv::sweep {

class Progress {
 public:
  // `terminal`: redraw a bar (isatty); otherwise print a line at most every `line_interval`.
  Progress(std::FILE* out, bool terminal, std::chrono::seconds line_interval = std::chrono::seconds(10));

  // `total` evaluations planned for this run, `already` of them with a verdict before it started.
  void start(const std::string& what, int total, int already);
  void finished_one(const std::string& verdict);
  void note(const std::string& line);  // a message that must not be overdrawn by the bar
  void finish(const std::string& summary);

  int done() const { return done_; }
  int total() const { return total_; }
  const std::map<std::string, int>& verdicts() const { return verdicts_; }

 private:
  void draw(bool force);
  std::string status_text() const;

  std::FILE* out_;
  bool terminal_;
  std::chrono::seconds line_interval_;
  std::string what_;
  int total_ = 0, done_ = 0, already_ = 0;
  std::map<std::string, int> verdicts_;
  std::chrono::steady_clock::time_point started_, last_line_;
  bool bar_drawn_ = false;
  int last_line_done_ = -1;  // done_ when the last plain line was printed
};

}  // namespace kbv::sweep
