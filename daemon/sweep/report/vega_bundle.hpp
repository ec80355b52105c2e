// sweep/report/vega_bundle.hpp — Vega 5 from Debian's libjs-vega, as one script to inline into
// report.html (the page works offline: no network, no CDN).
//
// Debian ships Vega as its separate modules (vega-util, vega-dataflow, …, each a UMD file), not
// the one-file bundle: the script defines each module through a small CommonJS shim in
// dependency order, then assembles `vega` (parse, View) and registers the transforms the
// plots use, as the upstream bundle does.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kbv::sweep::report {

// $KBV_VEGA_DIR, else /usr/share/javascript/vega (libjs-vega).
std::filesystem::path vega_directory();

// The script, or nullopt with `why_not` saying what is missing and how to install it.
std::optional<std::string> vega_script(std::string* why_not);

}  // namespace kbv::sweep::report
