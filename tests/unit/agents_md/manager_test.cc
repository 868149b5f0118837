// SPDX-License-Identifier: MIT
// AGENTS.md manager (cache) vectors: key hits and misses, selection vs probe refresh, failure
// and retry, and the generation counter under interleaved loads.
#include "agents_md/manager.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_value.h"
#include "support/counting_file_system.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

using testing::CountingFileSystem;

class AgentsMdManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs_.AddDir("/repo/.git", 1).has_value());
    ASSERT_TRUE(fs_.AddFile("/repo/AGENTS.md", "a", 1).has_value());
  }
  AgentsMdInputs Inputs(AgentsMdRefresh mode = AgentsMdRefresh::kSelection,
                        const std::string& cwd = "/repo") {
    AgentsMdInputs in;
    in.config.refresh = mode;
    in.environments.push_back(EnvironmentSelection{"local", cwd, "main", &counting_, true});
    return in;
  }
  RefreshOutcome RefreshOk(const AgentsMdInputs& in) {
    Result<RefreshOutcome> r = manager_.Refresh(in);
    EXPECT_TRUE(r.has_value()) << r.error().Display();
    return r.has_value() ? std::move(r).value() : RefreshOutcome{};
  }
  std::string Text() const { return manager_.loaded().text.value_or("<none>"); }
  std::string CacheStatus() const {
    return std::string(manager_.Inspect().GetString("cache").value_or(""));
  }

  MemoryFileSystem fs_;
  CountingFileSystem counting_{&fs_};
  AgentsMdManager manager_;
};

