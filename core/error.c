/*
** error.c — the error funnel: filling a caller's memest_error, and the
** stable names of error codes. Nothing here keeps state between calls.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const code_names[] = {
  "ok", "missing", "unknown", "value", "limit", "layout",
  "json", "config", "unsupported", "overflow", "io", "nomem"
};

const char *memest_code_name(memest_code code) {
  if ((int)code < 0 || (size_t)code >= sizeof code_names / sizeof code_names[0]) return "unknown";
  return code_names[code];
}

void err_clear(memest_error *err) {
  if (err == NULL) return;
  memset(err, 0, sizeof *err);
}

memest_code err_set(memest_error *err, memest_code code, const char *field,
                    const char *fmt, ...) {
  va_list ap;
  if (err == NULL) return code;
  err_clear(err);
  err->code = code;
  if (field != NULL) snprintf(err->field, sizeof err->field, "%s", field);
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return code;
}

void err_fix(memest_error *err, const char *fmt, ...) {
  va_list ap;
  if (err == NULL) return;
  va_start(ap, fmt);
  vsnprintf(err->fix, sizeof err->fix, fmt, ap);
  va_end(ap);
}

void memest_free(void *ptr) {
  free(ptr);
}
