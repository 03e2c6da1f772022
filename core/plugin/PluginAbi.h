/*===- PluginAbi.h - the C ABI of external probe plugins -------------------===
 *
 * An external probe plugin is a shared object that exports one C function,
 *
 *     const struct cudadeps_plugin *cudadeps_plugin_entry(void);
 *
 * returning a pointer to a static descriptor. The boundary is plain C so that
 * a plugin built by another compiler (or written in C, Rust, ...) still loads.
 * The loader checks, in order and with a distinct message each: the library
 * loads, it has the entry symbol, the descriptor's ABI version is the one
 * this cudadeps speaks, and its callbacks are not null.
 *
 * The probe callback returns the answer as JSON text (UTF-8, NUL-terminated)
 * allocated by the plugin; cudadeps hands it back to free_text when done.
 * See plugins/README.md for the JSON schema.
 *
 * This header is C89-compatible and includes only <stdint.h>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUDADEPS_CORE_PLUGIN_PLUGINABI_H
#define CUDADEPS_CORE_PLUGIN_PLUGINABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct below changes incompatibly. */
#define CUDADEPS_PLUGIN_ABI_VERSION 1

/* The name of the entry point the loader looks up. */
#define CUDADEPS_PLUGIN_ENTRY_NAME "cudadeps_plugin_entry"

/* What cudadeps tells the probe callback. Valid only during the call. */
struct cudadeps_probe_request {
  uint32_t abi_version;       /* CUDADEPS_PLUGIN_ABI_VERSION of the host */
  uint32_t command_timeout_ms; /* budget per external command it runs */
  const char *sysroot;        /* prefix for absolute system paths; "" = / */
};

/* Returns the answer as JSON text, or NULL on an internal failure (reported
 * as an error naming the plugin). Called at most once per run, possibly on a
 * thread other than the one that loaded the plugin. */
typedef char *(*cudadeps_probe_fn)(const struct cudadeps_probe_request *request);

/* Releases text returned by the probe callback. */
typedef void (*cudadeps_free_fn)(char *text);

struct cudadeps_plugin {
  uint32_t abi_version;    /* must be CUDADEPS_PLUGIN_ABI_VERSION; always first */
  const char *name;        /* kebab-case, e.g. "rocm" */
  const char *version;     /* the plugin's own version, e.g. "0.3.1" */
  cudadeps_probe_fn probe; /* must not be NULL */
  cudadeps_free_fn free_text; /* must not be NULL */
};

typedef const struct cudadeps_plugin *(*cudadeps_plugin_entry_fn)(void);

#if defined(_WIN32)
#define CUDADEPS_PLUGIN_EXPORT __declspec(dllexport)
#else
#define CUDADEPS_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* CUDADEPS_CORE_PLUGIN_PLUGINABI_H */
