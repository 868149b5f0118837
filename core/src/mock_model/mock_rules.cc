// SPDX-License-Identifier: MIT
// The mock model's response rules; see mock_rules.h.
#include "mock_model/mock_rules.h"

#include <unordered_map>

#include "protocol/json_codec.h"
#include "world_state/message_kind.h"
#include "world_state/sections/tools_section.h"

namespace agentctx {
namespace {

constexpr std::string_view kCompactionPromptStart =
    "You are performing a CONTEXT CHECKPOINT COMPACTION";
constexpr std::size_t kFirstLineChars = 80;
constexpr std::string_view kFailurePrefixes[] = {
    "read_file failed", "list_dir failed",   "write_file failed",  "write_file refused",
    "edit_file failed", "edit_file refused", "apply_patch failed", "apply_patch refused",
    "grep failed",      "glob failed",       "unsupported call",   "aborted",
};

JsonValue Str(std::string_view s) { return JsonValue::String(std::string(s)); }

std::string Join(const std::vector<std::string_view>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i != 0) out.append(sep);
    out.append(parts[i]);
  }
  return out;
}

// The `input` items (empty when absent or not an array).
std::vector<JsonValue> const* InputItems(const JsonValue& body) {
  const JsonValue* input = body.Find("input");
  return input != nullptr && input->is_array() ? &input->items() : nullptr;
}

bool IsToolOutput(const JsonValue& item) {
  std::optional<std::string_view> type = item.GetString("type");
  return type == "function_call_output" || type == "custom_tool_call_output";
}

// The output's text: a string, or its `input_text` parts joined by LF.
std::string OutputText(const JsonValue& output_item) {
  const JsonValue* output = output_item.Find("output");
  if (output == nullptr) return "";
  if (output->is_string()) return output->string_value();
  std::vector<std::string_view> texts;
  if (output->is_array()) {
    for (const JsonValue& part : output->items()) {
      if (part.is_object() && part.GetString("type") == "input_text") {
        texts.push_back(part.GetString("text").value_or(std::string_view()));
      }
    }
  }
  return Join(texts, "\n");
}

// A string argument of a function call (nullopt if absent or unparsable).
std::optional<std::string> CallArgument(const JsonValue& call, std::string_view key) {
  std::optional<std::string_view> arguments = call.GetString("arguments");
  if (!arguments.has_value()) return std::nullopt;
  Result<JsonValue> parsed = ParseJson(*arguments);
  if (!parsed.has_value() || !parsed->is_object()) return std::nullopt;
  std::optional<std::string_view> value = parsed->GetString(key);
  if (!value.has_value()) return std::nullopt;
  return std::string(*value);
}

std::optional<std::string> CallPath(const JsonValue& call) { return CallArgument(call, "path"); }

std::string Counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

JsonValue ReasoningItem(std::string_view h, std::string_view plan) {
  JsonValue part = JsonValue::Object();
  part.Set("type", Str("summary_text"));
  part.Set("text", Str(std::string("Mock plan: ") + std::string(plan)));
  JsonValue summary = JsonValue::Array();
  summary.Push(std::move(part));
  JsonValue item = JsonValue::Object();
  item.Set("type", Str("reasoning"));
  item.Set("id", Str("rs_" + std::string(h.substr(0, 12))));
  item.Set("summary", std::move(summary));
  item.Set("encrypted_content", Str("mockenc_" + std::string(h)));
  return item;
}

JsonValue MessageItem(std::string_view h, std::string text) {
  JsonValue part = JsonValue::Object();
  part.Set("type", Str("output_text"));
  part.Set("text", JsonValue::String(std::move(text)));
  JsonValue content = JsonValue::Array();
  content.Push(std::move(part));
  JsonValue item = JsonValue::Object();
  item.Set("type", Str("message"));
  item.Set("id", Str("msg_" + std::string(h.substr(0, 12))));
  item.Set("role", Str("assistant"));
  item.Set("content", std::move(content));
  return item;
}

