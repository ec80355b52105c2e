// tests/unit/typed_problem.hpp — a problem with one input of each dtype (float32 logits, int64
// class targets whose range is a shape-set symbol, a bool mask) for the loader and data-plane tests.
#pragma once

namespace kbv::test {

inline const char* kTypedProblem = R"(name: typed
level: 1
inputs:
  - {name: logits, shape: [batch, classes]}
  - {name: targets, shape: [batch], dtype: int64, range: {low: 0, high: classes}}
  - {name: mask, shape: [batch, classes], dtype: bool}
outputs:
  - {name: loss, shape: []}
  - {name: masked, shape: [batch, classes]}
graph:
  - {name: ce, op: cross_entropy, inputs: [logits, targets], output: loss}
  - {name: apply, op: mul, inputs: [logits, mask], output: masked}
shapes:
  default: {batch: 8, classes: 5}
  small: {batch: 2, classes: 3}
)";

}  // namespace kbv::test
