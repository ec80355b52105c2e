// kbvctl: a small client for kbvd's control socket (status, submit, results, requeue).
#include "client/control_command.hpp"

int main(int argc, char** argv) { return kbv::control::run_control_command(argc, argv); }