JsonValue CallItem(std::string_view h, std::size_t i, const MockCallRequest& call) {
  std::string suffix = std::string(h.substr(0, 12)) + "_" + std::to_string(i);
  JsonValue arguments = JsonValue::Object();
  if (call.name == "apply_patch") {
    arguments.Set("patch", Str(call.content));
  } else if (call.name == "grep" || call.name == "glob") {
    arguments.Set("pattern", Str(call.content));
  } else {
    arguments.Set("path", Str(call.path));
  }
  if (call.name == "write_file") arguments.Set("content", Str(call.content));
  if (call.name == "edit_file") {
    arguments.Set("old_string", Str(call.old_string));
    arguments.Set("new_string", Str(call.new_string));
    if (call.replace_all) arguments.Set("replace_all", JsonValue::Bool(true));
  }
  JsonValue item = JsonValue::Object();
  item.Set("type", Str("function_call"));
  item.Set("id", Str("fc_" + suffix));
  item.Set("name", Str(call.name));
  item.Set("arguments", JsonValue::String(call.raw ? call.content : ToJson(arguments)));
  item.Set("call_id", Str("call_" + suffix));
  return item;
}

void AddToolNames(const JsonValue* tools, std::vector<std::string>* names) {
  if (tools == nullptr || !tools->is_array()) return;
  for (const JsonValue& tool : tools->items()) {
    std::optional<std::string_view> name = tool.is_object() ? tool.GetString("name") : std::nullopt;
    if (name.has_value()) names->emplace_back(*name);
  }
}

