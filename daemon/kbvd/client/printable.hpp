// client/printable.hpp — untrusted text (file names, manifest fields, a candidate's stderr) made
// safe for a log line, a terminal or a table: one line, no control characters, valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace kbv::control {

// Escapes backslash, \n \r \t, other control characters and DEL as \xNN, and bytes that are not
// valid UTF-8 as \xNN; printable UTF-8 passes unchanged. A newline in a file name can then not
// forge a log line, and an escape sequence cannot drive the terminal.
std::string printable(std::string_view text);

// Whether `text` is valid UTF-8 with no control character (what printable() leaves as it is,
// backslashes aside).
bool is_printable_utf8(std::string_view text);

}  // namespace kbv::control

namespace kbv::kbvd {
using kbv::control::printable;
}  // namespace kbv::kbvd
