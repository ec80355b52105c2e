"""kbv_torch/server.py — PyTorch's side of `kbv calibrate --torch`: kbv-calibrate starts
  PYTHON -m kbv_torch.server --device N [--pci-bus-id ID]
with this package on PYTHONPATH and talks to it in JSON lines (one object per line) on its stdin
and stdout; everything else the process prints goes to stderr (stdout is moved there at start,
so a library's print cannot break the protocol).

  server -> kbv  {"type": "hello", "protocol": 1, "python", "python_version", "torch_version",
                  "torch_cuda", "triton_version", "device", "device_name", "pci_bus_id",
                  "clock": how the SM clock is read, "error": null}
                 or, when it cannot measure: {"type": "hello", "error": "...", "missing":
                  "torch" | "cuda" | "device"} (then it exits 0)
  kbv -> server  {"type": "measure", "problem": <description, forward.py>, "shape_set": "default",
                  "baselines": ["eager_tf32", "eager_fp32", "compiled_tf32"],
                  "kernelbench_dir": DIR | null, "stop_rule": {stop_rule.StopRule's fields},
                  "default_clock_mhz": the SM clock kbv's throttle rule is relative to}
  server -> kbv  {"type": "measured", "problem", "shape_set", "forward": "graph" |
                  "kernelbench:level<L>/<file>", "timer", "results": {baseline: figures |
                  {"error": "..."}}, "compile_s": {"compiled_tf32": s}}; each baseline's figures
                  carry "output": the layout of what its forward returned (output_layout())
                 or {"type": "skipped", "problem", "shape_set", "reason"} (no PyTorch forward)
  kbv -> server  {"type": "exit"}

Baselines: eager_tf32 (TF32 allowed for matmul and cuDNN: torch.backends.cuda.matmul.allow_tf32 =
torch.backends.cudnn.allow_tf32 = True), eager_fp32 (both False: strict FP32; PyTorch's own
default leaves cuDNN's TF32 on), compiled_tf32 (torch.compile, mode max-autotune-no-cudagraphs,
compiled and timed with TF32 allowed, its outputs made dense inside the compiled function:
forward.py, Forward.compiled). They are timed interleaved (cold_timing.py); the math mode
is set before each sample, outside the timed window.

`--device cpu` serves the same protocol with PyTorch on the CPU and the host clock: for kbv's
tests on machines without a GPU; kbv-calibrate never asks for it."""
import argparse
import gc
import json
import os
import platform
import sys
import time
import traceback

PROTOCOL = 1
COMPILE_MODE = "max-autotune-no-cudagraphs"
BASELINES = {"eager_tf32": True, "eager_fp32": False, "compiled_tf32": True}  # name -> TF32 allowed


def set_math_mode(torch, tf32):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32


def output_layout(torch, value):
    """What a forward returned, as kbv's contract reads it: shape, strides and whether it is
    dense (contiguous). kbv's candidates and library write dense outputs; a forward that returns
    a strided view was timed without the copy a dense output costs (torch.compile's padded GEMM
    did, before Forward.compiled made outputs dense), and kbv refuses its ratio
    (derived_speedups.cpp)."""
    if isinstance(value, torch.Tensor):
        return {"shape": list(value.shape), "strides": list(value.stride()), "contiguous": value.is_contiguous()}
    if isinstance(value, (tuple, list)):
        return [output_layout(torch, v) for v in value]
    return {"type": type(value).__name__}


def parse_bus_id(text):
    """(domain, bus, device) of "0000:19:00.0", or None."""
    try:
        domain, bus, rest = text.split(":")
        return int(domain, 16), int(bus, 16), int(rest.split(".")[0], 16)
    except (AttributeError, ValueError):
        return None


def torch_bus_id(props):
    try:
        return props.pci_domain_id, props.pci_bus_id, props.pci_device_id
    except AttributeError:
        return None


