// client/printable.cpp — escaping of untrusted text (see printable.hpp).
#include "client/printable.hpp"

#include <cstdint>
#include <cstdio>

namespace kbv::control {
namespace {

// Length of the valid UTF-8 sequence starting at text[at] (no overlongs, no surrogates, at most
// U+10FFFF), or 0.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  std::size_t length = 0;
  std::uint32_t min = 0, code = 0;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2, min = 0x80, code = lead & 0x1fu;
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, min = 0x800, code = lead & 0x0fu;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, min = 0x10000, code = lead & 0x07u;
  else return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(at + i) & 0x3fu);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  // C1 controls (U+0080..U+009F) drive some terminals too.
  if (code >= 0x80 && code <= 0x9f) return 0;
  return length;
}

}  // namespace

bool is_printable_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text, i) : 0; n > 0) {
      i += n;
    } else {
      return false;
    }
  }
  return true;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
    ++i;
  }
  return out;
}

}  // namespace kbv::control