// Removes the tools a native removal notice (tools_section.h) names.
void RemoveNoticedTools(std::string_view text, std::vector<std::string>* names) {
  const std::string head =
      std::string(kToolsMarkers.start) + "\n" + std::string(kToolsRemovedHeader);
  if (text.substr(0, head.size()) != head) return;
  for (std::size_t at = text.find("\n- "); at != std::string_view::npos;
       at = text.find("\n- ", at + 1)) {
    std::size_t end = text.find('\n', at + 3);
    std::string_view name = text.substr(at + 3, end == std::string_view::npos ? 0 : end - at - 3);
    for (std::size_t i = names->size(); i-- > 0;) {
      if ((*names)[i] == name) names->erase(names->begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
}

// The tools the model has: the top-level `tools`, then, in input order, the native changes
// (`additional_tools` items add, developer removal notices remove), as the server would.
std::vector<std::string> ToolNames(const JsonValue& body) {
  std::vector<std::string> names;
  AddToolNames(body.Find("tools"), &names);
  if (const std::vector<JsonValue>* input = InputItems(body)) {
    for (const JsonValue& item : *input) {
      std::optional<std::string_view> type = item.GetString("type");
      if (type == "additional_tools") {
        AddToolNames(item.Find("tools"), &names);
      } else if (type == "message" && item.GetString("role") == "developer") {
        for (std::string_view text : MessageTexts(item, "input_text")) {
          RemoveNoticedTools(text, &names);
        }
      }
    }
  }
  return names;
}

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  for (const std::string& n : names) {
    if (n == name) return true;
  }
  return false;
}

// The reply directives of the last AGENTS.md part in `input` (mock_text.h).
ReplyDirectives FindReplyDirectives(const std::vector<JsonValue>& input) {
  std::optional<std::string_view> last;
  for (const JsonValue& item : input) {
    if (MessageRole(item) != "user") continue;
    for (std::string_view text : MessageTexts(item, "input_text")) {
      if (MatchContextualMarker(text) == ContextualMarker::kAgentsMd) last = text;
    }
  }
  return last.has_value() ? ParseReplyDirectives(*last) : ReplyDirectives{};
}

// Rule 1: MOCK SUMMARY over the real user messages before the last item and read_file calls.
std::string SummaryText(const std::vector<JsonValue>& input) {
  std::string text = "MOCK SUMMARY";
  for (std::size_t i = 0; i + 1 < input.size(); ++i) {
    if (!IsRealUserMessage(input[i])) continue;
    text += "\n- user: ";
    text += FirstLine(Join(MessageTexts(input[i], "input_text"), "\n"), kFirstLineChars);
  }
  for (std::size_t i = 0; i + 1 < input.size(); ++i) {
    const JsonValue& item = input[i];
    if (item.GetString("type") != "function_call" || item.GetString("name") != "read_file") {
      continue;
    }
    std::optional<std::string> path = CallPath(item);
    if (path.has_value()) text += "\n- read: " + *path;
  }
  return text;
}

// `^L\d+: ` (a read_file output line).
bool IsNumberedLine(std::string_view line) {
  if (line.empty() || line[0] != 'L') return false;
  std::size_t p = 1;
  while (p < line.size() && line[p] >= '0' && line[p] <= '9') ++p;
  return p > 1 && line.substr(p, 2) == ": ";
}

// A grep match line: `<path>:<n>: <text>`.
bool IsGrepMatch(std::string_view line) {
  for (std::size_t colon = line.find(':'); colon != std::string_view::npos;
       colon = line.find(':', colon + 1)) {
    std::size_t p = colon + 1;
    while (p < line.size() && line[p] >= '0' && line[p] <= '9') ++p;
    if (p > colon + 1 && line.substr(p, 2) == ": ") return colon > 0;
  }
  return false;
}

// A glob result line (an absolute path).
bool IsAbsolutePathLine(std::string_view line) { return !line.empty() && line[0] == '/'; }

// An apply_patch summary line: `A `, `M ` or `D ` then a path.
bool IsPatchedLine(std::string_view line) {
  return line.size() > 2 && (line[0] == 'A' || line[0] == 'M' || line[0] == 'D') && line[1] == ' ';
}

// A list_dir entry line (not the `Absolute path:` header nor the omission marker).
bool IsListEntry(std::string_view line) {
  return !line.empty() && line.substr(0, 15) != "Absolute path: " &&
         line != "[more entries omitted]";
}

std::size_t CountLines(std::string_view text, bool (*matches)(std::string_view)) {
  std::size_t n = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (matches(text.substr(start, end - start))) ++n;
    start = end + 1;
  }
  return n;
}

// Rule 4: one line per tool output in the tail. Its call is the last call with the same
// `call_id` before it, found in one pass (an index by id, updated as the items go by).
std::string ToolOutputLines(const std::vector<JsonValue>& input, std::size_t tail_start) {
  std::vector<std::string> lines;
  std::unordered_map<std::string_view, const JsonValue*> calls_by_id;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const JsonValue& out = input[i];
    std::optional<std::string_view> type = out.GetString("type");
    if (type == "function_call" || type == "custom_tool_call") {
      if (std::optional<std::string_view> id = out.GetString("call_id")) calls_by_id[*id] = &out;
      continue;
    }
    if (i < tail_start || !IsToolOutput(out)) continue;
    std::string_view call_id = out.GetString("call_id").value_or(std::string_view());
    auto found = calls_by_id.find(call_id);
    const JsonValue* call = found != calls_by_id.end() ? found->second : nullptr;
    std::string name =
        call != nullptr ? std::string(call->GetString("name").value_or("tool")) : "tool";
    std::string text = OutputText(out);
    bool failed = false;
    for (std::string_view prefix : kFailurePrefixes) {
      if (text.compare(0, prefix.size(), prefix) == 0) failed = true;
    }
    if (failed) {
      // `<tool> failed: <first line>`, unless the line already names the tool (`read_file
      // failed: …`, `write_file refused: …`): then the line as it is, never said twice.
      std::string_view first = FirstLine(text, std::string::npos);
      bool names_tool = first.substr(0, name.size() + 1) == name + " ";
      lines.push_back(names_tool ? std::string(first) : name + " failed: " + std::string(first));
      continue;
    }
    bool builtin_call = call != nullptr && call->GetString("type") == "function_call";
    std::string path = builtin_call ? CallPath(*call).value_or("?") : "?";
    if (builtin_call && name == "read_file") {
      lines.push_back("Read " + path + ": " +
                      Counted(CountLines(text, IsNumberedLine), "line", "lines") + ".");
    } else if (builtin_call && name == "list_dir") {
      lines.push_back("Listed " + path + ": " +
                      Counted(CountLines(text, IsListEntry), "entry", "entries") + ".");
    } else if (builtin_call && name == "write_file") {
      lines.push_back("Wrote " + path + ".");
    } else if (builtin_call && name == "edit_file") {
      lines.push_back("Edited " + path + ".");
    } else if (builtin_call && name == "apply_patch") {
      lines.push_back("Patched " + Counted(CountLines(text, IsPatchedLine), "file", "files") + ".");
    } else if (builtin_call && name == "grep") {
      lines.push_back("Found " + Counted(CountLines(text, IsGrepMatch), "match", "matches") +
                      " for " + CallArgument(*call, "pattern").value_or("?") + ".");
    } else if (builtin_call && name == "glob") {
      lines.push_back("Found " + Counted(CountLines(text, IsAbsolutePathLine), "file", "files") +
                      " for " + CallArgument(*call, "pattern").value_or("?") + ".");
    } else {
      lines.push_back(name + " returned " + std::to_string(text.size()) + " bytes.");
    }
  }
  std::string joined;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i != 0) joined += "\n";
    joined += lines[i];
  }
  return joined;
}

}  // namespace

