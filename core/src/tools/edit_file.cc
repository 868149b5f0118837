// SPDX-License-Identifier: MIT
// Built-in tool `edit_file` (ours); see edit_file.h.
#include "tools/edit_file.h"

#include <vector>

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"edit_file","description":"Replaces exact text in an existing file. old_string must match the file exactly (whitespace and indentation included) and occur exactly once, unless replace_all is true: include enough surrounding lines to make it unique. Read the file first; use write_file to create a file.","strict":false,"parameters":{"additionalProperties":false,"properties":{"new_string":{"description":"The replacement text (must differ from old_string).","type":"string"},"old_string":{"description":"The exact text to replace.","type":"string"},"path":{"description":"Absolute path, or a path relative to the working directory.","type":"string"},"replace_all":{"description":"Replace every occurrence instead of exactly one (default false).","type":"boolean"}},"required":["path","old_string","new_string"],"type":"object"}})";

std::string Failed(std::string_view why) { return "edit_file failed: " + std::string(why); }

std::string FsFailed(const Error& error, std::string_view path) {
  return Failed(std::string(ErrorCodeName(error.code)) + ": " + std::string(path));
}

// Start offsets of the non-overlapping occurrences of `needle` in `text`.
std::vector<std::size_t> Occurrences(std::string_view text, std::string_view needle) {
  std::vector<std::size_t> at;
  for (std::size_t pos = text.find(needle); pos != std::string_view::npos;
       pos = text.find(needle, pos + needle.size())) {
    at.push_back(pos);
  }
  return at;
}

// `s` with every bare LF turned into CRLF.
std::string ToCrlf(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) out.push_back('\r');
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

std::string_view EditFileSpecJson() { return kSpec; }

std::string RunEditFile(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> path_arg = RequiredStringArg(*args, "path");
  if (!path_arg.has_value()) return ArgumentErrorOutput(path_arg.error());
  Result<std::string> old_arg = RequiredStringArg(*args, "old_string");
  if (!old_arg.has_value()) return ArgumentErrorOutput(old_arg.error());
  Result<std::string> new_arg = RequiredStringArg(*args, "new_string");
  if (!new_arg.has_value()) return ArgumentErrorOutput(new_arg.error());
  Result<std::optional<bool>> all_arg = OptionalBoolArg(*args, "replace_all");
  if (!all_arg.has_value()) return ArgumentErrorOutput(all_arg.error());
  const bool replace_all = all_arg->value_or(false);
  if (old_arg->empty()) return Failed("old_string is empty (use write_file to create a file)");
  if (*old_arg == *new_arg) return Failed("old_string and new_string are identical");

  Result<std::string> path = ResolvePath(ctx.primary_cwd, *path_arg);
  if (!path.has_value()) return FsFailed(path.error(), LossyUtf8(*path_arg));
  std::optional<std::string> refusal =
      CheckWritePolicy(ctx.sandbox, ctx.primary_cwd, *path, "edit_file");
  if (refusal.has_value()) return std::move(*refusal);
  Result<std::string> text = ctx.fs->Read(*path, kEditFileMaxBytes + 1);
  if (!text.has_value()) return FsFailed(text.error(), *path);
  if (text->size() > kEditFileMaxBytes) {
    return Failed(*path + " is larger than " + std::to_string(kEditFileMaxBytes) + " bytes");
  }

  std::string old_string = std::move(old_arg).value();
  std::string new_string = std::move(new_arg).value();
  std::vector<std::size_t> at = Occurrences(*text, old_string);
  if (at.empty() && text->find("\r\n") != std::string::npos &&
      old_string.find('\n') != std::string::npos) {
    std::string crlf_old = ToCrlf(old_string);
    at = Occurrences(*text, crlf_old);
    if (!at.empty()) {
      old_string = std::move(crlf_old);
      new_string = ToCrlf(new_string);
    }
  }
  if (at.empty()) {
    return Failed("old_string was not found in " + *path +
                  " (it must match exactly, whitespace included; read the file again)");
  }
  if (at.size() > 1 && !replace_all) {
    return Failed("old_string occurs " + std::to_string(at.size()) + " times in " + *path +
                  "; include more surrounding lines to make it unique, or set replace_all");
  }

  std::string edited;
  edited.reserve(text->size() + at.size() * new_string.size());
  std::size_t copied = 0;
  for (std::size_t pos : at) {
    edited.append(*text, copied, pos - copied);
    edited += new_string;
    copied = pos + old_string.size();
  }
  edited.append(*text, copied, std::string::npos);
  Result<void> written = ctx.fs->Write(*path, edited, /*create_parents=*/false);
  if (!written.has_value()) return FsFailed(written.error(), *path);

  // 1-based starting lines of the replaced occurrences, in the original text.
  std::string lines;
  std::size_t line = 1;
  std::size_t scanned = 0;
  for (std::size_t i = 0; i < at.size() && i < kEditMaxLinesShown; ++i) {
    for (; scanned < at[i]; ++scanned) {
      if ((*text)[scanned] == '\n') ++line;
    }
    if (i != 0) lines += ", ";
    lines += std::to_string(line);
  }
  if (at.size() > kEditMaxLinesShown) lines += ", …";
  const bool one = at.size() == 1;
  return "Edited " + *path + ": replaced " + std::to_string(at.size()) +
         (one ? " occurrence (line " : " occurrences (lines ") + lines + ")";
}

}  // namespace agentctx
