// SPDX-License-Identifier: MIT
// Property: diff round-trip. Starting from a full render, folding every later
// step diff into "what the model was told" gives the same view as a full render of the current
// inputs. Also: a diff against the current snapshot is empty; the baseline kept as persisted
// merge patches renders exactly like the in-memory one.
// The view is read back from the fragment texts, so the renderers and the diff rules are
// checked together. Documented losses of the diff rules are kept out of the generator: a known
// shell never becomes unknown for the same environment (unknown→known is not a change,
// environment_section.h), and the tool policy is fixed per sequence (`apply` renders nothing,
// tools_section.h).
// Fixed seeds (xorshift64*, no <random>); ACTX_PROPERTY_ITERATIONS adds sequences.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json_codec.h"
#include "protocol/merge_patch.h"
#include "world_state/sections/agents_md_section.h"
#include "world_state/sections/developer_instructions_section.h"
#include "world_state/sections/skills_section.h"
#include "world_state/world_state.h"

namespace agentctx {
namespace {

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
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(v.size())];
  }

 private:
  std::uint64_t state_;
};

// ---- Generator ----------------------------------------------------------------------------

const std::vector<std::string> kCwds = {"/repo", "/srv", "/a&b", "/repo/sub", "/x<y>"};
const std::vector<std::string> kEnvIds = {"local", "remote", "r&d"};

std::optional<std::string> MaybePick(XorShift* rng, const std::vector<std::string>& pool) {
  if (rng->OneIn(3)) return std::nullopt;
  return rng->Pick(pool);
}

void RandomModel(XorShift* rng, WorldInputs* in) {
  in->model.slug = rng->Pick(std::vector<std::string>{"m1", "m2", "m3"});
  in->model.instructions = rng->Pick(std::vector<std::string>{"", "I one", "I two"});
}

void RandomPermissions(XorShift* rng, WorldInputs* in) {
  in->sandbox.mode = static_cast<SandboxMode>(rng->Below(3));
  in->sandbox.network_access = rng->OneIn(2);
  in->sandbox.writable_roots.clear();
  for (const char* root : {"/scratch", "/tmp&x", "/repo"}) {
    if (rng->OneIn(2)) in->sandbox.writable_roots.push_back(root);
  }
  in->approval_policy = static_cast<ApprovalPolicy>(rng->Below(4));
}

void RandomEnvironments(XorShift* rng, WorldInputs* in) {
  std::map<std::string, std::optional<std::string>> old_shells;
  for (const EnvironmentInput& e : in->environments) old_shells[e.id] = e.shell;
  std::vector<std::string> ids = kEnvIds;
  for (std::size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[rng->Below(i)]);
  std::size_t count = 1 + rng->Below(rng->OneIn(2) ? 1 : 3);
  in->environments.clear();
  for (std::size_t i = 0; i < count; ++i) {
    EnvironmentInput e;
    e.id = ids[i];
    e.cwd = rng->Pick(kCwds);
    e.status = rng->OneIn(4) ? EnvironmentStatus::kStarting : EnvironmentStatus::kAvailable;
    auto old = old_shells.find(e.id);
    bool was_known = old != old_shells.end() && old->second.has_value();
    if (was_known || !rng->OneIn(3)) {
      e.shell = rng->Pick(std::vector<std::string>{"bash", "zsh", "f&sh"});
      if (was_known && rng->OneIn(2)) e.shell = old->second;
    }
    in->environments.push_back(e);
  }
}

void RandomDate(XorShift* rng, WorldInputs* in) {
  in->environment_context.include_date = !rng->OneIn(3);
  in->environment_context.current_date = MaybePick(rng, {"2026-02-26", "2026-02-27"});
  in->environment_context.timezone = MaybePick(rng, {"UTC", "Europe/Paris"});
}

void RandomSkills(XorShift* rng, WorldInputs* in) {
  const std::vector<SkillInput> pool = {
      {"lint", std::string("Runs the linter"), "/s/lint/SKILL.md"},
      {"deploy", std::nullopt, "/s/deploy/SKILL.md"},
      {"a&b", std::string("Escapes <nothing>"), "/s/ab/SKILL.md"},
      {"lint", std::string("Second lint"), "/s/lint2/SKILL.md"},
  };
  in->skills.clear();
  for (const SkillInput& s : pool) {
    if (rng->OneIn(2)) in->skills.push_back(s);
  }
}

