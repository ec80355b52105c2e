/* hostile_relu_missing_export — a shared library that exports a relu function under some
 * other name and no kbv_plugin_negotiate at all.
 * Expected: verdict load_error, exit 2 (bad input: refused before a worker loads it; the
 * message names the missing symbol). */
#include <kbv/plugin.h>

KBV_PLUGIN_EXPORT void relu_forward(const float* x, float* y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
