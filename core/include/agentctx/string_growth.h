// SPDX-License-Identifier: MIT
// For FileSystem implementations (agentctx/file_system.h: Read answers a std::string): growing
// a std::string for bytes that are written over it at once (a file read, a copy from the host),
// without first filling them with zeros where the standard library allows it:
// libc++ (the Emscripten and WASI builds) has __resize_default_init, the operation C++23's
// resize_and_overwrite is built on; elsewhere this is resize(). In the wasm builds the zero fill
// of every file grep read was a tenth of a tree search (their memset runs a word at a time).
// Invariant: the first size() bytes keep their value; the new ones are unspecified until the
// caller writes them, which it must do before reading them.
#pragma once

#include <cstddef>
#include <string>

namespace agentctx {

// A template so that the branch a library lacks is never instantiated.
template <typename String = std::string>
void ResizeForOverwrite(String* s, std::size_t size) {
  if constexpr (requires { s->__resize_default_init(size); }) {
    s->__resize_default_init(size);
  } else {
    s->resize(size);
  }
}

}  // namespace agentctx