TEST_F(AgentsMdManagerTest, FirstRefreshLoadsAtGenerationOne) {
  EXPECT_EQ(manager_.generation(), 0u);
  EXPECT_TRUE(manager_.instruction_sources().empty());
  RefreshOutcome out = RefreshOk(Inputs());
  EXPECT_TRUE(out.reloaded);
  EXPECT_EQ(out.generation, 1u);
  EXPECT_EQ(out.cache, AgentsMdCacheStatus::kMiss);
  EXPECT_EQ(Text(), "a");
  EXPECT_EQ(manager_.instruction_sources(), std::vector<std::string>{"/repo/AGENTS.md"});
  EXPECT_EQ(manager_.Fragment(),
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\na\n</INSTRUCTIONS>");
}

TEST_F(AgentsMdManagerTest, SelectionHitMakesZeroFileSystemCalls) {
  RefreshOk(Inputs());
  counting_.Reset();
  RefreshOutcome out = RefreshOk(Inputs());
  EXPECT_FALSE(out.reloaded);
  EXPECT_EQ(out.cache, AgentsMdCacheStatus::kHit);
  EXPECT_EQ(out.generation, 1u);
  EXPECT_EQ(counting_.calls(), 0u);
  EXPECT_EQ(manager_.generation(), 1u);
  EXPECT_EQ(CacheStatus(), "hit");
}

TEST_F(AgentsMdManagerTest, CwdChangeClearsReloadsAndBumpsGeneration) {
  ASSERT_TRUE(fs_.AddFile("/repo/sub/AGENTS.md", "sub", 1).has_value());
  RefreshOk(Inputs());
  RefreshOutcome out = RefreshOk(Inputs(AgentsMdRefresh::kSelection, "/repo/sub"));
  EXPECT_TRUE(out.reloaded);
  EXPECT_EQ(out.generation, 2u);
  EXPECT_EQ(Text(), "a\n\nsub");
  EXPECT_EQ(manager_.loaded().primary_cwd, "/repo/sub");
}

TEST_F(AgentsMdManagerTest, EveryKeyPartCausesAMiss) {
  RefreshOk(Inputs());
  std::uint64_t g = manager_.generation();
  auto expect_miss = [&](const AgentsMdInputs& in, const char* what) {
    RefreshOutcome out = RefreshOk(in);
    EXPECT_TRUE(out.reloaded) << what;
    EXPECT_EQ(out.generation, ++g) << what;
  };
  AgentsMdInputs in = Inputs();
  in.environments[0].fs_epoch = 1;
  expect_miss(in, "fs_epoch");
  in.environments[0].fs_name = "other";
  expect_miss(in, "fs name");
  in.environments[0].sandboxed = false;
  expect_miss(in, "sandboxed");
  in.environments[0].id = "renamed";
  expect_miss(in, "id");
  in.config.max_bytes = 10;
  expect_miss(in, "config");
  in.environments.push_back(EnvironmentSelection{"more", "/srv", "main", &counting_, true});
  expect_miss(in, "environment added");
  // A non-ready environment is not part of the key.
  in.environments.push_back(
      EnvironmentSelection{"later", "/x", "main", &counting_, true, 0, /*ready=*/false});
  EXPECT_FALSE(RefreshOk(in).reloaded);
  in.environments.back().cwd = "/y";
  EXPECT_FALSE(RefreshOk(in).reloaded);
}

TEST_F(AgentsMdManagerTest, TrustToggleDropsAndRestoresProjectText) {
  RefreshOk(Inputs());
  EXPECT_EQ(Text(), "a");
  AgentsMdInputs untrusted = Inputs();
  untrusted.trusted = false;
  EXPECT_TRUE(RefreshOk(untrusted).reloaded);
  EXPECT_FALSE(manager_.loaded().text.has_value());
  EXPECT_FALSE(manager_.Fragment().has_value());
  EXPECT_TRUE(RefreshOk(Inputs()).reloaded);
  EXPECT_EQ(Text(), "a");
  EXPECT_EQ(manager_.generation(), 3u);
}

TEST_F(AgentsMdManagerTest, SandboxedRevokedReadFailsAndLeavesCacheEmpty) {
  RefreshOk(Inputs());
  fs_.InjectError("/repo/AGENTS.md", MemoryFileSystem::Op::kRead, ErrorCode::kPermissionDenied);
  AgentsMdInputs in = Inputs();
  in.environments[0].fs_epoch = 1;
  Result<RefreshOutcome> r = manager_.Refresh(in);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::kAgentsMdLoadFailed);
  EXPECT_NE(r.error().message.find("AGENTS.md"), std::string::npos);
  EXPECT_EQ(r.error().message,
            "failed to load AGENTS.md instructions for environment `local`: permission_denied: "
            "/repo/AGENTS.md");
  EXPECT_TRUE(manager_.instruction_sources().empty());
  EXPECT_FALSE(manager_.has_loaded());
  EXPECT_FALSE(manager_.Fragment().has_value());
  EXPECT_EQ(CacheStatus(), "failed");
  JsonValue view = manager_.Inspect();
  ASSERT_NE(view.Find("error"), nullptr);
  EXPECT_EQ(view.Find("error")->GetString("code"), "agents_md_load_failed");
}

TEST_F(AgentsMdManagerTest, FailedLoadIsRetriedWithTheSameKey) {
  fs_.InjectError("/repo/AGENTS.md", MemoryFileSystem::Op::kRead, ErrorCode::kIo);
  ASSERT_FALSE(manager_.Refresh(Inputs()).has_value());
  EXPECT_EQ(manager_.generation(), 1u);
  counting_.Reset();
  ASSERT_FALSE(manager_.Refresh(Inputs()).has_value());
  EXPECT_GT(counting_.calls(), 0u);  // retried, not served from a cache
  EXPECT_EQ(manager_.generation(), 2u);
  fs_.ClearErrors();
  RefreshOutcome out = RefreshOk(Inputs());
  EXPECT_TRUE(out.reloaded);
  EXPECT_EQ(out.generation, 3u);
  EXPECT_EQ(Text(), "a");
}

TEST_F(AgentsMdManagerTest, SelectionModeDoesNotSeeEdits) {
  RefreshOk(Inputs());
  fs_.SetClock(100);
  ASSERT_TRUE(fs_.Write("/repo/AGENTS.md", "b", false).has_value());
  counting_.Reset();
  EXPECT_FALSE(RefreshOk(Inputs()).reloaded);
  EXPECT_EQ(Text(), "a");
  EXPECT_EQ(counting_.calls(), 0u);
}

