// cli/pytorch_forward.cpp — substitute a node's tensors and attributes into its op's pytorch form.
#include "cli/pytorch_forward.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "cli/generated_code.hpp"
#include "ops/registry.hpp"

namespace kbv::cli {

namespace {

// PyTorch's parameters of type bool that kbv ops carry as 0/1 attributes under the same name
// (torch.sum's keepdim, max_pool2d's ceil_mode, avg_pool2d's count_include_pad, sdpa's
// is_causal, kl_div's log_target, triplet_margin_loss's swap): torch's argument parser refuses
// an int for them.
constexpr std::string_view kTorchBoolParameters[] = {"keepdim", "ceil_mode", "count_include_pad", "is_causal", "log_target", "swap"};

// Largest integer a double holds exactly (2^53): whole values up to it print as ints.
constexpr double kLargestExactInteger = 9007199254740992.0;

// One input of an op's signature ("weight[O,C/groups,KH,KW]?" -> weight, optional).
struct SignatureInput {
  std::string name;
  bool optional = false;
  bool variadic = false;  // "xs..." or "x0, x1, …": every remaining tensor
};

// The pytorch form's spelling of "and the rest" after a variadic signature's last named input
// (cat's "torch.cat([x0, x1, ...], dim=axis)"): dropped once that input takes every remaining tensor.
constexpr std::string_view kFormEllipsis = ", ...]";

std::vector<SignatureInput> parse_signature(std::string_view inputs) {
  std::vector<SignatureInput> parsed;
  int depth = 0;
  std::string item;
  auto finish = [&] {
    SignatureInput input;
    size_t i = item.find_first_not_of(' ');
    while (i < item.size() && (std::isalnum(static_cast<unsigned char>(item[i])) || item[i] == '_')) input.name += item[i++];
    const size_t last = item.find_last_not_of(' ');
    input.optional = last != std::string::npos && item[last] == '?';
    input.variadic = item.find("...", i) == i;
    // "x0, x1, … (2 to 64)": a trailing ellipsis item makes the input before it take the rest.
    const size_t first = item.find_first_not_of(' ');
    const bool ellipsis_item = first != std::string::npos && (item.compare(first, 3, "…") == 0 || item.compare(first, 3, "...") == 0);
    if (input.name.empty() && ellipsis_item && !parsed.empty()) parsed.back().variadic = true;
    if (!input.name.empty()) parsed.push_back(input);
    item.clear();
  };
  for (const char c : inputs) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) finish();
    else item += c;
  }
  finish();
  return parsed;
}

bool is_bool_parameter(std::string_view name) {
  return std::find(std::begin(kTorchBoolParameters), std::end(kTorchBoolParameters), name) != std::end(kTorchBoolParameters);
}

// An attribute value as a Python literal that reads as one operand wherever it is put.
std::string python_literal(const std::string& name, double value) {
  if (is_bool_parameter(name)) return value != 0 ? "True" : "False";
  if (std::isnan(value)) return "float('nan')";
  if (std::isinf(value)) return value > 0 ? "float('inf')" : "float('-inf')";
  std::string text;
  if (value == std::trunc(value) && std::fabs(value) <= kLargestExactInteger) {
    text = std::to_string(static_cast<long long>(value));
  } else {
    text = shortest_decimal(value);
  }
  return value < 0 ? "(" + text + ")" : text;
}

// Per-axis overrides of a scalar attribute, in PyTorch's tuple order: `stride_d`, `stride_h`,
// `stride_w` beside `stride` (convolutions and pools; −1, the default, keeps the scalar's value).
constexpr std::string_view kPerAxisSuffixes[] = {"_d", "_h", "_w"};
constexpr double kUseScalarValue = -1;

