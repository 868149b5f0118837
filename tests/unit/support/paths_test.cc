// SPDX-License-Identifier: MIT
// Path resolution vectors and the lexical path helpers.
#include "support/paths.h"

#include <gtest/gtest.h>

#include <string>

namespace agentctx {
namespace {

std::string Resolved(std::string_view cwd, std::string_view path) {
  auto r = ResolvePath(cwd, path);
  EXPECT_TRUE(r.has_value()) << r.error().Display();
  return r.has_value() ? *r : std::string();
}

ErrorCode ResolveError(std::string_view cwd, std::string_view path) {
  auto r = ResolvePath(cwd, path);
  EXPECT_FALSE(r.has_value());
  return r.has_value() ? ErrorCode::kInternal : r.error().code;
}

TEST(Paths, ResolveRelativeJoinsCwd) {
  EXPECT_EQ(Resolved("/repo", "src/main.rs"), "/repo/src/main.rs");
}

TEST(Paths, ResolveCollapsesDotsAndSlashes) {
  EXPECT_EQ(Resolved("/repo", "/a/./b//c/"), "/a/b/c");
  EXPECT_EQ(Resolved("/repo", "/a/b/../c"), "/a/c");
  EXPECT_EQ(Resolved("/repo", "./x/../y"), "/repo/y");
  EXPECT_EQ(Resolved("/", "a"), "/a");
  EXPECT_EQ(Resolved("/repo", ".."), "/");
  EXPECT_EQ(Resolved("/repo", "/"), "/");
  EXPECT_EQ(Resolved("/repo/", "a"), "/repo/a");
}

TEST(Paths, ResolveRejectsEscapeEmptyAndNul) {
  EXPECT_EQ(ResolveError("/repo", "../../x"), ErrorCode::kInvalidPath);
  EXPECT_EQ(ResolveError("/repo", ""), ErrorCode::kInvalidPath);
  EXPECT_EQ(ResolveError("/repo", std::string_view("a\0b", 3)), ErrorCode::kInvalidPath);
  EXPECT_EQ(ResolveError("/repo", "/.."), ErrorCode::kInvalidPath);
  EXPECT_EQ(ResolveError("relative", "x"), ErrorCode::kInvalidPath);
  EXPECT_EQ(ResolveError(std::string_view("/re\0po", 6), "x"), ErrorCode::kInvalidPath);
}

TEST(Paths, NormalizeAbsolute) {
  EXPECT_EQ(*NormalizeAbsolute("/"), "/");
  EXPECT_EQ(*NormalizeAbsolute("//"), "/");
  EXPECT_EQ(*NormalizeAbsolute("/a/b/.."), "/a");
  EXPECT_EQ(*NormalizeAbsolute("/a/.."), "/");
  EXPECT_EQ(*NormalizeAbsolute("/..a/b.."), "/..a/b..");
  EXPECT_FALSE(NormalizeAbsolute("a/b").has_value());
  EXPECT_FALSE(NormalizeAbsolute("").has_value());
  EXPECT_EQ(NormalizeAbsolute("/a/../..").error().code, ErrorCode::kInvalidPath);
}

TEST(Paths, IsNormalizedAbsolute) {
  EXPECT_TRUE(IsNormalizedAbsolute("/"));
  EXPECT_TRUE(IsNormalizedAbsolute("/a/b"));
  EXPECT_FALSE(IsNormalizedAbsolute(""));
  EXPECT_FALSE(IsNormalizedAbsolute("a"));
  EXPECT_FALSE(IsNormalizedAbsolute("/a/"));
  EXPECT_FALSE(IsNormalizedAbsolute("/a//b"));
  EXPECT_FALSE(IsNormalizedAbsolute("/a/./b"));
  EXPECT_FALSE(IsNormalizedAbsolute("/a/.."));
  EXPECT_FALSE(IsNormalizedAbsolute(std::string_view("/a\0", 3)));
}

TEST(Paths, ParentJoinBaseName) {
  EXPECT_EQ(Parent("/a/b"), "/a");
  EXPECT_EQ(Parent("/a"), "/");
  EXPECT_EQ(Parent("/"), "/");
  EXPECT_EQ(Join("/", "a"), "/a");
  EXPECT_EQ(Join("/a", "b"), "/a/b");
  EXPECT_EQ(BaseName("/a/b"), "b");
  EXPECT_EQ(BaseName("/"), "");
  EXPECT_EQ(Segments("/a/b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(Segments("/").empty());
}

TEST(Paths, IsUnderRespectsSegmentBoundary) {
  EXPECT_TRUE(IsUnder("/repo", "/repo"));
  EXPECT_TRUE(IsUnder("/repo/x", "/repo"));
  EXPECT_FALSE(IsUnder("/repository", "/repo"));
  EXPECT_FALSE(IsUnder("/re", "/repo"));
  EXPECT_TRUE(IsUnder("/anything", "/"));
  EXPECT_TRUE(IsUnder("/", "/"));
}

}  // namespace
}  // namespace agentctx
