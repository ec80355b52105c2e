// eval/host_data_plane.hpp — the host device's data plane: a memfd arena shared with the
// worker, pristine inputs and the fp64 reference in private memory.
#pragma once

#include <memory>

#include "eval/data_plane.hpp"

namespace kbv::eval {

std::unique_ptr<DataPlane> make_host_data_plane(const ResolvedProblem& problem);

}  // namespace kbv::eval
