// SPDX-License-Identifier: MIT
// Dialect: everything one provider's API needs from a session, behind one interface, so the
// session never branches on the provider. A dialect owns, for its provider:
//  - the endpoint and the rendering of a prompt into body bytes (turn requests incrementally,
//    one-off requests such as compaction and previews from scratch), with the explainer's view
//    of the same bytes (PromptSegments) and, where the provider caches at marks, the mark plan
//    and its cache rule;
//  - the stream adapter (provider SSE events -> the Responses event language the session reads;
//    none for Responses itself), the mapping of HTTP error deliveries, and the pricing rule.
// Adding a provider is one folder under provider/, one enum value in core/protocol.json and one
// line in MakeDialect (docs/architecture.md, "Adding a provider").
// Invariants: rendering is deterministic (the same inputs give the same bytes); a turn render's
// views stay valid until the next turn render of the same dialect; RenderOnce writes its body
// into the caller's string, its segments stay valid until the next one-off render. A dialect
// holds render caches only, never session state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentctx/wire_enums.h"
#include "prompt/for_prompt.h"
#include "protocol/json_value.h"
#include "provider/body_params.h"
#include "provider/cache/cache_diagnosis.h"
#include "provider/cache/cache_explainer.h"
#include "provider/cache/cache_pricing.h"
#include "provider/features.h"
#include "provider/model_errors.h"
#include "provider/stream_adapter.h"

namespace agentctx {

/// Session settings a dialect renders with (SessionConfig::Dialect() builds them).
struct DialectOptions {
  /// Mark-based caches: the smallest prompt the provider caches; unset: the model's default.
  std::optional<std::uint64_t> min_cacheable_tokens;
  /// Mark-based caches: the TTL of the marks on stable boundaries.
  CacheTtl stable_ttl = CacheTtl::k5m;
};

/// A rendered request and how the explainer sees it. Views into the dialect (turn renders) or
/// into the caller's string (RenderOnce).
struct RenderedRequest {
  std::string_view endpoint;
  std::string_view body;
  PromptSegments segments;  ///< `breakpoints` is left null: point it at `rule` when set
  /// Set when the provider caches at marks: the marks this request places.
  std::optional<BreakpointRule> rule;
  /// The mark plan as the cache report's `breakpoints` (null without marks).
  JsonValue marks;
  /// HTTP headers the body needs (name, value), e.g. Anthropic's `anthropic-beta` for beta
  /// parameters; empty for most bodies.
  std::vector<std::pair<std::string, std::string>> headers;
};

class Dialect {
 public:
  virtual ~Dialect() = default;
  virtual Provider provider() const = 0;
  /// The endpoint a turn request is sent to, relative to the base URL.
  virtual std::string_view endpoint() const = 0;
  /// The provider's official base URL (features are on automatically only there).
  virtual std::string_view official_base_url() const = 0;
  /// True when `base_url` (unset: the official one) is the official base URL.
  bool IsOfficial(const std::optional<std::string>& base_url) const;
  /// The turn request for `prompt` (`items` = its explainer segments; `stable` = how many
  /// leading items are unchanged since the previous turn render).
  virtual RenderedRequest RenderTurn(const BodyParams& p, const std::vector<PromptItem>& prompt,
                                     std::size_t stable, const std::vector<ItemSegment>& items,
                                     const DialectOptions& options, std::int64_t now_ms) = 0;
  /// A one-off request (local compaction, preview) for `items`, written into `*owned`; its
  /// segments stay valid until the next one-off render (turn renders are not disturbed).
  virtual RenderedRequest RenderOnce(const BodyParams& p, const std::vector<ItemSegment>& items,
                                     const DialectOptions& options, std::int64_t now_ms,
                                     std::string* owned) = 0;
  /// The provider's own compaction request (remote compaction) for `items`, written into
  /// `*owned`; nullopt where the API has none.
  virtual std::optional<RenderedRequest> RenderRemoteCompaction(
      const BodyParams& p, const std::vector<ItemSegment>& items, std::string* owned) {
    (void)p, (void)items, (void)owned;
    return std::nullopt;
  }
  /// A fresh stream adapter for one attempt; null when the stream already speaks Responses.
  virtual std::unique_ptr<StreamAdapter> NewStream() const { return nullptr; }
  /// The failure of a `model_error` delivery (HTTP status, body, transport message).
  virtual ModelFailure MapErrorDelivery(std::optional<std::int64_t> status, std::string_view body,
                                        std::string_view message) const {
    return MapModelErrorDelivery(status, body, message);
  }
  /// The pricing rule of the provider's cache.
  virtual CachePricing pricing() const { return CachePricing::kOpenAi; }
  /// The vocabulary of the provider's cache diagnostics (cache_diagnosis.h).
  virtual DiagnosisVocabulary diagnosis_vocabulary() const { return DiagnosisVocabulary::kOpenAi; }
  /// How the provider offers `feature` for `model` when the config leaves it automatic.
  virtual FeatureAvailability Availability(ProviderFeature feature, std::string_view model) const {
    (void)feature, (void)model;
    return FeatureAvailability::kNone;
  }
  /// How a native tool change (`tool_changes` item) reaches this provider with `on`
  /// (prompt/for_prompt.h): kNotice, a developer notice, where it has no native channel.
  virtual ToolChangeForm tool_change_form(const ProviderFeatures& on) const {
    (void)on;
    return ToolChangeForm::kNotice;
  }
  /// The request parameters `feature` adds to this provider's bodies (a refusal names one).
  virtual std::vector<std::string_view> ParametersOf(ProviderFeature feature) const {
    (void)feature;
    return {};
  }
  /// The switchboard for a request of `model` (features.h): the config's `requests`, whether
  /// the host sends to the official endpoint, the features refused so far.
  ProviderFeatures ResolveFeatures(const FeatureRequests& requests, std::string_view model,
                                   bool official, const PerFeature<bool>& refused) const;
  /// The feature a `model_error` refuses (HTTP 400 naming one of its parameters) among `on`.
  std::optional<ProviderFeature> RefusedFeature(std::optional<std::int64_t> status,
                                                std::string_view body,
                                                const ProviderFeatures& on) const;
};

/// The dialect of `provider`.
std::unique_ptr<Dialect> MakeDialect(Provider provider);

/// `inspect` format `breakpoints`: the mark plan a mark-caching provider would place on the next
/// request — {"min_cacheable_tokens","breakpoints":[…]} — whatever the session's provider.
JsonValue PreviewCacheMarks(const BodyParams& p, const std::vector<ItemSegment>& items,
                            const DialectOptions& options);

}  // namespace agentctx
