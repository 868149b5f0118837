// SPDX-License-Identifier: MIT
// Property: for random sequences of config changes without compaction, every request's `input`
// is an item-wise byte prefix of the next one's, and `instructions`/`tools` stay byte-identical
// unless the change was a tools `apply` or a model switch; the explainer reports a break only
// then; `stats().items_serialized` counts each item once however many requests are built.
// Also: shuffled host-tool registration gives identical bytes, and the checker itself fails when
// an old item is rewritten.
// Fixed seeds (tiny xorshift64*, no <random>); ACTX_PROPERTY_ITERATIONS adds sequences.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "support/session_driver.h"

namespace agentctx {
namespace {

using testing::SessionDriver;

class XorShift {
 public:
  explicit XorShift(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint64_t Next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  std::size_t Below(std::size_t n) { return static_cast<std::size_t>(Next() % n); }
  bool OneIn(std::size_t n) { return Below(n) == 0; }

 private:
  std::uint64_t state_;
};

std::size_t ExtraIterations() {
  const char* v = std::getenv("ACTX_PROPERTY_ITERATIONS");
  return v == nullptr ? 0 : static_cast<std::size_t>(std::strtoul(v, nullptr, 10));
}

// ---- The checker --------------------------------------------------------------------------

struct BodyParts {
  std::vector<std::string> input;  // each item's bytes
  std::string instructions;        // "" when omitted
  std::string tools;
};

BodyParts Split(const std::string& body) {
  BodyParts parts;
  auto parsed = ParseJson(body);
  if (!parsed) return parts;
  if (const JsonValue* input = parsed->Find("input")) {
    for (const auto& item : input->items()) parts.input.push_back(ToJson(item));
  }
  if (const JsonValue* i = parsed->Find("instructions")) parts.instructions = ToJson(*i);
  if (const JsonValue* t = parsed->Find("tools")) parts.tools = ToJson(*t);
  return parts;
}

// Empty when `next` appends to `prev` as the prompt layout requires; else what went wrong.
std::string PrefixViolation(const std::string& prev, const std::string& next,
                            bool may_change_instructions_or_tools) {
  BodyParts a = Split(prev);
  BodyParts b = Split(next);
  if (b.input.size() < a.input.size()) return "input shrank";
  for (std::size_t i = 0; i < a.input.size(); ++i) {
    if (a.input[i] != b.input[i]) {
      return "item " + std::to_string(i) + " rewritten:\n  was " + a.input[i] + "\n  now " +
             b.input[i];
    }
  }
  // The serialised items must also be byte-identical in the raw bodies (no re-serialisation).
  for (std::size_t i = 0; i < a.input.size(); ++i) {
    if (next.find(a.input[i]) == std::string::npos) return "item bytes not found verbatim";
  }
  if (!may_change_instructions_or_tools) {
    if (a.instructions != b.instructions) return "instructions changed";
    if (a.tools != b.tools) return "tools changed";
  }
  return "";
}

// ---- The generator ------------------------------------------------------------------------

const char* const kBaseConfig =
    R"({"session_id":"p-1","model":{"slug":"mock-1","instructions":"You are a helpful coding agent."},)"
    R"("approval_policy":"on-request","sandbox":{"mode":"workspace-write"},)"
    R"("agents_md":{"refresh":"probe"},)"
    R"("tools":[{"server":"git","name":"status","description":"Shows the status."}],)"
    R"("environments":[{"id":"local","cwd":"/repo","shell":"bash","fs":"workspace"}]})";

const char* const kCwds[] = {"/repo", "/repo/crate", "/repo/docs", "/other"};
const char* const kApprovals[] = {"never", "on-request", "on-failure", "unless-trusted"};
const char* const kModes[] = {"read-only", "workspace-write", "danger-full-access"};
const char* const kTools[] = {
    R"({"server":"git","name":"status","description":"Shows the status."})",
    R"({"server":"git","name":"diff","description":"Shows changes."})",
    R"({"name":"fmt","description":"Formats code"})",
    R"({"server":"my.server","name":"get thing","strict":true})",
};
const char* const kSkills[] = {
    R"({"name":"deploy","description":"Deploys the app.","path":"/repo/skills/deploy/SKILL.md"})",
    R"({"name":"lint","path":"/repo/skills/lint/SKILL.md"})",
};
const char* const kMessages[] = {"hello", "Please read src/main.rs.", "What now?",
                                 "Look at README.md and notes.txt", "#mock-list:."};

enum class Change {
  kNone,
  kCwd,
  kApproval,
  kSandbox,
  kModel,
  kAgentsEdit,
  kAgentsRemove,
  kToolsApply,
  kToolsDefer,
  kSkills,
  kDate,
  kDeveloper,
  kTrust,
  kCount
};

void Seed(SessionDriver* d) {
  auto& fs = *d->fs();
  ASSERT_TRUE(fs.AddDir("/repo/.git").has_value());
  ASSERT_TRUE(fs.AddFile("/repo/AGENTS.md", "Use the project formatter.").has_value());
  ASSERT_TRUE(fs.AddFile("/repo/crate/AGENTS.md", "Crate rules.").has_value());
  ASSERT_TRUE(fs.AddFile("/repo/docs/guide.md", "guide\n").has_value());
  ASSERT_TRUE(fs.AddFile("/repo/src/main.rs", "fn main() {}\n").has_value());
  ASSERT_TRUE(fs.AddFile("/repo/README.md", "# readme\n").has_value());
  ASSERT_TRUE(fs.AddDir("/other").has_value());
}

std::string Subset(XorShift* rng, const char* const* pool, std::size_t n) {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (rng->OneIn(2)) continue;
    if (out.size() > 1) out += ",";
    out += pool[i];
  }
  return out + "]";
}

// Applies one random change; returns whether instructions/tools may change because of it.
bool ApplyChange(XorShift* rng, SessionDriver* d, Change change, int turn, std::int64_t now) {
  auto q = [](const std::string& s) { return JsonString(s); };
  switch (change) {
    case Change::kCwd:
      d->Update(R"({"cwd":)" + q(kCwds[rng->Below(4)]) + "}", now);
      return false;
    case Change::kApproval:
      d->Update(R"({"approval_policy":)" + q(kApprovals[rng->Below(4)]) + "}", now);
      return false;
    case Change::kSandbox:
      d->Update(R"({"sandbox":{"mode":)" + q(kModes[rng->Below(3)]) + R"(,"network_access":)" +
                    (rng->OneIn(2) ? "true" : "false") + R"(,"writable_roots":)" +
                    (rng->OneIn(2) ? R"(["/scratch"])" : "[]") + "}}",
                now);
      return false;
    case Change::kModel: {
      std::size_t m = rng->Below(3);
      std::string instructions = m == 2 ? "" : "Instructions of model " + std::to_string(m) + ".";
      d->Update(R"({"model":{"slug":"mock-)" + std::to_string(m + 1) + R"(","instructions":)" +
                    q(instructions) + "}}",
                now);
      return true;
    }
    case Change::kAgentsEdit:
      // Size changes with the turn number, so probes see the edit on any FileSystem.
      EXPECT_TRUE(d->fs()
                      ->Write("/repo/AGENTS.md",
                              "Rules of turn " + std::to_string(turn) + std::string(turn, '!'),
                              false)
                      .has_value());
      return false;
    case Change::kAgentsRemove:
      static_cast<void>(d->fs()->Remove("/repo/AGENTS.md"));
      return false;
    case Change::kToolsApply:
      d->Update(R"({"tool_policy":"apply","tools":)" + Subset(rng, kTools, 4) + "}", now);
      return true;
    case Change::kToolsDefer:
      d->Update(R"({"tool_policy":"defer","tools":)" + Subset(rng, kTools, 4) + "}", now);
      return false;
    case Change::kSkills:
      d->Update(R"({"skills":)" + Subset(rng, kSkills, 2) + "}", now);
      return false;
    case Change::kDate:
      d->Update(R"({"environment_context":{"include_date":)" +
                    std::string(rng->OneIn(3) ? "false" : "true") + R"(,"current_date":"2026-03-)" +
                    std::to_string(10 + rng->Below(10)) + R"(","timezone":"Europe/Paris"}})",
                now);
      return false;
    case Change::kDeveloper: {
      std::size_t v = rng->Below(3);
      d->Update(std::string(R"({"developer_instructions":)") +
                    (v == 0   ? "null"
                     : v == 1 ? R"("Be terse.")"
                              : R"("Be verbose.")") +
                    "}",
                now);
      return false;
    }
    case Change::kTrust:
      d->Update(
          std::string(R"({"trust":)") + (rng->OneIn(2) ? R"("untrusted")" : R"("trusted")") + "}",
          now);
      return false;
    case Change::kNone:
    case Change::kCount:
      return false;
  }
  return false;
}

