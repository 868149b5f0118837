// SPDX-License-Identifier: MIT
// `@path` imports (ours; docs/agents-md.md) beyond the fixture corpus: the line syntax, CRLF, the
// budget (imported bytes count once; a cut document's last line is no import), each warning
// not covered by a fixture, read order, the global file, and probe-mode watching.
#include "agents_md/imports.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "agents_md/discovery.h"
#include "agents_md/manager.h"
#include "support/counting_file_system.h"
#include "support/memory_file_system.h"

namespace agentctx {
namespace {

using testing::CountingFileSystem;

class AgentsMdImports : public ::testing::Test {
 protected:
  void SetUp() override { Add("/repo/.git/HEAD", "x"); }
  void Add(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(fs_.AddFile(path, bytes, 1).has_value()) << path;
  }
  AgentsMdInputs Inputs(std::uint64_t max_bytes = 4096,
                        AgentsMdRefresh mode = AgentsMdRefresh::kSelection) {
    AgentsMdInputs in;
    in.config.max_bytes = max_bytes;
    in.config.refresh = mode;
    in.environments.push_back(EnvironmentSelection{"primary", "/repo", "main", &counting_, true});
    return in;
  }
  AgentsMdLoad LoadOk(const AgentsMdInputs& in) {
    Result<AgentsMdLoad> r = LoadAgentsMd(in, nullptr);
    EXPECT_TRUE(r.has_value()) << r.error().Display();
    return r.has_value() ? std::move(r).value() : AgentsMdLoad{};
  }
  static std::vector<std::string> Messages(const AgentsMdLoad& load) {
    std::vector<std::string> out;
    for (const AgentsMdWarning& w : load.warnings)
      out.push_back(std::string(ToWire(w.code)) + ": " + w.message);
    return out;
  }

