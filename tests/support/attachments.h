// SPDX-License-Identifier: MIT
// Test helpers for the facade's attachments (agentctx/engine.h): tests that read request
// bodies as text resolve each {"$bytes":i,"length":n} reference of an envelope to attachment i
// of the same call. The raw shape itself is tested in tests/unit/engine/attachments_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "agentctx/engine.h"
#include "protocol/json_value.h"

namespace agentctx::testing {

/// `value` with every output reference replaced by a string of the referenced bytes.
JsonValue InlineAttachments(JsonValue value, const std::vector<std::string_view>& attachments);

/// The attachments of the last call on `handle`.
std::vector<std::string_view> AttachmentsOf(const Engine& engine, std::uint32_t handle);

/// The envelope text of the last call on `handle` with its references inlined as JSON strings
/// (the pre-attachment shape, for tests that read bodies from effects).
std::string InlineEnvelope(const Engine& engine, std::uint32_t handle, const std::string& envelope);

}  // namespace agentctx::testing
