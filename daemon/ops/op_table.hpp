// ops/op_table.hpp — the op table, generated from the registry: docs/problem-spec.md carries
// the markdown form (tests/ops/op_table_test.cpp keeps it current) and `kbv problems --ops
// [--markdown]` prints it.
#pragma once

#include <string>

namespace kbv {

// One row per op, ordered by category (unary, binary, axis, normalization, product, window,
// layout) and name: | op | inputs | attributes (defaults) | computes | precision | FLOPs
// counted |.
std::string op_table_markdown();

// The same ops as aligned plain text: name, inputs, precision, attributes with defaults.
std::string op_table_text();

}  // namespace kbv