std::int64_t Stat(SessionDriver* d, std::string_view key) {
  auto env = ParseJson(d->Call("stats", "{}"));
  return env->Find("value")->GetInt(key).value_or(-1);
}

void RunSequence(std::uint64_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  XorShift rng(seed);
  SessionDriver d;
  Seed(&d);
  d.Start(kBaseConfig);
  std::vector<bool> may_change;  // per request: instructions/tools may differ from the previous
  std::vector<JsonValue> reports;
  bool pending_permission = false;
  const int turns = 8;
  for (int turn = 1; turn <= turns; ++turn) {
    std::int64_t now = turn * 1000;
    std::size_t changes = rng.Below(3);
    for (std::size_t c = 0; c < changes; ++c) {
      auto change = static_cast<Change>(rng.Below(static_cast<std::size_t>(Change::kCount)));
      pending_permission = ApplyChange(&rng, &d, change, turn, now - 500) || pending_permission;
    }
    std::size_t before = d.request_bodies().size();
    auto effects = d.Submit(kMessages[rng.Below(5)], now);
    for (const auto& e : effects) {
      if (e.GetString("type") == "event" && e.Find("event")->GetString("type") == "cache_report") {
        reports.push_back(*e.Find("event"));
      }
    }
    for (std::size_t i = before; i < d.request_bodies().size(); ++i) {
      may_change.push_back(i == before && pending_permission);
    }
    pending_permission = false;
    // Building more bodies (previews) serialises nothing new.
    std::int64_t serialized = Stat(&d, "items_serialized");
    EXPECT_EQ(serialized, Stat(&d, "items"));
    for (int k = 0; k < 3; ++k) d.Call("prompt_preview", "{}");
    EXPECT_EQ(Stat(&d, "items_serialized"), serialized);
  }
  const auto& bodies = d.request_bodies();
  ASSERT_EQ(reports.size(), bodies.size());
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i + 1));
    EXPECT_EQ(PrefixViolation(bodies[i - 1], bodies[i], may_change[i]), "");
    if (!may_change[i]) {
      EXPECT_TRUE(reports[i].Find("break")->is_null()) << ToJson(reports[i]);
    }
  }
}

