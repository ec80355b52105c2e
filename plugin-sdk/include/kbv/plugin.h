/* kbv/plugin.h — the versioned C ABI between the kbv evaluator and a candidate kernel plugin.
 *
 * A candidate is a shared library that exports exactly one symbol, kbv_plugin_negotiate().
 * Everything else crosses the boundary through the structs below. Only C99 fixed-width types,
 * `const char*`, opaque handles and `void*` cross it, so a candidate may be written in C, C++
 * or CUDA C++ and built with any compiler.
 *
 * Versioning rules
 *  - Every struct begins with `struct_size` (bytes, as the writer knew the struct) and the
 *    ABI version it was written for. A reader never touches a field past `struct_size`.
 *  - The host offers a range [host_min, host_max]; the plugin answers with one version inside
 *    the intersection with its own range, or KBV_STATUS_ABI_MISMATCH.
 *  - New fields are only ever appended; a field's meaning never changes within a major ABI.
 *
 * Threading and lifetime
 *  - The host calls negotiate() once, then create() once (optional), then run() any number of
 *    times from a single thread, then destroy() once (optional). A worker process loads one
 *    candidate and exits after it; the plugin must not rely on static destructors running.
 *  - Tensors are borrowed for the duration of one run() call only. Keeping a pointer across
 *    calls (to cache results) is exactly the behaviour kbv is built to catch.
 */
#ifndef KBV_PLUGIN_H
#define KBV_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI versions this header describes. A plugin built against this header supports exactly
 * KBV_ABI_VERSION unless it overrides KBV_PLUGIN_ABI_MIN / KBV_PLUGIN_ABI_MAX. */
#define KBV_ABI_VERSION 1u
#define KBV_ABI_VERSION_MIN 1u
#define KBV_ABI_VERSION_MAX 1u

/* Largest tensor rank that crosses the boundary (KernelBench's 5-D conv3d inputs fit). */
#define KBV_MAX_RANK 8

/* The single exported symbol's name, for loaders that look it up by string. */
#define KBV_NEGOTIATE_SYMBOL "kbv_plugin_negotiate"

#if defined(_WIN32)
#define KBV_PLUGIN_EXPORT __declspec(dllexport)
#else
#define KBV_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes returned by every plugin entry point. */
typedef enum kbv_status {
  KBV_STATUS_OK = 0,
  KBV_STATUS_INVALID_ARGUMENT = 1, /* shapes, dtypes or counts the plugin cannot handle     */
  KBV_STATUS_UNSUPPORTED = 2,      /* a valid request this plugin does not implement        */
  KBV_STATUS_DEVICE_ERROR = 3,     /* a CUDA (or other device) call failed                  */
  KBV_STATUS_INTERNAL = 4,         /* any other failure inside the plugin                   */
  KBV_STATUS_ABI_MISMATCH = 5      /* negotiate(): no ABI version in common                 */
} kbv_status;

/* Where tensor memory lives. `host`: ordinary CPU memory; `cuda`: device memory of the
 * current CUDA device, to be used on the stream given in kbv_call.stream. */
typedef enum kbv_device {
  KBV_DEVICE_HOST = 1,
  KBV_DEVICE_CUDA = 2
} kbv_device;

typedef enum kbv_dtype {
  KBV_DTYPE_F32 = 1,
  KBV_DTYPE_F64 = 2,
  KBV_DTYPE_F16 = 3,
  KBV_DTYPE_BF16 = 4,
  KBV_DTYPE_I32 = 5,
  KBV_DTYPE_I64 = 6
} kbv_dtype;

/* A borrowed, dense, row-major tensor. `strides` are in elements and are always the
 * contiguous row-major strides in ABI 1; they are passed so later ABIs can relax that. */
typedef struct kbv_tensor {
  uint32_t struct_size;
  uint32_t abi_version;
  const char* name;              /* the problem spec's name for this input or output    */
  uint32_t dtype;                /* kbv_dtype                                           */
  uint32_t device;               /* kbv_device                                          */
  uint32_t rank;
  uint32_t reserved0;
  int64_t shape[KBV_MAX_RANK];
  int64_t strides[KBV_MAX_RANK];
  void* data;                    /* host pointer or CUDA device pointer                 */
} kbv_tensor;

/* A scalar attribute of the problem (a conv's stride, a norm's epsilon), by name. */
typedef struct kbv_attribute {
  uint32_t struct_size;
  uint32_t abi_version;
  const char* name;              /* "<node>.<attribute>", e.g. "conv.stride"            */
  double value;
} kbv_attribute;

/* One invocation of the candidate: read `inputs`, write every element of `outputs`. */
typedef struct kbv_call {
  uint32_t struct_size;
  uint32_t abi_version;
  const char* problem;           /* problem name, e.g. "relu"                           */
  const kbv_tensor* inputs;
  uint32_t num_inputs;
  uint32_t num_outputs;
  const kbv_tensor* outputs;     /* descriptors are read-only; the data they point to is not */
  const kbv_attribute* attributes;
  uint32_t num_attributes;
  uint32_t reserved0;
  /* CUDA: the cudaStream_t all work must be enqueued on; host: NULL. Work enqueued on any
   * other stream, or left running on a host thread after run() returns, is a hack. */
  void* stream;
} kbv_call;

/* Services the host offers to the plugin. All pointers stay valid until destroy(). */
typedef struct kbv_host_api {
  uint32_t struct_size;
  uint32_t abi_version;
  void* host_context;            /* pass back unchanged as the first argument           */
  /* Record a human-readable reason for the status an entry point is about to return. The
   * text is copied; the last message before a failing return is shown in the verdict. */
  void (*set_error)(void* host_context, const char* message);
  /* Free-form diagnostics (level 0 = debug … 3 = error); rate-limited by the host. */
  void (*log)(void* host_context, int32_t level, const char* message);
} kbv_host_api;

/* What a plugin tells the host about itself. Filled in by negotiate(). */
typedef struct kbv_plugin_info {
  uint32_t struct_size;          /* set by the host to sizeof(kbv_plugin_info) it knows  */
  uint32_t abi_version;          /* set by the plugin: the version it chose              */
  const char* problem;           /* required: the problem name this plugin implements    */
  const char* candidate_name;    /* optional: author's label, e.g. "relu_vec4"           */
  uint32_t device;               /* required: kbv_device the plugin's memory lives on    */
  uint32_t reserved0;

  /* Optional. Allocate per-candidate state (handles, workspaces) before the first run().
   * *state is passed to run() and destroy(). Memory allocated here counts toward the
   * candidate's memory figure. */
  kbv_status (*create)(const kbv_host_api* host, void** state);

  /* Required. Compute the problem's outputs from its inputs. Must be synchronous for host
   * plugins; CUDA plugins enqueue on call->stream and may return before the work ends. */
  kbv_status (*run)(void* state, const kbv_call* call);

  /* Optional. Release what create() allocated. */
  void (*destroy)(void* state);
} kbv_plugin_info;

/* The one exported function. The host passes the range of ABI versions it speaks and its
 * services; the plugin fills *info (whose struct_size the host has set) and returns
 * KBV_STATUS_OK, or KBV_STATUS_ABI_MISMATCH if no version is shared. Must not launch work. */
typedef kbv_status (*kbv_plugin_negotiate_fn)(uint32_t host_abi_min, uint32_t host_abi_max,
                                              const kbv_host_api* host, kbv_plugin_info* info);

KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_abi_min, uint32_t host_abi_max,
                                                  const kbv_host_api* host,
                                                  kbv_plugin_info* info);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KBV_PLUGIN_H */
