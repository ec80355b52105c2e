// data/family_dispatch.hpp — runs a launch with the input family as a compile-time constant, so
// that each family's draw is a kernel of its own: inputs::generate_element's switch folds away and
// the family's code alone sets the kernel's registers (one kernel for every family took 88 to 96,
// holding an SM to two blocks of 256: H100, r51).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "inputs/families.hpp"

namespace kbv::cuda {

namespace family_dispatch_detail {
template <class Launch, uint32_t... kFamilies>
bool launch_each(inputs::Family family, Launch& launch, std::integer_sequence<uint32_t, kFamilies...>) {
  return ((static_cast<uint32_t>(family) == kFamilies &&
           (launch(std::integral_constant<inputs::Family, static_cast<inputs::Family>(kFamilies)>{}), true)) ||
          ...);
}
}  // namespace family_dispatch_detail

// Calls launch(std::integral_constant<inputs::Family, family>{}); throws std::invalid_argument
// naming `what` for a value that is none of kbv's families.
template <class Launch>
void launch_for_family(inputs::Family family, Launch&& launch, const char* what) {
  if (!family_dispatch_detail::launch_each(family, launch, std::make_integer_sequence<uint32_t, inputs::kFamilyCount>{}))
    throw std::invalid_argument(std::string(what) + ": family " + std::to_string(static_cast<uint32_t>(family)) + " is not one of kbv's");
}

}  // namespace kbv::cuda
