// ops/registry.hpp — lookup of primitive ops by the name used in problem specs.
#pragma once

#include <string_view>
#include <vector>

#include "ops/op.hpp"

namespace kbv {

// The op named `name`, or nullptr when there is none.
const Op* find_op(std::string_view name);

// Every registered op, in a stable order (for docs and error messages).
const std::vector<const Op*>& all_ops();

}  // namespace kbv
