// SPDX-License-Identifier: MIT
// AGENTS.md discovery edge cases beyond the fixture table: budget boundaries, multibyte cuts,
// deep trees, huge directories, binary files, failure policy, root markers, logical cwds.
#include "agents_md/discovery.h"

#include <gtest/gtest.h>

#include <string>

#include "support/counting_file_system.h"
#include "support/memory_file_system.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

using testing::CountingFileSystem;

constexpr const char* kFffd = "\xEF\xBF\xBD";

class AgentsMdDiscovery : public ::testing::Test {
 protected:
  void Add(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(fs_.AddFile(path, bytes).has_value()) << path;
  }
  AgentsMdInputs Inputs(const std::string& cwd, std::uint64_t max_bytes = 4096,
                        bool sandboxed = true) {
    AgentsMdInputs in;
    in.config.max_bytes = max_bytes;
    in.environments.push_back(EnvironmentSelection{"primary", cwd, "main", &counting_, sandboxed});
    return in;
  }
  AgentsMdLoad LoadOk(const AgentsMdInputs& in) {
    Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
    EXPECT_TRUE(r.has_value()) << r.error().Display();
    return r.has_value() ? std::move(r).value() : AgentsMdLoad{};
  }

  MemoryFileSystem fs_;
  CountingFileSystem counting_{&fs_};
};

TEST_F(AgentsMdDiscovery, BudgetExactFitHasNoWarning) {
  Add("/repo/AGENTS.md", "0123456789");
  AgentsMdLoad load = LoadOk(Inputs("/repo", 10));
  EXPECT_EQ(load.result.text, "0123456789");
  EXPECT_TRUE(load.warnings.empty());
}

TEST_F(AgentsMdDiscovery, BudgetOneByteOverTruncatesWithWarning) {
  Add("/repo/AGENTS.md", "0123456789X");
  AgentsMdLoad load = LoadOk(Inputs("/repo", 10));
  EXPECT_EQ(load.result.text,
            "0123456789\n\n[AGENTS.md instructions truncated: 1 bytes omitted to fit the 10-byte "
            "limit]");
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0].code, WarningCode::kAgentsMdTruncated);
  EXPECT_EQ(load.warnings[0].message,
            "AGENTS.md instructions truncated: `/repo/AGENTS.md` exceeds the remaining budget of "
            "10 bytes");
}

TEST_F(AgentsMdDiscovery, MultibyteCharacterSplitBecomesReplacementAndUsesTheBudget) {
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "ab\xC3\xA9");  // "abé": the cut at 3 splits é
  Add("/repo/sub/AGENTS.md", "never read");
  AgentsMdLoad load = LoadOk(Inputs("/repo/sub", 3));
  EXPECT_EQ(load.result.entries.size(), 1u);
  EXPECT_EQ(load.result.entries[0].contents, std::string("ab") + kFffd);
  EXPECT_EQ(counting_.reads(), 1u);     // the budget hit 0: the nested doc is not read
  ASSERT_EQ(load.warnings.size(), 2u);  // the cut, then the nested doc left out
  EXPECT_EQ(ToWire(load.warnings[0].code), "agents_md_truncated");
  EXPECT_EQ(ToWire(load.warnings[1].code), "agents_md_truncated");
  EXPECT_EQ(load.result.omitted_bytes, 1u + 10u);
}

TEST_F(AgentsMdDiscovery, ReadsAskForTheRemainingBudget) {
  Add("/repo/.git", "gitdir: x");
  Add("/repo/AGENTS.md", "root");
  Add("/repo/sub/AGENTS.md", "sub");
  AgentsMdLoad load = LoadOk(Inputs("/repo/sub", 100));
  EXPECT_EQ(load.result.text, "root\n\nsub");
  std::vector<std::string> reads;
  for (const std::string& line : counting_.log()) {
    if (line.rfind("read ", 0) == 0) reads.push_back(line);
  }
  EXPECT_EQ(reads,
            (std::vector<std::string>{"read /repo/AGENTS.md 100", "read /repo/sub/AGENTS.md 96"}));
}

TEST_F(AgentsMdDiscovery, StatOrderIsMarkersThenCandidatesRootFirst) {
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.override.md", "o");
  Add("/repo/sub/AGENTS.md", "s");
  LoadOk(Inputs("/repo/sub"));
  EXPECT_EQ(counting_.log(), (std::vector<std::string>{
                                 "stat /repo/sub/.git",
                                 "stat /repo/.git",
                                 "stat /repo/AGENTS.override.md",
                                 "stat /repo/AGENTS.local.md",
                                 "stat /repo/sub/AGENTS.override.md",
                                 "stat /repo/sub/AGENTS.md",
                                 "stat /repo/sub/AGENTS.local.md",
                                 "read /repo/AGENTS.override.md 4096",
                                 "read /repo/sub/AGENTS.md 4095",
                             }));
}

