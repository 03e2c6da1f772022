//===- PluginLoader.h - external probe plugins behind the C ABI -----------===//
//
// Loads shared objects that implement core/plugin/PluginAbi.h and wraps each
// in a Probe. Like LLVM's pass plugin loader, the checks run in order -- the
// library loads, it exports the entry symbol, its ABI version matches, its
// callbacks are set -- and each failure has its own message (PluginLoadError).
//
// Search order (DESIGN.md section 7): every --plugin PATH, then each entry of
// $CUDADEPS_PLUGIN_PATH (colon-separated), then the installed plugin
// directory. An entry is a shared object or a directory whose *.so files are
// loaded in name order. When two plugins have the same name, the first one
// found wins and the later one is reported as shadowed.
//
//===----------------------------------------------------------------------===//
#ifndef CUDADEPS_CORE_PLUGIN_PLUGINLOADER_H
#define CUDADEPS_CORE_PLUGIN_PLUGINLOADER_H

#include "core/plugin/Probe.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudadeps {

/// Why a plugin could not be used.
class PluginLoadError : public llvm::ErrorInfo<PluginLoadError> {
public:
  enum class Kind {
    CannotLoad,      // dlopen failed (missing file, not a shared object, ...)
    NoEntrySymbol,   // no cudadeps_plugin_entry
    WrongAbiVersion, // descriptor's abi_version differs
    NullCallback,    // entry returned NULL, or a NULL name/probe/free_text
    Shadowed,        // another plugin with the same name was found first
  };
  static char ID;
  PluginLoadError(Kind K, std::string Path, std::string Message)
      : What(K), Path(std::move(Path)), Message(std::move(Message)) {}

  Kind kind() const { return What; }
  const std::string &path() const { return Path; }
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;

private:
  Kind What;
  std::string Path;
  std::string Message;
};

/// The largest answer a plugin may give.
inline constexpr size_t MaxPluginAnswerBytes = 4u << 20;
/// How long loading a plugin (its constructors and entry point) may take.
inline constexpr std::chrono::milliseconds PluginLoadTimeout{5000};

/// Checks one plugin: it loads, has the entry point, speaks this ABI and
/// has its callbacks. The checks, and every later probe, run in an isolated
/// child (core/support/IsolatedChild.h): the plugin's code never runs in
/// cudadeps, so a plugin that crashes, hangs, exits or floods is reported
/// as such.
llvm::Expected<std::unique_ptr<Probe>> loadPlugin(llvm::StringRef Path);

/// Reads the answer (JSON text) of the probe of plugin \p Name at \p Path:
/// facts, {"not_present": REASON} or {"error": MESSAGE}, each with the
/// optional string lists "searched", "warnings", "inputs" and "env_inputs".
/// The facts are probed by the plugin; the plugin file joins the inputs.
/// Errors name the plugin.
llvm::Expected<ProbeAnswer> parsePluginAnswer(llvm::StringRef Text,
                                              llvm::StringRef Name,
                                              llvm::StringRef Path);

/// Where to look for external plugins, in search order.
struct PluginSearchPath {
  std::vector<std::string> CommandLine; // --plugin PATH, in order
  std::optional<std::string> EnvPath;   // $CUDADEPS_PLUGIN_PATH
  std::string InstalledDir;             // <prefix>/lib/cudadeps/plugins
};

struct PluginLoadFailure {
  std::string Path;
  PluginLoadError::Kind What;
  std::string Message;
};

struct ExternalPlugins {
  std::vector<std::unique_ptr<Probe>> Probes; // in search order
  std::vector<PluginLoadFailure> Failures;
};

/// The plugin files the search path names, in search order, without
/// duplicates. A --plugin or $CUDADEPS_PLUGIN_PATH entry that does not exist
/// is still listed (loading it then fails with "cannot load"); a missing
/// installed directory is skipped.
std::vector<std::string> findPluginFiles(const PluginSearchPath &Search);

/// Loads every plugin found; failures are collected, never fatal.
ExternalPlugins loadPlugins(const PluginSearchPath &Search);

} // namespace cudadeps

#endif
