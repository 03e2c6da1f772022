/* A well-formed test plugin. What it answers is chosen by the environment:
 * CUDADEPS_TEST_PLUGIN_MODE = facts (default) | not_present | error |
 * bad_json | null_answer | bad_facts. */
#include "core/plugin/PluginAbi.h"

#include <stdlib.h>
#include <string.h>

static char *copy(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = (char *)malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

static char *probe(const struct cudadeps_probe_request *request) {
  const char *mode = getenv("CUDADEPS_TEST_PLUGIN_MODE");
  if (request->abi_version != CUDADEPS_PLUGIN_ABI_VERSION)
    return copy("{\"error\": \"unexpected request ABI version\"}");
  if (!mode || strcmp(mode, "facts") == 0)
    return copy("{\"packages\": {\"test-good-pkg\": \"1.2.3\"},"
                " \"nvcc\": [{\"path\": \"/opt/test/bin/nvcc\","
                " \"version\": \"12.4.131\"}],"
                " \"searched\": [\"/opt/test\"],"
                " \"warnings\": [\"test warning\"],"
                " \"env_inputs\": [\"CUDADEPS_TEST_PLUGIN_MODE\"]}");
  if (strcmp(mode, "not_present") == 0)
    return copy("{\"not_present\": \"nothing to see\", \"searched\": [\"/x\"]}");
  if (strcmp(mode, "error") == 0)
    return copy("{\"error\": \"the widget is broken\"}");
  if (strcmp(mode, "bad_json") == 0)
    return copy("{\"packages\": ");
  if (strcmp(mode, "bad_facts") == 0)
    return copy("{\"nvcc\": [{\"path\": \"/x\", \"version\": \"not a version\"}]}");
  return NULL;
}

static void free_text(char *text) { free(text); }

static const struct cudadeps_plugin descriptor = {
    CUDADEPS_PLUGIN_ABI_VERSION, "test-good", "1.0.0", probe, free_text};

CUDADEPS_PLUGIN_EXPORT const struct cudadeps_plugin *cudadeps_plugin_entry(void) {
  return &descriptor;
}
