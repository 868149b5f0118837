// SPDX-License-Identifier: MIT
// Request bodies (`responses`, `responses/compact`) assembled from cached pieces: item bytes are
// serialised once when recorded and only concatenated here, so building request N never
// re-serialises items 1..N-1. Field order is fixed; output is deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "provider/body_params.h"

namespace agentctx {

/// The input item that makes a `responses` request compact in-band (it must be the last one).
inline constexpr std::string_view kCompactionTriggerItem = "{\"type\":\"compaction_trigger\"}";

/// The `responses` body of a turn request (and of an in-band compaction: p.compaction_trigger).
std::string BuildResponsesBody(const BodyParams& p);
/// The `responses` body up to and including `"input":[` (items not included).
void AppendResponsesHead(std::string* out, const BodyParams& p);
/// The `responses` body from the `]` closing `input` to the end.
void AppendResponsesTail(std::string* out, const BodyParams& p);
/// `,"service_tier":…` (when set) `,"prompt_cache_key":…`: shared by every body with those fields.
void AppendServiceTierAndCacheKey(std::string* out, const BodyParams& p);
/// Puts `member` (a rendered `"key":value`) first in the `prompt_cache_options` object written
/// at or after offset `from` of `*body`, or appends `,"prompt_cache_options":{member}` when
/// there is none; so each option is rendered by its own feature, whatever else the object holds.
void MergePromptCacheOption(std::string* body, std::size_t from, std::string_view member);
/// The `responses/compact` body of a remote compaction.
std::string BuildCompactBody(const BodyParams& p);

}  // namespace agentctx