void RandomTools(XorShift* rng, WorldInputs* in) {
  in->tools.advertised = rng->Pick(std::vector<std::string>{"h1", "h2"});
  in->tools.pending.clear();
  in->tools.withdrawn.clear();
  if (in->tools.policy != ToolPolicy::kDefer) return;
  const std::vector<PendingTool> pool = {{"fmt", "Formats code"}, {"lint", "Lints\nmore lines"}};
  for (const PendingTool& t : pool) {
    if (rng->OneIn(2)) in->tools.pending.push_back(t);
  }
  for (const char* name : {"old1", "old2"}) {
    if (rng->OneIn(3)) in->tools.withdrawn.push_back(name);
  }
}

void Mutate(XorShift* rng, WorldInputs* in, bool all) {
  if (all || rng->OneIn(5)) RandomModel(rng, in);
  if (all || rng->OneIn(4)) RandomPermissions(rng, in);
  if (all || rng->OneIn(4)) {
    in->developer_instructions = MaybePick(rng, {"Be terse.", "Be <kind> & brief."});
  }
  if (all || rng->OneIn(4)) RandomEnvironments(rng, in);
  if (all || rng->OneIn(4)) in->agents_md.text = MaybePick(rng, {"a", "b\nc", "x & <y>"});
  in->agents_md.directory = std::string(in->primary_cwd());
  if (all || rng->OneIn(4)) RandomSkills(rng, in);
  if (all || rng->OneIn(4)) RandomDate(rng, in);
  if (all || rng->OneIn(4)) RandomTools(rng, in);
}

// ---- The model's view, read back from fragment texts --------------------------------------

struct EnvBelief {
  std::string cwd;
  bool starting = false;
  std::optional<std::string> shell;
  std::optional<bool> primary;
};

struct Belief {
  std::optional<std::string> permissions;
  std::optional<std::string> developer;
  std::optional<std::string> agents_md;
  std::optional<std::string> skills;
  std::optional<std::string> tools;
  std::map<std::string, EnvBelief> envs;
  std::optional<std::string> date;
  std::optional<std::string> timezone;
};

std::string XmlUnescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    std::size_t semi = s.find(';', i);
    std::string_view entity = s.substr(i, semi - i + 1);
    if (entity == "&amp;") out += '&';
    if (entity == "&lt;") out += '<';
    if (entity == "&gt;") out += '>';
    if (entity == "&quot;") out += '"';
    if (entity == "&apos;") out += '\'';
    i = semi;
  }
  return out;
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

/// `<name>value</name>` at `indent` → (name, unescaped value).
bool ParseElement(const std::string& line, std::size_t indent, std::string* name,
                  std::string* value) {
  if (line.size() < indent + 3 || line.compare(0, indent, std::string(indent, ' ')) != 0) {
    return false;
  }
  std::size_t open_end = line.find('>', indent);
  if (line[indent] != '<' || open_end == std::string::npos) return false;
  *name = line.substr(indent + 1, open_end - indent - 1);
  std::string close = "</" + *name + ">";
  if (line.size() < close.size() || line.compare(line.size() - close.size(), close.size(), close)) {
    return false;
  }
  *value = XmlUnescape(line.substr(open_end + 1, line.size() - close.size() - open_end - 1));
  return true;
}

void ApplyValue(EnvBelief* env, const std::string& name, const std::string& value) {
  if (name == "cwd") env->cwd = value;
  if (name == "status") env->starting = value == "starting";
  if (name == "shell") env->shell = value;
}

std::string AttrValue(const std::string& line, const std::string& attr) {
  std::size_t p = line.find(attr + "=\"");
  if (p == std::string::npos) return "";
  p += attr.size() + 2;
  return XmlUnescape(line.substr(p, line.find('"', p) - p));
}

