/* kbv/plugin.h — the versioned C ABI between the kbv evaluator and a candidate kernel plugin.
 *
 * A candidate is a shared library that exports exactly one symbol, kbv_plugin_negotiate().
 * Everything else crosses the boundary through the structs below. Only C99 fixed-width types,
 * `const char*`, opaque handles and `void*` cross it, so a candidate may be written in C, C++
 * or CUDA C++ and built with any compiler. Most authors use the C++ helper <kbv/plugin.hpp>,
 * which implements this contract; this file is the contract itself.
 *
 * The host
 *  "The host" is kbv-worker, a sandboxed process started for ONE candidate. It loads the
 *  library (dlopen RTLD_NOW | RTLD_LOCAL, so the library's static constructors run first),
 *  calls the entry points below, all on its main thread, one at a time, and exits. On the cuda
 *  device the worker has made its CUDA context current and created the call stream before it
 *  loads the library. The trusted evaluator, in another process, decides the verdict from what
 *  it sees: the worker's replies, the outputs, the worker's exit.
 *
 * Order of calls (each block below says when and how often):
 *    negotiate()  once
 *    create()     once, only if the plugin sets it
 *    run()        any number of times
 *    destroy()    once, only if create() was set and returned KBV_STATUS_OK, and only if the
 *                 worker is still alive when the verdict is decided (see below)
 *
 * Status -> what the host does
 *
 *    returned by     KBV_STATUS_OK            any other value (INVALID_ARGUMENT .. ABI_MISMATCH,
 *                                             or a number that is no kbv_status)
 *    negotiate()     checks *info, goes on    verdict abi_error; no create(), no destroy()
 *    create()        goes on to run()         verdict load_error; destroy() is NOT called
 *    run()           compares or times        verdict fail_correctness; no further run();
 *                    the outputs              destroy() runs as the worker exits
 *
 *  The distinctions between the failing statuses do not change the verdict today; they and
 *  the text given to set_error() are shown in the verdict's detail, so use the one that says
 *  what happened. Outcomes that are not statuses: the library cannot be loaded or does not
 *  export kbv_plugin_negotiate -> load_error; a call that does not return within the call
 *  timeout (`kbv eval --timeout-s`, 10 s by default) -> timeout, and the worker's process
 *  group is killed; a signal (segfault, abort, an uncaught C++ exception) -> crash; a
 *  forbidden system call -> sandbox_violation; work left running after run() returns, inputs
 *  modified, or a timed call that runs other kernels than the checked calls -> hack_suspected.
 *  destroy() runs whenever the worker is still alive once the verdict is decided: after every
 *  verdict but timeout, crash and a sandbox kill (SIGSYS).
 *
 * Versioning
 *  - Every struct begins with `struct_size` (bytes, as its writer knew the struct) and the
 *    ABI version it was written for. A reader never touches a field past `struct_size`, and
 *    reads a field only if the negotiated version has it.
 *  - The host offers a range [host_min, host_max]; the plugin answers with one version inside
 *    the intersection with its own range, or KBV_STATUS_ABI_MISMATCH.
 *  - A plugin checks the host's kbv_plugin_info against the layout of the version it chose
 *    (KBV_PLUGIN_INFO_V1_SIZE for ABI 1), never against sizeof(kbv_plugin_info): that grows
 *    when a later ABI appends a field, and a plugin built against the newer header must still
 *    serve an older host that offers an older version.
 *  - Changes that raise KBV_ABI_VERSION and KBV_ABI_VERSION_MAX, keeping KBV_ABI_VERSION_MIN
 *    (older plugins and hosts still meet at the old version):
 *      appending a field at the end of a struct (zero must mean "absent": the host zero-fills
 *      what it hands out, and an older writer leaves the field out); adding a value to
 *      kbv_status, kbv_dtype or kbv_device (a host passes a new dtype or device, and accepts
 *      a new status, only from a plugin that chose a version that has it); appending a
 *      callback to kbv_host_api; a new promise a plugin may rely on.
 *  - Changes that also raise KBV_ABI_VERSION_MIN (every older plugin is refused with
 *    abi_error): removing, reordering, resizing or retyping a field; changing what a field,
 *    a status or an entry point means; weakening a promise this file makes.
 *  - Changes that touch no version: comments; helpers in <kbv/plugin.hpp> that do not change
 *    what crosses the boundary; the host's messages; problems and their specs.
 */
