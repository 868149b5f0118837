// SPDX-License-Identifier: MIT
// The provider-feature switchboard: which optional capabilities a session's requests use
// (ProviderFeature: explicit cache breakpoints, cache diagnostics, in-conversation tool changes,
// system messages, in-band compaction, prewarming, prompt_cache_key), and the refusal path.
// Rules (docs/providers.md, "Provider features"):
//  - A feature the session config sets (true/false) is what it says; null is automatic: on when
//    the provider has the feature for the model (its dialect's table) and the host sends to the
//    provider's official endpoint (no `base_url`), off for any other base URL — except features
//    the dialect sends to every endpoint (prompt_cache_key: bodies have always carried it).
//  - A feature the endpoint refused (HTTP 400 naming one of its parameters) is off for the rest
//    of the session, whatever the config says; the session persists the refusal so a resume
//    keeps it.
// Invariants: pure; a feature the dialect does not know is never on.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "agentctx/wire_enums.h"

namespace agentctx {

inline constexpr std::size_t kProviderFeatureCount = WireTable<ProviderFeature>::kValues.size();

/// A value per feature.
template <class T>
struct PerFeature {
  std::array<T, kProviderFeatureCount> values{};
  T& operator[](ProviderFeature f) { return values[static_cast<std::size_t>(f)]; }
  const T& operator[](ProviderFeature f) const { return values[static_cast<std::size_t>(f)]; }
};

/// The session config's `provider_features` (nullopt = automatic).
using FeatureRequests = PerFeature<std::optional<bool>>;

/// The resolved switchboard of one request.
struct ProviderFeatures {
  PerFeature<bool> on;
  bool operator()(ProviderFeature f) const { return on[f]; }
  /// prompt_cache_key alone: the bodies agentctx sent before the switchboard existed.
  static ProviderFeatures Baseline() {
    ProviderFeatures f;
    f.on[ProviderFeature::kPromptCacheKey] = true;
    return f;
  }
};

/// How a dialect offers a feature when it is automatic.
enum class FeatureAvailability {
  kNone,           ///< the provider does not have it (never on automatically)
  kOfficialOnly,   ///< on automatically at the official endpoint only
  kEveryEndpoint,  ///< on automatically whatever the base URL
  kOnRequest,      ///< never on automatically; on when the config asks (models not in the table)
};

/// The switchboard for `requests`: `availability(f)` is the dialect's offer for the model,
/// `official` whether the host sends to the provider's official endpoint, `refused` the
/// features the endpoint refused in this session.
template <class Availability>
ProviderFeatures ResolveFeatures(const FeatureRequests& requests, Availability availability,
                                 bool official, const PerFeature<bool>& refused) {
  ProviderFeatures out;
  for (std::size_t i = 0; i < kProviderFeatureCount; ++i) {
    const auto f = static_cast<ProviderFeature>(i);
    const FeatureAvailability a = availability(f);
    bool on = false;
    if (requests[f]) {
      on = *requests[f] && a != FeatureAvailability::kNone;
    } else {
      on = a == FeatureAvailability::kEveryEndpoint ||
           (a == FeatureAvailability::kOfficialOnly && official);
    }
    out.on[f] = on && !refused[f];
  }
  return out;
}

/// The feature whose request parameter a refusal names: `status` 400 and a body that names one
/// of `parameter_of`'s parameters (as a whole word) of a feature that is `on`. `parameter_of(f)`
/// lists the request parameters a feature adds (empty when it adds none). nullopt otherwise.
/// The most specific mention wins: a parameter named as the leaf of a path
/// (`prompt_cache_options.prewarm` → `prewarm`) before one named only as the path's prefix.
template <class Parameters>
std::optional<ProviderFeature> FeatureRefusedBy(std::optional<std::int64_t> status,
                                                std::string_view body, const ProviderFeatures& on,
                                                Parameters parameter_of);

/// How `text` mentions `word` (delimited by characters that cannot be part of a parameter name:
/// anything but ASCII letters, digits and `_`): not at all, only as the prefix of a longer path
/// (`word.field`, `word[0]`), or as a leaf (any other mention).
enum class WordMention { kNone, kPathPrefix, kLeaf };
WordMention MentionOf(std::string_view text, std::string_view word);
/// True when `text` mentions `word` at all (MentionOf != kNone).
bool MentionsWord(std::string_view text, std::string_view word);

template <class Parameters>
std::optional<ProviderFeature> FeatureRefusedBy(std::optional<std::int64_t> status,
                                                std::string_view body, const ProviderFeatures& on,
                                                Parameters parameter_of) {
  if (!status || *status != 400) return std::nullopt;
  std::optional<ProviderFeature> prefix_match;
  for (std::size_t i = 0; i < kProviderFeatureCount; ++i) {
    const auto f = static_cast<ProviderFeature>(i);
    if (!on(f)) continue;
    for (std::string_view parameter : parameter_of(f)) {
      const WordMention mention = MentionOf(body, parameter);
      if (mention == WordMention::kLeaf) return f;
      if (mention == WordMention::kPathPrefix && !prefix_match) prefix_match = f;
    }
  }
  return prefix_match;
}

}  // namespace agentctx
