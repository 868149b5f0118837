// SPDX-License-Identifier: MIT
#include "world_state/sections/environment_section.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace agentctx {
namespace {

/// One environment as the snapshot sees it (also the parsed form of a stored entry).
struct EnvView {
  std::string id;
  std::string cwd;
  std::string status;  // "available" | "starting"
  std::optional<std::string> shell;
  bool is_primary = false;  // true only on the primary with 2+ environments
};

struct EnvSnapshot {
  std::vector<EnvView> environments;  // sorted by id
  std::optional<std::string> current_date;
  std::optional<std::string> timezone;
};

EnvSnapshot CurrentSnapshot(const WorldInputs& inputs) {
  EnvSnapshot snap;
  const bool multiple = inputs.environments.size() > 1;
  for (std::size_t i = 0; i < inputs.environments.size(); ++i) {
    const EnvironmentInput& env = inputs.environments[i];
    snap.environments.push_back(
        EnvView{env.id, env.cwd, std::string(ToWire(env.status)), env.shell, multiple && i == 0});
  }
  std::stable_sort(snap.environments.begin(), snap.environments.end(),
                   [](const EnvView& a, const EnvView& b) { return a.id < b.id; });
  if (inputs.environment_context.include_date) {
    snap.current_date = inputs.environment_context.current_date;
    snap.timezone = inputs.environment_context.timezone;
  }
  return snap;
}

std::optional<std::string> OptionalString(const JsonValue& object, std::string_view key) {
  auto s = object.GetString(key);
  if (!s) return std::nullopt;
  return std::string(*s);
}

/// Parses a stored value; nullopt when it has the wrong shape.
std::optional<EnvSnapshot> ParseSnapshot(const JsonValue& stored) {
  if (!stored.is_object()) return std::nullopt;
  const JsonValue* envs = stored.Find("environments");
  if (envs == nullptr || !envs->is_object()) return std::nullopt;
  EnvSnapshot snap;
  for (const JsonMember& m : envs->members()) {
    const JsonValue& e = m.value;
    if (!e.is_object()) return std::nullopt;
    auto cwd = e.GetString("cwd");
    auto status = e.GetString("status");
    if (!cwd || !status) return std::nullopt;
    const JsonValue* shell = e.Find("shell");
    if (shell != nullptr && !shell->is_string() && !shell->is_null()) return std::nullopt;
    const JsonValue* primary = e.Find("is_primary");
    if (primary != nullptr && !primary->is_bool() && !primary->is_null()) return std::nullopt;
    snap.environments.push_back(EnvView{m.key, std::string(*cwd), std::string(*status),
                                        OptionalString(e, "shell"),
                                        e.GetBool("is_primary").value_or(false)});
  }
  std::stable_sort(snap.environments.begin(), snap.environments.end(),
                   [](const EnvView& a, const EnvView& b) { return a.id < b.id; });
  for (const char* key : {"current_date", "timezone"}) {
    const JsonValue* v = stored.Find(key);
    if (v != nullptr && !v->is_string() && !v->is_null()) return std::nullopt;
  }
  snap.current_date = OptionalString(stored, "current_date");
  snap.timezone = OptionalString(stored, "timezone");
  return snap;
}

const EnvView* FindEnv(const EnvSnapshot& snap, std::string_view id) {
  for (const EnvView& e : snap.environments) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

bool SameDiffValue(const EnvView& cur, const EnvView& prev) {
  if (cur.cwd != prev.cwd || cur.status != prev.status || cur.is_primary != prev.is_primary) {
    return false;
  }
  return !(cur.shell.has_value() && prev.shell.has_value() && *cur.shell != *prev.shell);
}

struct Update {
  const EnvView* current;  // nullptr = unavailable
  std::string id;
};

void AppendElement(std::string* out, std::string_view indent, std::string_view name,
                   std::string_view value) {
  out->append(indent);
  *out += '<';
  out->append(name);
  *out += '>';
  *out += XmlEscape(value);
  *out += "</";
  out->append(name);
  *out += ">\n";
}

void AppendValues(std::string* out, const EnvView& env, std::string_view indent) {
  AppendElement(out, indent, "cwd", env.cwd);
  if (env.status == "starting") AppendElement(out, indent, "status", "starting");
  if (env.shell.has_value()) AppendElement(out, indent, "shell", *env.shell);
}

/// The block for `updates` (sorted by id); `primary_id` names the primary environment.
std::string RenderBlock(const std::vector<Update>& updates, bool single, bool include_primary,
                        std::string_view primary_id, const EnvSnapshot& current) {
  std::string out(kEnvironmentContextMarkers.start);
  out += '\n';
  if (single) {
    if (!updates.empty() && updates[0].current != nullptr) {
      AppendValues(&out, *updates[0].current, "  ");
    }
  } else if (!updates.empty()) {
    out += "  <environments>\n";
    for (const Update& u : updates) {
      out += "    <environment id=\"" + XmlEscape(u.id) + "\"";
      if (u.current == nullptr) {
        out += " status=\"unavailable\" />\n";
        continue;
      }
      if (include_primary) out += u.id == primary_id ? " primary=\"true\"" : " primary=\"false\"";
      out += ">\n";
      AppendValues(&out, *u.current, "      ");
      out += "    </environment>\n";
    }
    out += "  </environments>\n";
  }
  if (current.current_date) AppendElement(&out, "  ", "current_date", *current.current_date);
  if (current.timezone) AppendElement(&out, "  ", "timezone", *current.timezone);
  out.append(kEnvironmentContextMarkers.end);
  return out;
}

bool IsSingleWorld(const WorldInputs& inputs) {
  return inputs.environments.size() == 1 &&
         inputs.environments[0].status == EnvironmentStatus::kAvailable;
}

std::string_view PrimaryId(const WorldInputs& inputs) {
  return inputs.environments.empty() ? std::string_view() : inputs.environments[0].id;
}

}  // namespace

std::string RenderEnvironmentContext(const WorldInputs& inputs) {
  EnvSnapshot current = CurrentSnapshot(inputs);
  std::vector<Update> updates;
  for (const EnvView& e : current.environments) updates.push_back(Update{&e, e.id});
  return RenderBlock(updates, IsSingleWorld(inputs), inputs.environments.size() > 1,
                     PrimaryId(inputs), current);
}

std::optional<Markers> EnvironmentSection::markers() const { return kEnvironmentContextMarkers; }

JsonValue EnvironmentSection::Snapshot(const WorldInputs& inputs) const {
  EnvSnapshot snap = CurrentSnapshot(inputs);
  JsonValue envs = JsonValue::Object();
  for (const EnvView& e : snap.environments) {
    JsonValue v = JsonValue::Object();
    v.Set("cwd", JsonValue::String(e.cwd));
    v.Set("status", JsonValue::String(e.status));
    if (e.shell) v.Set("shell", JsonValue::String(*e.shell));
    if (e.is_primary) v.Set("is_primary", JsonValue::Bool(true));
    envs.Set(e.id, std::move(v));
  }
  JsonValue out = JsonValue::Object();
  out.Set("environments", std::move(envs));
  if (snap.current_date) out.Set("current_date", JsonValue::String(*snap.current_date));
  if (snap.timezone) out.Set("timezone", JsonValue::String(*snap.timezone));
  return out;
}

bool EnvironmentSection::CanRestore(const JsonValue& stored) const {
  return ParseSnapshot(stored).has_value();
}

std::optional<Fragment> EnvironmentSection::RenderDiff(const PreviousState& prev,
                                                       const WorldInputs& inputs) const {
  EnvSnapshot current = CurrentSnapshot(inputs);
  EnvSnapshot previous;
  if (prev.is_known()) {
    std::optional<EnvSnapshot> parsed = ParseSnapshot(prev.value);
    if (parsed) previous = std::move(*parsed);
  }
  const bool multiple = current.environments.size() > 1;
  const bool previous_multiple = previous.environments.size() > 1;

  std::vector<Update> updates;
  for (const EnvView& e : current.environments) {
    const EnvView* before = FindEnv(previous, e.id);
    if (before == nullptr || multiple != previous_multiple || !SameDiffValue(e, *before)) {
      updates.push_back(Update{&e, e.id});
    }
  }
  bool any_unavailable = false;
  for (const EnvView& e : previous.environments) {
    if (FindEnv(current, e.id) == nullptr) {
      updates.push_back(Update{nullptr, e.id});
      any_unavailable = true;
    }
  }
  std::stable_sort(updates.begin(), updates.end(),
                   [](const Update& a, const Update& b) { return a.id < b.id; });
  const bool date_changed =
      current.current_date != previous.current_date || current.timezone != previous.timezone;
  if (updates.empty() && !date_changed) return std::nullopt;
  const bool single = IsSingleWorld(inputs) && !any_unavailable;
  std::string block =
      RenderBlock(updates, single, multiple || previous_multiple, PrimaryId(inputs), current);
  std::string notice = block;  // the harness's own observation, all of it
  return Fragment{Role::kUser, std::move(block), std::move(notice), {}};
}

}  // namespace agentctx
