// SPDX-License-Identifier: MIT
// MockModel; see mock_model.h.
#include "mock_model/mock_model.h"

#include <utility>
#include <vector>

#include "mock_model/mock_compaction.h"
#include "mock_model/mock_context_edits.h"
#include "mock_model/mock_request.h"
#include "mock_model/mock_rules.h"
#include "mock_model/provider_requests.h"
#include "mock_model/provider_sse.h"
#include "mock_model/sse_writer.h"
#include "prompt/prompt_bytes.h"
#include "protocol/json_codec.h"
#include "provider/responses/responses_dialect.h"
#include "support/sha1.h"

namespace agentctx {

Result<std::string> MockModel::Handle(std::string_view endpoint, std::string_view body,
                                      std::int64_t now_ms) {
  if (endpoint == kChatCompletions || endpoint == kMessages) {
    return HandleProvider(endpoint == kMessages, body, now_ms);
  }
  bool compact = endpoint == kResponsesCompact;
  if (!compact && endpoint != kResponses) {
    return Fail(ErrorCode::kInvalidInput, "unknown mock endpoint: " + std::string(endpoint));
  }
  ACTX_TRY(JsonValue raw, ParseJson(body));
  ACTX_TRY_VOID(CheckMockRequestSize(raw));
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

  const bool breakpoint_rule = HasPromptCacheOptions(model_slug);  // GPT-5.6+
  if (compact) {
    // The compaction endpoint reports no usage; under the breakpoint rule it touches no cache.
    if (!breakpoint_rule) cache_.Lookup(model_slug, cache_key, prompt.Concat(), now_ms);
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
  // The provider's own compaction (mock_compaction.h): alone, or before the answer.
  if (MockCompactionPlan c = PlanResponsesCompaction(parsed, usage.input_tokens); c.compact) {
    const JsonValue* input = parsed.Find("input");
    if (c.only) plan.items.clear();
    plan.items.insert(
        plan.items.begin(),
        MockCompactionItem(h, false, input && input->is_array() ? input->items().size() : 0));
  }
  std::optional<std::uint64_t> breakpoint_read;
  if (breakpoint_rule) {
    const ResponsesCacheUsage cache = responses_cache_.Lookup(parsed, prompt, now_ms);
    usage.cached_tokens = cache.cached_tokens;
    usage.cache_write_tokens = cache.cache_write_tokens;
    usage.cache_write_12h_tokens = cache.ttl_12h_tokens;
    breakpoint_read = cache.cached_tokens;
  } else {
    usage.cached_tokens = cache_.Lookup(model_slug, cache_key, prompt.Concat(), now_ms);
  }
  // A prewarm (`prompt_cache_options.prewarm: true`) writes the cache and generates nothing.
  if (const JsonValue* options = parsed.Find("prompt_cache_options");
      options != nullptr && options->is_object() && options->GetBool("prewarm") == true) {
    plan.items.clear();
  }
  for (const JsonValue& item : plan.items) {
    std::uint64_t tokens = TokensForBytes(ToJson(item).size());
    usage.output_tokens += tokens;
    if (item.GetString("type") == "reasoning") usage.reasoning_tokens += tokens;
  }
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  MockDiagnostics::Fingerprint fingerprint = MockDiagnostics::OfResponses(parsed, prompt);
  meta.cache_diagnostics = diagnostics_.DiagnoseResponses(parsed, fingerprint, breakpoint_read);
  diagnostics_.Remember(meta.id, std::move(fingerprint));
  return streaming ? WriteSuccessStream(meta, plan.items, usage)
                   : WriteSuccessJson(meta, plan.items, usage);
}

Result<std::string> MockModel::HandleProvider(bool anthropic, std::string_view body,
                                              std::int64_t now_ms) {
  ACTX_TRY(JsonValue raw, ParseJson(body));
  ACTX_TRY_VOID(CheckMockRequestSize(raw));
  ACTX_TRY(ProviderRequest request, anthropic ? ReadAnthropicRequest(raw) : ReadChatRequest(raw));
  std::optional<MockToolClearing> cleared;
  if (anthropic) {  // context editing happens before the cache is read (mock_context_edits.h)
    std::uint64_t prompt_bytes = 0;
    for (const AnthropicBlock& b : request.blocks) prompt_bytes += b.bytes.size();
    cleared = ApplyMockContextEdits(&raw, TokensForBytes(prompt_bytes));
    if (cleared) {
      ACTX_TRY(ProviderRequest edited, ReadAnthropicRequest(raw));
      request = std::move(edited);
    }
  }
  const JsonValue* model = raw.Find("model");
  if (model != nullptr && !model->is_string()) {
    return Fail(ErrorCode::kInvalidInput, "request body: model must be a string");
  }
  std::string_view model_slug = model != nullptr ? std::string_view(model->string_value()) : "";
  std::string h = Sha1Hex(body);
  MockResponseMeta meta;
  meta.id = "resp_" + h.substr(0, 12);
  meta.model = std::string(model_slug);
  meta.created_at = now_ms > 0 ? now_ms / 1000 : 0;
  if (cleared) meta.context_management = MockContextManagement(*cleared);
  MockPlan plan = PlanMockResponse(request.responses_body, h);
  if (plan.failure.has_value() && (!plan.failure->once || fail_once_seen_.insert(h).second)) {
    const std::string& code = plan.failure->code;
    const std::string message = "Mock failure: " + code + ". Please try again in 1s.";
    return anthropic ? WriteAnthropicFailure(code, message, request.streaming)
                     : WriteChatFailure(meta, code, message, request.streaming);
  }
  if (anthropic) {  // the provider's own compaction (mock_compaction.h)
    std::uint64_t prompt_bytes = 0;
    for (const AnthropicBlock& b : request.blocks) prompt_bytes += b.bytes.size();
    MockCompactionPlan c = PlanAnthropicCompaction(raw, TokensForBytes(prompt_bytes));
    if (c.compact) {
      const JsonValue* input = request.responses_body.Find("input");
      if (c.only) plan.items.clear();
      plan.items.insert(
          plan.items.begin(),
          MockCompactionItem(h, true, input && input->is_array() ? input->items().size() : 0));
    }
  }
  // An Anthropic prewarm (`max_tokens: 0`) writes the cache and generates nothing.
  if (anthropic && raw.GetInt("max_tokens") == 0) plan.items.clear();
  std::uint64_t output_tokens = 0;
  std::uint64_t reasoning_tokens = 0;
  for (const JsonValue& item : plan.items) {
    std::uint64_t tokens = TokensForBytes(ToJson(item).size());
    output_tokens += tokens;
    if (item.GetString("type") == "reasoning") reasoning_tokens += tokens;
  }
  if (anthropic) {
    AnthropicCacheUsage cache = anthropic_cache_.Lookup(model_slug, request.blocks, now_ms);
    MockDiagnostics::Fingerprint fingerprint = MockDiagnostics::OfMessages(raw, request.blocks);
    meta.cache_diagnostics = diagnostics_.DiagnoseMessages(raw, fingerprint);
    diagnostics_.Remember("msg_" + h.substr(0, 12), std::move(fingerprint));
    return WriteAnthropicSuccess(meta, plan.items, cache, output_tokens, request.streaming);
  }
  const JsonValue* key = raw.Find("prompt_cache_key");
  std::string_view cache_key =
      key != nullptr && key->is_string() ? std::string_view(key->string_value()) : "";
  MockUsage usage;
  usage.input_tokens = TokensForBytes(request.prompt.size());
  usage.cached_tokens = chat_cache_.Lookup(model_slug, cache_key, request.prompt, now_ms);
  usage.output_tokens = output_tokens;
  usage.reasoning_tokens = reasoning_tokens;
  usage.total_tokens = usage.input_tokens + output_tokens;
  return WriteChatSuccess(meta, plan.items, usage, request.streaming);
}

}  // namespace agentctx
