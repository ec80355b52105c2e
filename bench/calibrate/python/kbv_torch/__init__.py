"""kbv_torch — PyTorch beside kbv, never inside its evaluator: the PyTorch forward of a kbv problem
(forward.py: generated from the spec's graph, or KernelBench's own Model), timed with kbv's
protocol (cold_timing.py, stop_rule.py), served to kbv-calibrate over a line protocol (server.py).

Installed to share/kbv/torch/kbv_torch; kbv-calibrate --torch runs `python -m kbv_torch.server`
with that folder on PYTHONPATH. Only the standard library and torch: no numpy, no PyYAML."""
