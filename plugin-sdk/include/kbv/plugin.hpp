// kbv/plugin.hpp — header-only C++ helper so a candidate author writes one function body, or
// one class when the candidate needs state (a cuBLAS handle, a workspace).
//
// Stateless: one function.
//
//   #include <kbv/plugin.hpp>
//   KBV_CANDIDATE(KBV_PROBLEM, KBV_DEVICE_HOST, "relu_loop")
//   kbv_status kbv_candidate_run(kbv::Call& call) {
//     const float* x = call.input("x").data<float>();   // int64 inputs: data<int64_t>(), masks: data<bool>()
//     float* y = call.output("y").data<float>();
//     for (int64_t i = 0; i < call.output("y").numel(); ++i) y[i] = x[i] > 0 ? x[i] : 0;
//     return KBV_STATUS_OK;
//   }
//
// Stateful: one class. The host's create() constructs one object (default constructor), every
// run() calls its run(), destroy() deletes it. Throw from the constructor to fail create()
// (verdict load_error; a kbv::Error carries the status, anything else is KBV_STATUS_INTERNAL).
//
//   class Matmul {
//    public:
//     Matmul() { if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) throw kbv::Error(KBV_STATUS_DEVICE_ERROR, "cublasCreate failed"); }
//     ~Matmul() { cublasDestroy(handle_); }
//     kbv_status run(kbv::Call& call) { ... cublasSetStream(handle_, static_cast<cudaStream_t>(call.stream())); ... }
//    private:
//     cublasHandle_t handle_ = nullptr;
//   };
//   KBV_CANDIDATE_CLASS(KBV_PROBLEM, KBV_DEVICE_CUDA, "matmul_cublas", Matmul)
//
// KBV_PROBLEM is the problem name kbv_add_candidate() compiles in (-DKBV_PROBLEM="relu"); a
// string literal works as well. Both macros define the exported kbv_plugin_negotiate(),
// negotiate the ABI version (kbv/plugin.h), and turn a C++ exception thrown by the author's
// code into a failing status with the exception's message as the error text, so no exception
// crosses the C boundary.
#ifndef KBV_PLUGIN_HPP
#define KBV_PLUGIN_HPP

#include <kbv/plugin.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#ifndef KBV_PLUGIN_ABI_MIN
#define KBV_PLUGIN_ABI_MIN KBV_ABI_VERSION_MIN
#endif
#ifndef KBV_PLUGIN_ABI_MAX
#define KBV_PLUGIN_ABI_MAX KBV_ABI_VERSION_MAX
#endif

namespace kbv {

// A failure with a chosen status: throw it from run() or a state class's constructor, and the
// entry point returns `status` with `what()` as the error text.
class Error : public std::runtime_error {
 public:
  Error(kbv_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  kbv_status status() const { return status_; }

 private:
  kbv_status status_;
};

namespace detail {
// The kbv_dtype of a C++ element type; undefined for a type kbv never passes.
template <class T>
struct DTypeOf;
template <>
struct DTypeOf<float> { static constexpr kbv_dtype value = KBV_DTYPE_F32; };
template <>
struct DTypeOf<double> { static constexpr kbv_dtype value = KBV_DTYPE_F64; };
template <>
struct DTypeOf<int32_t> { static constexpr kbv_dtype value = KBV_DTYPE_I32; };
template <>
struct DTypeOf<int64_t> { static constexpr kbv_dtype value = KBV_DTYPE_I64; };
template <>
struct DTypeOf<bool> { static constexpr kbv_dtype value = KBV_DTYPE_BOOL; };

// The C++ type an author reads a dtype as, for messages.
inline const char* dtype_text(uint32_t dtype) {
  switch (dtype) {
    case KBV_DTYPE_F32: return "float";
    case KBV_DTYPE_F64: return "double";
    case KBV_DTYPE_F16: return "void /* float16 */";
    case KBV_DTYPE_BF16: return "void /* bfloat16 */";
    case KBV_DTYPE_I32: return "int32_t";
    case KBV_DTYPE_I64: return "int64_t";
    case KBV_DTYPE_BOOL: return "bool";
    default: return "void /* unknown dtype */";
  }
}
}  // namespace detail

// A read-only view of one borrowed tensor descriptor (valid during the run() that received it).
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
  // The data as T: float (KBV_DTYPE_F32), int64_t (KBV_DTYPE_I64), bool (KBV_DTYPE_BOOL), double,
  // int32_t, const-qualified or not. A dtype other than T's throws kbv::Error
  // (KBV_STATUS_INVALID_ARGUMENT) naming the tensor and the type to use; data<void>() is the
  // unchecked address. A type with no kbv dtype does not compile.
  template <class T>
  T* data() const {
    using Element = typename std::remove_cv<T>::type;
    if constexpr (!std::is_void<Element>::value) {
      constexpr kbv_dtype wanted = detail::DTypeOf<Element>::value;
      if (raw_->dtype != static_cast<uint32_t>(wanted))
        throw Error(KBV_STATUS_INVALID_ARGUMENT, std::string("kbv: tensor '") + (raw_->name ? raw_->name : "?") + "' is " +
                                                     detail::dtype_text(raw_->dtype) + ", read with data<" + detail::dtype_text(wanted) +
                                                     ">() (fix: use data<" + detail::dtype_text(raw_->dtype) + ">())");
    }
    return static_cast<T*>(raw_->data);
  }
  const kbv_tensor& raw() const { return *raw_; }

