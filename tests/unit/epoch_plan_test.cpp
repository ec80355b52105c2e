// epoch_plan_test.cpp — hidden families rotate by epoch and key, and only the key decides.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <thread>
#include <vector>

#include "inputs/epoch_plan.hpp"
#include "inputs/family_classes.hpp"
#include "inputs/family_names.hpp"

namespace {

kbv::inputs::SecretKey key_of(uint8_t fill) {
  std::array<uint8_t, kbv::inputs::kSecretKeyBytes> bytes{};
  bytes.fill(fill);
  return kbv::inputs::SecretKey::from_bytes(bytes);
}

std::set<std::string> hidden_names(const kbv::inputs::EpochPlan& plan) {
  std::set<std::string> names;
  for (const auto& draw : plan.families)
    if (draw.hidden) names.insert(std::string(kbv::inputs::family_name(draw.family)));
  return names;
}

TEST(EpochPlan, PublicFirstThenOneFamilyPerClass) {
  const auto plan = kbv::inputs::plan_epoch(key_of(1), 10, "relu", 3);
  ASSERT_EQ(plan.families.size(), 1 + kbv::inputs::kFamilyClassCount);
  EXPECT_EQ(plan.families.front().family, kbv::inputs::Family::uniform01);
  EXPECT_EQ(plan.public_family.family, kbv::inputs::Family::uniform01);
  EXPECT_FALSE(plan.families.front().hidden);
  for (const auto& draw : plan.families) EXPECT_EQ(draw.trial_seeds.size(), 3u);
  // Every class once, holding every one of its families once, the first of them planned.
  ASSERT_EQ(plan.classes.size(), kbv::inputs::kFamilyClassCount);
  std::set<kbv::inputs::FamilyClass> classes;
  for (size_t c = 0; c < plan.classes.size(); ++c) {
    const auto& draw = plan.classes[c];
    classes.insert(draw.family_class);
    std::vector<kbv::inputs::Family> members;
    for (const auto& family : draw.families) {
      members.push_back(family.family);
      EXPECT_TRUE(family.hidden);
      EXPECT_EQ(kbv::inputs::class_of(family.family), draw.family_class);
      EXPECT_EQ(family.trial_seeds.size(), 3u);
    }
    std::sort(members.begin(), members.end());
    EXPECT_EQ(members, kbv::inputs::families_of(draw.family_class)) << kbv::inputs::class_name(draw.family_class);
    EXPECT_EQ(plan.families[1 + c].family, draw.families.front().family);
  }
  EXPECT_EQ(classes.size(), kbv::inputs::kFamilyClassCount);
}

TEST(EpochPlan, EveryHiddenFamilyHasAClassAndEveryClassTwoFamiliesOrMore) {
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) {
    const auto family = static_cast<kbv::inputs::Family>(f);
    EXPECT_EQ(kbv::inputs::class_of(family).has_value(), kbv::inputs::is_hidden(family)) << kbv::inputs::family_name(family);
  }
  for (uint32_t c = 0; c < kbv::inputs::kFamilyClassCount; ++c) {
    const auto family_class = static_cast<kbv::inputs::FamilyClass>(c);
    EXPECT_GE(kbv::inputs::families_of(family_class).size(), 2u) << kbv::inputs::class_name(family_class);
    EXPECT_EQ(kbv::inputs::class_from_name(kbv::inputs::class_name(family_class)), family_class);
  }
}

TEST(EpochPlan, DeterministicForTheSameKeyEpochAndProblem) {
  const auto a = kbv::inputs::plan_epoch(key_of(1), 10, "relu", 2);
  const auto b = kbv::inputs::plan_epoch(key_of(1), 10, "relu", 2);
  ASSERT_EQ(a.families.size(), b.families.size());
  for (size_t i = 0; i < a.families.size(); ++i) {
    EXPECT_EQ(a.families[i].family, b.families[i].family);
    EXPECT_EQ(a.families[i].trial_seeds, b.families[i].trial_seeds);
    EXPECT_EQ(a.families[i].params.a, b.families[i].params.a);
    EXPECT_EQ(a.families[i].params.b, b.families[i].params.b);
    EXPECT_EQ(a.families[i].params.structure, b.families[i].params.structure);
  }
}

