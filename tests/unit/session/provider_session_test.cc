// SPDX-License-Identifier: MIT
// Sessions on each provider, end to end through the Engine facade against the mock:
// Chat bodies extend each other, Anthropic requests carry 1–4 breakpoints and read the cache from
// the second request on, failures map to the same retryable errors, bad config is refused.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "session/config.h"
#include "session/session.h"
#include "support/memory_file_system.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

// Base instructions (unset) make the prompt long enough for the caches' minimums.
std::string Config(const std::string& extra) {
  return R"({"session_id":"prov-1","model":{"slug":"mock-1"},"approval_policy":"never",)"
         R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}])" +
         extra + "}";
}

void AddFiles(SessionDriver* d) {
  ASSERT_TRUE(d->fs()->AddFile("/repo/src/a.txt", "one\ntwo\n").has_value());
  ASSERT_TRUE(d->fs()->AddFile("/repo/src/b.txt", "three\n").has_value());
}

std::vector<const JsonValue*> Events(const std::vector<JsonValue>& effects, std::string_view type) {
  std::vector<const JsonValue*> out;
  for (const auto& e : effects) {
    if (e.GetString("type") != "event") continue;
    if (e.Find("event")->GetString("type") == type) out.push_back(e.Find("event"));
  }
  return out;
}

// The body up to (not including) the `]` that closes its messages.
std::string UpToLastMessage(const std::string& body) {
  std::size_t end = body.rfind("],\"tools\"");
  if (end == std::string::npos) end = body.rfind("],\"stream\"");
  return body.substr(0, end);
}

void RunThreeTurns(SessionDriver* d, std::vector<JsonValue>* all) {
  for (const char* text : {"Please read src/a.txt and src/b.txt.",
                           "What is in the folder? #mock-list:/repo", "Thanks."}) {
    auto effects = d->Submit(text, 1000 * static_cast<std::int64_t>(all->size() + 1));
    all->insert(all->end(), effects.begin(), effects.end());
  }
}

TEST(ProviderSession, ChatBodiesExtendThePreviousOneAndReportCachedTokens) {
  SessionDriver d;
  AddFiles(&d);
  d.chunk_size = 7;  // the SSE split into small pieces
  ASSERT_NE(d.Start(Config(R"(,"provider":"chat")")).find("\"ok\":true"), std::string::npos);
  std::vector<JsonValue> all;
  RunThreeTurns(&d, &all);
  const auto& bodies = d.request_bodies();
  ASSERT_GE(bodies.size(), 5u) << d.Call("history", "{}");
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    EXPECT_TRUE(bodies[i].starts_with(UpToLastMessage(bodies[i - 1]))) << "request " << i + 1;
    EXPECT_NE(bodies[i].find(R"("stream_options":{"include_usage":true})"), std::string::npos);
  }
  auto usage = Events(all, "token_usage");
  ASSERT_EQ(usage.size(), bodies.size());
  EXPECT_EQ(usage[0]->GetInt("cached_tokens"), 0);
  for (std::size_t i = 1; i < usage.size(); ++i) EXPECT_GT(*usage[i]->GetInt("cached_tokens"), 0);
  for (const auto* report : Events(all, "cache_report")) {
    EXPECT_TRUE(report->Find("break")->is_null()) << ToJson(*report);
  }
  auto history = d.Call("history", "{}");
  EXPECT_NE(history.find("Read src/a.txt: 2 lines."), std::string::npos);
}

// Chat and Anthropic bodies carry no prompt_cache_key, so changing it breaks nothing there;
// on Responses (which sends it) the next request reports cache_key_changed.
TEST(ProviderSession, ACacheKeyChangeBreaksOnlyTheProviderThatSendsIt) {
  for (const char* provider : {"responses", "chat", "anthropic"}) {
    SessionDriver d;
    AddFiles(&d);
    ASSERT_NE(
        d.Start(Config(std::string(R"(,"provider":")") + provider + "\"")).find("\"ok\":true"),
        std::string::npos);
    d.Submit("Hello.", 1000);
    d.Update(R"({"prompt_cache_key":"another-key"})", 2000);
    auto effects = d.Submit("Again.", 3000);
    auto reports = Events(effects, "cache_report");
    ASSERT_FALSE(reports.empty()) << provider;
    const JsonValue* brk = reports[0]->Find("break");
    ASSERT_NE(brk, nullptr) << provider;
    if (std::string_view(provider) == "responses") {
      ASSERT_FALSE(brk->is_null()) << ToJson(*reports[0]);
      EXPECT_EQ(brk->GetString("reason"), "cache_key_changed");
    } else {
      EXPECT_TRUE(brk->is_null() || brk->GetString("reason") != "cache_key_changed")
          << provider << ": " << ToJson(*reports[0]);
    }
  }
}

