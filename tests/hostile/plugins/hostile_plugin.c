/* A plugin that misbehaves as CUDADEPS_HOSTILE_PLUGIN_MODE says:
 * segv | hang | exit7 | flood (a 100 MB answer) | fork (leaves a child that
 * outlives the answer, writing its pid to $CUDADEPS_HOSTILE_PLUGIN_PIDFILE)
 * | ctor_segv (crashes while being loaded) | stdout (prints to stdout, then
 * answers). Anything else answers like a good plugin. */
#include "core/plugin/PluginAbi.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *mode(void) {
  const char *m = getenv("CUDADEPS_HOSTILE_PLUGIN_MODE");
  return m ? m : "";
}

__attribute__((constructor)) static void load_time(void) {
  if (strcmp(mode(), "ctor_segv") == 0)
    raise(SIGSEGV);
}

static char *copy(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = (char *)malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

static char *probe(const struct cudadeps_probe_request *request) {
  const char *m = mode();
  (void)request;
  if (strcmp(m, "segv") == 0)
    raise(SIGSEGV);
  if (strcmp(m, "hang") == 0)
    for (;;)
      pause();
  if (strcmp(m, "exit7") == 0)
    exit(7);
  if (strcmp(m, "flood") == 0) {
    size_t n = (size_t)100 << 20;
    char *p = (char *)malloc(n + 1);
    if (!p)
      return NULL;
    memset(p, ' ', n);
    p[0] = '{';
    p[n - 1] = '}';
    p[n] = 0;
    return p;
  }
  if (strcmp(m, "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      sleep(30);
      _exit(0);
    }
    const char *pidfile = getenv("CUDADEPS_HOSTILE_PLUGIN_PIDFILE");
    if (pidfile) {
      FILE *f = fopen(pidfile, "w");
      if (f) {
        fprintf(f, "%d\n", (int)pid);
        fclose(f);
      }
    }
  }
  if (strcmp(m, "stdout") == 0) {
    printf("garbage on stdout\n");
    fflush(stdout);
  }
  return copy("{\"packages\": {\"hostile-pkg\": \"1.0\"}}");
}

static void free_text(char *text) { free(text); }

static const struct cudadeps_plugin descriptor = {
    CUDADEPS_PLUGIN_ABI_VERSION, "hostile", "1.0", probe, free_text};

CUDADEPS_PLUGIN_EXPORT const struct cudadeps_plugin *cudadeps_plugin_entry(void) {
  return &descriptor;
}
