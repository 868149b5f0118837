// SPDX-License-Identifier: MIT
// Saying a budget cut (ours, docs/agents-md.md): the note line that ends the text, its byte
// count over cut and skipped files (documents, overlays, imports), the warnings, and the
// fragment and world-state text the model then sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "agents_md/assembly.h"
#include "agents_md/budget.h"
#include "agents_md/discovery.h"
#include "agents_md/manager.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

class AgentsMdTruncation : public ::testing::Test {
 protected:
  void Add(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(fs_.AddFile(path, bytes).has_value()) << path;
  }
  AgentsMdInputs Inputs(const std::string& cwd, std::uint64_t max_bytes) {
    AgentsMdInputs in;
    in.config.max_bytes = max_bytes;
    in.environments.push_back(EnvironmentSelection{"primary", cwd, "main", &fs_, true});
    return in;
  }
  AgentsMdLoad LoadOk(const AgentsMdInputs& in) {
    Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
    EXPECT_TRUE(r.has_value()) << r.error().Display();
    return r.has_value() ? std::move(r).value() : AgentsMdLoad{};
  }

  MemoryFileSystem fs_;
};

TEST(AgentsMdTruncationNote, NamesTheOmittedBytesAndTheLimit) {
  EXPECT_EQ(TruncationNote(8192, 32768),
            "[AGENTS.md instructions truncated: 8192 bytes omitted to fit the 32768-byte limit]");
}

TEST(AgentsMdTruncationNote, IsItsOwnLineAfterABlankLine) {
  std::string cut_mid_line = "abc";
  AppendTruncationNote(&cut_mid_line, 1, 3);
  EXPECT_EQ(cut_mid_line, "abc\n\n" + TruncationNote(1, 3));
  std::string cut_after_newline = "abc\n";
  AppendTruncationNote(&cut_after_newline, 1, 4);
  EXPECT_EQ(cut_after_newline, "abc\n\n" + TruncationNote(1, 4));
}

TEST(AgentsMdBudget, CutToBudgetCountsWhatItCuts) {
  ByteBudget budget{4, 0};
  std::vector<AgentsMdWarning> warnings;
  std::string raw = "0123";  // read(max 4) of a 10-byte file
  EXPECT_TRUE(CutToBudget(&budget, "/r/A", 10, &raw, &warnings));
  EXPECT_EQ(raw, "0123");
  EXPECT_EQ(budget.omitted, 6u);
  EXPECT_EQ(budget.remaining, 4u);  // the caller consumes
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].message,
            "AGENTS.md instructions truncated: `/r/A` exceeds the remaining budget of 4 bytes");

  std::string longer = "0123456";  // a FileSystem returning more than asked
  EXPECT_TRUE(CutToBudget(&budget, "/r/B", 2, &longer, &warnings));
  EXPECT_EQ(longer, "0123");
  EXPECT_EQ(budget.omitted, 9u);

  std::string fits = "01";
  EXPECT_FALSE(CutToBudget(&budget, "/r/C", 2, &fits, &warnings));
  EXPECT_EQ(budget.omitted, 9u);
  EXPECT_EQ(warnings.size(), 2u);
}

TEST(AgentsMdBudget, SkipForBudgetCountsTheWholeFile) {
  ByteBudget budget{0, 3};
  std::vector<AgentsMdWarning> warnings;
  SkipForBudget(&budget, "/r/A", 40, &warnings);
  EXPECT_EQ(budget.omitted, 43u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(ToWire(warnings[0].code), "agents_md_truncated");
  EXPECT_EQ(warnings[0].message,
            "AGENTS.md instructions truncated: `/r/A` exceeds the remaining budget of 0 bytes");
}

TEST_F(AgentsMdTruncation, NoCutNoNote) {
  Add("/repo/AGENTS.md", "0123456789");
  AgentsMdLoad load = LoadOk(Inputs("/repo", 10));
  EXPECT_EQ(load.result.text, "0123456789");
  EXPECT_EQ(load.result.omitted_bytes, 0u);
}

TEST_F(AgentsMdTruncation, FortyKilobyteFileUnderTheDefaultBudget) {
  std::string doc(40 * 1024, 'r');
  Add("/repo/AGENTS.md", doc);
  AgentsMdInputs in = Inputs("/repo", 0);
  in.config = AgentsMdConfig{};  // the default 32768 bytes
  AgentsMdManager manager;
  Result<RefreshOutcome> outcome = manager.Refresh(in);
  ASSERT_TRUE(outcome.has_value());
  const std::string note =
      "[AGENTS.md instructions truncated: 8192 bytes omitted to fit the 32768-byte limit]";
  EXPECT_EQ(manager.loaded().text, std::string(32768, 'r') + "\n\n" + note);
  ASSERT_EQ(outcome->warnings.size(), 1u);
  EXPECT_EQ(ToWire(outcome->warnings[0].code), "agents_md_truncated");
  // The fragment the model sees ends with the note, as its last line.
  std::optional<std::string> fragment = manager.Fragment();
  ASSERT_TRUE(fragment.has_value());
  const std::string tail = "\n" + note + "\n</INSTRUCTIONS>";
  ASSERT_GE(fragment->size(), tail.size());
  EXPECT_EQ(fragment->substr(fragment->size() - tail.size()), tail);
}

TEST_F(AgentsMdTruncation, TheNoteComesOnceAtTheEndAcrossEnvironments) {
  Add("/p/AGENTS.md", "ABCDE");
  Add("/s/AGENTS.md", "VWXYZ");
  AgentsMdInputs in = Inputs("/p", 7);
  in.environments.push_back(EnvironmentSelection{"secondary", "/s", "main", &fs_, true});
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text,
            "for `primary` with root /p\n\nABCDE\n\nfor `secondary` with root /s\n\nVW\n\n"
            "[AGENTS.md instructions truncated: 3 bytes omitted to fit the 7-byte limit]");
}

