// SPDX-License-Identifier: MIT
#include "world_state/world_state_hash.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(WorldStateHash, ReadOnlyVector) {
  EXPECT_EQ(WorldStateHash(Role::kDeveloper,
                           "<permissions instructions>\nRead only.\nAsk for approval.\n"
                           "</permissions instructions>"),
            "0ccde536dd8b4cfebb1df573f679dfe86b5718e3");
}

TEST(WorldStateHash, CrlfHashesLikeLf) {
  EXPECT_EQ(WorldStateHash("developer",
                           "<permissions instructions>\r\nRead only.\r\nAsk for approval.\r\n"
                           "</permissions instructions>"),
            "0ccde536dd8b4cfebb1df573f679dfe86b5718e3");
}

TEST(WorldStateHash, FullAccessVector) {
  EXPECT_EQ(WorldStateHash(Role::kDeveloper,
                           "<permissions instructions>\nFull access.\nAsk for approval.\n"
                           "</permissions instructions>"),
            "7e17d9a0df61e5f0c032ed7f0bf1dda58c9d5e85");
}

TEST(WorldStateHash, RoleAndLoneCarriageReturnMatter) {
  const std::string text = "a\rb";
  EXPECT_NE(WorldStateHash("developer", text), WorldStateHash("user", text));
  EXPECT_NE(WorldStateHash("developer", text), WorldStateHash("developer", "ab"));
  EXPECT_NE(WorldStateHash("developer", text), WorldStateHash("developer", "a\nb"));
  // Length prefixes keep the role/text boundary unambiguous.
  EXPECT_NE(WorldStateHash("ab", "c"), WorldStateHash("a", "bc"));
}

}  // namespace
}  // namespace agentctx
