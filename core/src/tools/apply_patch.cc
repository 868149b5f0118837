// SPDX-License-Identifier: MIT
// Built-in tool `apply_patch` (ours); see apply_patch.h.
#include "tools/apply_patch.h"

#include <map>
#include <optional>
#include <vector>

#include "support/paths.h"
#include "support/utf8.h"
#include "tools/patch_chunks.h"
#include "tools/patch_parser.h"
#include "tools/tool_args.h"

namespace agentctx {

namespace {

constexpr std::string_view kSpec =
    R"({"type":"function","name":"apply_patch","description":"Edits files with a patch, all or nothing: adds, deletes, updates and moves files. Format:\n*** Begin Patch\n*** Add File: <path>\n+<each line of the new file>\n*** Delete File: <path>\n*** Update File: <path>\n*** Move to: <new path> (optional)\n@@ <optional line to find first, e.g. a function signature>\n <unchanged context line>\n-<removed line>\n+<added line>\n*** End Patch\nPaths are relative to the working directory, or absolute. Give about 3 unchanged lines around each change, and a new @@ section for each separate place in a file.","strict":false,"parameters":{"additionalProperties":false,"properties":{"patch":{"description":"The whole patch, from *** Begin Patch to *** End Patch.","type":"string"}},"required":["patch"],"type":"object"}})";

constexpr std::string_view kUnchanged = ". No files were changed.";

std::string Failed(std::string_view why) { return "apply_patch failed: " + std::string(why); }

std::string FsWhy(const Error& error, std::string_view path) {
  return std::string(ErrorCodeName(error.code)) + ": " + std::string(path);
}

// A file as the plan sees it: its state before the patch and after the hunks so far.
struct PlannedFile {
  bool existed = false;
  std::string original;
  bool exists = false;
  std::string content;
};

class Planner {
 public:
  explicit Planner(FileSystem* fs) : fs_(fs) {}

  // The file at `path`, loaded on first use (std::map keeps the pointer valid).
  Result<PlannedFile*> Get(const std::string& path) {
    auto it = files_.find(path);
    if (it != files_.end()) return &it->second;
    PlannedFile file;
    Result<std::string> read = fs_->Read(path, kApplyPatchMaxFileBytes + 1);
    if (read.has_value()) {
      if (read->size() > kApplyPatchMaxFileBytes) {
        return Fail(ErrorCode::kInvalidInput,
                    path + " is larger than " + std::to_string(kApplyPatchMaxFileBytes) + " bytes");
      }
      file.existed = file.exists = true;
      file.original = std::move(read).value();
      file.content = file.original;
    } else if (read.error().code != ErrorCode::kNotFound) {
      return Fail(ErrorCode::kInvalidInput, FsWhy(read.error(), path));
    }
    order_.push_back(path);
    return &files_.emplace(path, std::move(file)).first->second;
  }

  const std::vector<std::string>& order() const { return order_; }
  const PlannedFile& at(const std::string& path) const { return files_.at(path); }

