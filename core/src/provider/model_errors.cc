// SPDX-License-Identifier: MIT
// Model failure classification; see model_errors.h for the table.
#include "provider/model_errors.h"

#include <utility>

#include "protocol/json_codec.h"

namespace agentctx {

namespace {

constexpr std::int64_t kMaxRetryAfterMs = INT64_MAX / 2;

struct CodeRule {
  std::string_view provider_code;
  ErrorCode code;
  bool retryable;
};

constexpr CodeRule kCodeRules[] = {
    {"context_length_exceeded", ErrorCode::kContextWindowExceeded, false},
    {"insufficient_quota", ErrorCode::kQuotaExceeded, false},
    {"usage_not_included", ErrorCode::kUsageNotIncluded, false},
    {"invalid_prompt", ErrorCode::kInvalidRequest, false},
    {"bio_policy", ErrorCode::kInvalidRequest, false},
    {"cyber_policy", ErrorCode::kInvalidRequest, false},
    {"server_is_overloaded", ErrorCode::kServerOverloaded, true},
    {"slow_down", ErrorCode::kServerOverloaded, true},
    {"rate_limit_exceeded", ErrorCode::kRateLimited, true},
};

const CodeRule* FindRule(std::string_view provider_code) {
  for (const CodeRule& rule : kCodeRules) {
    if (rule.provider_code == provider_code) return &rule;
  }
  return nullptr;
}

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool StartsWithNoCase(std::string_view s, std::size_t pos, std::string_view prefix) {
  if (s.size() - pos < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (LowerAscii(s[pos + i]) != prefix[i]) return false;
  }
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }

std::int64_t SaturatingMulAdd(std::int64_t value, std::int64_t mul, std::int64_t add) {
  if (value > (kMaxRetryAfterMs - add) / mul) return kMaxRetryAfterMs;
  return value * mul + add;
}

// Parses `<number>\s*(ms|seconds|second|s)` at `pos`; nullopt if it does not match.
std::optional<std::int64_t> ParseDurationAt(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  std::int64_t whole = 0;
  std::size_t whole_digits = 0;
  while (i < s.size() && IsDigit(s[i])) {
    whole = SaturatingMulAdd(whole, 10, s[i] - '0');
    ++whole_digits;
    ++i;
  }
  if (whole_digits == 0) return std::nullopt;
  std::string_view fraction;
  if (i + 1 < s.size() && s[i] == '.' && IsDigit(s[i + 1])) {
    std::size_t start = ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    fraction = s.substr(start, i - start);
  }
  while (i < s.size() && IsSpace(s[i])) ++i;
  bool millis;
  if (StartsWithNoCase(s, i, "ms")) {
    millis = true;
  } else if (StartsWithNoCase(s, i, "s")) {  // also "second(s)"
    millis = false;
  } else {
    return std::nullopt;
  }
  if (millis) {
    bool has_fraction = false;
    for (char c : fraction) has_fraction = has_fraction || c != '0';
    return has_fraction ? SaturatingMulAdd(whole, 1, 1) : whole;
  }
  // Seconds: whole * 1000 + ceil(fraction * 1000), in integer arithmetic.
  std::int64_t frac_ms = 0;
  bool remainder = false;
  for (std::size_t k = 0; k < fraction.size(); ++k) {
    if (k < 3) {
      frac_ms = frac_ms * 10 + (fraction[k] - '0');
    } else if (fraction[k] != '0') {
      remainder = true;
    }
  }
  for (std::size_t k = fraction.size(); k < 3; ++k) frac_ms *= 10;
  if (remainder) ++frac_ms;
  return SaturatingMulAdd(whole, 1000, frac_ms);
}

// The `error` object of a failed response event, if any.
const JsonValue* FindErrorObject(const JsonValue& event) {
  const JsonValue* response = event.Find("response");
  if (response != nullptr) {
    const JsonValue* error = response->Find("error");
    if (error != nullptr && error->is_object()) return error;
  }
  const JsonValue* error = event.Find("error");
  if (error != nullptr && error->is_object()) return error;
  return nullptr;
}

ModelFailure Make(ErrorCode code, std::string message, bool retryable) {
  ModelFailure failure;
  failure.code = code;
  failure.retryable = retryable;
  if (retryable) failure.retry_after_ms = ParseRetryAfterMs(message);
  failure.message = std::move(message);
  return failure;
}

}  // namespace

std::optional<std::int64_t> ParseRetryAfterMs(std::string_view message) {
  constexpr std::string_view kPhrase = "try again in";
  for (std::size_t pos = 0; pos + kPhrase.size() <= message.size(); ++pos) {
    if (!StartsWithNoCase(message, pos, kPhrase)) continue;
    std::size_t i = pos + kPhrase.size();
    while (i < message.size() && IsSpace(message[i])) ++i;
    std::optional<std::int64_t> ms = ParseDurationAt(message, i);
    if (ms.has_value()) return ms;
  }
  return std::nullopt;
}

ModelFailure MapResponseFailed(const JsonValue& event) {
  const JsonValue* error = FindErrorObject(event);
  std::string_view provider_code;
  std::string message;
  if (error != nullptr) {
    provider_code = error->GetString("code").value_or("");
    message = std::string(error->GetString("message").value_or(""));
  }
  if (message.empty()) {
    message = provider_code.empty() ? std::string("response.failed without error details")
                                    : "response.failed: " + std::string(provider_code);
  }
  if (const CodeRule* rule = FindRule(provider_code)) {
    return Make(rule->code, std::move(message), rule->retryable);
  }
  return Make(ErrorCode::kStreamError, std::move(message), true);
}

ModelFailure MapResponseIncomplete(const JsonValue& event) {
  std::string_view reason = "unknown";
  const JsonValue* response = event.Find("response");
  const JsonValue* details = response != nullptr ? response->Find("incomplete_details") : nullptr;
  if (details == nullptr) details = event.Find("incomplete_details");
  if (details != nullptr) {
    std::optional<std::string_view> r = details->GetString("reason");
    if (r.has_value() && !r->empty()) reason = *r;
  }
  return Make(ErrorCode::kIncompleteResponse,
              "Incomplete response returned, reason: " + std::string(reason), false);
}

ModelFailure MapModelErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                   std::string_view message) {
  std::string_view provider_code;
  std::string detail;
  Result<JsonValue> parsed = ParseJson(body);
  if (parsed.has_value()) {
    const JsonValue* error = parsed->Find("error");
    if (error != nullptr && error->is_object()) {
      provider_code = error->GetString("code").value_or("");
      detail = std::string(error->GetString("message").value_or(""));
    }
  }
  if (detail.empty()) detail = std::string(message);
  if (detail.empty()) detail = std::string(body);
  std::string text;
  if (status.has_value()) {
    text = "unexpected status " + std::to_string(*status);
    if (!detail.empty()) text += ": " + detail;
  } else {
    text = detail.empty() ? std::string("network error") : detail;
  }
  if (const CodeRule* rule = FindRule(provider_code)) {
    return Make(rule->code, std::move(text), rule->retryable);
  }
  if (!status.has_value()) return Make(ErrorCode::kHttpError, std::move(text), true);
  std::int64_t s = *status;
  if (s == 401 || s == 403) return Make(ErrorCode::kUnauthorized, std::move(text), false);
  if (s == 429) return Make(ErrorCode::kRateLimited, std::move(text), true);
  if (s == 408 || s == 409 || (s >= 500 && s <= 599)) {
    return Make(ErrorCode::kHttpError, std::move(text), true);
  }
  return Make(ErrorCode::kHttpError, std::move(text), false);
}

ModelFailure StreamClosedFailure() {
  return Make(ErrorCode::kStreamError, "stream closed before response.completed", true);
}

ModelFailure OversizedEventFailure() {
  return Make(ErrorCode::kStreamError,
              "stream closed before response.completed after an SSE event larger than 32 MiB "
              "was dropped; the same request would get the same event, so it is not retried",
              false);
}

}  // namespace agentctx
