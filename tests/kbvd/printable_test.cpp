// tests/kbvd/printable_test.cpp — tests of the escaping of untrusted text for logs, terminals and
// tables.
#include <gtest/gtest.h>

#include "client/printable.hpp"

namespace kbv::control {
namespace {

TEST(Printable, OneLineNoControlsValidUtf8) {
  EXPECT_EQ(printable("plain name.so"), "plain name.so");
  EXPECT_EQ(printable("forged.so\n2026-01-01 info: slot host: x.so -> pass"),
            "forged.so\\n2026-01-01 info: slot host: x.so -> pass");
  EXPECT_EQ(printable("a\rb\tc\\d"), "a\\rb\\tc\\\\d");
  EXPECT_EQ(printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(printable("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93") << "UTF-8 stays readable";
  EXPECT_EQ(printable("bad \xff\xc3"), "bad \\xff\\xc3");
  EXPECT_EQ(printable("\xc2\x9b" "C1"), "\\xc2\\x9bC1") << "C1 controls (CSI) are escaped too";
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "no surrogates";
}

}  // namespace
}  // namespace kbv::control
