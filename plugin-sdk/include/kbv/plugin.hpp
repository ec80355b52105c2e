// kbv/plugin.hpp — header-only C++ helper so a candidate author writes one function body.
//
//   #include <kbv/plugin.hpp>
//   KBV_CANDIDATE("relu", KBV_DEVICE_HOST, "relu_loop")
//   kbv_status kbv_candidate_run(kbv::Call& call) {
//     const float* x = call.input(0).data<float>();
//     float* y = call.output(0).data<float>();
//     for (int64_t i = 0; i < call.output(0).numel(); ++i) y[i] = x[i] > 0 ? x[i] : 0;
//     return KBV_STATUS_OK;
//   }
//
// The macro defines the exported kbv_plugin_negotiate(), negotiates the ABI version, and turns
// C++ exceptions into KBV_STATUS_INTERNAL with the exception's message as the error text.
#ifndef KBV_PLUGIN_HPP
#define KBV_PLUGIN_HPP

#include <kbv/plugin.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#ifndef KBV_PLUGIN_ABI_MIN
#define KBV_PLUGIN_ABI_MIN KBV_ABI_VERSION_MIN
#endif
#ifndef KBV_PLUGIN_ABI_MAX
#define KBV_PLUGIN_ABI_MAX KBV_ABI_VERSION_MAX
#endif

namespace kbv {

// A read-only view of one borrowed tensor descriptor.
class Tensor {
 public:
  explicit Tensor(const kbv_tensor& raw) : raw_(&raw) {}
  const char* name() const { return raw_->name; }
  uint32_t rank() const { return raw_->rank; }
  int64_t dim(uint32_t axis) const { return axis < raw_->rank ? raw_->shape[axis] : 1; }
  int64_t numel() const {
    int64_t n = 1;
    for (uint32_t i = 0; i < raw_->rank; ++i) n *= raw_->shape[i];
    return n;
  }
  kbv_dtype dtype() const { return static_cast<kbv_dtype>(raw_->dtype); }
  template <class T>
  T* data() const { return static_cast<T*>(raw_->data); }
  const kbv_tensor& raw() const { return *raw_; }

 private:
  const kbv_tensor* raw_;
};

// The call as the author sees it: inputs, outputs, attributes and the stream.
class Call {
 public:
  explicit Call(const kbv_call& raw) : raw_(&raw) {}
  uint32_t num_inputs() const { return raw_->num_inputs; }
  uint32_t num_outputs() const { return raw_->num_outputs; }
  // By position (an int, so input(0) is not ambiguous with the by-name overload).
  Tensor input(int index) const { return Tensor(raw_->inputs[checked(index, raw_->num_inputs)]); }
  Tensor output(int index) const { return Tensor(raw_->outputs[checked(index, raw_->num_outputs)]); }
  Tensor input(unsigned index) const { return input(static_cast<int>(index)); }
  Tensor output(unsigned index) const { return output(static_cast<int>(index)); }
  Tensor input(const char* name) const { return Tensor(raw_->inputs[find(raw_->inputs, raw_->num_inputs, name)]); }
  Tensor output(const char* name) const { return Tensor(raw_->outputs[find(raw_->outputs, raw_->num_outputs, name)]); }
  // A problem attribute such as "conv.stride"; `fallback` when the problem has none by that name.
  double attribute(const char* name, double fallback) const {
    for (uint32_t i = 0; i < raw_->num_attributes; ++i)
      if (std::strcmp(raw_->attributes[i].name, name) == 0) return raw_->attributes[i].value;
    return fallback;
  }
  void* stream() const { return raw_->stream; }
  const kbv_call& raw() const { return *raw_; }

 private:
  static uint32_t checked(int index, uint32_t count) {
    if (index < 0 || static_cast<uint32_t>(index) >= count)
      throw std::out_of_range("kbv: tensor index " + std::to_string(index) + " out of range");
    return static_cast<uint32_t>(index);
  }
  static uint32_t find(const kbv_tensor* tensors, uint32_t count, const char* name) {
    for (uint32_t i = 0; i < count; ++i)
      if (std::strcmp(tensors[i].name, name) == 0) return i;
    throw std::out_of_range(std::string("kbv: no tensor named ") + name);
  }
  const kbv_call* raw_;
};

namespace detail {
inline const kbv_host_api*& host_api() {
  static const kbv_host_api* api = nullptr;
  return api;
}
}  // namespace detail

// Report why the current entry point is failing (copied by the host).
inline void set_error(const std::string& message) {
  const kbv_host_api* api = detail::host_api();
  if (api && api->set_error) api->set_error(api->host_context, message.c_str());
}

namespace detail {
template <kbv_status (*Body)(Call&)>
kbv_status run_guarded(void*, const kbv_call* raw) {
  try {
    Call call(*raw);
    return Body(call);
  } catch (const std::exception& error) {
    set_error(error.what());
    return KBV_STATUS_INTERNAL;
  } catch (...) {
    set_error("unknown C++ exception");
    return KBV_STATUS_INTERNAL;
  }
}

template <kbv_status (*Body)(Call&)>
kbv_status negotiate(uint32_t host_min, uint32_t host_max, const kbv_host_api* host,
                     kbv_plugin_info* info, const char* problem, kbv_device device,
                     const char* candidate_name) {
  host_api() = host;
  const uint32_t low = host_min > KBV_PLUGIN_ABI_MIN ? host_min : KBV_PLUGIN_ABI_MIN;
  const uint32_t high = host_max < KBV_PLUGIN_ABI_MAX ? host_max : KBV_PLUGIN_ABI_MAX;
  if (info == nullptr || info->struct_size < sizeof(kbv_plugin_info)) return KBV_STATUS_ABI_MISMATCH;
  if (low > high) {
    set_error("candidate speaks ABI " + std::to_string(KBV_PLUGIN_ABI_MIN) + ".." +
              std::to_string(KBV_PLUGIN_ABI_MAX) + ", host " + std::to_string(host_min) + ".." +
              std::to_string(host_max));
    return KBV_STATUS_ABI_MISMATCH;
  }
  info->abi_version = high;
  info->problem = problem;
  info->candidate_name = candidate_name;
  info->device = static_cast<uint32_t>(device);
  info->create = nullptr;
  info->run = &run_guarded<Body>;
  info->destroy = nullptr;
  return KBV_STATUS_OK;
}
}  // namespace detail
}  // namespace kbv

// Declares the author's body and defines the exported negotiation function around it.
#define KBV_CANDIDATE(PROBLEM, DEVICE, NAME)                                                  \
  kbv_status kbv_candidate_run(kbv::Call& call);                                              \
  extern "C" KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(                               \
      uint32_t host_min, uint32_t host_max, const kbv_host_api* host, kbv_plugin_info* info) { \
    return kbv::detail::negotiate<&kbv_candidate_run>(host_min, host_max, host, info, PROBLEM, \
                                                      DEVICE, NAME);                          \
  }

#endif  // KBV_PLUGIN_HPP
