// lifetime/remove_tree.hpp — remove a folder a candidate wrote into, whatever it built there:
// nesting deeper than the open-file limit (std::filesystem::remove_all holds a descriptor per
// level and gave up, silently, under a 3000-deep tree with 1024 descriptors: red-team deep_tree),
// folders it made unreadable or unwritable, symbolic links (removed, never followed).
#pragma once

#include <filesystem>
#include <string>

namespace kbv::lifetime {

// Removes `root` and everything below it with two descriptors open at a time. True when it is
// gone (or was never there); false with *why naming what stayed.
bool remove_tree(const std::filesystem::path& root, std::string* why = nullptr);

}  // namespace kbv::lifetime
