// measure/support/sm_count.hpp — the number of SMs of the current device, for grid sizing.
#pragma once

namespace kbv::cuda::measure {

// Asked of the driver once per device, then cached; throws CudaError when CUDA fails.
int current_sm_count();

}  // namespace kbv::cuda::measure