TEST_F(AgentsMdDiscovery, DeepTreeOfHundredLevels) {
  Add("/r/.git/HEAD", "x");
  Add("/r/AGENTS.md", "L0");
  std::string dir = "/r";
  std::string expected = "L0";
  for (int i = 1; i <= 100; ++i) {
    dir += "/d" + std::to_string(i);
    Add(dir + "/AGENTS.md", "L" + std::to_string(i));
    expected += "\n\nL" + std::to_string(i);
  }
  AgentsMdLoad load = LoadOk(Inputs(dir, 32768));
  EXPECT_EQ(load.result.text, expected);
  EXPECT_EQ(load.result.sources.size(), 101u);
  EXPECT_EQ(load.result.sources.front().path, "/r/AGENTS.md");
  EXPECT_EQ(load.result.sources.back().path, dir + "/AGENTS.md");
}

TEST_F(AgentsMdDiscovery, DeepTreeWithoutMarkerSearchesOnlyCwd) {
  std::string dir;
  for (int i = 1; i <= 100; ++i) {
    dir += "/d" + std::to_string(i);
    Add(dir + "/AGENTS.md", "L" + std::to_string(i));
  }
  AgentsMdLoad load = LoadOk(Inputs(dir));
  EXPECT_EQ(load.result.text, "L100");
  EXPECT_EQ(counting_.StatsOf("/.git"), 1u);  // walked all the way up
}

TEST_F(AgentsMdDiscovery, TenThousandFileDirectoryNeedsNoListing) {
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(fs_.AddFile("/repo/f" + std::to_string(i) + ".txt", "").has_value());
  }
  Add("/repo/AGENTS.md", "big dir doc");
  AgentsMdLoad load = LoadOk(Inputs("/repo"));
  EXPECT_EQ(load.result.text, "big dir doc");
  EXPECT_EQ(counting_.lists(), 0u);
  EXPECT_EQ(counting_.stats(), 5u);  // /repo/.git, /.git, override, AGENTS.md, AGENTS.local.md
}

TEST_F(AgentsMdDiscovery, BinaryFileIsDecodedLossily) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  Add("/repo/AGENTS.md", bytes);
  AgentsMdLoad load = LoadOk(Inputs("/repo"));
  ASSERT_TRUE(load.result.text.has_value());
  EXPECT_EQ(*load.result.text, LossyUtf8(bytes));
  EXPECT_TRUE(IsValidUtf8(*load.result.text));
  EXPECT_EQ(load.result.text->substr(0, 3), std::string("\0\x01\x02", 3));
}

TEST_F(AgentsMdDiscovery, InvalidUtf8OnlyIsNotWhitespace) {
  Add("/repo/AGENTS.md", "\xFF\xFE");
  EXPECT_EQ(LoadOk(Inputs("/repo")).result.text, std::string(kFffd) + kFffd);
}

TEST_F(AgentsMdDiscovery, UnicodeWhitespaceOnlyIsDropped) {
  Add("/repo/AGENTS.md", "\xE3\x80\x80\n\xC2\xA0");  // ideographic space, NBSP
  AgentsMdLoad load = LoadOk(Inputs("/repo"));
  EXPECT_FALSE(load.result.text.has_value());
  EXPECT_TRUE(load.result.sources.empty());
}

TEST_F(AgentsMdDiscovery, EntriesAreNotTrimmed) {
  Add("/repo/AGENTS.md", "\n  indented\n\n");
  EXPECT_EQ(LoadOk(Inputs("/repo")).result.text, "\n  indented\n\n");
}

TEST_F(AgentsMdDiscovery, EmptyMarkerListDisablesRootDetection) {
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "root");
  Add("/repo/sub/AGENTS.md", "sub");
  AgentsMdInputs in = Inputs("/repo/sub");
  in.config.root_markers.clear();
  EXPECT_EQ(LoadOk(in).result.text, "sub");
  EXPECT_EQ(counting_.StatsOf("/repo/.git"), 0u);
}

TEST_F(AgentsMdDiscovery, NearestMarkerWins) {
  Add("/.git/HEAD", "x");
  Add("/AGENTS.md", "top");
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "repo");
  Add("/repo/a/AGENTS.md", "a");
  EXPECT_EQ(LoadOk(Inputs("/repo/a")).result.text, "repo\n\na");
  EXPECT_EQ(counting_.StatsOf("/.git"), 0u);
}

