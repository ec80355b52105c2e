"""kbv_torch/gpu_clock.py — the current SM clock from NVML (libnvidia-ml.so.1, which every driver
installs), through ctypes: the source kbv's SmClock prefers (cuda/measure/timing/sm_clock.cpp).
None where NVML cannot be loaded or does not know the device; the timer then keeps every
sample and says so."""
import ctypes

NVML_SUCCESS = 0
NVML_CLOCK_SM = 1


class NvmlClock:
    def __init__(self, library, device):
        self._library, self._device = library, device
        self.source = "nvml"

    @classmethod
    def open(cls, pci_bus_id):
        """The clock of the GPU at `pci_bus_id` ("0000:19:00.0"), or None."""
        if not pci_bus_id:
            return None
        try:
            library = ctypes.CDLL("libnvidia-ml.so.1")
        except OSError:
            return None
        if library.nvmlInit_v2() != NVML_SUCCESS:
            return None
        device = ctypes.c_void_p()
        if library.nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.encode(), ctypes.byref(device)) != NVML_SUCCESS:
            return None
        clock = cls(library, device)
        return clock if clock.current_mhz() > 0 else None

    def current_mhz(self):
        mhz = ctypes.c_uint()
        if self._library.nvmlDeviceGetClockInfo(self._device, NVML_CLOCK_SM, ctypes.byref(mhz)) != NVML_SUCCESS:
            return 0.0
        return float(mhz.value)