TEST_F(AgentsMdManagerTest, ProbeModeSeesAnEdit) {
  RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  fs_.SetClock(1);  // same clock as the file's mtime: the write rule still bumps it
  ASSERT_TRUE(fs_.Write("/repo/AGENTS.md", "b", false).has_value());
  RefreshOutcome out = RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  EXPECT_TRUE(out.reloaded);
  EXPECT_EQ(out.cache, AgentsMdCacheStatus::kProbeChanged);
  EXPECT_EQ(out.generation, 2u);
  EXPECT_EQ(Text(), "b");
  EXPECT_EQ(CacheStatus(), "probe_changed");
}

TEST_F(AgentsMdManagerTest, ProbeModeUnchangedStatsEachWatchedPathOnce) {
  RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  std::size_t watched = manager_.probe_set().probes().size();
  ASSERT_EQ(watched, 4u);  // /repo/.git, AGENTS.override.md, AGENTS.md, AGENTS.local.md
  counting_.Reset();
  RefreshOutcome out = RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  EXPECT_FALSE(out.reloaded);
  EXPECT_EQ(out.cache, AgentsMdCacheStatus::kHit);
  EXPECT_EQ(counting_.stats(), watched);
  EXPECT_EQ(counting_.calls(), watched);  // no read, no list
  for (const Probe& p : manager_.probe_set().probes()) EXPECT_EQ(counting_.StatsOf(p.path), 1u);
  EXPECT_EQ(counting_.log(),
            (std::vector<std::string>{"stat /repo/.git", "stat /repo/AGENTS.override.md",
                                      "stat /repo/AGENTS.md", "stat /repo/AGENTS.local.md"}));
}

TEST_F(AgentsMdManagerTest, ProbeModeIgnoresMarkerMtime) {
  RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  ASSERT_TRUE(fs_.SetMtime("/repo/.git", 999).has_value());
  EXPECT_FALSE(RefreshOk(Inputs(AgentsMdRefresh::kProbe)).reloaded);
  // A marker that vanishes is a change.
  ASSERT_TRUE(fs_.Remove("/repo/.git").has_value());
  EXPECT_TRUE(RefreshOk(Inputs(AgentsMdRefresh::kProbe)).reloaded);
}

TEST_F(AgentsMdManagerTest, ProbeModeSeesANewOverrideInCwd) {
  ASSERT_TRUE(fs_.AddFile("/repo/sub/AGENTS.md", "sub", 1).has_value());
  AgentsMdInputs in = Inputs(AgentsMdRefresh::kProbe, "/repo/sub");
  RefreshOk(in);
  EXPECT_EQ(Text(), "a\n\nsub");
  ASSERT_TRUE(fs_.AddFile("/repo/sub/AGENTS.override.md", "override", 1).has_value());
  EXPECT_TRUE(RefreshOk(in).reloaded);
  EXPECT_EQ(Text(), "a\n\noverride");
}

TEST_F(AgentsMdManagerTest, ProbeModeSeesTheOnlyDocDeleted) {
  RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  ASSERT_TRUE(fs_.Remove("/repo/AGENTS.md").has_value());
  RefreshOutcome out = RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  EXPECT_TRUE(out.reloaded);
  EXPECT_TRUE(manager_.has_loaded());
  EXPECT_FALSE(manager_.loaded().text.has_value());
  EXPECT_TRUE(manager_.instruction_sources().empty());
}

TEST_F(AgentsMdManagerTest, ProbeModeSeesKindAndSizeChangesAndNewErrors) {
  AgentsMdInputs in = Inputs(AgentsMdRefresh::kProbe);
  RefreshOk(in);
  ASSERT_TRUE(fs_.AddFile("/repo/AGENTS.md", "ab", 1).has_value());  // same mtime, new size
  EXPECT_TRUE(RefreshOk(in).reloaded);
  EXPECT_EQ(Text(), "ab");
  ASSERT_TRUE(fs_.AddDir("/repo/AGENTS.override.md", 1).has_value());  // appeared, as a dir
  EXPECT_TRUE(RefreshOk(in).reloaded);
  EXPECT_EQ(Text(), "ab");
  EXPECT_FALSE(RefreshOk(in).reloaded);
  fs_.InjectError("/repo/AGENTS.md", MemoryFileSystem::Op::kStat, ErrorCode::kIo);
  Result<RefreshOutcome> r = manager_.Refresh(in);  // the reload fails: sandboxed
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message,
            "failed to load AGENTS.md instructions for environment `local`: io: /repo/AGENTS.md");
}

