/* A plugin whose descriptor has no probe callback. */
#include "core/plugin/PluginAbi.h"

static void free_text(char *text) { (void)text; }

static const struct cudadeps_plugin descriptor = {
    CUDADEPS_PLUGIN_ABI_VERSION, "test-null-callback", "1.0.0", 0, free_text};

CUDADEPS_PLUGIN_EXPORT const struct cudadeps_plugin *cudadeps_plugin_entry(void) {
  return &descriptor;
}
