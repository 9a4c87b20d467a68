//===- ArtifactBuilder.h - filling an Artifact during a compile -----------===//
#pragma once

#include "aot/Artifact.h"

#include "Backend/Backend.h"

namespace aot {

/// Builds an Artifact; the only code besides Artifact that may touch its
/// internals. Stage outputs are stored by their position in the target's
/// stage table.
struct ArtifactBuilder {
  Artifact artifact;

  explicit ArtifactBuilder(const Target &target) {
    artifact.target_ = target;
    size_t n = backendFor(target).stages().size();
    artifact.stages_.resize(n);
    artifact.stageBytecode_.resize(n);
    artifact.ran_.resize(n);
  }
  /// Keeps a stage's output. Back ends keep only stages of their own table;
  /// a stage outside it is ignored.
  void snapshot(Stage stage, std::string contents) {
    if (std::optional<std::string> *s = slot(artifact.stages_, stage)) {
      *s = std::move(contents);
      reached(stage);
    }
  }
  /// Records that `stage` ran, for a stage whose output is not kept.
  void reached(Stage stage) {
    if (std::optional<std::string> *s = slot(artifact.stages_, stage)) {
      artifact.ran_[s - artifact.stages_.data()] = true;
      artifact.last_ = stage;
    }
  }
  void snapshotBytecode(Stage stage, std::string contents) {
    if (std::optional<std::string> *s = slot(artifact.stageBytecode_, stage))
      *s = std::move(contents);
  }
  std::vector<Diagnostic> &warnings() { return artifact.warnings_; }
  Manifest &manifest() { return artifact.manifest_; }

private:
  std::optional<std::string> *slot(std::vector<std::optional<std::string>> &v,
                                   Stage stage) {
    int index = backendFor(artifact.target_).indexOf(stage);
    return index >= 0 && size_t(index) < v.size() ? &v[index] : nullptr;
  }
};

} // namespace aot