TEST(ProviderSession, AnthropicRequestsCarryBreakpointsAndReadTheCacheFromTheSecond) {
  SessionDriver d;
  AddFiles(&d);
  ASSERT_NE(d.Start(Config(R"(,"provider":"anthropic","anthropic":{"cache_ttl":"1h"})"))
                .find("\"ok\":true"),
            std::string::npos);
  std::vector<JsonValue> all;
  RunThreeTurns(&d, &all);
  const auto& bodies = d.request_bodies();
  for (const auto& body : bodies) {
    std::size_t marks = 0;
    for (auto at = body.find("\"cache_control\""); at != std::string::npos;
         at = body.find("\"cache_control\"", at + 1)) {
      ++marks;
    }
    EXPECT_GE(marks, 1u);
    EXPECT_LE(marks, 4u);
  }
  auto usage = Events(all, "token_usage");
  ASSERT_EQ(usage.size(), bodies.size());
  EXPECT_EQ(usage[0]->GetInt("cached_tokens"), 0);
  EXPECT_GT(*usage[0]->GetInt("cache_creation_tokens"), 0);
  for (std::size_t i = 1; i < usage.size(); ++i) {
    EXPECT_GT(*usage[i]->GetInt("cached_tokens"), 0) << "request " << i + 1;
  }
  auto reports = Events(all, "cache_report");
  ASSERT_FALSE(reports.empty());
  const JsonValue* plan = reports.back()->Find("breakpoints");
  ASSERT_NE(plan, nullptr);
  EXPECT_EQ(plan->items().size(), 4u);
  auto inspected = ParseJson(d.Call("inspect", R"({"format":"breakpoints"})"));
  ASSERT_TRUE(inspected.has_value());
  const JsonValue* value = inspected->Find("value");
  ASSERT_NE(value, nullptr) << ToJson(*inspected);
  EXPECT_EQ(value->GetString("provider"), "anthropic");
  EXPECT_EQ(value->Find("breakpoints")->items().size(), 4u);
}

TEST(ProviderSession, AnthropicReportsPredictWritesAndTheSummaryCostsByAnthropicsRule) {
  SessionDriver d;
  AddFiles(&d);
  d.Start(Config(R"(,"provider":"anthropic","anthropic":{"cache_ttl":"1h"})"));
  std::vector<JsonValue> all;
  RunThreeTurns(&d, &all);
  auto reports = Events(all, "cache_report");
  auto usage = Events(all, "token_usage");
  ASSERT_EQ(reports.size(), usage.size());
  // The first request writes everything up to its newest mark and reads nothing; the next ones
  // read what the previous newest mark wrote (the whole previous prompt: no 128-token steps).
  EXPECT_EQ(reports[0]->GetInt("predicted_cached_tokens"), 0);
  EXPECT_EQ(reports[0]->GetInt("predicted_cache_write_tokens"),
            reports[0]->GetInt("prompt_tokens"));
  EXPECT_GT(*reports[0]->GetInt("predicted_cache_write_1h_tokens"), 0);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    SCOPED_TRACE(ToJson(*reports[i]));
    EXPECT_EQ(reports[i]->GetInt("predicted_cached_tokens"),
              reports[i - 1]->GetInt("prompt_tokens"));
    EXPECT_EQ(*reports[i]->GetInt("predicted_cache_write_tokens"),
              *reports[i]->GetInt("prompt_tokens") - *reports[i - 1]->GetInt("prompt_tokens"));
  }
  // cache_summary {prices}: the cost at Anthropic's multipliers of the typed input price.
  auto summary = ParseJson(d.Call("cache_summary", R"({"prices":{"input":3,"output":15}})"));
  ASSERT_TRUE(summary.has_value());
  const JsonValue* cost = summary->Find("value")->Find("cost");
  ASSERT_NE(cost, nullptr) << ToJson(*summary);
  EXPECT_EQ(cost->GetString("pricing"), "anthropic");
  EXPECT_EQ(ToJson(*cost->Find("prices_per_million_usd")),
            R"({"input":3,"cache_read":0.3,"cache_write":3.75,"cache_write_1h":6,"output":15})");
  std::int64_t input = 0, cached = 0, writes = 0;
  for (const auto* u : usage) {
    input += *u->GetInt("input_tokens");
    cached += *u->GetInt("cached_tokens");
    writes += *u->GetInt("cache_creation_tokens");
  }
  const JsonValue* reported = cost->Find("reported");
  EXPECT_EQ(reported->GetInt("input_tokens"), input);
  EXPECT_EQ(reported->GetInt("cached_tokens"), cached);
  EXPECT_EQ(reported->GetInt("cache_write_tokens"), writes);
  EXPECT_EQ(summary->Find("value")->GetInt("reported_cache_write_tokens"), writes);
  // The plain summary is unchanged by the cost; bad prices are refused by name.
  EXPECT_EQ(d.Call("cache_summary", "{}").find("\"cost\""), std::string::npos);
  auto bad = d.Call("cache_summary", R"({"prices":{"input":"3"}})");
  EXPECT_NE(bad.find("invalid_input"), std::string::npos) << bad;
  EXPECT_NE(bad.find("cache_summary: `prices.input`"), std::string::npos) << bad;
}