#ifndef KBV_PLUGIN_H
#define KBV_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI versions this header describes. A plugin built against this header supports
 * KBV_ABI_VERSION_MIN..KBV_ABI_VERSION unless it overrides KBV_PLUGIN_ABI_MIN /
 * KBV_PLUGIN_ABI_MAX (the C++ helper chooses the highest version both sides speak).
 *
 * History
 *  1  float32 tensors only.
 *  2  adds KBV_DTYPE_BOOL and passes int64 (KBV_DTYPE_I64) and bool input tensors (class
 *     indices, masks); outputs stay float32. A new dtype the host passes: raised MAX, kept MIN
 *     (Versioning above). The host passes a problem's int64 or bool inputs only to a plugin that
 *     chose ABI 2 or later; a plugin that chose ABI 1 is refused for such a problem (verdict
 *     abi_error, naming the input), and still evaluated on every float32 problem. */
#define KBV_ABI_VERSION 2u
#define KBV_ABI_VERSION_MIN 1u
#define KBV_ABI_VERSION_MAX 2u

/* Largest tensor rank that crosses the boundary (KernelBench's 5-D conv3d inputs fit). */
#define KBV_MAX_RANK 8

/* The single exported symbol's name, for loaders that look it up by string. */
#define KBV_NEGOTIATE_SYMBOL "kbv_plugin_negotiate"

#if defined(_WIN32)
#define KBV_PLUGIN_EXPORT __declspec(dllexport)
#else
#define KBV_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes returned by negotiate(), create() and run(). The table at the top of this file
 * says what the host does with each; the names say why, in the verdict's detail. */
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

/* Element types. What the host passes, by negotiated version: ABI 1 only KBV_DTYPE_F32; ABI 2
 * also KBV_DTYPE_I64 (int64_t, little-endian: class indices, torch.long) and KBV_DTYPE_BOOL (one
 * byte per element holding 0 or 1, as torch.bool) for inputs. Outputs are KBV_DTYPE_F32 in every
 * version. The others are reserved. */
typedef enum kbv_dtype {
  KBV_DTYPE_F32 = 1,
  KBV_DTYPE_F64 = 2,
  KBV_DTYPE_F16 = 3,
  KBV_DTYPE_BF16 = 4,
  KBV_DTYPE_I32 = 5,
  KBV_DTYPE_I64 = 6,
  KBV_DTYPE_BOOL = 7 /* ABI 2 */
} kbv_dtype;

/* A borrowed, dense, row-major tensor. `strides` are in elements and are always the
 * contiguous row-major strides in ABI 1 and 2; they are passed so later ABIs can relax that.
 * `dtype` says the element type (kbv_dtype, above: F32, and from ABI 2 I64 or BOOL for inputs);
 * read `data` as that type. Written by the host; read-only to the plugin. */
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

/* A scalar attribute of the problem (a conv's stride, a norm's epsilon), by name. Written by
 * the host; read-only to the plugin. */
typedef struct kbv_attribute {
  uint32_t struct_size;
  uint32_t abi_version;
  const char* name;              /* "<node>.<attribute>", e.g. "conv.stride"            */
  double value;
} kbv_attribute;

/* One invocation of the candidate: read `inputs`, write every element of `outputs`. Written
 * by the host; the struct, its arrays and its strings are borrowed for one run() call. */