// The Python text of attribute `name` of `attrs`: its literal, or, where a per-axis override
// differs from it, the tuple of every axis' value ("(1, 2)" for stride 1 and stride_w 2).
std::string attribute_text(const std::string& name, const Attrs& attrs) {
  const double scalar = attrs.at(name);
  std::vector<double> axes;
  bool overridden = false;
  for (std::string_view suffix : kPerAxisSuffixes) {
    const auto axis = attrs.find(name + std::string(suffix));
    if (axis == attrs.end()) continue;
    const bool overrides = axis->second != kUseScalarValue;
    axes.push_back(overrides ? axis->second : scalar);
    overridden = overridden || (overrides && axis->second != scalar);
  }
  if (!overridden) return python_literal(name, scalar);
  std::string tuple;
  for (const double value : axes) tuple += (tuple.empty() ? "" : ", ") + python_literal(name, value);
  return "(" + tuple + ")";
}

enum class TokenKind { identifier, number, text };
struct Token {
  TokenKind kind;
  std::string text;
};

// Python source as identifiers, numbers, string literals and single other characters (spaces
// included), so that joining the texts gives the source back.
std::vector<Token> tokenize(std::string_view source) {
  std::vector<Token> tokens;
  size_t i = 0;
  auto word = [&](auto accept) {
    const size_t start = i;
    while (i < source.size() && accept(source[i], source.substr(start, i - start))) ++i;
    return std::string(source.substr(start, i - start));
  };
  while (i < source.size()) {
    const unsigned char c = static_cast<unsigned char>(source[i]);
    if (std::isalpha(c) || c == '_') {
      tokens.push_back({TokenKind::identifier, word([](char x, std::string_view) { return std::isalnum(static_cast<unsigned char>(x)) || x == '_'; })});
    } else if (std::isdigit(c)) {
      tokens.push_back({TokenKind::number, word([](char x, std::string_view so_far) {
                          const char previous = so_far.empty() ? ' ' : so_far.back();
                          return std::isalnum(static_cast<unsigned char>(x)) || x == '.' || ((x == '-' || x == '+') && (previous == 'e' || previous == 'E'));
                        })});
    } else if (c == '\'' || c == '"') {
      const size_t close = source.find(static_cast<char>(c), i + 1);
      const size_t end = close == std::string_view::npos ? source.size() : close + 1;
      tokens.push_back({TokenKind::text, std::string(source.substr(i, end - i))});
      i = end;
    } else {
      tokens.push_back({TokenKind::text, std::string(1, static_cast<char>(c))});
      ++i;
    }
  }
  return tokens;
}

// True when the identifier at `index` follows a '.': an attribute access such as x.shape.
bool is_member(const std::vector<Token>& tokens, size_t index) {
  for (size_t i = index; i-- > 0;) {
    if (tokens[i].text == " ") continue;
    return tokens[i].text == ".";
  }
  return false;
}

// True when the identifier at `index` is a keyword argument's name: `dim` in dim=axis.
bool is_keyword_name(const std::vector<Token>& tokens, size_t index) {
  for (size_t i = index + 1; i < tokens.size(); ++i) {
    if (tokens[i].text == " ") continue;
    return tokens[i].text == "=" && !(i + 1 < tokens.size() && tokens[i + 1].text == "=");
  }
  return false;
}

// A literal's value as Python's `or` sees it: nullopt when the text is no plain number or None.
std::optional<bool> literal_truth(const std::string& text) {
  if (text == "None") return false;  // slice's `end or None`
  std::string_view body = text;
  if (body.size() > 2 && body.front() == '(' && body.back() == ')') body = body.substr(1, body.size() - 2);
  double value = 0;
  const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (error != std::errc() || end != body.data() + body.size()) return std::nullopt;
  return value != 0;
}

// The index of the nearest part before (direction -1) or after (+1) `index` that is not blank.
std::optional<size_t> solid_neighbour(const std::vector<std::string>& parts, size_t index, int direction) {
  for (long i = static_cast<long>(index) + direction; i >= 0 && i < static_cast<long>(parts.size()); i += direction)
    if (!parts[static_cast<size_t>(i)].empty() && parts[static_cast<size_t>(i)] != " ") return static_cast<size_t>(i);
  return std::nullopt;
}