TEST(EpochPlan, RotatesAcrossEpochsAndKeys) {
  std::set<std::set<std::string>> selections;
  std::set<std::vector<kbv::inputs::FamilyClass>> class_orders;
  for (uint64_t epoch = 0; epoch < 20; ++epoch) {
    const auto plan = kbv::inputs::plan_epoch(key_of(1), epoch, "relu", 1);
    selections.insert(hidden_names(plan));
    std::vector<kbv::inputs::FamilyClass> order;
    for (const auto& draw : plan.classes) order.push_back(draw.family_class);
    class_orders.insert(order);
  }
  EXPECT_GT(selections.size(), 5u);
  EXPECT_GT(class_orders.size(), 5u);
  // Another key gives other seeds even where it picks the same families.
  const auto a = kbv::inputs::plan_epoch(key_of(1), 3, "relu", 1);
  const auto b = kbv::inputs::plan_epoch(key_of(2), 3, "relu", 1);
  EXPECT_NE(a.families.front().trial_seeds, b.families.front().trial_seeds);
}

TEST(EpochPlan, EveryHiddenFamilyIsPlannedFirstInItsClassSometimes) {
  std::set<std::string> seen;
  for (uint64_t epoch = 0; epoch < 60; ++epoch)
    for (const auto& name : hidden_names(kbv::inputs::plan_epoch(key_of(3), epoch, "softmax", 1))) seen.insert(name);
  EXPECT_EQ(seen.size(), kbv::inputs::kFamilyCount - 1);
}

// The structure seed is keyed per family and epoch, and only structured families have one.
TEST(EpochPlan, StructuredFamiliesCarryAKeyedStructureSeed) {
  for (uint32_t f = 0; f < kbv::inputs::kFamilyCount; ++f) {
    const auto family = static_cast<kbv::inputs::Family>(f);
    const auto a = kbv::inputs::draw_family(key_of(1), 4, "layernorm", family, 1);
    const auto b = kbv::inputs::draw_family(key_of(1), 5, "layernorm", family, 1);
    if (kbv::inputs::is_structured(family)) {
      EXPECT_NE(a.params.structure, 0u) << kbv::inputs::family_name(family);
      EXPECT_NE(a.params.structure, b.params.structure) << kbv::inputs::family_name(family);
    } else {
      EXPECT_EQ(a.params.structure, 0u) << kbv::inputs::family_name(family);
    }
  }
}

TEST(EpochPlan, EpochIsWeeksSinceOrigin) {
  using namespace std::chrono;
  const auto origin = system_clock::time_point(seconds(kbv::inputs::kDefaultEpochOrigin));
  EXPECT_EQ(kbv::inputs::epoch_at(origin), 0u);
  EXPECT_EQ(kbv::inputs::epoch_at(origin + hours(24 * 7 * 3 + 1)), 3u);
}

