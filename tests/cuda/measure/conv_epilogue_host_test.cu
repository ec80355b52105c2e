// tests/cuda/measure/conv_epilogue_host_test.cu — the convolution epilogue's device code played on
// the host (no GPU): batched_transpose.cuh's load and store phases (each form) for every thread of every block,
// with conv_epilogue.cuh's ChannelChain built from shipped problems' folded units, against the
// problem's math written out here in double; and the chain compiler's refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "measure/baseline/conv_epilogue_fold.hpp"
#include "ops/common/baseline/conv_epilogue.cuh"
#include "ops/common/baseline/fused_elementwise.hpp"
#include "spec/catalog.hpp"

namespace kbv::ops::baseline {
namespace {

// dst = transpose of src ([batch][rows][cols] → [batch][cols][rows]) with `epilogue`, as the kernel
// computes it: each block's threads through the load phase, then through the store phase.
template <class Epilogue>
void play_transpose(const std::vector<float>& src, std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols, const Epilogue& epilogue) {
  using namespace transpose;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t row0 = 0; row0 < rows; row0 += kTile)
      for (int64_t col0 = 0; col0 < cols; col0 += kTile) {
        Tile tile = {};
        for (int ty = 0; ty < kTileRowsPerPass; ++ty)
          for (int tx = 0; tx < kTile; ++tx) load_tile(tile, src.data() + b * rows * cols, rows, cols, row0, col0, tx, ty);
        for (int ty = 0; ty < kTileRowsPerPass; ++ty)
          for (int tx = 0; tx < kTile; ++tx) store_tile(tile, dst.data() + b * rows * cols, rows, cols, row0, col0, tx, ty, epilogue);
      }
}

// A tiled form's blocks played: for each tile of kRowSide source rows × kColSide source columns,
// its kThreads threads through load(tile, from, row0, col0, t), then through store(tile, to, row0,
// col0, t).
template <class TileType, int kRowSide, int kColSide, int kThreads, class Load, class Store>
void play_blocks(const std::vector<float>& src, std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols, Load&& load, Store&& store) {
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t row0 = 0; row0 < rows; row0 += kRowSide)
      for (int64_t col0 = 0; col0 < cols; col0 += kColSide) {
        TileType tile = {};
        for (int t = 0; t < kThreads; ++t) load(tile, src.data() + b * rows * cols, row0, col0, t);
        for (int t = 0; t < kThreads; ++t) store(tile, dst.data() + b * rows * cols, row0, col0, t);
      }
}

// The wide form's phases (rows and cols multiples of 4): 256 threads per 64×64 tile.
template <class Epilogue>
void play_wide_transpose(const std::vector<float>& src, std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols,
                         const Epilogue& epilogue) {
  using namespace transpose;
  constexpr WideMapping kMapping = Epilogue::kWideMapping;
  play_blocks<WideTile, kWideTile, kWideTile, kWideThreads>(
      src, dst, batch, rows, cols,
      [&](WideTile& tile, const float* from, int64_t row0, int64_t col0, int t) { load_wide_tile<kMapping>(tile, from, rows, cols, row0, col0, t); },
      [&](const WideTile& tile, float* to, int64_t row0, int64_t col0, int t) {
        store_wide_tile<kMapping>(tile, to, rows, cols, row0, col0, t, epilogue);
      });
}

// The long-row form's phases (cols a multiple of 4): 256 threads per tile of 32 source columns ×
// 128 source rows.
template <class Epilogue>
void play_long_transpose(const std::vector<float>& src, std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols,
                         const Epilogue& epilogue) {
  using namespace transpose;
  play_blocks<LongTile, kLongRows, kLongCols, kLongThreads>(
      src, dst, batch, rows, cols,
      [&](LongTile& tile, const float* from, int64_t row0, int64_t col0, int t) { load_long_tile(tile, from, rows, cols, row0, col0, t); },
      [&](const LongTile& tile, float* to, int64_t row0, int64_t col0, int t) { store_long_tile(tile, to, rows, cols, row0, col0, t, epilogue); });
}