TEST_F(AgentsMdDiscovery, AnyMarkerInOrderMakesTheRoot) {
  Add("/repo/.hg", "");
  Add("/repo/AGENTS.md", "repo");
  Add("/repo/a/AGENTS.md", "a");
  AgentsMdInputs in = Inputs("/repo/a");
  in.config.root_markers = {".git", ".hg"};
  EXPECT_EQ(LoadOk(in).result.text, "repo\n\na");
}

TEST_F(AgentsMdDiscovery, SymlinkedCwdStaysLogical) {
  Add("/real/.git/HEAD", "x");
  Add("/real/AGENTS.md", "physical parent");
  Add("/real/repo/AGENTS.md", "repo doc");
  ASSERT_TRUE(fs_.AddSymlink("/link", "/real/repo").has_value());
  AgentsMdLoad load = LoadOk(Inputs("/link"));
  EXPECT_EQ(load.result.text, "repo doc");  // `..` of /link is /, not /real
  ASSERT_EQ(load.result.sources.size(), 1u);
  EXPECT_EQ(load.result.sources[0].path, "/link/AGENTS.md");
}

TEST_F(AgentsMdDiscovery, CwdIsNormalisedLexically) {
  Add("/repo/AGENTS.md", "doc");
  AgentsMdLoad load = LoadOk(Inputs("/repo/./sub/../"));
  EXPECT_EQ(load.result.text, "doc");
  EXPECT_EQ(load.result.primary_cwd, "/repo");
  EXPECT_EQ(load.result.entries[0].cwd, "/repo");
}

TEST_F(AgentsMdDiscovery, HostCandidateStatErrorWarnsAndContributesNothing) {
  Add("/repo/AGENTS.md", "x");
  fs_.InjectError("/repo/AGENTS.override.md", MemoryFileSystem::Op::kStat,
                  ErrorCode::kPermissionDenied);
  AgentsMdLoad load = LoadOk(Inputs("/repo", 4096, /*sandboxed=*/false));
  EXPECT_FALSE(load.result.text.has_value());
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0].code, WarningCode::kAgentsMdReadWarning);
  EXPECT_EQ(load.warnings[0].message,
            "error trying to find AGENTS.md docs: permission_denied: /repo/AGENTS.override.md");
}

TEST_F(AgentsMdDiscovery, InvalidCwdFollowsTheFailurePolicy) {
  AgentsMdLoad host = LoadOk(Inputs("relative", 4096, false));
  ASSERT_EQ(host.warnings.size(), 1u);
  EXPECT_EQ(host.warnings[0].message,
            "error trying to find AGENTS.md docs: invalid_path: path is not absolute: relative");
  Result<AgentsMdLoad> sandboxed = LoadAgentsMd(Inputs("relative", 4096, true), nullptr);
  ASSERT_FALSE(sandboxed.has_value());
  EXPECT_EQ(sandboxed.error().code, ErrorCode::kAgentsMdLoadFailed);
}

TEST_F(AgentsMdDiscovery, SandboxedSecondaryFailureFailsTheWholeLoad) {
  Add("/p/AGENTS.md", "primary");
  Add("/s/AGENTS.md", "secondary");
  fs_.InjectError("/s/AGENTS.md", MemoryFileSystem::Op::kRead, ErrorCode::kIo);
  AgentsMdInputs in = Inputs("/p");
  in.environments.push_back(EnvironmentSelection{"secondary", "/s", "main", &counting_, true});
  Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message,
            "failed to load AGENTS.md instructions for environment `secondary`: io: /s/AGENTS.md");
}

TEST_F(AgentsMdDiscovery, MissingFileSystemIsAnEnvironmentFailure) {
  AgentsMdInputs in = Inputs("/repo", 4096, false);
  in.environments[0].fs = nullptr;
  in.environments[0].fs_name = "gone";
  AgentsMdLoad load = LoadOk(in);
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0].message,
            "error trying to find AGENTS.md docs: io: no FileSystem named `gone`");
}

TEST_F(AgentsMdDiscovery, ExhaustedBudgetSkipsLaterEnvironmentsEntirely) {
  Add("/p/AGENTS.md", "12345");
  MemoryFileSystem other;
  ASSERT_TRUE(other.AddFile("/s/AGENTS.md", "never").has_value());
  CountingFileSystem other_counting(&other);
  AgentsMdInputs in = Inputs("/p", 5);
  in.environments.push_back(EnvironmentSelection{"secondary", "/s", "srv", &other_counting, true});
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "12345");  // not searched, so nothing is known to be omitted
  EXPECT_EQ(load.result.omitted_bytes, 0u);
  EXPECT_EQ(other_counting.calls(), 0u);
}

TEST_F(AgentsMdDiscovery, NoEnvironmentsIsNone) {
  AgentsMdInputs in;
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_FALSE(load.result.text.has_value());
}