TEST_F(AgentsMdTruncation, CountsCutImportsAndSkippedOverlays) {
  Add("/repo/.git/HEAD", "x");
  Add("/repo/AGENTS.md", "@a.md\n");     // 6 bytes
  Add("/repo/a.md", "0123456789");       // 4 kept, 6 cut
  Add("/repo/AGENTS.local.md", "mine");  // 4 skipped
  AgentsMdLoad load = LoadOk(Inputs("/repo", 10));
  EXPECT_EQ(load.result.omitted_bytes, 10u);
  EXPECT_EQ(
      load.result.text,
      "0123\n\n[AGENTS.md instructions truncated: 10 bytes omitted to fit the 10-byte limit]");
  ASSERT_EQ(load.warnings.size(), 2u);
  EXPECT_EQ(load.warnings[1].message,
            "AGENTS.md instructions truncated: `/repo/AGENTS.local.md` exceeds the remaining "
            "budget of 0 bytes");
}

TEST_F(AgentsMdTruncation, GlobalTextIsNotCutByTheProjectBudget) {
  Add("/home/AGENTS.md", std::string(100, 'g'));
  AgentsMdInputs in = Inputs("/repo", 10);
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, std::string(100, 'g'));
}

// Records the largest read asked of it (the FileSystem must never be asked for the whole file).
class ReadCapFileSystem : public MemoryFileSystem {
 public:
  Result<std::string> Read(std::string_view path, std::uint64_t max_bytes) override {
    largest_ask = std::max(largest_ask, max_bytes);
    return MemoryFileSystem::Read(path, max_bytes);
  }
  std::uint64_t largest_ask = 0;
};

// Regression: a >= 10 MB global AGENTS.md crashed the CLI and took 2.4 GB in the package,
// because the global file was read whole. Now at most kGlobalAgentsMdMaxBytes are read.
TEST(Regression, Issue17HugeGlobalAgentsMdIsReadOnlyUpToTheLimit) {
  ReadCapFileSystem fs;
  const std::uint64_t size = 3 * kGlobalAgentsMdMaxBytes + 5;
  std::string huge;
  while (huge.size() < size) huge += "- rule\n";
  huge.resize(static_cast<std::size_t>(size), 'x');
  ASSERT_TRUE(fs.AddFile("/home/AGENTS.md", huge).has_value());
  ASSERT_TRUE(fs.AddFile("/repo/AGENTS.md", "project").has_value());
  AgentsMdInputs in;
  in.config.max_bytes = 100;
  in.config.home_dir = "/home";
  in.environments.push_back(EnvironmentSelection{"primary", "/repo", "main", &fs, true});
  Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
  ASSERT_TRUE(r.has_value()) << r.error().Display();
  EXPECT_LE(fs.largest_ask, kGlobalAgentsMdMaxBytes);
  const std::uint64_t omitted = size - kGlobalAgentsMdMaxBytes;
  const std::string note = GlobalTruncationNote(omitted);
  EXPECT_EQ(note, "[global AGENTS.md instructions truncated: " + std::to_string(omitted) +
                      " bytes omitted to fit the 1048576-byte limit]");
  ASSERT_TRUE(r->result.global_text.has_value());
  // The kept text: the first bytes of the file, then the note on its own line.
  const std::string& global = *r->result.global_text;
  EXPECT_EQ(global.substr(global.size() - note.size()), note);
  EXPECT_EQ(global.substr(0, 6), "- rule");
  EXPECT_LE(global.size(), kGlobalAgentsMdMaxBytes + 2 + note.size());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].code, WarningCode::kAgentsMdTruncated);
  EXPECT_EQ(r->warnings[0].message,
            "global AGENTS.md instructions truncated: `/home/AGENTS.md` is " +
                std::to_string(size) + " bytes, over the limit of " + "1048576 bytes");
  // The project document is still read after it.
  ASSERT_TRUE(r->result.text.has_value());
  EXPECT_NE(r->result.text->find("--- project-doc ---\n\nproject"), std::string::npos);
}

TEST(Regression, Issue17GlobalAgentsMdAtTheLimitIsKeptWhole) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.AddFile("/home/AGENTS.md", std::string(kGlobalAgentsMdMaxBytes, 'g')).has_value());
  AgentsMdInputs in;
  in.config.max_bytes = 10;
  in.config.home_dir = "/home";
  in.environments.push_back(EnvironmentSelection{"primary", "/repo", "main", &fs, true});
  Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->result.global_text, std::string(kGlobalAgentsMdMaxBytes, 'g'));
  EXPECT_TRUE(r->warnings.empty());
}

}  // namespace
}  // namespace agentctx