TEST(ProviderSession, ResponsesReportHasNoBreakpointsAndKeepsItsEndpoint) {
  SessionDriver d;
  d.Start(Config(""));
  auto effects = d.Submit("hi", 1000);
  for (const auto* report : Events(effects, "cache_report")) {
    EXPECT_EQ(report->Find("breakpoints"), nullptr);
    EXPECT_EQ(report->Find("predicted_cache_write_tokens"), nullptr);
  }
  auto summary = d.Call("cache_summary", R"({"prices":{"input":1,"cached_input":0.1}})");
  EXPECT_NE(summary.find(R"("cost":{"pricing":"openai","prices_per_million_usd":{"input":1,)"
                         R"("cached_input":0.1,"output":10})"),
            std::string::npos)
      << summary;
  bool saw_request = false;
  for (const auto& e : effects) {
    if (e.GetString("type") != "model_request") continue;
    saw_request = true;
    EXPECT_EQ(e.GetString("endpoint"), "responses");
  }
  EXPECT_TRUE(saw_request);
}

TEST(ProviderSession, ConfigKeysAreValidatedAsAWhole) {
  std::vector<Warning> warnings;
  auto ok = ParseSessionConfig(
      *ParseJson(Config(R"(,"provider":"anthropic","layout":"per_role","max_output_tokens":512,)"
                        R"("anthropic":{"cache_ttl":"1h","min_cacheable_tokens":2048})")),
      &warnings);
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(ok->provider, Provider::kAnthropic);
  EXPECT_EQ(ok->layout, PromptLayout::kPerRole);
  EXPECT_EQ(ok->max_output_tokens, 512);
  EXPECT_EQ(ok->anthropic.cache_ttl, CacheTtl::k1h);
  EXPECT_EQ(ok->anthropic.min_cacheable_tokens, 2048);
  auto defaults = ParseSessionConfig(*ParseJson(Config("")), nullptr);
  EXPECT_EQ(defaults->provider, Provider::kResponses);
  EXPECT_EQ(defaults->layout, PromptLayout::kPerFragment);
  for (const char* bad :
       {R"(,"provider":"gemini")", R"(,"provider":3)", R"(,"layout":"flat")",
        R"(,"max_output_tokens":0)", R"(,"anthropic":{"cache_ttl":"1d"})", R"(,"anthropic":[])",
        R"(,"provider":"chat","compaction":{"strategy":"remote"})"}) {
    auto parsed = ParseSessionConfig(*ParseJson(Config(bad)), nullptr);
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidConfig) << bad;
  }
  // An update to a bad provider is refused and changes nothing.
  SessionDriver d;
  d.Start(Config(R"(,"provider":"chat")"));
  auto refused = d.Update(R"({"provider":"nope"})", 10);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].Find("error")->GetString("code"), "invalid_config");
  d.Submit("hi", 20);
  EXPECT_NE(d.request_bodies().back().find("\"messages\":["), std::string::npos);
}

