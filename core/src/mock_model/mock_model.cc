// SPDX-License-Identifier: MIT
// MockModel (SPEC §14); see mock_model.h.
#include "mock_model/mock_model.h"

#include <utility>
#include <vector>

#include "mock_model/mock_request.h"
#include "mock_model/mock_rules.h"
#include "mock_model/sse_writer.h"
#include "prompt/prompt_bytes.h"
#include "protocol/json_codec.h"
#include "support/sha1.h"

namespace agentctx {

Result<std::string> MockModel::Handle(std::string_view endpoint, std::string_view body,
                                      std::int64_t now_ms) {
  bool compact = endpoint == kResponsesCompact;
  if (!compact && endpoint != kResponses) {
    return Fail(ErrorCode::kInvalidInput, "unknown mock endpoint: " + std::string(endpoint));
  }
  ACTX_TRY(JsonValue raw, ParseJson(body));
  bool streaming = false;
  ACTX_TRY(JsonValue parsed, NormalizeMockRequest(raw, &streaming));
  ACTX_TRY(PromptBytes prompt, PromptBytesFromBody(parsed));
  const JsonValue* model = parsed.Find("model");
  const JsonValue* key = parsed.Find("prompt_cache_key");
  if ((model != nullptr && !model->is_string()) || (key != nullptr && !key->is_string())) {
    return Fail(ErrorCode::kInvalidInput,
                "request body: model and prompt_cache_key must be strings");
  }
  std::string_view model_slug = model != nullptr ? std::string_view(model->string_value()) : "";
  std::string_view cache_key = key != nullptr ? std::string_view(key->string_value()) : "";
  std::string h = Sha1Hex(body);

  if (compact) {
    cache_.Lookup(model_slug, cache_key, prompt.Concat(), now_ms);
    std::string out = "{\"output\":[";
    std::vector<JsonValue> items = PlanMockCompaction(parsed, h);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i != 0) out += ",";
      AppendJson(&out, items[i]);
    }
    out += "]}";
    return out;
  }

  MockResponseMeta meta;
  meta.id = "resp_" + h.substr(0, 12);
  meta.model = std::string(model_slug);
  meta.created_at = now_ms > 0 ? now_ms / 1000 : 0;
  MockPlan plan = PlanMockResponse(parsed, h);
  if (plan.failure.has_value()) {
    bool fail = !plan.failure->once || fail_once_seen_.insert(h).second;
    if (fail) {
      const std::string& code = plan.failure->code;
      const std::string message = "Mock failure: " + code + ". Please try again in 1s.";
      return streaming ? WriteFailureStream(meta, code, message)
                       : WriteFailureJson(meta, code, message);
    }
  }

  MockUsage usage;
  usage.input_tokens = TokensForBytes(prompt.size());
  usage.cached_tokens = cache_.Lookup(model_slug, cache_key, prompt.Concat(), now_ms);
  for (const JsonValue& item : plan.items) {
    std::uint64_t tokens = TokensForBytes(ToJson(item).size());
    usage.output_tokens += tokens;
    if (item.GetString("type") == "reasoning") usage.reasoning_tokens += tokens;
  }
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  return streaming ? WriteSuccessStream(meta, plan.items, usage)
                   : WriteSuccessJson(meta, plan.items, usage);
}

}  // namespace agentctx
