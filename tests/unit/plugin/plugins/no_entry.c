/* A shared object that is not a cudadeps plugin: no entry symbol. */
#include "core/plugin/PluginAbi.h"

CUDADEPS_PLUGIN_EXPORT int cudadeps_plugin_entry_misspelt(void) { return 1; }