// The transpose with `epilogue` in `form` (which must fit: the launcher would fall back).
template <class Epilogue>
void play_in_form(TransposeForm form, const std::vector<float>& src, std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols,
                  const Epilogue& epilogue) {
  if (form == TransposeForm::wide_where_it_fits) {
    EXPECT_TRUE(transpose::wide_form_fits(rows, cols, nullptr, nullptr));
    play_wide_transpose(src, dst, batch, rows, cols, epilogue);
  } else if (form == TransposeForm::long_rows_where_it_fits) {
    EXPECT_TRUE(transpose::long_form_fits(cols, nullptr));
    play_long_transpose(src, dst, batch, rows, cols, epilogue);
  } else {
    play_transpose(src, dst, batch, rows, cols, epilogue);
  }
}

std::vector<float> random_values(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-2.f, 2.f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(generator);
  return values;
}

// The folded unit of `problem` (a test failure when none folds).
cuda::BaselineUnit folded_unit(const ResolvedProblem& problem) {
  for (cuda::BaselineUnit& unit : cuda::fold_conv_epilogues(problem, cuda::plan_units(problem, fusable_elementwise), fusable_elementwise))
    if (unit.conv_epilogue) return unit;
  ADD_FAILURE() << problem.problem.name << " has no folded unit";
  return {};
}

ResolvedProblem shipped(const std::string& name) {
  return resolve_problem(ProblemCatalog::load(default_problems_directory()).get(name), "small");
}

struct Played {
  int64_t images = 2, pixels = 37, channels = 40;  // partial tiles on both axes (the narrow form's)
  std::vector<float> nhwc, nchw, conv_bias;
  std::vector<float> operand;          // the chain's one other operand, a value per channel
  std::string description;             // the chain, "relu → add"
  std::vector<std::string> unit_inputs;
};

// Plays the folded epilogue of the shipped problem `name`, whose chain reads one operand besides
// the convolution's output (drawn with `seed`, a value per channel), over random NHWC values;
// nchw gets the result.
// `form`: the wide one at 68 pixels × 72 channels (multiples of 4, a partial 64-tile on both
// axes); the long-row one at 130 × 72 (partial tiles of 128 pixels and 32 channels).
Played play(const std::string& name, uint32_t seed, TransposeForm form = TransposeForm::narrow) {
  const ResolvedProblem problem = shipped(name);
  const cuda::BaselineUnit unit = folded_unit(problem);
  Played p;
  if (form == TransposeForm::wide_where_it_fits) p.pixels = 68, p.channels = 72;
  if (form == TransposeForm::long_rows_where_it_fits) p.pixels = 130, p.channels = 72;
  p.unit_inputs = unit.inputs;
  p.nhwc = random_values(static_cast<size_t>(p.images * p.pixels * p.channels), 11);
  p.conv_bias = random_values(static_cast<size_t>(p.channels), 12);
  p.operand = random_values(static_cast<size_t>(p.channels), seed);
  p.nchw.assign(p.nhwc.size(), std::nanf(""));
  ChannelChain epilogue = make_channel_chain(problem, unit, p.description);
  epilogue.bias = p.conv_bias.data();
  epilogue.pointers[0] = p.operand.data();
  epilogue.channel_stride[0] = 1;  // the played layout: dense per channel
  play_in_form(form, p.nhwc, p.nchw, p.images, p.pixels, p.channels, epilogue);
  return p;
}

