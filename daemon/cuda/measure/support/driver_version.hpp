// support/driver_version.hpp — the NVIDIA driver as calibrations record it and evaluations match
// it: the kernel module's version and the CUDA version the driver supports.
#pragma once

#include <string>

namespace kbv::cuda {

// "580.65.06 (CUDA 13.0)": the kernel module's version when /proc/driver/nvidia/version says it
// (proprietary or open module), and the CUDA version cudaDriverGetVersion reports; "CUDA 13.0"
// alone when /proc does not say.
std::string driver_version();

// The version out of /proc/driver/nvidia/version's first line: the first word after "Kernel
// Module" that starts with a digit; empty when there is none.
std::string kernel_module_version(const std::string& proc_line);

}  // namespace kbv::cuda
