/*
** error_json.c — one error as the JSON object the CLI's --json prints and
** the WebAssembly engine answers: {"error": {code, message, field, fix,
** reason}},
** with line and column for a config that is not valid JSON; and numbers
** written for people in messages (1,048,576, not 1.04858e+06).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/internal.h"

char *memest_error_json(const memest_error *e) {
  strbuf sb;
  if (e == NULL) return NULL;
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{\"error\":{\"code\":");
  memi_sb_json_str(&sb, memest_code_name(e->code));
  memi_sb_put(&sb, ",\"message\":");
  memi_sb_json_str(&sb, e->message);
  memi_sb_put(&sb, ",\"field\":");
  memi_sb_json_str(&sb, e->field);
  memi_sb_put(&sb, ",\"fix\":");
  memi_sb_json_str(&sb, e->fix);
  memi_sb_put(&sb, ",\"reason\":");
  memi_sb_json_str(&sb, memest_reason_name(e->reason));
  if (e->line > 0) memi_sb_printf(&sb, ",\"line\":%d,\"column\":%d", e->line, e->column);
  memi_sb_put(&sb, "}}");
  return memi_sb_finish(&sb);
}

const char *memi_fmt_num(char *buf, size_t size, double x) {
  char frac[32];
  double whole;
  size_t n;
  if (size == 0) return buf;
  if (!isfinite(x) || fabs(x) >= 1e15 || (x != 0.0 && fabs(x) < 1e-4)) {
    snprintf(buf, size, "%.4g", x);
    return buf;
  }
  whole = x < 0 ? ceil(x) : floor(x);
  memi_fmt_int(buf, size, (int64_t)whole);
  if (x < 0 && whole == 0.0) snprintf(buf, size, "-0");
  snprintf(frac, sizeof frac, "%.6f", fabs(x - whole));
  n = strlen(frac);
  while (n > 0 && frac[n - 1] == '0') frac[--n] = '\0';
  if (n > 2) {   /* "0.25" -> ".25" */
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s", frac + 1);
  }
  return buf;
}
