"""kbv_plugin.py — a kbv candidate (.so) loaded with ctypes through kbv's C ABI
(plugin-sdk/include/kbv/plugin.h, ABI 1 and 2) and called on PyTorch tensors in this process: what the
validation bench (validate_speedups.py) times with do_bench beside PyTorch eager. Not a sandbox and
not an evaluator: honest examples only.

  plugin = Plugin.load(path)                # negotiate() and create()
  call = plugin.call(inputs, outputs, attributes, stream)   # tensors in the spec's order
  call()                                    # run(); raises PluginError on a failing status
  plugin.close()                            # destroy()
"""
import ctypes

# The host's range, as kbv-worker offers it: ABI 2 adds int64 and bool inputs (class indices,
# masks: cross_entropy's targets), which an ABI-1 host could not pass at all (r92, H100).
ABI_VERSION_MIN, ABI_VERSION_MAX = 1, 2
DTYPE_F32, DTYPE_I64, DTYPE_BOOL = 1, 6, 7
TORCH_DTYPES = {"torch.float32": DTYPE_F32, "torch.int64": DTYPE_I64, "torch.bool": DTYPE_BOOL}
DEVICE_HOST, DEVICE_CUDA = 1, 2
MAX_RANK = 8
STATUS_NAMES = {0: "OK", 1: "INVALID_ARGUMENT", 2: "UNSUPPORTED", 3: "DEVICE_ERROR", 4: "INTERNAL", 5: "ABI_MISMATCH"}


class Tensor(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("dtype", ctypes.c_uint32), ("device", ctypes.c_uint32), ("rank", ctypes.c_uint32), ("reserved0", ctypes.c_uint32),
                ("shape", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK), ("data", ctypes.c_void_p)]


class Attribute(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("name", ctypes.c_char_p), ("value", ctypes.c_double)]


class Call(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("problem", ctypes.c_char_p),
                ("inputs", ctypes.POINTER(Tensor)), ("num_inputs", ctypes.c_uint32), ("num_outputs", ctypes.c_uint32),
                ("outputs", ctypes.POINTER(Tensor)), ("attributes", ctypes.POINTER(Attribute)), ("num_attributes", ctypes.c_uint32),
                ("reserved0", ctypes.c_uint32), ("stream", ctypes.c_void_p)]


SET_ERROR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)
LOG = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p)


class HostApi(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("host_context", ctypes.c_void_p),
                ("set_error", SET_ERROR), ("log", LOG)]


CREATE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(HostApi), ctypes.POINTER(ctypes.c_void_p))
RUN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(Call))
DESTROY = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class PluginInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("problem", ctypes.c_char_p),
                ("candidate_name", ctypes.c_char_p), ("device", ctypes.c_uint32), ("reserved0", ctypes.c_uint32),
                ("create", CREATE), ("run", RUN), ("destroy", DESTROY)]


NEGOTIATE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(HostApi), ctypes.POINTER(PluginInfo))


class PluginError(RuntimeError):
    pass


def tensor_descriptor(name, tensor, device, abi_version, is_input):
    """A kbv_tensor over a contiguous torch tensor (the bytes stay the tensor's): float32, and
    for inputs from ABI 2 on int64 or bool, as plugin.h allows."""
    dtype = TORCH_DTYPES.get(str(tensor.dtype))
    allowed = dtype == DTYPE_F32 or (is_input and abi_version >= 2 and dtype is not None)
    if not allowed or not tensor.is_contiguous():
        kinds = "float32 tensors, and int64 or bool inputs" if abi_version >= 2 else "float32 tensors"
        raise PluginError(f"{name}: kbv's ABI {abi_version} takes contiguous {kinds}, got {tensor.dtype} "
                          f"contiguous={tensor.is_contiguous()}")
    if tensor.dim() > MAX_RANK:
        raise PluginError(f"{name}: rank {tensor.dim()} above {MAX_RANK}")
    raw = Tensor(struct_size=ctypes.sizeof(Tensor), abi_version=abi_version, name=name.encode(), dtype=dtype, device=device,
                 rank=tensor.dim(), data=tensor.data_ptr())
    for axis, (size, stride) in enumerate(zip(tensor.shape, tensor.stride())):
        raw.shape[axis], raw.strides[axis] = size, stride
    return raw


