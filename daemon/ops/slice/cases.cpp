// daemon/ops/slice/cases.cpp — slice's test cases (ops/op_cases.hpp): a stepped middle axis, a
// trailing window counted from the end, a run of rows at an offset (a rank-1 copy from an
// offset) and the first rows (the CUDA baseline's cudaMemcpyAsync).
#include "ops/op_cases.hpp"

namespace kbv::ops::slice {

OpCases cases() {
  OpCases cases;
  cases.samples = {{"stepped", {{6, 40, 7}}, {{"axis", 1}, {"start", 3}, {"end", -5}, {"step", 3}}},
                   {"tail", {{30, 50}}, {{"axis", -1}, {"start", -20}}},
                   {"rows", {{20, 30}}, {{"start", 2}, {"end", 12}}},
                   {"head", {{20, 30}}, {{"end", 5}}}};
  cases.shapes = {{{{10}}, {{"start", 2}, {"end", 8}, {"step", 3}}, {2}},
                  {{{10}}, {{"start", -3}}, {3}},
                  {{{10}}, {{"end", 100}}, {10}},                // clamped, as Python slicing
                  {{{10}}, {{"start", -100}, {"end", 3}}, {3}},  // clamped to the start
                  {{{4, 10}}, {{"axis", 1}, {"end", -1}}, {4, 9}},
                  // A step past the selection: its first element only (and no stride overflow).
                  {{{4, 1048576}}, {{"axis", 0}, {"step", 9007199254740992.0}}, {1, 1048576}}};
  cases.rejects = {{{{10}}, {{"start", 5}, {"end", 5}}, "select no element of axis 0"},
                   {{{10}}, {{"start", 10}}, "select no element"},
                   {{{10}}, {{"start", 1}, {"step", 0}}, "expected an integer >= 1"},
                   {{{10}}, {{"axis", 1}}, "expected an axis in [-1, 0]"}};
  cases.costs = {{{{16, 4096}}, {{"axis", 1}, {"end", 2048}}, 0}};
  // From PyTorch: torch.arange(10.)[1:-2:3] and torch.arange(1, 13.).reshape(3, 4)[:, -2:].
  cases.values = {{"1:-2:3 of 0..9",
                   {{10}},
                   {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
                   {{"start", 1}, {"end", -2}, {"step", 3}},
                   {1, 4, 7}},
                  {"the last two columns",
                   {{3, 4}},
                   {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
                   {{"axis", 1}, {"start", -2}},
                   {3, 4, 7, 8, 11, 12}}};
  return cases;
}

}  // namespace kbv::ops::slice