 private:
  FileSystem* fs_;
  std::map<std::string, PlannedFile> files_;
  std::vector<std::string> order_;  // first use order
};

struct ResolvedHunk {
  const PatchHunk* hunk;
  std::string path;
  std::string move_to;  // empty when none
};

// Step 4: the planned files and the per-hunk summary lines, or why the patch cannot apply.
Result<std::vector<std::string>> Plan(const std::vector<ResolvedHunk>& hunks, Planner* planner) {
  std::vector<std::string> summary;
  for (const ResolvedHunk& r : hunks) {
    const PatchHunk& hunk = *r.hunk;
    ACTX_TRY(PlannedFile * file, planner->Get(r.path));
    switch (hunk.kind) {
      case PatchHunk::Kind::kAdd:
        if (file->exists) {
          return Fail(ErrorCode::kInvalidInput,
                      "cannot add " + r.path + ": it already exists (use *** Update File)");
        }
        file->exists = true;
        file->content = hunk.contents;
        summary.push_back("A " + r.path);
        break;
      case PatchHunk::Kind::kDelete:
        if (!file->exists) {
          return Fail(ErrorCode::kInvalidInput, "cannot delete " + r.path + ": not_found");
        }
        file->exists = false;
        file->content.clear();
        summary.push_back("D " + r.path);
        break;
      case PatchHunk::Kind::kUpdate: {
        if (!file->exists) {
          return Fail(ErrorCode::kInvalidInput, "cannot update " + r.path + ": not_found");
        }
        std::string updated = file->content;
        if (!hunk.chunks.empty()) {
          ACTX_TRY(updated, ApplyPatchChunks(file->content, hunk.chunks, r.path));
        }
        if (r.move_to.empty() || r.move_to == r.path) {
          file->content = std::move(updated);
          summary.push_back("M " + r.path);
          break;
        }
        ACTX_TRY(PlannedFile * target, planner->Get(r.move_to));
        if (target->exists) {
          return Fail(ErrorCode::kInvalidInput,
                      "cannot move " + r.path + " to " + r.move_to + ": it already exists");
        }
        file->exists = false;
        file->content.clear();
        target->exists = true;
        target->content = std::move(updated);
        summary.push_back("M " + r.move_to + " (moved from " + r.path + ")");
        break;
      }
    }
  }
  return summary;
}

// One FileSystem step of step 6, and how to undo it.
struct Step {
  std::string path;
  bool remove = false;  // else a write of `bytes`
  std::string bytes;
};

Result<void> Run(FileSystem* fs, const Step& step) {
  if (step.remove) return fs->RemoveFile(step.path);
  return fs->Write(step.path, step.bytes, /*create_parents=*/true);
}

}  // namespace

std::string_view ApplyPatchSpecJson() { return kSpec; }

std::string RunApplyPatch(const ToolContext& ctx, std::string_view arguments) {
  Result<JsonValue> args = ParseToolArguments(arguments);
  if (!args.has_value()) return ArgumentErrorOutput(args.error());
  Result<std::string> patch = RequiredStringArg(*args, "patch");
  if (!patch.has_value()) return ArgumentErrorOutput(patch.error());
  if (std::optional<std::string> refusal = CheckReadOnly(ctx.sandbox, "apply_patch")) {
    return std::move(*refusal);
  }
  Result<std::vector<PatchHunk>> hunks = ParsePatch(*patch);
  if (!hunks.has_value()) return Failed("invalid patch: " + hunks.error().message);
  if (hunks->empty()) return Failed("the patch has no file changes");

  // Step 3: resolve and check every path before touching anything.
  std::vector<ResolvedHunk> resolved;
  for (const PatchHunk& hunk : *hunks) {
    ResolvedHunk r{&hunk, "", ""};
    for (auto [raw, out] :
         {std::pair<const std::string*, std::string*>{&hunk.path, &r.path},
          std::pair<const std::string*, std::string*>{&hunk.move_to, &r.move_to}}) {
      if (raw->empty()) continue;
      Result<std::string> path = ResolvePath(ctx.primary_cwd, *raw);
      if (!path.has_value())
        return Failed(FsWhy(path.error(), LossyUtf8(*raw)) + std::string(kUnchanged));
      std::optional<std::string> refusal =
          CheckWritePolicy(ctx.sandbox, ctx.primary_cwd, *path, "apply_patch");
      if (refusal.has_value()) return std::move(*refusal);
      *out = std::move(path).value();
    }
    resolved.push_back(std::move(r));
  }

  Planner planner(ctx.fs);
  Result<std::vector<std::string>> summary = Plan(resolved, &planner);
  if (!summary.has_value()) return Failed(summary.error().message + std::string(kUnchanged));

  // Step 6: writes (in first-use order), then removals; undo on the first refusal.
  std::vector<Step> steps;
  std::vector<Step> undo;
  for (bool removals : {false, true}) {
    for (const std::string& path : planner.order()) {
      const PlannedFile& f = planner.at(path);
      if (!removals && f.exists && (!f.existed || f.content != f.original)) {
        steps.push_back({path, false, f.content});
        undo.push_back(f.existed ? Step{path, false, f.original} : Step{path, true, ""});
      } else if (removals && !f.exists && f.existed) {
        steps.push_back({path, true, ""});
        undo.push_back({path, false, f.original});
      }
    }
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Result<void> done = Run(ctx.fs, steps[i]);
    if (done.has_value()) continue;
    std::vector<std::string> stuck;
    for (std::size_t k = i; k-- > 0;) {
      if (!Run(ctx.fs, undo[k]).has_value()) stuck.push_back(undo[k].path);
    }
    std::string why = FsWhy(done.error(), steps[i].path);
    if (stuck.empty()) return Failed(why + std::string(kUnchanged));
    std::string list;
    for (const std::string& p : stuck) list += (list.empty() ? "" : ", ") + p;
    return Failed(why + ". Undoing the earlier steps failed for " + list +
                  ": the patch may be partly applied.");
  }

  std::string out = "Applied patch:";
  for (const std::string& line : *summary) out += "\n" + line;
  return out;
}

}  // namespace agentctx