void FoldEnvironment(const std::string& text, const WorldInputs& in, Belief* b) {
  std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 2u);
  ASSERT_EQ(lines.front(), "<environment_context>");
  ASSERT_EQ(lines.back(), "</environment_context>");
  b->date.reset();
  b->timezone.reset();
  std::optional<EnvBelief> single;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::string name, value;
    if (line == "  <environments>") {
      for (++i; lines[i] != "  </environments>"; ++i) {
        const std::string& head = lines[i];
        std::string id = AttrValue(head, "id");
        if (head.find("status=\"unavailable\"") != std::string::npos) {
          ASSERT_TRUE(b->envs.erase(id)) << "unavailable but never told: " << id;
          continue;
        }
        EnvBelief env;
        std::string primary = AttrValue(head, "primary");
        if (!primary.empty()) env.primary = primary == "true";
        for (++i; lines[i] != "    </environment>"; ++i) {
          ASSERT_TRUE(ParseElement(lines[i], 6, &name, &value)) << lines[i];
          ApplyValue(&env, name, value);
        }
        b->envs[id] = env;
      }
    } else if (ParseElement(line, 2, &name, &value)) {
      if (name == "current_date") {
        b->date = value;
      } else if (name == "timezone") {
        b->timezone = value;
      } else {
        if (!single) single.emplace();
        ApplyValue(&*single, name, value);
      }
    } else {
      FAIL() << "unexpected line: " << line;
    }
  }
  if (single) {
    // The single layout only appears in a one-environment world.
    ASSERT_EQ(in.environments.size(), 1u);
    const std::string& id = in.environments[0].id;
    for (const auto& [known_id, env] : b->envs) ASSERT_EQ(known_id, id);
    b->envs.clear();
    b->envs[id] = *single;
  }
}

std::string StripPrefix(const std::string& body, std::string_view notice) {
  std::string prefix = std::string(notice) + "\n\n";
  return body.compare(0, prefix.size(), prefix) == 0 ? body.substr(prefix.size()) : body;
}

void FoldPart(const std::string& origin, const std::string& text, const WorldInputs& in,
              Belief* b) {
  if (origin == "model") {
    ASSERT_EQ(text.rfind("<model_switch>", 0), 0u);
  } else if (origin == "permissions") {
    b->permissions = text;
  } else if (origin == "developer_instructions") {
    if (text == kDeveloperInstructionsRemovalNotice) {
      b->developer.reset();
    } else {
      b->developer = StripPrefix(text, kDeveloperInstructionsReplacementNotice);
    }
  } else if (origin == "agents_md") {
    const std::string head = "<INSTRUCTIONS>\n";
    std::size_t start = text.find(head);
    ASSERT_NE(start, std::string::npos);
    start += head.size();
    const std::string tail = "\n</INSTRUCTIONS>";
    std::string body = text.substr(start, text.size() - tail.size() - start);
    if (body == kAgentsMdRemovalNotice) {
      b->agents_md.reset();
    } else {
      b->agents_md = StripPrefix(body, kAgentsMdReplacementNotice);
    }
  } else if (origin == "skills") {
    if (text == kSkillsRemovedText) {
      b->skills.reset();
    } else {
      b->skills = text;
    }
  } else if (origin == "environment") {
    FoldEnvironment(text, in, b);
  } else if (origin == "tools") {
    if (text == "<tools>\nNo tool changes are pending.\n</tools>") {
      b->tools.reset();
    } else {
      b->tools = text;
    }
  } else {
    FAIL() << "unknown origin " << origin;
  }
}

void Fold(const std::vector<ContextMessage>& messages, const WorldInputs& in, Belief* b) {
  for (const ContextMessage& m : messages) {
    for (std::size_t i = 0; i < m.parts.size(); ++i) {
      // Only agents_md + skills share a message (world_state.h), AGENTS.md first.
      std::string origin = (m.origin == "agents_md" && i == 1) ? "skills" : m.origin;
      if (i == 1) {
        ASSERT_EQ(m.origin, "agents_md");
      }
      FoldPart(origin, m.parts[i], in, b);
    }
  }
}

std::string Describe(const WorldInputs& in) {
  std::string s = "model=" + in.model.slug + " envs=";
  for (const EnvironmentInput& e : in.environments) {
    s += e.id + ":" + e.cwd + ":" + (e.shell ? *e.shell : "-") +
         (e.status == EnvironmentStatus::kStarting ? ":starting " : " ");
  }
  s += " agents=" + in.agents_md.text.value_or("-");
  return s;
}