typedef struct kbv_call {
  uint32_t struct_size;
  uint32_t abi_version;          /* the negotiated version                              */
  const char* problem;           /* problem name, e.g. "relu"                           */
  const kbv_tensor* inputs;      /* in the problem spec's order                         */
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

/* Services the host offers to the plugin. Written by the host; the struct and its pointers
 * stay valid until destroy() returns (in practice, for the worker's whole life). */
typedef struct kbv_host_api {
  uint32_t struct_size;
  uint32_t abi_version;
  void* host_context;            /* pass back unchanged as the first argument           */

  /* set_error — record why the entry point now running is about to fail.
   *  Called:  by the plugin, from inside negotiate(), create() or run(), any number of times.
   *  Thread:  the thread running that entry point only (the host does not lock).
   *  Params:  message (in): borrowed for this call; the host copies its first 4096 bytes.
   *           NULL clears the text.
   *  Effect:  the last text set before a failing return is shown in the verdict's detail
   *           after the status's name. The host clears it before each run(); a text set in a
   *           run() that then returns KBV_STATUS_OK is dropped.
   *  Must not: be called from another thread, or after the entry point has returned. */
  void (*set_error)(void* host_context, const char* message);

  /* log — free-form diagnostics.
   *  Called:  by the plugin, from inside any entry point, any number of times.
   *  Thread:  the thread running that entry point.
   *  Params:  level (in): 0 debug, 1 info, 2 warning, 3 error (printed, not filtered);
   *           message (in): borrowed for this call; the host prints its first 4096 bytes.
   *  Effect:  one line "candidate[LEVEL]: MESSAGE" on the worker's stderr. The evaluator
   *           keeps the last 4096 bytes of that stderr with the result (`worker_stderr_tail`;
   *           `kbv eval --verbose` prints it), so a flood only pushes earlier lines out.
   *  Must not: be used to carry results: nothing the worker writes is trusted. */
  void (*log)(void* host_context, int32_t level, const char* message);
} kbv_host_api;

/* What a plugin tells the host about itself. The host zero-fills it and sets struct_size;
 * negotiate() fills the rest. */
typedef struct kbv_plugin_info {
  uint32_t struct_size;          /* set by the host: sizeof(kbv_plugin_info) as it knows it */
  uint32_t abi_version;          /* set by the plugin: the version it chose              */
  /* Required: the problem this plugin implements. Must match `kbv eval --problem` when that
   * is given (load_error otherwise) and name a problem kbv knows (load_error otherwise).
   * The host copies it after negotiate() returns; keep it valid until destroy() anyway (a
   * string literal is right). */
  const char* problem;
  /* Optional: the author's label, e.g. "relu_vec4" (shown in results). Same lifetime. */
  const char* candidate_name;
  /* Required: the kbv_device the plugin's memory lives on. It must match `kbv eval
   * --device` (load_error otherwise); any other value is abi_error. */
  uint32_t device;
  uint32_t reserved0;

  /* create — allocate per-candidate state (handles, workspaces). Optional (NULL: none).
   *  Called:  once, right after a successful negotiate(), before the first run() and before
   *           the host has set up any input or output buffer.
   *  Thread:  the worker's main thread; on cuda, with the worker's CUDA context current.
   *  Params:  host (in): the same services negotiate() received, valid until destroy().
   *           state (out): *state is NULL on entry; whatever the plugin stores there is
   *           passed to every run() and to destroy().
   *  Returns: KBV_STATUS_OK -> the host goes on. Anything else -> verdict load_error with
   *           "create() returned status N" and the set_error() text; destroy() is NOT called,
   *           so release what a failing create() allocated before returning (the worker exits
   *           right after, which frees the rest).
   *  Time:    counts toward the load timeout (60 s), not toward any timed figure.
   *  Memory:  today the candidate's memory figure and the device-memory limit count what is
   *           held from each run() onwards, not what create() allocated before the first run().
   *  Must not: start threads or leave device work running; read or write anything outside
   *           the plugin's own state (the sandbox denies files and the network). */
  kbv_status (*create)(const kbv_host_api* host, void** state);

  /* run — compute the problem's outputs from its inputs. Required.
   *  Called:  after create(), any number of times: correctness calls on every input family,
   *           then timed calls (some after the host has flushed the GPU's L2 cache). Never
   *           concurrently; each call starts after the previous one's work has finished.
   *           Successive calls may pass the same or different buffers, with different data.
   *  Thread:  the worker's main thread, the same one as create().
   *  Params:  state (in): what create() stored (NULL without create()).
   *           call (in): borrowed until run() returns: the struct, its tensor and attribute
   *           arrays, every name, and the tensors' data. Inputs are read-only; every element
   *           of every output must be written (the host fills outputs with garbage first).
   *           host: pointers into shared memory, and run() must finish its work before it
   *           returns. cuda: device pointers of the current device; enqueue all work on
   *           call->stream and return; the host synchronises the stream and the device.
   *  Returns: KBV_STATUS_OK -> the host checks the outputs (or keeps the timing). Anything
   *           else -> verdict fail_correctness with "run() returned status N" and the
   *           set_error() text; no further run(); destroy() runs as the worker exits. A CUDA
   *           error the host sees when it synchronises after run() is graded as if run() had
   *           returned KBV_STATUS_DEVICE_ERROR.
   *  Must not: keep any pointer from `call` past the return (caching results by pointer is
   *           what kbv catches); modify an input; enqueue work on another stream or thread;
   *           leave work running after the return (host) or beyond the stream (cuda); behave
   *           differently when timed; throw a C++ exception across the boundary (it ends the
   *           worker: crash). */
  kbv_status (*run)(void* state, const kbv_call* call);

  /* destroy — release what create() allocated. Optional (NULL: nothing to release).
   *  Called:  at most once, after the last run(), when the evaluator has decided the verdict
   *           and tells the worker to exit; only if create() was set and returned
   *           KBV_STATUS_OK. Not called when the worker is killed (timeout) or dies (crash).
   *  Thread:  the worker's main thread; on cuda, with the CUDA context still current.
   *  Params:  state (in): what create() stored; the plugin owns it.
   *  Time:    the worker is killed if it has not exited 2 s after being told to.
   *  Effect:  none on the verdict, which is already decided.
   *  Must not: call set_error() expecting it to be shown. */
  void (*destroy)(void* state);
} kbv_plugin_info;

/* Bytes of kbv_plugin_info in ABI 1's layout (through `destroy`). A plugin that chooses ABI 1
 * needs info->struct_size >= KBV_PLUGIN_INFO_V1_SIZE and writes no field past it. */
#define KBV_PLUGIN_INFO_V1_SIZE ((uint32_t)(offsetof(kbv_plugin_info, destroy) + sizeof(void (*)(void*))))

/* kbv_plugin_negotiate — the one exported function: agree on an ABI version and describe the
 * plugin.
 *  Called:  once per worker, right after the library is loaded, before anything else.
 *  Thread:  the worker's main thread, inside the sandbox (on cuda, the CUDA context is
 *           current).
 *  Params:  host_abi_min, host_abi_max (in): the versions the host speaks.
 *           host (in): services (set_error, log); valid until destroy() returns.
 *           info (in/out): zero-filled by the host, which sets info->struct_size; the plugin
 *           sets abi_version, problem, candidate_name, device, create, run, destroy. Owned
 *           by the host; valid only during this call.
 *  Returns: KBV_STATUS_OK -> the host checks that abi_version lies in [host_abi_min,
 *           host_abi_max], that run and problem are set and that device is a kbv_device
 *           (abi_error otherwise), then calls create(). KBV_STATUS_ABI_MISMATCH when no
 *           version is shared or info->struct_size is below the chosen version's layout ->
 *           verdict abi_error, with the host's range and the set_error() text. Anything else ->
 *           verdict abi_error with the status and the set_error() text.
 *  Must not: launch device work, allocate (that is create()'s job), start threads, or keep
 *           the `info` pointer. */
typedef kbv_status (*kbv_plugin_negotiate_fn)(uint32_t host_abi_min, uint32_t host_abi_max,
                                              const kbv_host_api* host, kbv_plugin_info* info);

KBV_PLUGIN_EXPORT kbv_status kbv_plugin_negotiate(uint32_t host_abi_min, uint32_t host_abi_max,
                                                  const kbv_host_api* host,
                                                  kbv_plugin_info* info);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KBV_PLUGIN_H */
