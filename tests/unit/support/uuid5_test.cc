// SPDX-License-Identifier: MIT
// UUIDv5 (support/uuid5.h) against values of an independent implementation (Python's
// uuid.uuid5), and UUID text round trips.
#include "support/uuid5.h"

#include <gtest/gtest.h>

namespace agentctx {
namespace {

TEST(Uuid5, KnownValues) {
  EXPECT_EQ(UuidString(UuidNamespaceOid()), "6ba7b812-9dad-11d1-80b4-00c04fd430c8");
  EXPECT_EQ(UuidString(Uuid5(UuidNamespaceOid(), "")), "0a68eb57-c88a-5f34-9e9d-27f85e68af4f");
  EXPECT_EQ(UuidString(Uuid5(UuidNamespaceOid(), "abc")), "7697a46f-b283-5da3-8e7c-62c11c03dd9e");
  // The DNS namespace, RFC 9562's own example name.
  std::optional<UuidBytes> dns = ParseUuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  ASSERT_TRUE(dns.has_value());
  EXPECT_EQ(UuidString(Uuid5(*dns, "python.org")), "886313e1-3b8a-5372-9b90-0c9aee199e5d");
}

TEST(Uuid5, Parse) {
  std::optional<UuidBytes> u = ParseUuid("01A23389-4010-7ff1-a3d2-8afad7ea01d4");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(UuidString(*u), "01a23389-4010-7ff1-a3d2-8afad7ea01d4");
  EXPECT_FALSE(ParseUuid("01a23389-4010-7ff1-a3d2-8afad7ea01d").has_value());
  EXPECT_FALSE(ParseUuid("01a23389x4010-7ff1-a3d2-8afad7ea01d4").has_value());
  EXPECT_FALSE(ParseUuid("01a23389-4010-7ff1-a3d2-8afad7ea01dg").has_value());
}

}  // namespace
}  // namespace agentctx