TEST(ProviderSession, ChatDeveloperRoleSystemRendersEveryDeveloperMessageAsSystem) {
  SessionDriver d;
  AddFiles(&d);
  ASSERT_NE(d.Start(Config(R"(,"provider":"chat","chat":{"developer_role":"system"})"))
                .find("\"ok\":true"),
            std::string::npos);
  std::vector<JsonValue> all;
  RunThreeTurns(&d, &all);
  // A permissions change mid-session appends one more developer message: also `system`.
  d.Update(R"({"approval_policy":"on-request"})", 9000);
  d.Submit("Again.", 10000);
  const auto& bodies = d.request_bodies();
  ASSERT_GE(bodies.size(), 6u);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    EXPECT_EQ(bodies[i].find(R"("role":"developer")"), std::string::npos) << "request " << i + 1;
    EXPECT_NE(bodies[i].find(R"({"role":"system","content":"<permissions instructions>)"),
              std::string::npos);
    if (i > 0) {
      EXPECT_TRUE(bodies[i].starts_with(UpToLastMessage(bodies[i - 1]))) << i + 1;
    }
  }
  std::size_t systems = 0;
  for (auto at = bodies.back().find(R"({"role":"system")"); at != std::string::npos;
       at = bodies.back().find(R"({"role":"system")", at + 1)) {
    ++systems;
  }
  EXPECT_GE(systems, 3u);  // the instructions, the first permissions, the changed permissions
  // The option is Chat's only: history and the other renderings keep the developer role.
  EXPECT_NE(d.Call("history", "{}").find(R"("role":"developer")"), std::string::npos);
  auto parsed =
      ParseSessionConfig(*ParseJson(Config(R"(,"chat":{"developer_role":"sys"})")), nullptr);
  ASSERT_FALSE(parsed.has_value());
  EXPECT_NE(parsed.error().message.find("chat.developer_role must be"), std::string::npos);
  auto defaults = ParseSessionConfig(*ParseJson(Config("")), nullptr);
  EXPECT_EQ(defaults->chat.developer_role, ChatDeveloperRole::kDeveloper);
}

TEST(ProviderSession, LocalCompactionRunsOnEveryProvider) {
  for (const char* provider : {"chat", "anthropic"}) {
    SCOPED_TRACE(provider);
    SessionDriver d;
    AddFiles(&d);
    ASSERT_NE(
        d.Start(Config(std::string(R"(,"provider":")") + provider + "\"")).find("\"ok\":true"),
        std::string::npos);
    d.Submit("Please read src/a.txt and src/b.txt.", 1000);
    auto compacted = d.Compact(2000);
    bool completed = false;
    for (const auto* e : Events(compacted, "compaction")) {
      completed = completed || e->GetString("phase") == "completed";
    }
    EXPECT_TRUE(completed);
    const std::string& compact_body = d.request_bodies().back();
    EXPECT_NE(compact_body.find("You are performing a CONTEXT CHECKPOINT COMPACTION"),
              std::string::npos);
    EXPECT_NE(compact_body.find("\"messages\":["), std::string::npos);
    d.Submit("Thanks.", 3000);
    EXPECT_NE(d.request_bodies().back().find("MOCK SUMMARY"), std::string::npos);
    EXPECT_NE(d.Call("history", "{}").find("Mock reply to: Thanks."), std::string::npos);
  }
}

// A Session driven directly, so failures and retries can be scripted.
class Direct {
 public:
  explicit Direct(const std::string& config) {
    FileSystemMap map;
    auto fs = std::make_shared<MemoryFileSystem>();
    EXPECT_TRUE(fs->AddDir("/repo").has_value());  // the cwd must exist
    map["workspace"] = fs;
    EffectSink sink;
    auto parsed = ParseSessionConfig(*ParseJson(config), nullptr);
    EXPECT_TRUE(parsed.has_value());
    auto created = Session::Create(std::move(*parsed), map, 0, &sink);
    EXPECT_TRUE(created.has_value());
    if (created) session_ = std::move(*created);
  }
  std::string Run(const std::function<Result<void>(EffectSink*)>& call) {
    EffectSink sink;
    EXPECT_TRUE(call(&sink).has_value());
    std::vector<std::string_view> attachments;
    return sink.ToJson(&attachments);
  }
  std::string Submit(const std::string& text) {
    SubmitInput input{text, {}, std::nullopt};
    return Run([&](EffectSink* s) { return session_->Submit(input, 1000, s); });
  }
  std::string Deliver(const std::string& json) {
    return Run([&](EffectSink* s) { return session_->Deliver(*ParseJson(json), 1000, s); });
  }
  std::string Retry() {
    return Run([&](EffectSink* s) { return session_->Retry("req-1", 1000, s); });
  }
  std::string History() const { return ToJson(session_->History()); }

 private:
  std::unique_ptr<Session> session_;
};

