//===- TomlImpl.cpp - the one translation unit that compiles TOML++ --------===//
//
// Debian's libtomlplusplus.so is built with exceptions, so its symbols live in
// toml::v3::ex; cudadeps uses TOML++ with TOML_EXCEPTIONS=0 (toml::v3::noex)
// and compiles the implementation here, once, instead of linking the .so.
//
//===----------------------------------------------------------------------===//
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