TEST_F(AgentsMdManagerTest, SameSizeEditWithinMtimeGranularityIsNotSeen) {
  RefreshOk(Inputs(AgentsMdRefresh::kProbe));
  ASSERT_TRUE(fs_.AddFile("/repo/AGENTS.md", "z", 1).has_value());  // same size, same mtime
  EXPECT_FALSE(RefreshOk(Inputs(AgentsMdRefresh::kProbe)).reloaded);
  EXPECT_EQ(Text(), "a");
}

TEST_F(AgentsMdManagerTest, GlobalIsReadOnceInSelectionModeAndAgainInProbeMode) {
  ASSERT_TRUE(fs_.AddFile("/home/AGENTS.md", "g1", 1).has_value());
  ASSERT_TRUE(fs_.AddFile("/repo/sub/AGENTS.md", "sub", 1).has_value());
  AgentsMdInputs in = Inputs();
  in.config.home_dir = "/home";
  RefreshOk(in);
  EXPECT_EQ(Text(), "g1\n\n--- project-doc ---\n\na");
  fs_.SetClock(50);
  ASSERT_TRUE(fs_.Write("/home/AGENTS.md", "g2", false).has_value());
  in.environments[0].cwd = "/repo/sub";  // a miss: project docs reload, global does not
  counting_.Reset();
  RefreshOk(in);
  EXPECT_EQ(Text(), "g1\n\n--- project-doc ---\n\na\n\nsub");
  EXPECT_EQ(counting_.StatsOf("/home/AGENTS.md"), 0u);
  in.config.refresh = AgentsMdRefresh::kProbe;  // probe mode re-reads it
  RefreshOk(in);
  EXPECT_EQ(Text(), "g2\n\n--- project-doc ---\n\na\n\nsub");
  ASSERT_TRUE(fs_.Write("/home/AGENTS.md", "g3", false).has_value());
  EXPECT_TRUE(RefreshOk(in).reloaded);  // the global candidate is probed
  EXPECT_EQ(Text(), "g3\n\n--- project-doc ---\n\na\n\nsub");
}

TEST_F(AgentsMdManagerTest, GlobalWarningsAreReportedWithTheLoad) {
  ASSERT_TRUE(fs_.AddFile("/home/AGENTS.md", "g", 1).has_value());
  fs_.InjectError("/home/AGENTS.override.md", MemoryFileSystem::Op::kStat, ErrorCode::kIo);
  AgentsMdInputs in = Inputs();
  in.config.home_dir = "/home";
  RefreshOutcome out = RefreshOk(in);
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(ToWire(out.warnings[0].code), "agents_md_read_warning");
  EXPECT_TRUE(RefreshOk(in).warnings.empty());  // a hit reports nothing
}

TEST_F(AgentsMdManagerTest, OlderLoadOvertakenByNewerIsDiscarded) {
  AgentsMdInputs a = Inputs();
  ASSERT_TRUE(fs_.AddFile("/repo/sub/AGENTS.md", "sub", 1).has_value());
  AgentsMdInputs b = Inputs(AgentsMdRefresh::kSelection, "/repo/sub");

  std::optional<AgentsMdLoadTicket> ticket_a = manager_.BeginRefresh(a);
  ASSERT_TRUE(ticket_a.has_value());
  EXPECT_EQ(ticket_a->generation, 1u);
  Result<AgentsMdLoad> load_a = AgentsMdManager::Load(a, *ticket_a);
  ASSERT_TRUE(load_a.has_value());

  std::optional<AgentsMdLoadTicket> ticket_b = manager_.BeginRefresh(b);
  ASSERT_TRUE(ticket_b.has_value());
  EXPECT_EQ(ticket_b->generation, 2u);
  Result<AgentsMdLoad> load_b = AgentsMdManager::Load(b, *ticket_b);
  ASSERT_TRUE(load_b.has_value());
  EXPECT_TRUE(manager_.Commit(*ticket_b, std::move(load_b).value()));

  EXPECT_FALSE(manager_.Commit(*ticket_a, std::move(load_a).value()));
  EXPECT_EQ(Text(), "a\n\nsub");
  EXPECT_EQ(manager_.loaded_generation(), 2u);
  EXPECT_EQ(manager_.generation(), 2u);
  // The stored key is B's: B hits, A misses.
  EXPECT_FALSE(manager_.BeginRefresh(b).has_value());
  EXPECT_TRUE(manager_.BeginRefresh(a).has_value());
}

