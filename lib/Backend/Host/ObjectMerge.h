//===- ObjectMerge.h - one relocatable object from several ----------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Target.h"

#include <string>

namespace aot {

/// The partitions' objects, each written to a file of a temporary
/// directory (removed with them) as code generation makes it, then merged
/// into one file (read into memory once, at its size, where the object is
/// wanted in memory: there, an object would be copied each time its buffer
/// grew).
class PartitionObjects {
public:
  PartitionObjects() = default;
  PartitionObjects(const PartitionObjects &) = delete;
  PartitionObjects &operator=(const PartitionObjects &) = delete;
  ~PartitionObjects();

  /// Creates the directory.
  Status create();
  /// The file partition `k` writes its object to.
  std::string path(unsigned k) const;
  /// A file of the directory for the merged object.
  std::string mergedPath() const { return file("localized.o"); }
  /// Writes to `output` the objects of partitions 0..count-1 (ELF
  /// relocatable) linked into one, as `ld -r` does, with LLD in this
  /// process, and local binding given to the symbols of hidden visibility,
  /// which only stood for references between them. `triple` names the
  /// target in errors.
  Status merge(unsigned count, const std::string &triple,
               const std::string &output) const;
  /// The bytes of the file at `path`, read whole.
  static Expected<std::string> read(const std::string &path);

private:
  std::string file(const std::string &name) const;

  std::string dir_;
};

} // namespace aot