// Σ over every output of f(n, c, pixel, conv value with its bias) against what was played.
template <class Expected>
void expect_every_output(const Played& p, Expected expected) {
  int mismatches = 0;
  for (int64_t n = 0; n < p.images; ++n)
    for (int64_t c = 0; c < p.channels; ++c)
      for (int64_t q = 0; q < p.pixels; ++q) {
        const double conv = static_cast<double>(p.nhwc[static_cast<size_t>((n * p.pixels + q) * p.channels + c)]) + p.conv_bias[static_cast<size_t>(c)];
        const double want = expected(c, conv);
        const double got = p.nchw[static_cast<size_t>((n * p.channels + c) * p.pixels + q)];
        if (!(std::abs(got - want) <= 1e-5 * (1 + std::abs(want))) && ++mismatches <= 5)
          ADD_FAILURE() << "image " << n << " channel " << c << " pixel " << q << ": " << got << ", expected " << want;
      }
  EXPECT_EQ(mismatches, 0);
}

TEST(ConvEpilogueOnTheHost, ReluThenBiasAddOfConv2dReluBiasAdd) {
  const Played p = play("conv2d_relu_biasadd", 13);
  ASSERT_EQ(p.unit_inputs.size(), 4u) << "x, weight, conv_bias, bias";
  EXPECT_EQ(p.description, "relu → add");
  expect_every_output(p, [&](int64_t c, double conv) { return std::max(conv, 0.0) + p.operand[static_cast<size_t>(c)]; });
}

TEST(ConvEpilogueOnTheHost, ReluThenBiasAddThroughTheWideForm) {
  const Played p = play("conv2d_relu_biasadd", 17, TransposeForm::wide_where_it_fits);
  expect_every_output(p, [&](int64_t c, double conv) { return std::max(conv, 0.0) + p.operand[static_cast<size_t>(c)]; });
}

TEST(ConvEpilogueOnTheHost, ReluThenBiasAddThroughTheLongRowForm) {
  const Played p = play("conv2d_relu_biasadd", 19, TransposeForm::long_rows_where_it_fits);
  expect_every_output(p, [&](int64_t c, double conv) { return std::max(conv, 0.0) + p.operand[static_cast<size_t>(c)]; });
}

TEST(ConvEpilogueOnTheHost, ClampAddScaleThroughTheLongRowForm) {
  const Played p = play("kb_l2_31_conv2d_min_add_multiply", 20, TransposeForm::long_rows_where_it_fits);
  expect_every_output(p, [&](int64_t c, double conv) { return (std::min(conv, 0.5) + p.operand[static_cast<size_t>(c)]) * 2.0; });
}

TEST(ConvEpilogueOnTheHost, MultiplierLeakyReluGeluOfKernelBenchL2_54) {
  const Played p = play("kb_l2_54_conv2d_multiply_leakyrelu_gelu", 14);
  EXPECT_EQ(p.description, "mul → leaky_relu → gelu");
  expect_every_output(p, [&](int64_t c, double conv) {
    double v = conv * p.operand[static_cast<size_t>(c)];
    v = v < 0 ? v * 0.01 : v;
    return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  });
}

TEST(ConvEpilogueOnTheHost, ClampAddScaleOfKernelBenchL2_31) {
  const Played p = play("kb_l2_31_conv2d_min_add_multiply", 15);
  EXPECT_EQ(p.description, "clamp → add → scale");
  expect_every_output(p, [&](int64_t c, double conv) { return (std::min(conv, 0.5) + p.operand[static_cast<size_t>(c)]) * 2.0; });
}

