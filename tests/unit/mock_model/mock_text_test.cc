// SPDX-License-Identifier: MIT
#include "mock_model/mock_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace agentctx {
namespace {

std::vector<std::string> Describe(std::string_view u) {
  std::vector<std::string> out;
  for (const MockCallRequest& c : ExtractMockCalls(u)) {
    out.push_back(c.name + " " + c.path + (c.name == "write_file" ? "=" + c.content : ""));
  }
  return out;
}

TEST(MockText, SpecSentenceReferences) {
  EXPECT_EQ(Describe("Please read src/main.rs and README.md."),
            (std::vector<std::string>{"read_file src/main.rs", "read_file README.md"}));
}

TEST(MockText, ReferenceRegexNeedsTwoCharactersBeforeTheLastDot) {
  EXPECT_TRUE(IsFileReference("ab.c"));
  EXPECT_TRUE(IsFileReference("Makefile.am"));
  EXPECT_TRUE(IsFileReference("_x.tar.gz"));
  EXPECT_TRUE(IsFileReference("a-b.12345678"));
  EXPECT_FALSE(IsFileReference("a.rs"));           // one character before the dot
  EXPECT_FALSE(IsFileReference("e.g"));            // idem
  EXPECT_FALSE(IsFileReference("abc.123456789"));  // extension of 9
  EXPECT_FALSE(IsFileReference(".hidden.md"));     // must not start with a dot
  EXPECT_FALSE(IsFileReference("abc."));
  EXPECT_FALSE(IsFileReference("abc.r_s"));
  EXPECT_FALSE(IsFileReference("hello"));
  EXPECT_FALSE(IsFileReference("héllo.md"));
  EXPECT_FALSE(IsFileReference(""));
  EXPECT_TRUE(IsFileReference("src/x"));  // any `/`
  EXPECT_TRUE(IsFileReference("/"));
  EXPECT_FALSE(IsFileReference("https://example.com/a.md"));
}

TEST(MockText, StripsPunctuationAndOneTrailingDot) {
  EXPECT_EQ(StripReferenceToken("\"README.md\","), "README.md");
  EXPECT_EQ(StripReferenceToken("(src/a.rs)."), "src/a.rs");
  EXPECT_EQ(StripReferenceToken("`x.md`:"), "x.md");
  EXPECT_EQ(StripReferenceToken("main.rs.."), "main.rs.");
  EXPECT_EQ(StripReferenceToken("{[<'x.md'>]}?!;"), "x.md");
  EXPECT_EQ(StripReferenceToken("..."), "..");
}

TEST(MockText, DirectivesInOrderOfAppearance) {
  EXPECT_EQ(Describe("first #mock-list:src then notes.txt\n#mock-write:out/a.txt=hello see bb.md\n"
                     "and cc.md"),
            (std::vector<std::string>{"list_dir src", "read_file notes.txt",
                                      "write_file out/a.txt=hello see bb.md", "read_file cc.md"}));
}

TEST(MockText, WriteContentKeepsTheRawRestOfLine) {
  EXPECT_EQ(Describe("#mock-write:a.txt=  x = y  "),
            (std::vector<std::string>{"write_file a.txt=  x = y  "}));
  EXPECT_EQ(Describe("#mock-write:a.txt="), (std::vector<std::string>{"write_file a.txt="}));
  // Without `=` (or with an empty path) the directive is ignored, with the rest of its line.
  EXPECT_TRUE(Describe("#mock-write:a.txt b.md").empty());
  EXPECT_TRUE(Describe("#mock-write:=x").empty());
}

TEST(MockText, AgentGradeDirectivesOwnTheirLines) {
  auto calls = ExtractMockCalls(
      "#mock-edit:a.rs=x y=>z bb.md\n#mock-grep: TODO cc.md \n#mock-glob:src/*.rs dd.md\n"
      "#mock-patch:\n*** Begin Patch\n*** Add File: ee.md\n+ff.md\n  *** End Patch  \ngg.md");
  ASSERT_EQ(calls.size(), 6u);
  EXPECT_EQ(calls[0].name, "edit_file");
  EXPECT_EQ(calls[0].path, "a.rs");
  EXPECT_EQ(calls[0].old_string, "x y");
  EXPECT_EQ(calls[0].new_string, "z bb.md");
  EXPECT_FALSE(calls[0].replace_all);
  EXPECT_EQ(calls[1].name, "grep");
  EXPECT_EQ(calls[1].content, "TODO cc.md");
  EXPECT_EQ(calls[2].name, "glob");  // one token: the rest of the line is scanned as usual
  EXPECT_EQ(calls[2].content, "src/*.rs");
  EXPECT_EQ(calls[3].name, "read_file");
  EXPECT_EQ(calls[3].path, "dd.md");
  EXPECT_EQ(calls[4].name, "apply_patch");
  EXPECT_EQ(calls[4].content, "*** Begin Patch\n*** Add File: ee.md\n+ff.md\n  *** End Patch  \n");
  EXPECT_EQ(calls[5].path, "gg.md");  // scanning resumes after the patch block
  // Malformed directives are ignored with the rest of their line.
  EXPECT_TRUE(ExtractMockCalls("#mock-edit:a.rs=no arrow hh.md").empty());
  EXPECT_TRUE(ExtractMockCalls("#mock-edit:=x=>y").empty());
  EXPECT_TRUE(ExtractMockCalls("#mock-grep:   ").empty());
  EXPECT_TRUE(ExtractMockCalls("#mock-glob: ii.md").size() == 1);  // empty glob; ii.md is read
  EXPECT_TRUE(ExtractMockCalls("#mock-patch:").empty());
}

TEST(MockText, UrlsAndFailDirectivesAreNotReferences) {
  EXPECT_TRUE(Describe("see https://example.com/docs/a.md #mock-fail:server_error").empty());
  EXPECT_TRUE(Describe("#mock-fail-once:rate_limit_exceeded").empty());
}

TEST(MockText, UnicodeWhitespaceSeparatesTokens) {
  EXPECT_EQ(Describe("read\u00A0src/a.rs\u3000and\tbb.md\u2028cc.md b.md"),
            (std::vector<std::string>{"read_file src/a.rs", "read_file bb.md", "read_file cc.md"}));
}

TEST(MockText, FailDirectives) {
  auto d = FindFailDirective("please #mock-fail:server_is_overloaded now");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->code, "server_is_overloaded");
  EXPECT_FALSE(d->once);
  d = FindFailDirective("x #mock-fail-once:server_error.");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->code, "server_error");
  EXPECT_TRUE(d->once);
  EXPECT_FALSE(FindFailDirective("#mock-fail: nothing").has_value());
  EXPECT_FALSE(FindFailDirective("#mock-failure:x").has_value());
  d = FindFailDirective("#mock-fail: #mock-fail:second");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->code, "second");
}

