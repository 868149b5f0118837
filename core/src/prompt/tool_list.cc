// SPDX-License-Identifier: MIT
#include "prompt/tool_list.h"

#include <algorithm>
#include <set>

#include "protocol/json_value.h"
#include "support/sha1.h"
#include "support/utf8.h"

namespace agentctx {
namespace {

constexpr std::size_t kMaxToolNameBytes = 128;

bool AllowedToolChar(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

std::string CutBytes(std::string s, std::size_t max) {
  if (s.size() > max) s.resize(max);  // sanitised names are ASCII, so any cut is a boundary
  return s;
}

std::string HostSpecBytes(const std::string& advertised, const HostToolConfig& tool) {
  JsonValue params = tool.parameters;
  SortKeys(&params);
  std::string out = "{\"type\":\"function\",\"name\":";
  AppendJsonString(&out, advertised);
  out += ",\"description\":";
  AppendJsonString(&out, tool.description);
  out += ",\"strict\":";
  out += tool.strict ? "true" : "false";
  out += ",\"parameters\":";
  AppendJson(&out, params);
  out += "}";
  return out;
}

}  // namespace

const ToolEntry* ToolList::FindAdvertised(std::string_view name) const {
  for (const auto& t : tools) {
    if (t.advertised_name == name) return &t;
  }
  return nullptr;
}

std::string SanitizeToolName(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size();) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    std::size_t bad = 1;
    std::size_t len = Utf8SequenceLength(name, i, &bad);
    if (len == 1 && AllowedToolChar(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('_');
    }
    i += len == 0 ? bad : len;
  }
  if (out.empty()) out = "_";
  return out;
}

std::string AdvertisedToolName(std::string_view server, std::string_view name) {
  if (server.empty()) return CutBytes(SanitizeToolName(name), kMaxToolNameBytes);
  return CutBytes("mcp__" + SanitizeToolName(server) + "__" + SanitizeToolName(name),
                  kMaxToolNameBytes);
}

ToolList BuildToolList(const std::vector<BuiltinToolSpec>& builtins,
                       const std::vector<HostToolConfig>& host_tools) {
  ToolList list;
  std::set<std::string> taken;
  for (const auto& b : builtins) {
    list.tools.push_back(ToolEntry{b.name, "", b.name, "", b.spec_bytes, true});
    taken.insert(b.name);
  }
  std::vector<const HostToolConfig*> sorted;
  for (const auto& t : host_tools) sorted.push_back(&t);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const HostToolConfig* a, const HostToolConfig* b) {
                     if (a->server != b->server) return a->server < b->server;
                     return a->name < b->name;
                   });
  for (const HostToolConfig* t : sorted) {
    std::string advertised = AdvertisedToolName(t->server, t->name);
    if (taken.count(advertised) != 0) {
      std::string key = t->server;
      key.push_back('\0');
      key += t->name;
      std::string suffix = "_" + Sha1Hex(key).substr(0, 8);
      std::string base = CutBytes(advertised, kMaxToolNameBytes - suffix.size());
      list.warnings.push_back({WarningCode::kToolNameCollision,
                               "tool name `" + advertised + "` is already taken; advertised as `" +
                                   base + suffix + "`"});
      advertised = base + suffix;
    }
    taken.insert(advertised);
    list.tools.push_back(ToolEntry{advertised, t->server, t->name, t->description,
                                   HostSpecBytes(advertised, *t), false});
  }
  list.array_bytes = "[";
  for (std::size_t i = 0; i < list.tools.size(); ++i) {
    if (i > 0) list.array_bytes.push_back(',');
    list.array_bytes += list.tools[i].spec_bytes;
  }
  list.array_bytes.push_back(']');
  list.array_sha1 = Sha1Hex(list.array_bytes);
  return list;
}

}  // namespace agentctx