// conv2d_relu_biasadd's chain is the one the transposes run written out (ReluThenChannelAdd), with
// the interpreter's results bit for bit in every form, whichever side of the add the value is on;
// the other shipped chains, and relu → add of another input or in the other order, are not.
TEST(ConvEpilogueOnTheHost, ReluThenAddWrittenOutGivesTheInterpretersBits) {
  const ResolvedProblem problem = shipped("conv2d_relu_biasadd");
  std::string description;
  ChannelChain interpreted = make_channel_chain(problem, folded_unit(problem), description);
  ASSERT_TRUE(is_relu_then_add(interpreted.code));
  const int64_t images = 2, pixels = 132, channels = 72;  // partial tiles in every form, multiples of 4 (the wide one)
  const std::vector<float> nhwc = random_values(static_cast<size_t>(images * pixels * channels), 31);
  const std::vector<float> bias = random_values(static_cast<size_t>(channels), 32), operand = random_values(static_cast<size_t>(channels), 33);
  interpreted.bias = bias.data();
  interpreted.pointers[0] = operand.data();
  interpreted.channel_stride[0] = 1;
  ChannelChain swapped = interpreted;  // input 0 + the value
  std::swap(swapped.code.code[1].operands[0], swapped.code.code[1].operands[1]);
  ASSERT_TRUE(is_relu_then_add(swapped.code));
  ChannelChain unbiased = interpreted;
  unbiased.bias = nullptr;
  for (const ChannelChain& chain : {interpreted, swapped, unbiased})
    for (const TransposeForm form : {TransposeForm::narrow, TransposeForm::wide_where_it_fits, TransposeForm::long_rows_where_it_fits}) {
      std::vector<float> want(nhwc.size(), std::nanf("")), got(nhwc.size(), std::nanf(""));
      play_in_form(form, nhwc, want, images, pixels, channels, chain);
      play_in_form(form, nhwc, got, images, pixels, channels, ReluThenChannelAdd{chain});
      ASSERT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(float))) << "form " << static_cast<int>(form);
    }
  for (const char* other : {"kb_l2_31_conv2d_min_add_multiply", "kb_l2_54_conv2d_multiply_leakyrelu_gelu"}) {
    const ResolvedProblem shipped_problem = shipped(other);
    EXPECT_FALSE(is_relu_then_add(make_channel_chain(shipped_problem, folded_unit(shipped_problem), description).code)) << other;
  }
  chain::ChainCode another_input = interpreted.code;
  another_input.code[1].operands[1].index = 1;
  EXPECT_FALSE(is_relu_then_add(another_input));
  chain::ChainCode add_then_relu = interpreted.code;
  std::swap(add_then_relu.code[0], add_then_relu.code[1]);
  EXPECT_FALSE(is_relu_then_add(add_then_relu));
}

// Leaves the values as they are, in either form (the wide one in the given mapping).
template <transpose::WideMapping kMapping = transpose::WideMapping::two_lines>
struct NoEpilogue {
  static constexpr transpose::WideMapping kWideMapping = kMapping;
  __host__ __device__ void operator()(float (&)[transpose::kLanes], const int64_t (&)[transpose::kLanes]) const {}
  __host__ __device__ void operator()(float (&)[transpose::kVector], int64_t) const {}
};

// dst is src ([batch][rows][cols]) transposed, value for value.
void expect_transposed(const std::vector<float>& src, const std::vector<float>& dst, int64_t batch, int64_t rows, int64_t cols) {
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        ASSERT_EQ(dst[static_cast<size_t>((b * cols + j) * rows + i)], src[static_cast<size_t>((b * rows + i) * cols + j)])
            << rows << "x" << cols << " at " << b << "," << i << "," << j;
}

// The plain transpose (batched_transpose.cu's epilogue is the bias alone) through the same phases.
TEST(ConvEpilogueOnTheHost, ThePlayedTransposeIsATransposeAtEveryEdge) {
  for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {33, 31}, {64, 32}, {5, 70}}) {
    const std::vector<float> src = random_values(static_cast<size_t>(3 * rows * cols), 16);
    std::vector<float> dst(src.size(), std::nanf(""));
    play_transpose(src, dst, 3, rows, cols, NoEpilogue<>{});
    expect_transposed(src, dst, 3, rows, cols);
  }
}