TEST(MockText, ReplyDirectivesLastWinsCaseInsensitive) {
  ReplyDirectives d = ParseReplyDirectives(
      "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nReply prefix: [a]\n  REPLY PREFIX:  "
      "[ok] "
      " \nreply suffix: bye\nReply in uppercase.\n</INSTRUCTIONS>");
  EXPECT_TRUE(d.uppercase);
  EXPECT_EQ(d.prefix, "[ok]");
  EXPECT_EQ(d.suffix, "bye");
  EXPECT_EQ(ApplyReplyDirectives(d, "Mock reply to: hello"), "[ok] MOCK REPLY TO: HELLO bye");
}

TEST(MockText, ReplyDirectiveEdgeCases) {
  EXPECT_FALSE(ParseReplyDirectives("reply in uppercase please").uppercase);
  EXPECT_FALSE(ParseReplyDirectives("please reply in uppercase").uppercase);
  EXPECT_TRUE(ParseReplyDirectives("reply in uppercase").uppercase);
  EXPECT_FALSE(ParseReplyDirectives("reply prefix:   ").prefix.has_value());
  // The removal notice disables everything.
  EXPECT_FALSE(ParseReplyDirectives("The previously provided AGENTS.md instructions no longer "
                                    "apply.\nreply in uppercase")
                   .uppercase);
  // Uppercase is ASCII-only.
  ReplyDirectives up;
  up.uppercase = true;
  EXPECT_EQ(ApplyReplyDirectives(up, "héllo"), "HéLLO");
}

TEST(MockText, FirstLineCutsCharacters) {
  EXPECT_EQ(FirstLine("abc\ndef", 80), "abc");
  EXPECT_EQ(FirstLine(std::string(100, 'x'), 80), std::string(80, 'x'));
  std::string emoji;
  for (int i = 0; i < 81; ++i) emoji += "😀";
  EXPECT_EQ(FirstLine(emoji, 80).size(), 320u);
  EXPECT_EQ(FirstLine("", 80), "");
}

}  // namespace
}  // namespace agentctx
