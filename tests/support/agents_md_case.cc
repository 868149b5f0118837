// SPDX-License-Identifier: MIT
#include "support/agents_md_case.h"

#include <utility>
#include <vector>

#include "agents_md/config.h"
#include "protocol/json_codec.h"
#include "support/fixture_tree.h"
#include "support/fixtures.h"

namespace agentctx::testing {

namespace {

bool Bad(std::string* error, const std::string& message) {
  if (error != nullptr) *error = message;
  return false;
}

bool ParseOp(std::string_view name, MemoryFileSystem::Op* op) {
  if (name == "stat") {
    *op = MemoryFileSystem::Op::kStat;
  } else if (name == "read") {
    *op = MemoryFileSystem::Op::kRead;
  } else if (name == "list") {
    *op = MemoryFileSystem::Op::kList;
  } else if (name == "write") {
    *op = MemoryFileSystem::Op::kWrite;
  } else {
    return false;
  }
  return true;
}

bool ApplySetup(const JsonValue& step, AgentsMdCase* c, std::string* error) {
  std::string fs_name(step.GetString("fs").value_or("main"));
  auto it = c->filesystems.find(fs_name);
  if (it == c->filesystems.end()) return Bad(error, "setup names unknown fs " + fs_name);
  MemoryFileSystem* fs = it->second.get();
  std::string op(step.GetString("op").value_or(""));
  std::string path(step.GetString("path").value_or(""));
  if (op == "error") {
    MemoryFileSystem::Op call;
    ErrorCode code;
    if (!ParseOp(step.GetString("call").value_or(""), &call)) return Bad(error, "bad call");
    if (!ErrorCodeFromName(step.GetString("code").value_or(""), &code)) {
      return Bad(error, "bad code");
    }
    fs->InjectError(path, call, code);
    return true;
  }
  Result<void> r;
  if (op == "symlink") {
    r = fs->AddSymlink(path, step.GetString("target").value_or(""));
  } else if (op == "other") {
    r = fs->AddOther(path);
  } else if (op == "file") {
    r = fs->AddFile(path, step.GetString("text").value_or(""));
  } else {
    return Bad(error, "unknown setup op " + op);
  }
  if (!r.has_value()) return Bad(error, "setup " + op + " " + path + ": " + r.error().Display());
  return true;
}

}  // namespace

bool ParseCaseEnvironment(const JsonValue& value, AgentsMdCase* c, EnvironmentSelection* out,
                          std::string* error) {
  EnvironmentSelection env;
  env.id = std::string(value.GetString("id").value_or("primary"));
  env.cwd = std::string(value.GetString("cwd").value_or("/repo"));
  env.fs_name = std::string(value.GetString("fs").value_or("main"));
  auto it = c->filesystems.find(env.fs_name);
  if (it == c->filesystems.end()) return Bad(error, "environment names unknown fs");
  env.fs = it->second.get();
  env.sandboxed = value.GetBool("sandboxed").value_or(env.fs->Sandboxed());
  env.ready = value.GetString("status").value_or("available") == "available";
  env.fs_epoch = static_cast<std::uint64_t>(value.GetInt("fs_epoch").value_or(0));
  *out = std::move(env);
  return true;
}

bool LoadAgentsMdCase(const std::string& name, AgentsMdCase* out, std::string* error) {
  const std::string dir = "agents_md/" + name;
  std::optional<std::string> text = ReadFixture(dir + "/case.json");
  if (!text.has_value()) return Bad(error, "missing " + dir + "/case.json");
  Result<JsonValue> parsed = ParseJson(*text);
  if (!parsed.has_value()) return Bad(error, "case.json: " + parsed.error().Display());
  const JsonValue& spec = *parsed;
  out->name = name;

  JsonValue default_fss = JsonValue::Object();
  default_fss.Set("main", JsonValue::String("input"));
  const JsonValue* fss = spec.Find("filesystems");
  if (fss == nullptr) fss = &default_fss;
  for (const JsonMember& m : fss->members()) {
    auto fs = std::make_unique<MemoryFileSystem>();
    if (!LoadFixtureTree(dir + "/" + m.value.string_value(), fs.get(), "/", 0, error)) {
      return false;
    }
    out->filesystems[m.key] = std::move(fs);
  }
  if (const JsonValue* setup = spec.Find("setup")) {
    for (const JsonValue& step : setup->items()) {
      if (!ApplySetup(step, out, error)) return false;
    }
  }
  if (const JsonValue* envs = spec.Find("environments")) {
    for (const JsonValue& e : envs->items()) {
      EnvironmentSelection env;
      if (!ParseCaseEnvironment(e, out, &env, error)) return false;
      out->inputs.environments.push_back(std::move(env));
    }
  }
  out->inputs.trusted = spec.GetString("trust").value_or("trusted") != "untrusted";
  const JsonValue* config = spec.Find("agents_md");
  Result<AgentsMdConfig> parsed_config =
      AgentsMdConfigFromJson(config != nullptr ? *config : JsonValue(), nullptr);
  if (!parsed_config.has_value()) return Bad(error, parsed_config.error().Display());
  out->inputs.config = std::move(parsed_config).value();
  const JsonValue* expect = spec.Find("expect");
  out->expect = expect != nullptr ? *expect : JsonValue::Object();
  out->expected_text = ReadFixture(dir + "/expected.txt");
  return true;
}

}  // namespace agentctx::testing
