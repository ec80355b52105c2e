// tests/sweep/chromium_page.hpp — open a page in headless Chromium (Debian's `chromium`) and
// report what its scripts left in the DOM and what they logged to the console.
#pragma once

#include <filesystem>
#include <string>

namespace kbv::sweep::test {

struct RenderedPage {
  bool browser_found = false;
  std::string dom;          // the DOM after the page's scripts ran (--dump-dom)
  std::string console;      // console lines Chromium logged (each "...CONSOLE(...)...")
  std::string browser_log;  // everything else Chromium printed, for failure messages
  int exit_status = -1;
};

// $KBV_CHROMIUM, else `chromium` or `chromium-browser` on PATH; empty when none is found.
std::filesystem::path chromium_binary();

RenderedPage render_page(const std::filesystem::path& html);

// The value of attribute `name` of the page's <body>, or "" when absent.
std::string body_attribute(const std::string& dom, const std::string& name);

// How often `needle` occurs in `text`.
int occurrences(const std::string& text, const std::string& needle);

}  // namespace kbv::sweep::test
