//===- ObjectMerge.h - one relocatable object from several ----------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Target.h"

#include <string>
#include <vector>

namespace aot {

/// Links `objects` (ELF relocatable objects, in order) into one relocatable
/// object, as `ld -r` does, with LLD in this process; then gives local
/// binding to the symbols of hidden visibility, which only stood for
/// references between the objects. `triple` names the target in errors.
Expected<std::string> mergeObjects(const std::vector<std::string> &objects,
                                   const std::string &triple);

} // namespace aot
