/* A plugin built against a future ABI: the loader must refuse it. */
#include "core/plugin/PluginAbi.h"

static char *probe(const struct cudadeps_probe_request *request) {
  (void)request;
  return 0;
}
static void free_text(char *text) { (void)text; }

static const struct cudadeps_plugin descriptor = {
    CUDADEPS_PLUGIN_ABI_VERSION + 41, "test-wrong-abi", "1.0.0", probe,
    free_text};

CUDADEPS_PLUGIN_EXPORT const struct cudadeps_plugin *cudadeps_plugin_entry(void) {
  return &descriptor;
}