TEST_F(AgentsMdManagerTest, OlderLoadCommittingFirstIsAlsoDiscarded) {
  AgentsMdInputs a = Inputs();
  std::optional<AgentsMdLoadTicket> ticket_a = manager_.BeginRefresh(a);
  std::optional<AgentsMdLoadTicket> ticket_b = manager_.BeginRefresh(a);
  ASSERT_TRUE(ticket_a.has_value() && ticket_b.has_value());
  EXPECT_FALSE(manager_.Commit(*ticket_a, *AgentsMdManager::Load(a, *ticket_a)));
  EXPECT_FALSE(manager_.has_loaded());
  manager_.RecordFailure(*ticket_a, Error{ErrorCode::kIo, "stale", {}});  // ignored: stale
  EXPECT_EQ(CacheStatus(), "miss");
  EXPECT_TRUE(manager_.Commit(*ticket_b, *AgentsMdManager::Load(a, *ticket_b)));
  EXPECT_EQ(Text(), "a");
}

TEST_F(AgentsMdManagerTest, InstructionsLoadedEvent) {
  ASSERT_TRUE(fs_.AddFile("/home/AGENTS.md", "g", 1).has_value());
  AgentsMdInputs in = Inputs();
  in.config.home_dir = "/home";
  RefreshOk(in);
  EXPECT_EQ(ToJson(manager_.InstructionsLoadedEvent()),
            R"({"type":"instructions_loaded","sources":["/home/AGENTS.md","/repo/AGENTS.md"],)"
            R"("generation":1})");
}

TEST_F(AgentsMdManagerTest, InspectView) {
  AgentsMdInputs in = Inputs(AgentsMdRefresh::kProbe);
  RefreshOk(in);
  RefreshOk(in);
  EXPECT_EQ(
      ToJson(manager_.Inspect()),
      R"({"refresh":"probe","cache":"hit","generation":1,"loaded_generation":1,"text":"a",)"
      R"("fragment":"# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\na\n</INSTRUCTIONS>",)"
      R"("sources":[{"path":"/repo/AGENTS.md","environment_id":"local","cwd":"/repo","global":false,)"
      R"("kind":"project"}],)"
      R"("warnings":[],"error":null,)"
      R"("key":{"environments":[{"id":"local","cwd":"/repo","fs":"main","sandboxed":true,"fs_epoch":0}],)"
      R"("trust":"trusted","agents_md":{"home_dir":null,"max_bytes":32768,"root_markers":[".git"],)"
      R"("fallback_filenames":[],"refresh":"probe"}},)"
      R"("probes":[{"fs":"main","path":"/repo/.git","role":"marker","state":"present"},)"
      R"({"fs":"main","path":"/repo/AGENTS.override.md","role":"project","state":"absent"},)"
      R"({"fs":"main","path":"/repo/AGENTS.md","role":"project","state":"present","kind":"file","size":1,"mtime_ms":1},)"
      R"({"fs":"main","path":"/repo/AGENTS.local.md","role":"project","state":"absent"}]})");
  AgentsMdManager fresh;
  EXPECT_EQ(
      ToJson(fresh.Inspect()),
      R"({"refresh":"selection","cache":"none","generation":0,"loaded_generation":0,"text":null,)"
      R"("fragment":null,"sources":[],"warnings":[],"error":null,"key":null,"probes":[]})");
}

}  // namespace
}  // namespace agentctx
