// tests/sdk/helper_test.cpp — the C++ helper (kbv/plugin.hpp) seen from a host: each test plugin
// is dlopened here and driven through the C ABI the way kbv-worker drives it (kbv/plugin.h), with
// a host API that records set_error() and log() calls. Covers the stateful form's create → run →
// destroy, its failure paths, the helper's error texts, and a plugin built against a future
// ABI 2 header negotiating with this (ABI 1) host.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <kbv/plugin.h>
#include <kbv/plugin.hpp>

#include <array>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

// What the plugin told the host through kbv_host_api.
struct HostRecord {
  std::string error;
  std::vector<std::string> log;
};

void record_error(void* context, const char* message) { static_cast<HostRecord*>(context)->error = message ? message : ""; }
void record_log(void* context, int32_t, const char* message) { static_cast<HostRecord*>(context)->log.emplace_back(message ? message : ""); }

struct Library {
  explicit Library(const std::string& name) {
    const std::string path = std::string(KBV_SDK_TEST_CANDIDATE_DIR) + "/libsdk_" + name + ".so";
    handle.reset(::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
    if (!handle) throw std::runtime_error(path + ": " + ::dlerror());
    negotiate = reinterpret_cast<kbv_plugin_negotiate_fn>(::dlsym(handle.get(), KBV_NEGOTIATE_SYMBOL));
    if (!negotiate) throw std::runtime_error(path + ": no " KBV_NEGOTIATE_SYMBOL);
  }
  struct Closer {
    void operator()(void* h) const { ::dlclose(h); }
  };
  std::unique_ptr<void, Closer> handle;
  kbv_plugin_negotiate_fn negotiate = nullptr;
};

// A relu call on 4 elements, as the worker builds one.
struct ReluCall {
  std::array<float, 4> x{-1.0f, 2.0f, -3.0f, 4.0f};
  std::array<float, 4> y{};
  kbv_tensor input{}, output{};
  kbv_call call{};
  ReluCall() {
    for (kbv_tensor* tensor : {&input, &output}) {
      tensor->struct_size = sizeof(kbv_tensor);
      tensor->abi_version = 1;
      tensor->dtype = KBV_DTYPE_F32;
      tensor->device = KBV_DEVICE_HOST;
      tensor->rank = 1;
      tensor->shape[0] = 4;
      tensor->strides[0] = 1;
    }
    input.name = "x";
    input.data = x.data();
    output.name = "y";
    output.data = y.data();
    call.struct_size = sizeof(kbv_call);
    call.abi_version = 1;
    call.problem = "relu";
    call.inputs = &input;
    call.num_inputs = 1;
    call.outputs = &output;
    call.num_outputs = 1;
  }
};

class Host {
 public:
  Host() : api_{sizeof(kbv_host_api), KBV_ABI_VERSION, &record_, &record_error, &record_log} {}
  const kbv_host_api* api() const { return &api_; }
  HostRecord& record() { return record_; }
  // negotiate() with a zero-filled info of this host's size (ABI 1), as kbv-worker does.
  kbv_status negotiate(const Library& library, kbv_plugin_info& info) {
    info = kbv_plugin_info{};
    info.struct_size = sizeof(kbv_plugin_info);
    return library.negotiate(KBV_ABI_VERSION_MIN, KBV_ABI_VERSION_MAX, api(), &info);
  }