// The global file (discovery.h step 1).
TEST_F(AgentsMdDiscovery, GlobalNotCapableIsSkippedSilently) {
  Add("/home/AGENTS.md", "global");
  fs_.InjectError("/home/AGENTS.override.md", MemoryFileSystem::Op::kStat, ErrorCode::kNotCapable);
  AgentsMdInputs in = Inputs("/repo");
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "global");
  EXPECT_TRUE(load.warnings.empty());
}

TEST_F(AgentsMdDiscovery, GlobalReadErrorWarnsAndFallsBack) {
  Add("/home/AGENTS.override.md", "override");
  Add("/home/AGENTS.md", "global");
  fs_.InjectError("/home/AGENTS.override.md", MemoryFileSystem::Op::kRead, ErrorCode::kIo);
  AgentsMdInputs in = Inputs("/repo");
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "global");
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(ToWire(load.warnings[0].code), "agents_md_read_warning");
  EXPECT_EQ(load.warnings[0].message,
            "Failed to read global AGENTS.md instructions from `/home/AGENTS.override.md`: io: "
            "/home/AGENTS.override.md");
}

TEST_F(AgentsMdDiscovery, GlobalDirectoryIsSkipped) {
  ASSERT_TRUE(fs_.AddDir("/home/AGENTS.override.md").has_value());
  Add("/home/AGENTS.md", "global");
  AgentsMdInputs in = Inputs("/repo");
  in.config.home_dir = "/home";
  EXPECT_EQ(LoadOk(in).result.text, "global");
}

TEST_F(AgentsMdDiscovery, GlobalHasNoCapAndUsesNoBudget) {
  std::string big(100000, 'g');
  Add("/home/AGENTS.md", big);
  Add("/repo/AGENTS.md", "ABCDE");
  AgentsMdInputs in = Inputs("/repo", 5);
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, big + "\n\n--- project-doc ---\n\nABCDE");
  EXPECT_TRUE(load.warnings.empty());
  ASSERT_EQ(load.result.sources.size(), 2u);
  EXPECT_TRUE(load.result.sources[0].global);
  EXPECT_EQ(load.result.sources[0].environment_id, "primary");
}

TEST_F(AgentsMdDiscovery, CachedGlobalIsReusedOnlyForTheSameHomeAndFileSystem) {
  Add("/home/AGENTS.md", "fresh");
  AgentsMdInputs in = Inputs("/repo");
  in.config.home_dir = "/home";
  GlobalDoc cached{std::string("cached"), "/home/AGENTS.md", std::string("/home"), "main", 0};
  Result<AgentsMdLoad> reused = LoadAgentsMd(in, &cached);
  ASSERT_TRUE(reused.has_value());
  EXPECT_TRUE(reused->global_reused);
  EXPECT_EQ(reused->result.text, "cached");
  EXPECT_EQ(counting_.StatsOf("/home/AGENTS.md"), 0u);
  in.environments[0].fs_epoch = 1;  // a new epoch: read again
  Result<AgentsMdLoad> reread = LoadAgentsMd(in, &cached);
  ASSERT_TRUE(reread.has_value());
  EXPECT_FALSE(reread->global_reused);
  EXPECT_EQ(reread->result.text, "fresh");
}

// Regression: a cwd thousands of levels deep made discovery stat (and record) every
// ancestor's markers; the marker search is bounded (kMaxAgentsMdSearchDirs).
TEST_F(AgentsMdDiscovery, Issue17DeepCwdBoundsTheRootSearch) {
  std::string deep = "/repo";
  for (int i = 0; i < 3000; ++i) deep += "/d" + std::to_string(i);
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "root doc");
  Add(deep + "/AGENTS.md", "deep doc");
  AgentsMdLoad load = LoadOk(Inputs(deep));
  EXPECT_EQ(load.result.text, "deep doc");  // no root found within the bound: cwd only
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(load.warnings[0].code, WarningCode::kAgentsMdReadWarning);
  EXPECT_EQ(load.warnings[0].message.substr(0, 50),
            "AGENTS.md root search stopped after 256 directorie");
  // One marker stat per searched directory plus the cwd's candidates.
  EXPECT_LE(load.probes.probes().size(), kMaxAgentsMdSearchDirs + 4);
}

TEST_F(AgentsMdDiscovery, Issue17RootJustInsideTheSearchBoundIsFound) {
  std::string deep = "/repo";
  for (std::size_t i = 0; i + 1 < kMaxAgentsMdSearchDirs; ++i) deep += "/d" + std::to_string(i);
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "root doc");
  AgentsMdLoad load = LoadOk(Inputs(deep));
  EXPECT_EQ(load.result.text, "root doc");
  EXPECT_TRUE(load.warnings.empty());
}

}  // namespace
}  // namespace agentctx