TEST(ProviderSession, AnthropicOverloadedIsRetryableAndLeavesHistoryUntouched) {
  Direct d(Config(R"(,"provider":"anthropic")"));
  std::string submitted = d.Submit("hi");
  EXPECT_NE(submitted.find(R"("endpoint":"messages")"), std::string::npos);
  std::string history = d.History();
  std::string failed = d.Deliver(
      R"({"type":"model_error","request_id":"req-1","status":529,)"
      R"("body":"{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"})");
  EXPECT_NE(failed.find(R"("code":"server_overloaded")"), std::string::npos) << failed;
  EXPECT_NE(failed.find(R"("retryable":true)"), std::string::npos);
  EXPECT_EQ(d.History(), history);
  std::string retried = d.Retry();
  EXPECT_NE(retried.find(R"("attempt":2)"), std::string::npos) << retried;
  // A mid-stream error event fails the attempt the same way.
  std::string stream_error = d.Deliver(
      R"({"type":"model_events","request_id":"req-1","sse":"event: error\ndata: )"
      R"({\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"try again in 3s\"}}\n\n"})");
  EXPECT_NE(stream_error.find(R"("code":"rate_limited")"), std::string::npos) << stream_error;
  EXPECT_NE(stream_error.find(R"("retry_after_ms":3000)"), std::string::npos);
}

TEST(ProviderSession, ChatStreamCutBeforeFinishIsAStreamError) {
  Direct d(Config(R"(,"provider":"chat")"));
  d.Submit("hi");
  d.Deliver(
      R"({"type":"model_events","request_id":"req-1","sse":"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n"})");
  std::string ended = d.Deliver(R"({"type":"model_events","request_id":"req-1","end":true})");
  EXPECT_NE(ended.find(R"("code":"stream_error")"), std::string::npos) << ended;
  EXPECT_EQ(d.History().find("par"), std::string::npos);
}

// Chat Completions completes at its usage chunk, and `data: [DONE]` follows: a host that hands on
// the stream in pieces (one SSE event per delivery, as the package's mock client does, or any
// split) delivers it after the request completed. It closes the stream: no stale_delivery.
TEST(ProviderSession, ChatDoneAfterTheUsageChunkIsNotAStaleDelivery) {
  for (std::size_t chunk : {std::size_t{1}, std::size_t{5}, std::size_t{7}, std::size_t{64}}) {
    SCOPED_TRACE(chunk);
    SessionDriver d;
    AddFiles(&d);
    d.chunk_size = chunk;
    ASSERT_NE(d.Start(Config(R"(,"provider":"chat")")).find("\"ok\":true"), std::string::npos);
    std::vector<JsonValue> all;
    RunThreeTurns(&d, &all);  // the first turn's model calls tools
    ASSERT_GE(d.request_bodies().size(), 3u);
    ASSERT_NE(d.request_bodies()[1].find("\"role\":\"tool\""), std::string::npos);
    for (const auto* w : Events(all, "warning")) {
      EXPECT_NE(w->GetString("code"), "stale_delivery") << ToJson(*w);
    }
  }
}

TEST(ProviderSession, AnEventAfterACompletedChatStreamIsStillStale) {
  Direct d(Config(R"(,"provider":"chat")"));
  d.Submit("hi");
  std::string done = d.Deliver(
      R"({"type":"model_events","request_id":"req-1","sse":"data: {\"choices\":[{\"index\":0,)"
      R"(\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],)"
      R"(\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}\n\ndata: [DO"})");
  ASSERT_NE(done.find("turn_complete"), std::string::npos) << done;
  // The rest of `[DONE]`, split where the request's parser stopped, then the end: silent.
  EXPECT_EQ(d.Deliver(R"({"type":"model_events","request_id":"req-1","sse":"NE]\n"})"),
            R"({"effects":[]})");
  EXPECT_EQ(d.Deliver(R"({"type":"model_events","request_id":"req-1","sse":"\n","end":true})"),
            R"({"effects":[]})");
  // An event after it is data the engine drops: stale, and history is unchanged.
  std::string history = d.History();
  std::string late = d.Deliver(
      R"({"type":"model_events","request_id":"req-1","sse":"data: {\"choices\":[{\"index\":0,)"
      R"(\"delta\":{\"content\":\"more\"}}]}\n\n"})");
  EXPECT_NE(late.find("stale_delivery"), std::string::npos) << late;
  EXPECT_EQ(d.History(), history);
}

}  // namespace
}  // namespace agentctx
