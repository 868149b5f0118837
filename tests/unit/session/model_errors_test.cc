// SPDX-License-Identifier: MIT
#include "provider/model_errors.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/json_codec.h"

namespace agentctx {
namespace {

JsonValue J(const std::string& text) {
  auto v = ParseJson(text);
  EXPECT_TRUE(v.has_value()) << text;
  return v.has_value() ? *v : JsonValue();
}

JsonValue Failed(const std::string& code, const std::string& message) {
  JsonValue error = JsonValue::Object();
  error.Set("code", JsonValue::String(code));
  error.Set("message", JsonValue::String(message));
  JsonValue response = JsonValue::Object();
  response.Set("id", JsonValue::String("resp_1"));
  response.Set("error", error);
  JsonValue event = JsonValue::Object();
  event.Set("type", JsonValue::String("response.failed"));
  event.Set("response", response);
  return event;
}

// rate_limit_exceeded with `try again in 1.898s` / `28ms`: retryable, retry_after_ms from the text.
TEST(ModelErrors, RateLimitedWithRetryAfter) {
  ModelFailure a = MapResponseFailed(
      Failed("rate_limit_exceeded", "Rate limit reached. Please try again in 1.898s. Visit..."));
  EXPECT_EQ(a.code, ErrorCode::kRateLimited);
  EXPECT_TRUE(a.retryable);
  EXPECT_EQ(a.retry_after_ms, 1898);
  EXPECT_EQ(a.message, "Rate limit reached. Please try again in 1.898s. Visit...");
  ModelFailure b = MapResponseFailed(Failed("rate_limit_exceeded", "try again in 28ms"));
  EXPECT_EQ(b.code, ErrorCode::kRateLimited);
  EXPECT_EQ(b.retry_after_ms, 28);
}

// context_length_exceeded → context_window_exceeded (turn fails: not retryable).
TEST(ModelErrors, ContextLengthExceededIsNotRetryable) {
  ModelFailure f = MapResponseFailed(Failed("context_length_exceeded", "too long"));
  EXPECT_EQ(f.code, ErrorCode::kContextWindowExceeded);
  EXPECT_FALSE(f.retryable);
  EXPECT_FALSE(f.retry_after_ms.has_value());
}

TEST(ModelErrors, ResponseFailedCodeTable) {
  struct Row {
    const char* code;
    ErrorCode expected;
    bool retryable;
  } rows[] = {
      {"insufficient_quota", ErrorCode::kQuotaExceeded, false},
      {"usage_not_included", ErrorCode::kUsageNotIncluded, false},
      {"invalid_prompt", ErrorCode::kInvalidRequest, false},
      {"bio_policy", ErrorCode::kInvalidRequest, false},
      {"cyber_policy", ErrorCode::kInvalidRequest, false},
      {"server_is_overloaded", ErrorCode::kServerOverloaded, true},
      {"slow_down", ErrorCode::kServerOverloaded, true},
      {"server_error", ErrorCode::kStreamError, true},
      {"", ErrorCode::kStreamError, true},
  };
  for (const Row& row : rows) {
    ModelFailure f = MapResponseFailed(Failed(row.code, "m"));
    EXPECT_EQ(f.code, row.expected) << row.code;
    EXPECT_EQ(f.retryable, row.retryable) << row.code;
  }
}

TEST(ModelErrors, MockFailureMessageGivesOneSecond) {
  ModelFailure f = MapResponseFailed(
      Failed("server_error", "Mock failure: server_error. Please try again in 1s."));
  EXPECT_EQ(f.code, ErrorCode::kStreamError);
  EXPECT_EQ(f.retry_after_ms, 1000);
}

TEST(ModelErrors, ResponseFailedWithoutErrorObject) {
  ModelFailure f = MapResponseFailed(J(R"({"type":"response.failed"})"));
  EXPECT_EQ(f.code, ErrorCode::kStreamError);
  EXPECT_TRUE(f.retryable);
  EXPECT_EQ(f.message, "response.failed without error details");
  ModelFailure g =
      MapResponseFailed(J(R"({"type":"response.failed","error":{"code":"slow_down"}})"));
  EXPECT_EQ(g.code, ErrorCode::kServerOverloaded);
  EXPECT_EQ(g.message, "response.failed: slow_down");
}

// response.incomplete without details: the reason reads "unknown".
TEST(ModelErrors, IncompleteWithoutDetailsSaysUnknown) {
  ModelFailure f = MapResponseIncomplete(J(R"({"type":"response.incomplete","response":{}})"));
  EXPECT_EQ(f.code, ErrorCode::kIncompleteResponse);
  EXPECT_EQ(f.message, "Incomplete response returned, reason: unknown");
  EXPECT_FALSE(f.retryable);
  ModelFailure g = MapResponseIncomplete(J(
      R"({"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}})"));
  EXPECT_EQ(g.message, "Incomplete response returned, reason: max_output_tokens");
}

TEST(ModelErrors, StreamClosed) {
  ModelFailure f = StreamClosedFailure();
  EXPECT_EQ(f.code, ErrorCode::kStreamError);
  EXPECT_TRUE(f.retryable);
  EXPECT_EQ(f.message, "stream closed before response.completed");
}

TEST(ModelErrors, ModelErrorByStatus) {
  struct Row {
    std::optional<std::int64_t> status;
    ErrorCode expected;
    bool retryable;
  } rows[] = {
      {401, ErrorCode::kUnauthorized, false},      {403, ErrorCode::kUnauthorized, false},
      {429, ErrorCode::kRateLimited, true},        {408, ErrorCode::kHttpError, true},
      {409, ErrorCode::kHttpError, true},          {500, ErrorCode::kHttpError, true},
      {503, ErrorCode::kHttpError, true},          {599, ErrorCode::kHttpError, true},
      {std::nullopt, ErrorCode::kHttpError, true}, {400, ErrorCode::kHttpError, false},
      {404, ErrorCode::kHttpError, false},         {600, ErrorCode::kHttpError, false},
  };
  for (const Row& row : rows) {
    ModelFailure f = MapModelErrorDelivery(row.status, "", "");
    EXPECT_EQ(f.code, row.expected) << row.status.value_or(-1);
    EXPECT_EQ(f.retryable, row.retryable) << row.status.value_or(-1);
  }
}

TEST(ModelErrors, ModelErrorBodyCodeWins) {
  ModelFailure f = MapModelErrorDelivery(
      400, R"({"error":{"code":"context_length_exceeded","message":"Your input is too long."}})",
      "");
  EXPECT_EQ(f.code, ErrorCode::kContextWindowExceeded);
  EXPECT_FALSE(f.retryable);
  EXPECT_EQ(f.message, "unexpected status 400: Your input is too long.");
  ModelFailure g = MapModelErrorDelivery(
      429, R"({"error":{"code":"insufficient_quota","message":"quota"}})", "Too Many Requests");
  EXPECT_EQ(g.code, ErrorCode::kQuotaExceeded);
  EXPECT_FALSE(g.retryable);
}

TEST(ModelErrors, ModelErrorUnknownBodyCodeFallsBackToStatus) {
  ModelFailure f =
      MapModelErrorDelivery(401, R"({"error":{"code":"invalid_api_key","message":"bad key"}})", "");
  EXPECT_EQ(f.code, ErrorCode::kUnauthorized);
  EXPECT_EQ(f.message, "unexpected status 401: bad key");
}

TEST(ModelErrors, ModelErrorRetryAfterAndMessages) {
  ModelFailure f = MapModelErrorDelivery(
      429, R"({"error":{"message":"Please try again in 2.5 seconds."}})", "Too Many Requests");
  EXPECT_EQ(f.code, ErrorCode::kRateLimited);
  EXPECT_EQ(f.retry_after_ms, 2500);
  ModelFailure network = MapModelErrorDelivery(std::nullopt, "", "ECONNRESET");
  EXPECT_EQ(network.message, "ECONNRESET");
  EXPECT_FALSE(network.retry_after_ms.has_value());
  EXPECT_EQ(MapModelErrorDelivery(std::nullopt, "", "").message, "network error");
  EXPECT_EQ(MapModelErrorDelivery(502, "<html>bad gateway</html>", "").message,
            "unexpected status 502: <html>bad gateway</html>");
  EXPECT_EQ(MapModelErrorDelivery(502, "", "").message, "unexpected status 502");
}

TEST(ModelErrors, ParseRetryAfter) {
  EXPECT_EQ(ParseRetryAfterMs("Please try again in 1.898s"), 1898);
  EXPECT_EQ(ParseRetryAfterMs("try again in 28ms"), 28);
  EXPECT_EQ(ParseRetryAfterMs("TRY AGAIN IN 3 Seconds"), 3000);
  EXPECT_EQ(ParseRetryAfterMs("try again in 1.0001s"), 1001);  // rounded up
  EXPECT_EQ(ParseRetryAfterMs("try again in 0.5ms"), 1);
  EXPECT_EQ(ParseRetryAfterMs("try again in 12.000ms"), 12);
  EXPECT_EQ(ParseRetryAfterMs("try again in 7s"), 7000);
  EXPECT_EQ(ParseRetryAfterMs("try again in soon. Or try again in 4s"), 4000);
  EXPECT_FALSE(ParseRetryAfterMs("try again later").has_value());
  EXPECT_FALSE(ParseRetryAfterMs("try again in 5 minutes").has_value());
  EXPECT_FALSE(ParseRetryAfterMs("").has_value());
  EXPECT_FALSE(ParseRetryAfterMs("try again in").has_value());
  // Huge numbers saturate rather than overflow.
  auto huge = ParseRetryAfterMs("try again in 99999999999999999999999999s");
  ASSERT_TRUE(huge.has_value());
  EXPECT_GT(*huge, 0);
}

}  // namespace
}  // namespace agentctx