 private:
  const kbv_tensor* raw_;
};

// The call as the author sees it: inputs, outputs, attributes and the stream. A wrong name or
// index throws kbv::Error(KBV_STATUS_INTERNAL: a bug in the candidate) whose text lists the
// valid names.
class Call {
 public:
  explicit Call(const kbv_call& raw) : raw_(&raw) {}
  uint32_t num_inputs() const { return raw_->num_inputs; }
  uint32_t num_outputs() const { return raw_->num_outputs; }
  // By position (an int, so input(0) is not ambiguous with the by-name overload).
  Tensor input(int index) const { return Tensor(raw_->inputs[checked("input", index, raw_->inputs, raw_->num_inputs)]); }
  Tensor output(int index) const { return Tensor(raw_->outputs[checked("output", index, raw_->outputs, raw_->num_outputs)]); }
  Tensor input(unsigned index) const { return input(static_cast<int>(index)); }
  Tensor output(unsigned index) const { return output(static_cast<int>(index)); }
  Tensor input(const char* name) const { return Tensor(raw_->inputs[find("input", raw_->inputs, raw_->num_inputs, name)]); }
  Tensor output(const char* name) const { return Tensor(raw_->outputs[find("output", raw_->outputs, raw_->num_outputs, name)]); }
  // A problem attribute such as "conv.stride"; `fallback` when the problem has none by that name.
  double attribute(const char* name, double fallback) const {
    for (uint32_t i = 0; i < raw_->num_attributes; ++i)
      if (std::strcmp(raw_->attributes[i].name, name) == 0) return raw_->attributes[i].value;
    return fallback;
  }
  // CUDA: the cudaStream_t to enqueue all work on (cast it); host: nullptr.
  void* stream() const { return raw_->stream; }
  const kbv_call& raw() const { return *raw_; }