MockPlan PlanMockResponse(const JsonValue& body, std::string_view h) {
  MockPlan plan;
  const std::vector<JsonValue> no_items;
  const std::vector<JsonValue>* input_ptr = InputItems(body);
  const std::vector<JsonValue>& input = input_ptr != nullptr ? *input_ptr : no_items;

  // Rule 1: the compaction prompt.
  if (!input.empty() && MessageRole(input.back()) == "user") {
    std::vector<std::string_view> texts = MessageTexts(input.back(), "input_text");
    if (!texts.empty() &&
        texts.front().substr(0, kCompactionPromptStart.size()) == kCompactionPromptStart) {
      plan.items.push_back(ReasoningItem(h, "summarize"));
      plan.items.push_back(MessageItem(h, SummaryText(input)));
      return plan;
    }
  }

  // U and tail.
  std::size_t tail_start = 0;
  std::string u;
  for (std::size_t i = input.size(); i > 0; --i) {
    if (IsRealUserMessage(input[i - 1])) {
      u = Join(MessageTexts(input[i - 1], "input_text"), "\n");
      tail_start = i;
      break;
    }
  }

  // Rule 2: failure directives.
  plan.failure = FindFailDirective(u);

  ReplyDirectives directives = FindReplyDirectives(input);
  bool tail_has_output = false;
  for (std::size_t i = tail_start; i < input.size(); ++i) {
    if (IsToolOutput(input[i])) tail_has_output = true;
  }

  if (!tail_has_output) {
    // Rule 3: calls (filtered by the request's tools, at most 4), else a reply.
    std::vector<std::string> tools = ToolNames(body);
    std::vector<MockCallRequest> calls;
    for (MockCallRequest& call : ExtractMockCalls(u)) {
      if (calls.size() == kMaxMockCalls) break;
      if (Contains(tools, call.name)) calls.push_back(std::move(call));
    }
    if (!calls.empty()) {
      std::string names;
      for (std::size_t i = 0; i < calls.size(); ++i) {
        if (i != 0) names += ", ";
        names += calls[i].name;
      }
      plan.items.push_back(ReasoningItem(h, "call " + names));
      for (std::size_t i = 0; i < calls.size(); ++i) plan.items.push_back(CallItem(h, i, calls[i]));
      return plan;
    }
    plan.items.push_back(ReasoningItem(h, "reply"));
    std::string text = "Mock reply to: " + std::string(FirstLine(u, kFirstLineChars));
    plan.items.push_back(MessageItem(h, ApplyReplyDirectives(directives, std::move(text))));
    return plan;
  }

  // Rule 4: tool-output summary lines.
  plan.items.push_back(ReasoningItem(h, "reply"));
  plan.items.push_back(
      MessageItem(h, ApplyReplyDirectives(directives, ToolOutputLines(input, tail_start))));
  return plan;
}

std::vector<JsonValue> PlanMockCompaction(const JsonValue& body, std::string_view h) {
  std::vector<JsonValue> out;
  if (const std::vector<JsonValue>* input = InputItems(body)) {
    for (const JsonValue& item : *input) {
      if (IsRealUserMessage(item)) out.push_back(item);
    }
  }
  JsonValue compaction = JsonValue::Object();
  compaction.Set("type", Str("compaction"));
  compaction.Set("encrypted_content", Str("mockcmp_" + std::string(h)));
  out.push_back(std::move(compaction));
  return out;
}

}  // namespace agentctx
