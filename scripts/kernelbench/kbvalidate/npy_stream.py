"""kbvalidate/npy_stream.py — .npy files to and from a torch device in fixed-size chunks through
one pinned host buffer, so that a default-size KernelBench tensor (L1 #19's 4096×393216 input is
6.4 GB as float32, its fp64 reference 12.8 GB) never exists whole in host memory and never
crosses the bus from pageable memory.

Why not np.load(mmap_mode="r") and torch.from_numpy(...).to(device): that faults the file in
4 KiB page by page and copies from pageable memory through the driver's small staging buffer;
on r4's H200 run the whole path moved about 2 GB/s and an elementwise problem took 25-37 s.
"""
import numpy as np

# The pinned staging buffer: large enough that the per-chunk synchronisation is noise, small
# enough that several validations in parallel pin little (256 MiB each).
STAGING_BYTES = 256 << 20


def torch_module():
    import torch  # imported late: the scheduler's parent process never needs it
    return torch


def _torch_dtype(numpy_dtype):
    torch = torch_module()
    return {np.dtype("<f4"): torch.float32, np.dtype("<f8"): torch.float64, np.dtype("<i8"): torch.int64,
            np.dtype("|b1"): torch.bool}[np.dtype(numpy_dtype)]


def read_header(file):
    """(shape, numpy dtype) of an open .npy file, leaving it at the first data byte."""
    version = np.lib.format.read_magic(file)
    reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, fortran_order, dtype = reader(file)
    if fortran_order:
        raise ValueError(f"{file.name}: Fortran-ordered .npy (fix: export again; kbv writes C order)")
    return tuple(shape), np.dtype(dtype)


class Staging:
    """One pinned host buffer (plain memory on the CPU device), reused by every transfer."""

    def __init__(self, device):
        torch = torch_module()
        self.device = torch.device(device)
        self.buffer = torch.empty(STAGING_BYTES, dtype=torch.uint8, pin_memory=self.device.type == "cuda")
        self.view = self.buffer.numpy()

    def read_npy(self, path):
        """The whole .npy at `path` as a contiguous tensor on the device, in the file's dtype."""
        torch = torch_module()
        with open(path, "rb") as file:
            shape, dtype = read_header(file)
            tensor = torch.empty(shape, dtype=_torch_dtype(dtype), device=self.device)
            target = tensor.reshape(-1).view(torch.uint8) if tensor.numel() else tensor
            self._fill(file, target, tensor.numel() * dtype.itemsize, path)
        return tensor

    def chunks(self, path, elements_per_chunk):
        """(start element, tensor on the device) of consecutive pieces of a float64 .npy."""
        torch = torch_module()
        with open(path, "rb") as file:
            shape, dtype = read_header(file)
            if dtype != np.dtype("<f8"):
                raise ValueError(f"{path}: holds {dtype}, expected float64")
            total = int(np.prod(shape, dtype=np.int64))
            for start in range(0, total, elements_per_chunk):
                count = min(elements_per_chunk, total - start)
                piece = torch.empty(count, dtype=torch.float64, device=self.device)
                self._fill(file, piece.view(torch.uint8), count * 8, path)
                yield start, piece

    def write_npy(self, path, tensor):
        """Writes a contiguous tensor on the device to `path` as .npy in its own dtype."""
        torch = torch_module()
        tensor = tensor.contiguous()
        dtype = np.dtype({torch.float32: "<f4", torch.float64: "<f8"}[tensor.dtype])
        with open(path, "wb") as file:
            np.lib.format.write_array_header_1_0(file, {"descr": dtype.str, "fortran_order": False, "shape": tuple(tensor.shape)})
            if not tensor.numel():
                return
            source = tensor.reshape(-1).view(torch.uint8)
            for start in range(0, source.numel(), STAGING_BYTES):
                count = min(STAGING_BYTES, source.numel() - start)
                self.buffer[:count].copy_(source[start:start + count])  # synchronous: the buffer is reused next
                file.write(memoryview(self.view[:count]))

    def _fill(self, file, target, nbytes, path):
        for start in range(0, nbytes, STAGING_BYTES):
            count = min(STAGING_BYTES, nbytes - start)
            if file.readinto(memoryview(self.view[:count])) != count:
                raise ValueError(f"{path}: ends before its header's shape (fix: export again)")
            target[start:start + count].copy_(self.buffer[:count])