class Server:
    def __init__(self, device, pci_bus_id=None):
        self.device_arg, self.pci_bus_id = device, pci_bus_id
        self.torch = None
        self.clock = None

    def hello(self):
        facts = {"type": "hello", "protocol": PROTOCOL, "python": sys.executable, "python_version": platform.python_version(), "error": None}
        try:
            import torch
        except ImportError as error:
            return {**facts, "error": f"{sys.executable} cannot import torch ({error}) (fix: pass --python PATH to a Python with torch "
                                      "built for CUDA, such as a virtual environment's bin/python)", "missing": "torch"}
        self.torch = torch
        facts.update({"torch_version": torch.__version__, "torch_cuda": torch.version.cuda or ""})
        try:
            import triton
            facts["triton_version"] = triton.__version__
        except ImportError:
            facts["triton_version"] = ""
        if self.device_arg == "cpu":
            self.device = "cpu"
            return {**facts, "device": "cpu", "device_name": "cpu", "pci_bus_id": None, "clock": "host (tests)"}
        if not torch.cuda.is_available():
            built = f"built for CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
            return {**facts, "error": f"torch {torch.__version__} in {sys.executable} has no usable CUDA device: torch.cuda.is_available() "
                                      f"is False ({built}; CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', 'unset')}) "
                                      "(fix: run on the GPU machine, with a torch built for CUDA)", "missing": "cuda"}
        index = int(self.device_arg)
        if index >= torch.cuda.device_count():
            return {**facts, "error": f"torch sees {torch.cuda.device_count()} CUDA device(s), not device {index}", "missing": "device"}
        props = torch.cuda.get_device_properties(index)
        wanted, seen = parse_bus_id(self.pci_bus_id), torch_bus_id(props)
        if wanted and seen and wanted != seen:
            return {**facts, "error": f"torch's cuda:{index} is the GPU at PCI {seen}, kbv's device {index} the one at {self.pci_bus_id} "
                                      "(fix: give both processes the same CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER)", "missing": "device"}
        torch.cuda.set_device(index)
        self.device = f"cuda:{index}"
        from kbv_torch.gpu_clock import NvmlClock
        self.clock = NvmlClock.open(self.pci_bus_id)
        return {**facts, "device": self.device, "device_name": props.name, "pci_bus_id": self.pci_bus_id,
                "clock": "nvml" if self.clock else "unavailable (libnvidia-ml.so.1 not loadable): no throttled sample is dropped"}

    def measure(self, request):
        from kbv_torch.cold_timing import ColdTimer, Contender, CudaBackend, HostBackend
        from kbv_torch.forward import NoForward, problem_forward
        from kbv_torch.stop_rule import StopRule
        torch = self.torch
        problem, shape_set = request["problem"], request["shape_set"]
        head = {"problem": problem["name"], "shape_set": shape_set}
        try:
            forward = problem_forward(torch, problem, shape_set, request.get("kernelbench_dir"), self.device)
        except NoForward as why:
            return {"type": "skipped", **head, "reason": str(why)}
        rule = StopRule.from_request(request.get("stop_rule"))
        backend = HostBackend() if self.device == "cpu" else CudaBackend(torch, self.device, self.clock)
        timer = ColdTimer(backend, rule, float(request.get("default_clock_mhz") or 0))
        contenders, results, compile_s, layouts = [], {}, {}, {}
        for name in request.get("baselines", list(BASELINES)):
            if name not in BASELINES:
                results[name] = {"error": f"unknown baseline '{name}' (known: {', '.join(BASELINES)})"}
                continue
            tf32 = BASELINES[name]
            prepare = (lambda tf32=tf32: set_math_mode(torch, tf32))
            call = forward.eager
            if name.startswith("compiled"):
                prepare()
                start = time.perf_counter()
                try:
                    call = forward.compiled(torch, COMPILE_MODE)
                    with torch.no_grad():
                        call()  # compiles (and autotunes) here, outside any sample
                    self.synchronize()
                except Exception as error:  # noqa: BLE001 - a compile failure is this baseline's result
                    results[name] = {"error": f"torch.compile(mode={COMPILE_MODE}) failed: {type(error).__name__}: {str(error)[:2000]}"}
                    continue
                compile_s[name] = time.perf_counter() - start
            contenders.append(Contender(name, self.no_grad(call), prepare))
            prepare()
            with torch.no_grad():
                layouts[name] = output_layout(torch, call())
        results.update(timer.measure_interleaved(contenders))
        for name, layout in layouts.items():
            if isinstance(results.get(name), dict) and "error" not in results[name]:
                results[name]["output"] = layout
        reply = {"type": "measured", **head, "forward": forward.kind, "timer": backend.name, "results": results, "compile_s": compile_s,
                 "gate_overruns": getattr(backend, "gate_overruns", 0)}
        del forward, contenders, timer, backend
        self.release()
        return reply

    def no_grad(self, call):
        torch = self.torch

        def run():
            with torch.no_grad():
                call()
        return run

    def synchronize(self):
        if self.device != "cpu":
            self.torch.cuda.synchronize()

    def release(self):
        """Frees what one problem held: compiled graphs, tensors, the allocator's cache."""
        try:
            self.torch._dynamo.reset()
        except Exception:  # noqa: BLE001 - best effort
            pass
        gc.collect()
        if self.device != "cpu":
            self.torch.cuda.empty_cache()


def serve(server, requests, replies):
    hello = server.hello()
    replies(hello)
    if hello.get("error"):
        return 0
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("type") == "exit":
            return 0
        if request.get("type") != "measure":
            replies({"type": "error", "error": f"unknown request type {request.get('type')!r}"})
            continue
        try:
            replies(server.measure(request))
        except Exception as error:  # noqa: BLE001 - one problem's failure must not end the run
            traceback.print_exc(file=sys.stderr)
            replies({"type": "error", "problem": request.get("problem", {}).get("name"), "shape_set": request.get("shape_set"),
                     "error": f"{type(error).__name__}: {str(error)[:2000]}"})
            server.release()
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description="PyTorch's side of kbv calibrate --torch (JSON lines on stdin/stdout).")
    parser.add_argument("--device", default="0", help="CUDA device ordinal, or cpu (tests)")
    parser.add_argument("--pci-bus-id", help="the PCI bus id kbv's device has, to check torch's is the same GPU and read its clock")
    args = parser.parse_args(argv)
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything else printed to stdout lands on stderr
    sys.stdout = sys.stderr

    def reply(message):
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()

    return serve(Server(args.device, args.pci_bus_id), sys.stdin, reply)


if __name__ == "__main__":
    sys.exit(main())
