/* A libcuda.so.1 stand-in that misbehaves as CUDADEPS_FAKE_LIBCUDA_MODE says:
 * many (claims INT_MAX devices) | cc_minus_one (compute capability -1.-1) |
 * fork (cuInit leaves a child behind, its pid in
 * $CUDADEPS_FAKE_LIBCUDA_PIDFILE) | escape (a device name with terminal
 * escape sequences). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *mode(void) {
  const char *m = getenv("CUDADEPS_FAKE_LIBCUDA_MODE");
  return m ? m : "";
}

int cuInit(unsigned flags) {
  (void)flags;
  if (strcmp(mode(), "fork") == 0) {
    pid_t pid = fork();
    if (pid == 0) {
      sleep(30);
      _exit(0);
    }
    const char *pidfile = getenv("CUDADEPS_FAKE_LIBCUDA_PIDFILE");
    FILE *f = pidfile ? fopen(pidfile, "w") : NULL;
    if (f) {
      fprintf(f, "%d\n", (int)pid);
      fclose(f);
    }
  }
  return 0;
}

int cuDriverGetVersion(int *v) {
  *v = 12080;
  return 0;
}

int cuDeviceGetCount(int *n) {
  *n = strcmp(mode(), "many") == 0 ? INT_MAX : 1;
  return 0;
}

int cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return 0;
}

int cuDeviceGetName(char *name, int len, int d) {
  (void)d;
  const char *n = strcmp(mode(), "escape") == 0
                      ? "Evil \x1b]0;pwned\x07GPU \x1b[31mred\x1b[0m"
                      : "Fake GPU";
  snprintf(name, (size_t)len, "%s", n);
  return 0;
}

int cuDeviceGetAttribute(int *v, int attr, int d) {
  (void)d;
  if (strcmp(mode(), "cc_minus_one") == 0)
    *v = -1;
  else
    *v = attr == 75 ? 9 : 0;
  return 0;
}