  MemoryFileSystem fs_;
  CountingFileSystem counting_{&fs_};
};

TEST(AgentsMdImportTarget, OnlyABareAtPathLineIsAnImport) {
  EXPECT_EQ(ImportTarget("@docs/style.md"), "docs/style.md");
  EXPECT_EQ(ImportTarget("@docs/style.md\r"), "docs/style.md");
  EXPECT_EQ(ImportTarget("@docs/style.md \t"), "docs/style.md");
  EXPECT_EQ(ImportTarget("@./a.md"), "./a.md");
  EXPECT_EQ(ImportTarget(" @docs/style.md"), "");  // something before the @
  EXPECT_EQ(ImportTarget("see @docs/style.md"), "");
  EXPECT_EQ(ImportTarget("@docs/my style.md"), "");  // not only a path
  EXPECT_EQ(ImportTarget("@alice please review"), "");
  EXPECT_EQ(ImportTarget("@"), "");
  EXPECT_EQ(ImportTarget("@ \r"), "");
  EXPECT_EQ(ImportTarget(""), "");
}

TEST_F(AgentsMdImports, CrlfImportLineIsReplacedAndKeepsItsLineBreak) {
  Add("/repo/AGENTS.md", "x\r\n@a.md\r\ny");
  Add("/repo/a.md", "A");
  EXPECT_EQ(LoadOk(Inputs()).result.text, "x\r\nA\ny");
}

TEST_F(AgentsMdImports, ImportedTextEndingInANewlineAddsNoBlankLine) {
  Add("/repo/AGENTS.md", "x\n@a.md\ny");
  Add("/repo/a.md", "A\n");
  EXPECT_EQ(LoadOk(Inputs()).result.text, "x\nA\ny");
}

TEST_F(AgentsMdImports, EmptyImportedFileRemovesTheLine) {
  Add("/repo/AGENTS.md", "x\n@a.md\ny");
  Add("/repo/a.md", "");
  AgentsMdLoad load = LoadOk(Inputs());
  EXPECT_EQ(load.result.text, "x\n\ny");
  EXPECT_EQ(load.result.sources.size(), 2u);
}

TEST_F(AgentsMdImports, AnUnclosedFenceKeepsTheRestAsText) {
  Add("/repo/AGENTS.md", "````\n@a.md\n```\n@a.md");  // a shorter run does not close
  Add("/repo/a.md", "A");
  AgentsMdLoad load = LoadOk(Inputs());
  EXPECT_EQ(load.result.text, "````\n@a.md\n```\n@a.md");
  EXPECT_TRUE(load.warnings.empty());
  EXPECT_EQ(counting_.StatsOf("/repo/a.md"), 0u);
}

TEST_F(AgentsMdImports, StatsAndReadsFollowTheDocumentOrderDepthFirst) {
  Add("/repo/AGENTS.md", "@a.md\n@b.md");
  Add("/repo/a.md", "@c.md");
  Add("/repo/b.md", "B");
  Add("/repo/c.md", "C");
  LoadOk(Inputs(100));
  std::vector<std::string> after_walk;
  bool seen = false;
  for (const std::string& line : counting_.log()) {
    if (line == "read /repo/AGENTS.md 100") seen = true;
    if (seen) after_walk.push_back(line);
  }
  EXPECT_EQ(after_walk, (std::vector<std::string>{
                            "read /repo/AGENTS.md 100",
                            "stat /repo/a.md",
                            "read /repo/a.md 89",
                            "stat /repo/c.md",
                            "read /repo/c.md 84",
                            "stat /repo/b.md",
                            "read /repo/b.md 83",
                        }));
}

TEST_F(AgentsMdImports, ImportedBytesShareTheBudgetAndACutIsReported) {
  Add("/repo/AGENTS.md", "@a.md\n");  // 6 bytes
  Add("/repo/a.md", "0123456789");
  AgentsMdLoad load = LoadOk(Inputs(10));
  EXPECT_EQ(load.result.text,
            "0123\n\n[AGENTS.md instructions truncated: 6 bytes omitted to fit the 10-byte limit]");
  EXPECT_EQ(Messages(load), (std::vector<std::string>{
                                "agents_md_truncated: AGENTS.md instructions truncated: "
                                "`/repo/a.md` exceeds the remaining budget of 4 bytes",
                            }));
}

TEST_F(AgentsMdImports, NoBudgetLeftLeavesTheLineAndWarns) {
  Add("/repo/AGENTS.md", "@a.md\nxxxx");  // exactly the budget
  Add("/repo/a.md", "A");
  AgentsMdLoad load = LoadOk(Inputs(10));
  EXPECT_EQ(load.result.text,
            "@a.md\nxxxx\n\n[AGENTS.md instructions truncated: 1 bytes omitted to fit the 10-byte "
            "limit]");
  EXPECT_EQ(Messages(load), (std::vector<std::string>{
                                "agents_md_truncated: AGENTS.md instructions truncated: "
                                "`/repo/a.md` exceeds the remaining budget of 0 bytes",
                            }));
  EXPECT_EQ(counting_.StatsOf("/repo/a.md"), 1u);  // watched, but not read
  EXPECT_EQ(counting_.reads(), 1u);
}

TEST_F(AgentsMdImports, TheCutLastLineOfATruncatedDocumentIsNotAnImport) {
  Add("/repo/AGENTS.md", "x\n@docs/style.md");
  Add("/repo/docs/style.md", "never");
  Add("/repo/docs", "");  // would be "not a file" if `@docs` were taken as an import
  AgentsMdLoad load = LoadOk(Inputs(7));
  ASSERT_EQ(load.result.entries.size(), 1u);
  EXPECT_EQ(load.result.entries[0].contents, "x\n@docs");
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(ToWire(load.warnings[0].code), "agents_md_truncated");
}

TEST_F(AgentsMdImports, StatErrorWarnsWithoutFailingTheLoad) {
  Add("/repo/AGENTS.md", "@a.md");
  Add("/repo/a.md", "A");
  fs_.InjectError("/repo/a.md", MemoryFileSystem::Op::kStat, ErrorCode::kPermissionDenied);
  AgentsMdLoad load = LoadOk(Inputs());  // sandboxed, yet only a warning
  EXPECT_EQ(load.result.text, "@a.md");
  EXPECT_EQ(Messages(load), (std::vector<std::string>{
                                "agents_md_import_warning: AGENTS.md import `@a.md` in "
                                "`/repo/AGENTS.md` not read: permission_denied: /repo/a.md"}));
}

TEST_F(AgentsMdImports, ReadErrorWarnsWithoutFailingTheLoad) {
  Add("/repo/AGENTS.md", "@a.md");
  Add("/repo/a.md", "A");
  fs_.InjectError("/repo/a.md", MemoryFileSystem::Op::kRead, ErrorCode::kIo);
  AgentsMdLoad load = LoadOk(Inputs());
  EXPECT_EQ(load.result.text, "@a.md");
  EXPECT_EQ(Messages(load),
            (std::vector<std::string>{"agents_md_import_warning: AGENTS.md import `@a.md` in "
                                      "`/repo/AGENTS.md` not read: io: /repo/a.md"}));
  EXPECT_EQ(load.result.sources.size(), 1u);
}

TEST_F(AgentsMdImports, OtherKindIsNotAFile) {
  Add("/repo/AGENTS.md", "@dev");
  ASSERT_TRUE(fs_.AddOther("/repo/dev").has_value());
  AgentsMdLoad load = LoadOk(Inputs());
  EXPECT_EQ(Messages(load),
            (std::vector<std::string>{"agents_md_import_warning: AGENTS.md import `@dev` in "
                                      "`/repo/AGENTS.md` not read: `/repo/dev` is not a file"}));
}

TEST_F(AgentsMdImports, NulInThePathIsRefused) {
  Add("/repo/AGENTS.md", std::string("@a\0b", 4));
  AgentsMdLoad load = LoadOk(Inputs());
  ASSERT_EQ(load.warnings.size(), 1u);
  EXPECT_EQ(ToWire(load.warnings[0].code), "agents_md_import_warning");
  EXPECT_NE(load.warnings[0].message.find("refused: it leaves the project root `/repo`"),
            std::string::npos);
  EXPECT_EQ(counting_.stats(), 4u);  // the marker and candidates only: no import was stat'ed
}

TEST_F(AgentsMdImports, ImportsInTheOverlayResolveFromItsDirectory) {
  Add("/repo/AGENTS.local.md", "@me/prefs.md");
  Add("/repo/me/prefs.md", "prefs");
  AgentsMdLoad load = LoadOk(Inputs());
  EXPECT_EQ(load.result.text, "prefs");
  ASSERT_EQ(load.result.sources.size(), 2u);
  EXPECT_EQ(load.result.sources[1].kind, AgentsMdSourceKind::kImport);
  EXPECT_EQ(load.result.sources[1].imported_from, "/repo/AGENTS.local.md");
}

TEST_F(AgentsMdImports, TheGlobalFileIsNotExpanded) {
  Add("/home/AGENTS.md", "@style.md");
  Add("/home/style.md", "never read");
  AgentsMdInputs in = Inputs();
  in.config.home_dir = "/home";
  AgentsMdLoad load = LoadOk(in);
  EXPECT_EQ(load.result.text, "@style.md");
  EXPECT_TRUE(load.warnings.empty());
  EXPECT_EQ(counting_.StatsOf("/home/style.md"), 0u);
}

TEST_F(AgentsMdImports, EachEnvironmentIncludesAFileOnceInItsOwnBlock) {
  Add("/repo/AGENTS.md", "@shared.md");
  Add("/repo/shared.md", "S");
  Add("/repo/app/AGENTS.md", "@../shared.md");
  AgentsMdInputs in = Inputs();
  in.environments.push_back(EnvironmentSelection{"second", "/repo/app", "main", &counting_, true});
  AgentsMdLoad load = LoadOk(in);
  // `second` walks /repo too: its root doc imports shared.md, so the app doc's import of the
  // same file is a second visit within that environment.
  EXPECT_EQ(load.result.text,
            "for `primary` with root /repo\n\nS\n\nfor `second` with root /repo/app\n\nS\n\n"
            "@../shared.md");
  EXPECT_EQ(Messages(load),
            (std::vector<std::string>{
                "agents_md_import_warning: AGENTS.md import `@../shared.md` in "
                "`/repo/app/AGENTS.md` not read again: `/repo/shared.md` is already included"}));
}

TEST_F(AgentsMdImports, ProbeModeSeesAnImportedFileEditedAndAMissingOneCreated) {
  Add("/repo/AGENTS.md", "@a.md\n@b.md");
  Add("/repo/a.md", "A");
  AgentsMdManager manager;
  AgentsMdInputs in = Inputs(4096, AgentsMdRefresh::kProbe);
  ASSERT_TRUE(manager.Refresh(in).has_value());
  EXPECT_EQ(manager.loaded().text, "A\n@b.md");
  EXPECT_FALSE(manager.Refresh(in)->reloaded);

  fs_.SetClock(10);
  ASSERT_TRUE(fs_.Write("/repo/a.md", "A2", false).has_value());
  EXPECT_TRUE(manager.Refresh(in)->reloaded);
  EXPECT_EQ(manager.loaded().text, "A2\n@b.md");

  ASSERT_TRUE(fs_.Write("/repo/b.md", "B", false).has_value());
  EXPECT_TRUE(manager.Refresh(in)->reloaded);
  EXPECT_EQ(manager.loaded().text, "A2\nB");
  EXPECT_EQ(manager.instruction_sources(),
            (std::vector<std::string>{"/repo/AGENTS.md", "/repo/a.md", "/repo/b.md"}));
  EXPECT_FALSE(manager.Refresh(in)->reloaded);
}

TEST_F(AgentsMdImports, InspectNamesTheImportingFile) {
  Add("/repo/AGENTS.md", "@a.md");
  Add("/repo/a.md", "A");
  AgentsMdManager manager;
  ASSERT_TRUE(manager.Refresh(Inputs()).has_value());
  const JsonValue inspect = manager.Inspect();
  const JsonValue* sources = inspect.Find("sources");
  ASSERT_NE(sources, nullptr);
  ASSERT_EQ(sources->items().size(), 2u);
  EXPECT_EQ(ToJson(sources->items()[1]),
            R"({"path":"/repo/a.md","environment_id":"primary","cwd":"/repo","global":false,)"
            R"("kind":"import","imported_from":"/repo/AGENTS.md"})");
  EXPECT_EQ(sources->items()[0].Find("imported_from"), nullptr);
}

}  // namespace
}  // namespace agentctx
