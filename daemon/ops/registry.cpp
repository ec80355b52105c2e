// daemon/ops/registry.cpp — the table of primitive ops, looked up by the names problem specs use:
// one entry per op folder under daemon/ops/, from the op list ops.cmake generates.
#include "ops/registry.hpp"

#include <stdexcept>
#include <string>

#define KBV_OP(OP_NAME) \
  namespace kbv::ops::OP_NAME { const ::kbv::Op& host_op(); }
#include "ops/op_list.inc"
#undef KBV_OP

namespace kbv {
namespace {

struct FolderOp {
  std::string_view folder;
  const Op& op;
};

std::vector<const Op*> collect_ops() {
  const FolderOp folder_ops[] = {
#define KBV_OP(OP_NAME) {#OP_NAME, ::kbv::ops::OP_NAME::host_op()},
#include "ops/op_list.inc"
#undef KBV_OP
  };
  std::vector<const Op*> ops;
  for (const FolderOp& entry : folder_ops) {
    // A problem spec names an op by its folder: a Definition named otherwise is a build mistake.
    if (entry.op.name() != entry.folder)
      throw std::logic_error("op folder daemon/ops/" + std::string(entry.folder) +
                             "/ defines an op named '" + std::string(entry.op.name()) +
                             "'; rename one so they agree");
    ops.push_back(&entry.op);
  }
  return ops;
}

}  // namespace

const std::vector<const Op*>& all_ops() {
  static const std::vector<const Op*> ops = collect_ops();
  return ops;
}

const Op* find_op(std::string_view name) {
  for (const Op* op : all_ops())
    if (op->name() == name) return op;
  return nullptr;
}

}  // namespace kbv
