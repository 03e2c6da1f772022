/*===- example_plugin.c - a sample external probe plugin ------------------===
 *
 * A complete cudadeps plugin in plain C, to copy from. It answers with the
 * facts stored in the JSON file named by $CUDADEPS_EXAMPLE_FACTS (the JSON
 * form of the facts file, see plugins/README.md), and "not present" when the
 * variable is unset. It declares the file and the variable as the inputs of
 * its answer, so cudadeps' probe cache re-probes when either changes.
 *
 * Build:  cc -shared -fPIC -I<cudadeps source> example_plugin.c -o example.so
 * Use:    cudadeps probe --plugin ./example.so
 *
 *===----------------------------------------------------------------------===*/
#include "core/plugin/PluginAbi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends the JSON string literal for s to out (which has room for it). */
static char *append_json_string(char *out, const char *s) {
  *out++ = '"';
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      *out++ = '\\';
      *out++ = (char)c;
    } else if (c < 0x20) {
      out += sprintf(out, "\\u%04x", c);
    } else {
      *out++ = (char)c;
    }
  }
  *out++ = '"';
  return out;
}

static char *message(const char *key, const char *text, const char *path) {
  size_t n = strlen(key) + 6 * strlen(text) + 6 * strlen(path) + 128;
  char *out = (char *)malloc(n);
  char *p = out;
  if (!out)
    return NULL;
  p += sprintf(p, "{\"%s\": ", key);
  p = append_json_string(p, text);
  p += sprintf(p, ", \"searched\": [");
  p = append_json_string(p, path);
  p += sprintf(p, "], \"env_inputs\": [\"CUDADEPS_EXAMPLE_FACTS\"]}");
  return out;
}

static char *read_file(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  char *text;
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0 || (*size = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  text = (char *)malloc((size_t)*size + 1);
  if (text && fread(text, 1, (size_t)*size, f) != (size_t)*size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[*size] = '\0';
  fclose(f);
  return text;
}

static char *probe(const struct cudadeps_probe_request *request) {
  const char *path = getenv("CUDADEPS_EXAMPLE_FACTS");
  long size = 0;
  char *facts, *out, *p;
  const char *body;
  (void)request;
  if (!path || !*path)
    return message("not_present", "$CUDADEPS_EXAMPLE_FACTS is not set", "");
  facts = read_file(path, &size);
  if (!facts)
    return message("error", "cannot read $CUDADEPS_EXAMPLE_FACTS", path);
  /* Insert the answer's inputs at the front of the facts object. */
  body = strchr(facts, '{');
  if (!body) {
    free(facts);
    return message("error", "$CUDADEPS_EXAMPLE_FACTS is not a JSON object",
                   path);
  }
  ++body;
  out = (char *)malloc((size_t)size + 6 * strlen(path) + 128);
  if (!out) {
    free(facts);
    return NULL;
  }
  p = out;
  p += sprintf(p, "{\"inputs\": [");
  p = append_json_string(p, path);
  p += sprintf(p, "], \"env_inputs\": [\"CUDADEPS_EXAMPLE_FACTS\"]");
  while (*body == ' ' || *body == '\t' || *body == '\n' || *body == '\r')
    ++body;
  if (*body != '}')
    *p++ = ',';
  strcpy(p, body);
  free(facts);
  return out;
}

static void free_text(char *text) { free(text); }

static const struct cudadeps_plugin descriptor = {
    CUDADEPS_PLUGIN_ABI_VERSION, /* abi_version */
    "example",                   /* name */
    "1.0.0",                     /* version */
    probe,                       /* probe */
    free_text,                   /* free_text */
};

CUDADEPS_PLUGIN_EXPORT const struct cudadeps_plugin *cudadeps_plugin_entry(void) {
  return &descriptor;
}