TEST(PrefixStability, RandomConfigChangesOnlyAppend) {
  const std::size_t sequences = 12 + ExtraIterations();
  for (std::size_t seed = 1; seed <= sequences; ++seed) RunSequence(seed);
}

TEST(PrefixStability, ShuffledToolRegistrationGivesIdenticalBytes) {
  std::string reference;
  XorShift rng(99);
  for (int round = 0; round < 8; ++round) {
    std::vector<std::string> tools(std::begin(kTools), std::end(kTools));
    tools.push_back(R"({"server":"a","name":"z"})");
    tools.push_back(R"({"server":"b","name":"x"})");
    for (std::size_t i = tools.size(); i > 1; --i) std::swap(tools[i - 1], tools[rng.Below(i)]);
    std::string list = "[";
    for (const auto& t : tools) list += (list.size() > 1 ? "," : "") + t;
    list += "]";
    std::string config = kBaseConfig;
    config.replace(
        config.find(R"("tools":[)"),
        std::string(
            R"("tools":[{"server":"git","name":"status","description":"Shows the status."}])")
            .size(),
        "\"tools\":" + list);
    SessionDriver d;
    Seed(&d);
    d.Start(config);
    d.Submit("hello", 1000);
    ASSERT_EQ(d.request_bodies().size(), 1u);
    if (round == 0) reference = d.request_bodies()[0];
    EXPECT_EQ(d.request_bodies()[0], reference) << list;
  }
  EXPECT_NE(reference.find(R"("name":"mcp__a__z")"), std::string::npos);
}

TEST(PrefixStability, CheckerFailsWhenAnOldItemIsRewritten) {
  SessionDriver d;
  Seed(&d);
  d.Start(kBaseConfig);
  d.Submit("hello", 1000);
  d.Submit("hello again", 2000);
  ASSERT_EQ(d.request_bodies().size(), 2u);
  const std::string& a = d.request_bodies()[0];
  std::string b = d.request_bodies()[1];
  ASSERT_EQ(PrefixViolation(a, b, false), "");
  // Rewrite the first user message in the later body: the checker must notice.
  std::string edited = b;
  std::size_t at = edited.find(R"("text":"hello"})");
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, 15, R"("text":"hellO"})");
  EXPECT_NE(PrefixViolation(a, edited, false), "");
  EXPECT_NE(PrefixViolation(a, edited, true), "");
  // Dropping an item, or changing tools without permission, is caught too.
  std::string dropped = b;
  std::size_t first = dropped.find(R"({"type":"message")");
  std::size_t second = dropped.find(R"({"type":"message")", first + 1);
  dropped.erase(first, second - first);
  EXPECT_NE(PrefixViolation(a, dropped, true), "");
  std::string retooled = b;
  retooled.replace(retooled.find("Shows the status."), 17, "Shows the Status.");
  EXPECT_NE(PrefixViolation(a, retooled, false), "");
  EXPECT_EQ(PrefixViolation(a, retooled, true), "");
}

TEST(PrefixStability, ItemsAreSerialisedOnceAcrossRequests) {
  SessionDriver d;
  Seed(&d);
  d.Start(kBaseConfig);
  d.Submit("Please read src/main.rs.", 1000);  // two requests in one turn
  std::int64_t items = Stat(&d, "items");
  EXPECT_EQ(Stat(&d, "items_serialized"), items);
  EXPECT_EQ(Stat(&d, "requests"), 2);
  for (int k = 0; k < 5; ++k) d.Call("prompt_preview", "{}");
  EXPECT_EQ(Stat(&d, "items_serialized"), items);
  d.Submit("thanks", 2000);
  // Only the new turn's items were serialised: user message, reasoning, assistant message.
  EXPECT_EQ(Stat(&d, "items_serialized"), items + 3);
  EXPECT_EQ(Stat(&d, "items"), items + 3);
}

}  // namespace
}  // namespace agentctx