// Folds `A or B` between two numbers, each side delimited by , ( ) or the form's ends, to the
// one Python picks ("4, 0 or 4, 1" -> "4, 4, 1"). `parts` are the substituted tokens; `is_or`
// marks the form's own `or` keywords.
void fold_number_or(std::vector<std::string>& parts, const std::vector<bool>& is_or) {
  auto delimiter = [&](std::optional<size_t> i, const char* allowed) {
    return !i || (parts[*i].size() == 1 && std::string_view(allowed).find(parts[*i]) != std::string_view::npos);
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!is_or[i]) continue;
    const auto a = solid_neighbour(parts, i, -1), b = solid_neighbour(parts, i, +1);
    if (!a || !b || !delimiter(solid_neighbour(parts, *a, -1), ",(") || !delimiter(solid_neighbour(parts, *b, +1), ",)")) continue;
    const auto truth_a = literal_truth(parts[*a]), truth_b = literal_truth(parts[*b]);
    if (!truth_a || !truth_b) continue;
    const std::string chosen = *truth_a ? parts[*a] : parts[*b];
    for (size_t j = *a; j <= *b; ++j) parts[j].clear();
    parts[*a] = chosen;
  }
}

// A reduction's axis range as the descriptor writes it, "[A, …, A + C − 1]" once A and C are
// numbers (sum, mean, amax, …: dim=[axis, …, axis + count − 1]), as Python: A alone when C is 1
// (torch's int dim), else the list [A, A + 1, …].
std::string fold_axis_range(const std::string& expression) {
  static const std::regex range(R"(\[(-?[0-9]+), …, (-?[0-9]+) \+ ([0-9]+) − 1\])");
  std::string folded;
  auto from = expression.cbegin();
  for (std::sregex_iterator it(expression.begin(), expression.end(), range), end; it != end; ++it) {
    const std::smatch& match = *it;
    folded.append(from, match[0].first);
    const long first = std::stol(match[1].str()), count = std::stol(match[3].str());
    if (count == 1) {
      folded += std::to_string(first);
    } else {
      folded += "[";
      for (long i = 0; i < count; ++i) folded += (i ? ", " : "") + std::to_string(first + i);
      folded += "]";
    }
    from = match[0].second;
  }
  folded.append(from, expression.cend());
  return folded;
}

// A form that holds a conditional on attribute values ("(size, -1) if size > 0 else (-1, -size)"),
// once substituted, compares two numbers: each such conditional becomes the branch Python would
// take, so the prompt reads as plain code. A branch is a parenthesised group or a call just
// before ` if ` and an expression up to the enclosing bracket or comma after ` else `;
// a conditional on anything but two numbers is left as it is.
std::string fold_conditionals(std::string expression) {
  static const std::regex condition(
      R"(^ if (\(?-?[0-9.e+]+\)?|float\('-?inf'\)) (==|>) (\(?-?[0-9.e+]+\)?|float\('-?inf'\)) else )");
  auto number = [](std::string text) -> std::optional<double> {
    // python_literal writes an infinite attribute (tril's fill) as float('inf') or float('-inf').
    if (text == "float('inf')") return std::numeric_limits<double>::infinity();
    if (text == "float('-inf')") return -std::numeric_limits<double>::infinity();
    if (text.size() > 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
  };
  for (size_t at = expression.find(" if "); at != std::string::npos; at = expression.find(" if ", at + 1)) {
    std::smatch match;
    const std::string rest = expression.substr(at);
    if (!std::regex_search(rest, match, condition)) continue;
    const auto left = number(match[1].str()), right = number(match[3].str());
    if (!left || !right || at == 0 || expression[at - 1] != ')') continue;
    // The true branch: back to the '(' that closes before ` if `, then over a callee's name.
    size_t begin = at - 1;
    for (int depth = 0;; --begin) {
      depth += expression[begin] == ')' ? 1 : expression[begin] == '(' ? -1 : 0;
      if (depth == 0 || begin == 0) break;
    }
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(expression[begin - 1])) || expression[begin - 1] == '_' || expression[begin - 1] == '.'))
      --begin;
    // The false branch: up to a bracket or comma that closes the context, or the end.
    const size_t other = at + static_cast<size_t>(match.length(0));
    size_t stop = other;
    for (int depth = 0; stop < expression.size(); ++stop) {
      const char c = expression[stop];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') {
        if (depth == 0) break;
        --depth;
      }
      if (c == ',' && depth == 0) break;
    }
    const bool taken = match[2].str() == "==" ? *left == *right : *left > *right;
    const std::string chosen = taken ? expression.substr(begin, at - begin) : expression.substr(other, stop - other);
    expression = expression.substr(0, begin) + chosen + expression.substr(stop);
    at = begin;
  }
  return expression;
}