class Plugin:
    def __init__(self, path):
        self.path = str(path)
        self.library = ctypes.CDLL(self.path, mode=ctypes.RTLD_LOCAL)
        self.error_text = ""
        self.log_lines = []
        self._set_error = SET_ERROR(lambda context, message: setattr(self, "error_text", (message or b"").decode(errors="replace")))
        self._log = LOG(lambda context, level, message: self.log_lines.append((level, (message or b"").decode(errors="replace"))))
        self.host = HostApi(struct_size=ctypes.sizeof(HostApi), abi_version=ABI_VERSION_MAX, host_context=None, set_error=self._set_error,
                            log=self._log)
        self.info = PluginInfo(struct_size=ctypes.sizeof(PluginInfo))
        negotiate = NEGOTIATE(("kbv_plugin_negotiate", self.library))
        status = negotiate(ABI_VERSION_MIN, ABI_VERSION_MAX, ctypes.byref(self.host), ctypes.byref(self.info))
        self._check(status, "negotiate()")
        self.abi_version = self.info.abi_version  # the version the plugin chose; every struct is written for it
        if not ABI_VERSION_MIN <= self.abi_version <= ABI_VERSION_MAX:
            raise PluginError(f"{self.path}: negotiate() chose ABI {self.abi_version}, outside {ABI_VERSION_MIN}..{ABI_VERSION_MAX}")
        if not self.info.run:
            raise PluginError(f"{self.path}: negotiate() set no run()")
        self.problem = self.info.problem.decode()
        self.name = (self.info.candidate_name or b"").decode()
        self.device = self.info.device
        self.state = ctypes.c_void_p()
        if self.info.create:
            self._check(self.info.create(ctypes.byref(self.host), ctypes.byref(self.state)), "create()")

    @classmethod
    def load(cls, path):
        return cls(path)

    def _check(self, status, what):
        if status != 0:
            raise PluginError(f"{self.path}: {what} returned {STATUS_NAMES.get(status, status)}: {self.error_text or 'no set_error text'}")

    def call(self, inputs, outputs, attributes, stream=None):
        """A callable that runs the candidate once on these tensors ({name: tensor}, in the spec's
        order), `attributes` ({"node.attr": value}) and `stream` (a cudaStream_t as an int, or
        None on the host)."""
        device = self.device
        abi = self.abi_version
        in_array = (Tensor * len(inputs))(*[tensor_descriptor(n, t, device, abi, True) for n, t in inputs.items()])
        out_array = (Tensor * len(outputs))(*[tensor_descriptor(n, t, device, abi, False) for n, t in outputs.items()])
        attr_array = (Attribute * max(1, len(attributes)))(*[Attribute(struct_size=ctypes.sizeof(Attribute), abi_version=abi,
                                                                         name=k.encode(), value=float(v)) for k, v in attributes.items()])
        call = Call(struct_size=ctypes.sizeof(Call), abi_version=abi, problem=self.problem.encode(), inputs=in_array,
                    num_inputs=len(inputs), num_outputs=len(outputs), outputs=out_array, attributes=attr_array,
                    num_attributes=len(attributes), stream=stream)
        keep = (in_array, out_array, attr_array, call, inputs, outputs)

        def run():
            self.error_text = ""
            self._check(self.info.run(self.state, ctypes.byref(call)), "run()")
        run.keep = keep
        return run

    def close(self):
        if self.info.create and self.info.destroy and self.state:
            self.info.destroy(self.state)
            self.state = ctypes.c_void_p()