void ExpectSameView(const Belief& told, const Belief& full, const WorldInputs& in) {
  EXPECT_EQ(told.permissions, full.permissions);
  EXPECT_EQ(told.developer, full.developer);
  EXPECT_EQ(told.agents_md, full.agents_md);
  EXPECT_EQ(told.skills, full.skills);
  EXPECT_EQ(told.tools, full.tools);
  EXPECT_EQ(told.date, full.date);
  EXPECT_EQ(told.timezone, full.timezone);
  ASSERT_EQ(told.envs.size(), full.envs.size()) << Describe(in);
  for (const auto& [id, env] : full.envs) {
    auto it = told.envs.find(id);
    ASSERT_NE(it, told.envs.end()) << id;
    EXPECT_EQ(it->second.cwd, env.cwd) << id;
    EXPECT_EQ(it->second.starting, env.starting) << id;
    // Unknown→known shells are not a change (environment_section.h): compare when the model was
    // told one.
    if (it->second.shell) {
      EXPECT_EQ(it->second.shell, env.shell) << id << " " << Describe(in);
    }
    if (in.environments.size() > 1) {
      EXPECT_EQ(it->second.primary, std::optional<bool>(id == in.environments[0].id)) << id;
    }
  }
}

void RunSequence(std::uint64_t seed, int steps) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  XorShift rng(seed);
  WorldStateRegistry registry = WorldStateRegistry::WithBuiltins();
  WorldInputs in;
  in.tools.policy = rng.OneIn(2) ? ToolPolicy::kDefer : ToolPolicy::kApply;
  Mutate(&rng, &in, /*all=*/true);

  RenderResult first = registry.RenderTurnStart(nullptr, {}, in);
  ASSERT_TRUE(first.warnings.empty());
  Belief told;
  Fold(first.messages, in, &told);
  JsonValue baseline = registry.BuildSnapshot(in);
  JsonValue persisted = *ParseJson(ToSortedJson(baseline));  // the full line, read back

  for (int step = 0; step < steps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    WorldInputs next = in;
    next.previous_turn_model = in.model.slug;
    Mutate(&rng, &next, /*all=*/false);

    RenderResult diff = registry.RenderStep(baseline, next);
    ASSERT_TRUE(diff.warnings.empty());
    // The baseline restored from persisted lines renders the same messages.
    RenderResult from_disk = registry.RenderTurnStart(&persisted, {}, next);
    ASSERT_EQ(from_disk.messages.size(), diff.messages.size());
    for (std::size_t i = 0; i < diff.messages.size(); ++i) {
      EXPECT_EQ(from_disk.messages[i].parts, diff.messages[i].parts);
    }
    // A model switch is rendered iff the slug changed and there are instructions.
    bool switched = !diff.messages.empty() && diff.messages[0].origin == "model";
    EXPECT_EQ(switched, next.model.slug != in.model.slug && !next.model.instructions.empty());

    Fold(diff.messages, next, &told);
    Belief full;
    Fold(registry.RenderFull(next).messages, next, &full);
    ExpectSameView(told, full, next);
    if (::testing::Test::HasFatalFailure()) return;

    JsonValue snapshot = registry.BuildSnapshot(next);
    JsonValue patch = MergePatchDiff(baseline, snapshot);
    persisted = MergePatchApply(persisted, *ParseJson(ToSortedJson(patch)));
    EXPECT_EQ(ToSortedJson(persisted), ToSortedJson(snapshot));
    baseline = registry.NextBaseline(&baseline, snapshot);
    EXPECT_TRUE(registry.RenderStep(baseline, next).messages.empty());
    in = next;
  }
}

TEST(WorldStateProperty, DiffRoundTripEqualsFullRender) {
  std::uint64_t sequences = 100;
  if (const char* extra = std::getenv("ACTX_PROPERTY_ITERATIONS")) {
    sequences += std::strtoull(extra, nullptr, 10);
  }
  for (std::uint64_t seed = 1; seed <= sequences; ++seed) {
    RunSequence(seed, 12);
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace agentctx
