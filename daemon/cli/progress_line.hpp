// cli/progress_line.hpp — one self-erasing status line on stderr ("[2/5] evaluating foo.so"),
// shown only on a terminal unless asked for, and erased before any result is printed.
#pragma once

#include <string>

namespace kbv::cli {

class ProgressLine {
 public:
  enum class Mode { automatic, always, never };
  explicit ProgressLine(Mode mode);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void show(const std::string& text);
  void clear();

 private:
  bool enabled_ = false;
  bool shown_ = false;
};

// "auto", "always" or "never" into `mode`; false for anything else.
bool parse_progress_mode(const std::string& text, ProgressLine::Mode& mode);

}  // namespace kbv::cli
