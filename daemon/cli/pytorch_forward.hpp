// cli/pytorch_forward.hpp — a problem's graph as a PyTorch module, for `kbv prompt`: one line per
// node, each its op's `pytorch` form (ops/<name>/<name>.hpp, Definition::pytorch) with the node's
// tensors and attribute values put in.
//
// The forms are Python expressions over the op's input names (OpDoc::inputs, "x, weight?,
// bias?") and attribute names. In a form, an identifier that names one of the op's inputs becomes
// the node's tensor (None for an optional input the node leaves out; an input spelled "xs..."
// takes every remaining tensor, comma-separated), one that names an attribute becomes its value,
// and everything else stays: attribute access (`x.shape`), keyword names (`dim=`), torch. A
// whole-valued attribute is an int, ±inf and NaN are float('inf') and float('nan'), a negative
// value is parenthesised (`x ** (-1)`), and an attribute named like one of PyTorch's bool
// parameters (keepdim, ceil_mode, count_include_pad) is True or False, since torch refuses an int
// there. `A or B` between two numbers, the form's spelling of "stride 0 means the kernel", is
// folded to the number Python would pick.
#pragma once

#include <string>

#include "spec/problem.hpp"

namespace kbv::cli {

// "import torch\n\n\nclass Model(torch.nn.Module):\n    def forward(self, <inputs>):\n ...
// return <outputs>\n": the inputs in the problem's order (parameters too: they are forward()
// arguments here), one assignment per node. Throws std::invalid_argument when a node's op is
// unknown or has no pytorch form.
std::string pytorch_forward(const Problem& problem);

// One node's right-hand side, e.g. "torch.softmax(t0, dim=1)".
std::string pytorch_expression(const Node& node);

}  // namespace kbv::cli
