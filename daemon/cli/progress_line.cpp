// cli/progress_line.cpp — the status line: carriage return, text, erase to the end of the line.
#include "cli/progress_line.hpp"

#include <unistd.h>

#include <cstdio>

namespace kbv::cli {

ProgressLine::ProgressLine(Mode mode)
    : enabled_(mode == Mode::always || (mode == Mode::automatic && ::isatty(STDERR_FILENO) == 1)) {}

void ProgressLine::show(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

bool parse_progress_mode(const std::string& text, ProgressLine::Mode& mode) {
  if (text == "auto") mode = ProgressLine::Mode::automatic;
  else if (text == "always") mode = ProgressLine::Mode::always;
  else if (text == "never") mode = ProgressLine::Mode::never;
  else return false;
  return true;
}

}  // namespace kbv::cli