 private:
  // "x, w" — the names an author may use, for error messages.
  static std::string names(const kbv_tensor* tensors, uint32_t count) {
    std::string text;
    for (uint32_t i = 0; i < count; ++i) text += (i ? ", " : "") + std::string(tensors[i].name ? tensors[i].name : "?");
    return text.empty() ? "none" : text;
  }
  static uint32_t checked(const char* kind, int index, const kbv_tensor* tensors, uint32_t count) {
    if (index < 0 || static_cast<uint32_t>(index) >= count)
      throw Error(KBV_STATUS_INTERNAL, std::string("kbv: ") + kind + " index " + std::to_string(index) + " out of range: " +
                                                   std::to_string(count) + " " + kind + "s (" + names(tensors, count) + ")");
    return static_cast<uint32_t>(index);
  }
  static uint32_t find(const char* kind, const kbv_tensor* tensors, uint32_t count, const char* name) {
    for (uint32_t i = 0; i < count; ++i)
      if (tensors[i].name && name && std::strcmp(tensors[i].name, name) == 0) return i;
    throw Error(KBV_STATUS_INTERNAL, std::string("kbv: no ") + kind + " named '" + (name ? name : "") + "' (the problem's " + kind +
                                                 "s: " + names(tensors, count) + ")");
  }
  const kbv_call* raw_;
};

namespace detail {
inline const kbv_host_api*& host_api() {
  static const kbv_host_api* api = nullptr;
  return api;
}
}  // namespace detail

// Report why the current entry point is failing (copied by the host; kbv/plugin.h, set_error).
inline void set_error(const std::string& message) {
  const kbv_host_api* api = detail::host_api();
  if (api && api->set_error) api->set_error(api->host_context, message.c_str());
}

// A line on the worker's stderr (level 0 debug … 3 error), shown by `kbv eval --verbose`.
inline void log(int32_t level, const std::string& message) {
  const kbv_host_api* api = detail::host_api();
  if (api && api->log) api->log(api->host_context, level, message.c_str());
}

namespace detail {

// Runs `body` (returning a kbv_status) and turns an escaping exception into a status and an
// error text that says it was an exception and where.
template <class Body>
kbv_status guarded(const char* entry_point, Body&& body) {
  try {
    return body();
  } catch (const Error& error) {
    set_error(error.what());
    return error.status();
  } catch (const std::exception& error) {
    set_error(std::string("C++ exception in ") + entry_point + ": " + error.what());
    return KBV_STATUS_INTERNAL;
  } catch (...) {
    set_error(std::string("C++ exception of unknown type in ") + entry_point);
    return KBV_STATUS_INTERNAL;
  }
}

template <kbv_status (*Body)(Call&)>
kbv_status run_function(void*, const kbv_call* raw) {
  return guarded("run()", [raw] {
    Call call(*raw);
    return Body(call);
  });
}

template <class State>
kbv_status create_state(const kbv_host_api*, void** state) {
  return guarded("create() (the state's constructor)", [state] {
    *state = std::make_unique<State>().release();  // owned by the host until destroy_state()
    return KBV_STATUS_OK;
  });
}

template <class State>
kbv_status run_state(void* state, const kbv_call* raw) {
  return guarded("run()", [state, raw] {
    Call call(*raw);
    return static_cast<State*>(state)->run(call);
  });
}

template <class State>
void destroy_state(void* state) {
  std::unique_ptr<State> owned(static_cast<State*>(state));
}

// Picks the highest version both sides speak and fills ABI 1's fields of *info, never more
// than the host's struct_size (kbv/plugin.h, Versioning).
inline kbv_status negotiate(uint32_t host_min, uint32_t host_max, const kbv_host_api* host, kbv_plugin_info* info,
                            const char* problem, kbv_device device, const char* candidate_name,
                            kbv_status (*create)(const kbv_host_api*, void**), kbv_status (*run)(void*, const kbv_call*),
                            void (*destroy)(void*)) {
  host_api() = host;
  const uint32_t low = host_min > KBV_PLUGIN_ABI_MIN ? host_min : KBV_PLUGIN_ABI_MIN;
  const uint32_t high = host_max < KBV_PLUGIN_ABI_MAX ? host_max : KBV_PLUGIN_ABI_MAX;
  if (low > high) {
    set_error("candidate speaks ABI " + std::to_string(KBV_PLUGIN_ABI_MIN) + ".." + std::to_string(KBV_PLUGIN_ABI_MAX) + ", host " +
              std::to_string(host_min) + ".." + std::to_string(host_max));
    return KBV_STATUS_ABI_MISMATCH;
  }
  // Every version this helper can choose shares ABI 1's layout of kbv_plugin_info.
  if (info == nullptr || info->struct_size < KBV_PLUGIN_INFO_V1_SIZE) {
    set_error("the host's kbv_plugin_info has " + std::to_string(info ? info->struct_size : 0) + " bytes, ABI " + std::to_string(high) +
              " needs " + std::to_string(KBV_PLUGIN_INFO_V1_SIZE));
    return KBV_STATUS_ABI_MISMATCH;
  }
  info->abi_version = high;
  info->problem = problem;
  info->candidate_name = candidate_name;
  info->device = static_cast<uint32_t>(device);
  info->create = create;
  info->run = run;
  info->destroy = destroy;
  return KBV_STATUS_OK;
}

}  // namespace detail
}  // namespace kbv

// Declares the author's body, kbv_status kbv_candidate_run(kbv::Call&), and defines the
// exported negotiation function around it.
#define KBV_CANDIDATE(PROBLEM, DEVICE, NAME)                                                              \
  kbv_status kbv_candidate_run(kbv::Call& call);                                                          \
  extern "C" KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_min, uint32_t host_max,      \
                                                               const kbv_host_api* host, kbv_plugin_info* info) { \
    return kbv::detail::negotiate(host_min, host_max, host, info, PROBLEM, DEVICE, NAME, nullptr,       \
                                  &kbv::detail::run_function<&kbv_candidate_run>, nullptr);               \
  }

// The stateful form: CLASS has a default constructor (create()), a destructor (destroy()) and
// kbv_status run(kbv::Call&) (run()). One object lives from create() to destroy().
#define KBV_CANDIDATE_CLASS(PROBLEM, DEVICE, NAME, CLASS)                                                 \
  extern "C" KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_min, uint32_t host_max,      \
                                                               const kbv_host_api* host, kbv_plugin_info* info) { \
    return kbv::detail::negotiate(host_min, host_max, host, info, PROBLEM, DEVICE, NAME,                  \
                                  &kbv::detail::create_state<CLASS>, &kbv::detail::run_state<CLASS>,     \
                                  &kbv::detail::destroy_state<CLASS>);                                   \
  }

#endif  // KBV_PLUGIN_HPP
