// tests/sweep/progress_test.cpp — a sweep's plain progress lines: done counts every verdict of the
// epoch, the verdict counts say they are this run's when an earlier run left verdicts.
#include "sweep/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

namespace kbv::sweep {
namespace {

struct CloseFile {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

std::string lines_of(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text += static_cast<char>(c);
  return text;
}

TEST(Progress, AResumedSweepCountsThisRunsVerdictsAsSuch) {
  const std::unique_ptr<std::FILE, CloseFile> out(std::tmpfile());
  ASSERT_TRUE(out);
  Progress resumed(out.get(), false);
  resumed.start("kbv sweep s epoch 3", 12, 3);
  for (int i = 0; i < 9; ++i) resumed.finished_one(i < 8 ? "pass" : "timeout");
  resumed.finish("done");
  const std::string text = lines_of(out.get());
  EXPECT_NE(text.find("3 already have a verdict"), std::string::npos) << text;
  EXPECT_NE(text.find("12/12 done (8 pass, 1 timeout this run)"), std::string::npos) << text;

  const std::unique_ptr<std::FILE, CloseFile> fresh_out(std::tmpfile());
  Progress fresh(fresh_out.get(), false);
  fresh.start("kbv sweep s epoch 3", 2, 0);
  fresh.finished_one("pass");
  fresh.finished_one("pass");
  fresh.finish("done");
  EXPECT_NE(lines_of(fresh_out.get()).find("2/2 done (2 pass)"), std::string::npos) << lines_of(fresh_out.get());
}

}  // namespace
}  // namespace kbv::sweep