// The wide form where it applies (multiples of 4), in both mappings, at full and partial 64×64 tiles; where it does
// not (a side not a multiple of 4, a buffer not 16-byte aligned), the launcher keeps the 32×32 form.
TEST(ConvEpilogueOnTheHost, TheWideFormIsATransposeAtEveryEdge) {
  for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{4, 4}, {64, 64}, {68, 132}, {8, 200}, {132, 12}}) {
    const std::vector<float> src = random_values(static_cast<size_t>(3 * rows * cols), 18);
    std::vector<float> dst(src.size(), std::nanf(""));
    play_wide_transpose(src, dst, 3, rows, cols, NoEpilogue<transpose::WideMapping::two_lines>{});
    expect_transposed(src, dst, 3, rows, cols);
    std::vector<float> four_lines(src.size(), std::nanf(""));
    play_wide_transpose(src, four_lines, 3, rows, cols, NoEpilogue<transpose::WideMapping::four_lines>{});
    expect_transposed(src, four_lines, 3, rows, cols);
  }
  alignas(16) float buffer[8] = {};
  EXPECT_TRUE(transpose::wide_form_fits(4, 8, buffer, buffer + 4));
  EXPECT_FALSE(transpose::wide_form_fits(6, 8, buffer, buffer + 4));
  EXPECT_FALSE(transpose::wide_form_fits(4, 6, buffer, buffer + 4));
  EXPECT_FALSE(transpose::wide_form_fits(4, 8, buffer + 1, buffer + 4));
}

// The long-row form where it applies (columns a multiple of 4, the source 16-byte aligned), at full
// and partial tiles of 128 rows × 32 columns (64 rows: a convolution input's 64 channels, the input
// pass's form), with the bias (batched_transpose.cu's epilogue for the output pass without a
// chain); where it does not, the launcher keeps the 32×32 form.
TEST(ConvEpilogueOnTheHost, TheLongRowFormIsATransposeAtEveryEdge) {
  for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{{1, 4}, {128, 32}, {130, 36}, {5, 64}, {64, 132}, {300, 8}, {257, 100}}) {
    const std::vector<float> src = random_values(static_cast<size_t>(3 * rows * cols), 21);
    std::vector<float> dst(src.size(), std::nanf(""));
    play_long_transpose(src, dst, 3, rows, cols, NoEpilogue<>{});
    expect_transposed(src, dst, 3, rows, cols);
    const std::vector<float> bias = random_values(static_cast<size_t>(cols), 22);
    std::vector<float> biased(src.size(), std::nanf(""));
    play_long_transpose(src, biased, 3, rows, cols, transpose::ColumnBias{bias.data()});
    for (int64_t b = 0; b < 3; ++b)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          ASSERT_EQ(biased[static_cast<size_t>((b * cols + j) * rows + i)], src[static_cast<size_t>((b * rows + i) * cols + j)] + bias[static_cast<size_t>(j)])
              << rows << "x" << cols << " at " << b << "," << i << "," << j;
  }
  alignas(16) float buffer[8] = {};
  EXPECT_TRUE(transpose::long_form_fits(8, buffer));
  EXPECT_TRUE(transpose::long_form_fits(4, buffer + 4));
  EXPECT_FALSE(transpose::long_form_fits(6, buffer));
  EXPECT_FALSE(transpose::long_form_fits(8, buffer + 1));
}

TEST(ConvEpilogueOnTheHost, TheChainCompilerRefusesWhatTheInterpreterCannotRun) {
  const ResolvedProblem problem = shipped("conv2d_relu_biasadd");
  const cuda::BaselineUnit unit = folded_unit(problem);
  std::string description;
  // The seed ("t0", the convolution's output) read by a node after the first.
  const std::vector<size_t> reversed = {unit.nodes[2], unit.nodes[1]};
  EXPECT_THROW(chain::compile_chain(problem.problem, reversed, {"t1", "bias"}, "t0", description), std::invalid_argument);
  // A tensor the chain is not given.
  EXPECT_THROW(chain::compile_chain(problem.problem, {unit.nodes[1], unit.nodes[2]}, {}, "t0", description), std::invalid_argument);
  // Not a folded unit.
  cuda::BaselineUnit plain = unit;
  plain.conv_epilogue = false;
  EXPECT_THROW(make_channel_chain(problem, plain, description), std::invalid_argument);
}

}  // namespace
}  // namespace kbv::ops::baseline
