// tests/sweep/chromium_page.cpp — run headless Chromium on a file and collect its DOM and log.
#include "chromium_page.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "sweep_test_files.hpp"

namespace kbv::sweep::test {
namespace {

namespace fs = std::filesystem;

// Virtual time the page gets before its DOM is dumped: Vega renders a report's plots in well
// under a second of it; the margin covers a loaded CI machine.
constexpr int kVirtualTimeBudgetMs = 20000;
// Wall-clock cap on the browser (coreutils timeout).
constexpr int kBrowserTimeoutS = 120;

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

fs::path chromium_binary() {
  if (const char* env = std::getenv("KBV_CHROMIUM"); env && *env) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    for (const char* name : {"chromium", "chromium-browser"})
      if (std::error_code error; fs::exists(fs::path(dir) / name, error)) return fs::path(dir) / name;
  return {};
}

RenderedPage render_page(const fs::path& html) {
  RenderedPage page;
  const auto browser = chromium_binary();
  if (browser.empty()) return page;
  page.browser_found = true;
  TempFolder profile;
  const auto dom_file = profile.path() / "dom.html";
  const auto log_file = profile.path() / "browser.log";
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start; the page is
  // kbv's own report, opened from a file, with no network.
  const std::string command = "timeout " + std::to_string(kBrowserTimeoutS) + " " + quoted(browser.string()) +
                              " --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions"
                              " --enable-logging=stderr --v=0 --user-data-dir=" + quoted((profile.path() / "profile").string()) +
                              " --virtual-time-budget=" + std::to_string(kVirtualTimeBudgetMs) +
                              " --dump-dom " + quoted("file://" + fs::absolute(html).string()) +
                              " > " + quoted(dom_file.string()) + " 2> " + quoted(log_file.string());
  const int status = std::system(command.c_str());
  page.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  page.dom = read_text(dom_file);
  std::stringstream log(read_text(log_file));
  for (std::string line; std::getline(log, line);) (line.find("CONSOLE") != std::string::npos ? page.console : page.browser_log) += line + "\n";
  return page;
}

std::string body_attribute(const std::string& dom, const std::string& name) {
  const auto body = dom.find("<body");
  if (body == std::string::npos) return "";
  const auto end = dom.find('>', body);
  const auto tag = dom.substr(body, end - body);
  const auto at = tag.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  return tag.substr(start, tag.find('"', start) - start);
}

int occurrences(const std::string& text, const std::string& needle) {
  int count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

}  // namespace kbv::sweep::test