// Negative literals that python_literal parenthesised for use as operands, where they stand
// alone in a tuple or an argument list ("((-100), -1)" -> "(-100, -1)"), and a negated negative
// ("-(-100)" -> "100").
std::string tidy_negative_literals(std::string expression) {
  static const std::regex negated(R"(-\((-)([0-9.e+]+)\))");
  static const std::regex standalone(R"(([(\[,] ?)\((-[0-9.e+]+)\)(?=[,)\]]))");
  expression = std::regex_replace(expression, negated, "$2");
  return std::regex_replace(expression, standalone, "$1$2");
}

}  // namespace

std::string pytorch_expression(const Node& node) {
  const Op* op = find_op(node.op);
  if (!op) throw std::invalid_argument("node '" + node.name + "': kbv has no op '" + node.op + "' (kbv problems --ops lists them)");
  const OpDoc doc = op->doc();
  if (doc.pytorch.empty())
    throw std::invalid_argument("op '" + node.op + "' has no pytorch form (fix: set Definition::pytorch in daemon/ops/" + node.op + "/)");
  // Each signature input's Python text.
  std::map<std::string, std::string> tensors;
  const std::vector<SignatureInput> signature = parse_signature(doc.inputs);
  size_t next = 0;
  for (const SignatureInput& input : signature) {
    std::string text;
    if (input.variadic) {
      for (; next < node.inputs.size(); ++next) text += (text.empty() ? "" : ", ") + python_identifier(node.inputs[next]);
    } else if (next < node.inputs.size()) {
      text = python_identifier(node.inputs[next++]);
    } else {
      text = "None";
    }
    tensors[input.name] = text;
  }
  // Substitute, keeping attribute access and keyword names.
  std::string form(doc.pytorch);
  const bool absorbs_rest = !signature.empty() && signature.back().variadic;
  if (const size_t ellipsis = form.find(kFormEllipsis); absorbs_rest && ellipsis != std::string::npos)
    form.replace(ellipsis, kFormEllipsis.size(), "]");
  const std::vector<Token> tokens = tokenize(form);
  std::vector<std::string> parts;
  std::vector<bool> is_or;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    std::string text = token.text;
    if (token.kind == TokenKind::identifier && !is_member(tokens, i) && !is_keyword_name(tokens, i)) {
      if (const auto tensor = tensors.find(token.text); tensor != tensors.end()) text = tensor->second;
      else if (node.attrs.count(token.text)) text = attribute_text(token.text, node.attrs);
    }
    parts.push_back(text);
    is_or.push_back(token.kind == TokenKind::identifier && token.text == "or");
  }
  fold_number_or(parts, is_or);
  std::string expression;
  for (const std::string& part : parts) expression += part;
  return tidy_negative_literals(fold_conditionals(fold_axis_range(expression)));
}

std::string pytorch_forward(const Problem& problem) {
  std::string arguments;
  for (const TensorDecl& input : problem.inputs) arguments += ", " + python_identifier(input.name);
  std::string text =
      "import torch\n\n\n"
      "class Model(torch.nn.Module):\n"
      "    def forward(self" + arguments + "):\n";
  for (const Node& node : problem.graph)
    text += "        " + python_identifier(node.output) + " = " + pytorch_expression(node) + "  # node " + node.name + " (" + node.op + ")\n";
  std::string outputs;
  for (const TensorDecl& output : problem.outputs) outputs += (outputs.empty() ? "" : ", ") + python_identifier(output.name);
  text += "        return " + outputs + "\n";
  return text;
}

}  // namespace kbv::cli
