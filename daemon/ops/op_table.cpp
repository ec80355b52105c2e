// daemon/ops/op_table.cpp — the op table from each op's descriptor (Op::doc() and its attributes).
#include "ops/op_table.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "ops/registry.hpp"

namespace kbv {
namespace {

// Six significant digits, exponents without padding: 0.01, -1, 1e-5.
std::string number(double value) {
  std::ostringstream out;
  out << value;
  std::string text = out.str();
  const size_t e = text.find('e');
  if (e != std::string::npos) {
    size_t digits = e + 2;  // past 'e' and the sign
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
    if (text[e + 1] == '+') text.erase(e + 1, 1);
  }
  return text;
}

std::string_view precision_name(PrecisionClass precision) {
  switch (precision) {
    case PrecisionClass::exact: return "exact";
    case PrecisionClass::tensor_core: return "tensor_core";
    case PrecisionClass::index: return "index";
  }
  return "unknown";
}

std::vector<const Op*> table_order() {
  std::vector<const Op*> ops = all_ops();
  std::stable_sort(ops.begin(), ops.end(), [](const Op* a, const Op* b) {
    if (a->doc().category != b->doc().category) return a->doc().category < b->doc().category;
    return a->name() < b->name();
  });
  return ops;
}

std::string attributes_text(const Op& op, bool markdown) {
  std::string text;
  for (const OpAttribute& attribute : op.doc().attributes) {
    const std::string name(attribute.name);
    if (!text.empty()) text += ", ";
    text += markdown ? "`" + name + "`" : name;
    text += " (" + number(attribute.default_value) + ")";
  }
  return text.empty() ? "—" : text;
}

}  // namespace

std::string op_table_markdown() {
  std::string table =
      "| op | inputs | attributes (defaults) | computes | precision | FLOPs counted (lower bound) |\n"
      "|---|---|---|---|---|---|\n";
  for (const Op* op : table_order()) {
    const OpDoc doc = op->doc();
    std::string computes = "`" + std::string(doc.pytorch) + "`";
    if (!doc.semantics.empty()) computes += "; " + std::string(doc.semantics);
    table += "| `" + std::string(op->name()) + "` | " + std::string(doc.inputs) + " | " +
             attributes_text(*op, true) + " | " + computes + " | " +
             std::string(precision_name(op->precision_class())) + " | " +
             std::string(doc.flops_rule) + " |\n";
  }
  return table;
}

std::string op_table_text() {
  std::string table;
  char line[512];
  std::snprintf(line, sizeof line, "%-12s %-48s %-12s %s\n", "op", "inputs", "precision",
                "attributes (defaults)");
  table += line;
  for (const Op* op : table_order()) {
    const OpDoc doc = op->doc();
    std::snprintf(line, sizeof line, "%-12s %-48s %-12s %s\n", std::string(op->name()).c_str(),
                  std::string(doc.inputs).c_str(),
                  std::string(precision_name(op->precision_class())).c_str(),
                  attributes_text(*op, false).c_str());
    table += line;
  }
  return table;
}

}  // namespace kbv