 private:
  HostRecord record_;
  kbv_host_api api_;
};

TEST(SdkHelper, StatefulFormCreatesRunsAndDestroysOneObject) {
  const Library library("stateful_counter");
  Host host;
  kbv_plugin_info info{};
  ASSERT_EQ(host.negotiate(library, info), KBV_STATUS_OK) << host.record().error;
  ASSERT_NE(info.create, nullptr);
  ASSERT_NE(info.run, nullptr);
  ASSERT_NE(info.destroy, nullptr);
  EXPECT_STREQ(info.problem, "relu");
  EXPECT_STREQ(info.candidate_name, "stateful_counter");

  void* state = nullptr;
  ASSERT_EQ(info.create(host.api(), &state), KBV_STATUS_OK) << host.record().error;
  ASSERT_NE(state, nullptr);
  ASSERT_EQ(host.record().log, std::vector<std::string>{"stateful_counter: created"});
  ReluCall relu;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(info.run(state, &relu.call), KBV_STATUS_OK) << host.record().error;
  EXPECT_EQ(relu.y, (std::array<float, 4>{0.0f, 2.0f, 0.0f, 4.0f}));
  info.destroy(state);
  ASSERT_EQ(host.record().log.size(), 2u);
  EXPECT_EQ(host.record().log.back(), "stateful_counter: destroyed after 3 calls");
}

TEST(SdkHelper, StatelessFormHasNoCreateOrDestroy) {
  const Library library("wrong_input_name");
  Host host;
  kbv_plugin_info info{};
  ASSERT_EQ(host.negotiate(library, info), KBV_STATUS_OK);
  EXPECT_EQ(info.create, nullptr);
  EXPECT_EQ(info.destroy, nullptr);
}

TEST(SdkHelper, ConstructorFailureReturnsItsStatusAndLeavesNoState) {
  const Library library("throwing_constructor");
  Host host;
  kbv_plugin_info info{};
  ASSERT_EQ(host.negotiate(library, info), KBV_STATUS_OK);
  void* state = nullptr;
  EXPECT_EQ(info.create(host.api(), &state), KBV_STATUS_DEVICE_ERROR);
  EXPECT_EQ(state, nullptr) << "a failed create() must leave no state for destroy()";
  EXPECT_EQ(host.record().error, "no workspace: the allocation failed");
}

TEST(SdkHelper, WrongInputNameListsTheProblemsInputs) {
  const Library library("wrong_input_name");
  Host host;
  kbv_plugin_info info{};
  ASSERT_EQ(host.negotiate(library, info), KBV_STATUS_OK);
  ReluCall relu;
  EXPECT_EQ(info.run(nullptr, &relu.call), KBV_STATUS_INTERNAL);
  EXPECT_NE(host.record().error.find("no input named 'X'"), std::string::npos) << host.record().error;
  EXPECT_NE(host.record().error.find("inputs: x"), std::string::npos) << host.record().error;
}

TEST(SdkHelper, ExceptionInRunSaysItWasAnException) {
  const Library library("throws_in_run");
  Host host;
  kbv_plugin_info info{};
  ASSERT_EQ(host.negotiate(library, info), KBV_STATUS_OK);
  ReluCall relu;
  EXPECT_EQ(info.run(nullptr, &relu.call), KBV_STATUS_INTERNAL);
  EXPECT_EQ(host.record().error, "C++ exception in run(): boom");
}

// The latent bug kbv/plugin.h's Versioning section names: a plugin built against a header whose
// kbv_plugin_info is larger must not refuse a host that offers the older version with the
// older, smaller struct.
TEST(SdkHelper, PluginBuiltAgainstAFutureHeaderServesThisOlderHost) {
  const Library library("next_abi_relu");
  Host host;
  // This host's struct (ABI 1), followed by bytes the plugin must not touch.
  constexpr unsigned char kCanary = 0xA5;
  struct {
    kbv_plugin_info info;
    std::array<unsigned char, 64> beyond;
  } buffer;
  std::memset(&buffer, 0, sizeof buffer);
  buffer.beyond.fill(kCanary);
  buffer.info.struct_size = KBV_PLUGIN_INFO_V1_SIZE;
  ASSERT_EQ(library.negotiate(1, 1, host.api(), &buffer.info), KBV_STATUS_OK) << host.record().error;
  EXPECT_EQ(buffer.info.abi_version, 1u);
  EXPECT_STREQ(buffer.info.problem, "relu");
  for (unsigned char byte : buffer.beyond) ASSERT_EQ(byte, kCanary) << "the plugin wrote past the host's struct_size";
  ReluCall relu;
  ASSERT_EQ(buffer.info.run(nullptr, &relu.call), KBV_STATUS_OK);
  EXPECT_EQ(relu.y, (std::array<float, 4>{0.0f, 2.0f, 0.0f, 4.0f}));
}

TEST(SdkHelper, PluginRefusesAStructSmallerThanTheVersionItChose) {
  const Library library("stateful_counter");
  Host host;
  kbv_plugin_info info{};
  info.struct_size = KBV_PLUGIN_INFO_V1_SIZE - 8;
  EXPECT_EQ(library.negotiate(1, 1, host.api(), &info), KBV_STATUS_ABI_MISMATCH);
  EXPECT_NE(host.record().error.find("needs " + std::to_string(KBV_PLUGIN_INFO_V1_SIZE)), std::string::npos) << host.record().error;
  EXPECT_EQ(info.run, nullptr) << "nothing is filled in on refusal";
}

TEST(SdkHelper, NoVersionInCommonIsRefusedWithBothRanges) {
  const Library library("stateful_counter");
  Host host;
  kbv_plugin_info info{};
  info.struct_size = sizeof(kbv_plugin_info);
  EXPECT_EQ(library.negotiate(3, 4, host.api(), &info), KBV_STATUS_ABI_MISMATCH);
  EXPECT_NE(host.record().error.find("candidate speaks ABI 1..2, host 3..4"), std::string::npos) << host.record().error;
}

// data<T>() checks the tensor's dtype: int64 and bool inputs (ABI 2) read as themselves, any other
// type throws kbv::Error(INVALID_ARGUMENT) naming the tensor and the type to use.
TEST(SdkHelper, TypedAccessorsCheckTheDtype) {
  int64_t classes[2] = {3, 1};
  bool mask[2] = {true, false};
  kbv_tensor targets{}, flags{};
  targets.name = "targets";
  targets.dtype = KBV_DTYPE_I64;
  targets.data = classes;
  flags.name = "mask";
  flags.dtype = KBV_DTYPE_BOOL;
  flags.data = mask;
  const kbv::Tensor t(targets), m(flags);
  EXPECT_EQ(t.data<int64_t>(), classes);
  EXPECT_EQ(t.data<const int64_t>(), classes);
  EXPECT_EQ(m.data<bool>(), mask);
  EXPECT_EQ(m.data<void>(), static_cast<void*>(mask)) << "data<void>() is the unchecked address";
  try {
    (void)t.data<float>();
    FAIL() << "data<float>() of an int64 tensor must throw";
  } catch (const kbv::Error& error) {
    EXPECT_EQ(error.status(), KBV_STATUS_INVALID_ARGUMENT);
    EXPECT_STREQ(error.what(), "kbv: tensor 'targets' is int64_t, read with data<float>() (fix: use data<int64_t>())");
  }
  EXPECT_THROW((void)m.data<int64_t>(), kbv::Error);
  EXPECT_THROW((void)t.data<bool>(), kbv::Error);
}

}  // namespace