TEST(SecretKey, CreateThenLoadRoundTripsWithPrivateMode) {
  const auto path = std::filesystem::temp_directory_path() / ("kbv-key-test-" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  const auto created = kbv::inputs::SecretKey::create(path);
  EXPECT_EQ(kbv::inputs::SecretKey::load(path).bytes(), created.bytes());
  const auto perms = std::filesystem::status(path).permissions();
  EXPECT_EQ(perms & std::filesystem::perms::group_read, std::filesystem::perms::none);
  EXPECT_EQ(perms & std::filesystem::perms::others_read, std::filesystem::perms::none);
  EXPECT_THROW(kbv::inputs::SecretKey::create(path), std::runtime_error);  // never overwrites
  std::filesystem::remove(path);
}

// kbvd starts several `kbv eval` processes at once; on a fresh machine each may find no key and
// create one. One wins; every one of them must get the winner's key, whole (CI, 2026-11-29: the
// loser failed with "cannot create the secret key file", and the daemon's result was bad_input).
TEST(SecretKey, RacingCreatorsAllGetTheOneKey) {
  const auto directory = std::filesystem::temp_directory_path() / ("kbv-key-race-" + std::to_string(::getpid()));
  constexpr int kRounds = 20, kRacers = 8;
  for (int round = 0; round < kRounds; ++round) {
    std::filesystem::remove_all(directory);
    const auto path = directory / "secret.key";
    std::vector<std::array<uint8_t, kbv::inputs::kSecretKeyBytes>> keys(kRacers);
    std::vector<std::string> errors(kRacers);
    std::vector<int> creators(kRacers, 0);
    std::vector<std::thread> racers;
    for (int racer = 0; racer < kRacers; ++racer)
      racers.emplace_back([&, racer] {
        try {
          bool created = false;
          // The default key's race: its state folder may not exist yet either.
          keys[static_cast<size_t>(racer)] = kbv::inputs::SecretKey::load_or_create(path, &created, /*create_folders=*/true).bytes();
          creators[static_cast<size_t>(racer)] = created ? 1 : 0;
        } catch (const std::exception& error) {
          errors[static_cast<size_t>(racer)] = error.what();
        }
      });
    for (auto& racer : racers) racer.join();
    for (const std::string& error : errors) EXPECT_TRUE(error.empty()) << error;
    for (const auto& key : keys) EXPECT_EQ(key, kbv::inputs::SecretKey::load(path).bytes());
    EXPECT_EQ(std::count(creators.begin(), creators.end(), 1), 1) << "round " << round;
    for (const auto& entry : std::filesystem::directory_iterator(directory))
      EXPECT_EQ(entry.path().filename(), "secret.key") << "a temporary file was left behind";
  }
  std::filesystem::remove_all(directory);
}

// A key path in a folder that does not exist is a typo, not a request for a new key (which
// would change every hidden family): refused, and nothing is created.
TEST(SecretKey, KeyInAMissingFolderIsRefusedUnlessFoldersMayBeCreated) {
  const auto directory = std::filesystem::temp_directory_path() / ("kbv-key-missing-" + std::to_string(::getpid()));
  std::filesystem::remove_all(directory);
  const auto path = directory / "typo" / "secret.key";
  try {
    (void)kbv::inputs::SecretKey::load_or_create(path);
    ADD_FAILURE() << "a key was created in a missing folder";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("kbv keygen --key-file"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(directory));
  bool created = false;
  (void)kbv::inputs::SecretKey::load_or_create(path, &created, /*create_folders=*/true);
  EXPECT_TRUE(created);
  std::filesystem::remove_all(directory);
}

// A key others can read or replace, or one another user owns, is refused: with it, a candidate's
// author could predict every hidden input (red-team: with HOME unset, kbv used a 0644 key another
// user planted under /tmp).
TEST(SecretKey, AKeyFileOthersCanReadOrOwnIsRefused) {
  const auto path = std::filesystem::temp_directory_path() / ("kbv-key-mode-" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  (void)kbv::inputs::SecretKey::create(path);  // 0600
  EXPECT_NO_THROW((void)kbv::inputs::SecretKey::load(path));
  ::chmod(path.c_str(), 0644);
  try {
    (void)kbv::inputs::SecretKey::load(path);
    ADD_FAILURE() << "a key others can read was loaded";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("has mode 0644"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("chmod 600 " + path.string()), std::string::npos) << error.what();
  }
  ::chmod(path.c_str(), 0600);
  if (::geteuid() == 0 && ::chown(path.c_str(), 65534, 65534) == 0) {  // as root, hand it to nobody
    try {
      (void)kbv::inputs::SecretKey::load(path);
      ADD_FAILURE() << "a key another user owns was loaded";
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find("owned by uid 65534, not by this user"), std::string::npos) << error.what();
    }
  }
  std::filesystem::remove(path);
}

// keygen on a folder, a path ending in '/', or a symbolic link says which (it said "already exists",
// and "y/" made the folder y).
TEST(SecretKey, CreatingAtAFolderOrALinkSaysWhich) {
  const auto folder = std::filesystem::temp_directory_path() / ("kbv-key-folder-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto message = [](const std::filesystem::path& path) {
    try {
      (void)kbv::inputs::SecretKey::create(path);
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("created");
  };
  EXPECT_NE(message(folder).find("names a folder, not the key file"), std::string::npos) << message(folder);
  const auto missing = folder / "y/";
  EXPECT_NE(message(missing).find("names a folder"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(folder / "y")) << "no folder is made for it";
  std::filesystem::create_symlink(folder / "nowhere", folder / "link");
  EXPECT_NE(message(folder / "link").find("is a symbolic link"), std::string::npos) << message(folder / "link");
  std::filesystem::remove_all(folder);
}

TEST(SecretKey, MalformedKeyFileNamesTheFix) {
  const auto path = std::filesystem::temp_directory_path() / ("kbv-key-bad-" + std::to_string(::getpid()));
  std::ofstream(path) << "not hex\n";
  ::chmod(path.c_str(), 0600);  // private, so the content is what is judged
  try {
    kbv::inputs::SecretKey::load(path);
    FAIL();
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find(path.string()), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("64 hex characters"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("kbv keygen"), std::string::npos);
  }
  std::filesystem::remove(path);
}

}  // namespace
