/*
** error.c — the error funnel: filling a caller's memest_error, and the
** stable names of error codes. Nothing here keeps state between calls.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"

static const char *const code_names[] = {
  "ok", "missing", "unknown", "value", "limit", "layout",
  "json", "config", "unsupported", "overflow", "io", "nomem"
};

const char *memest_code_name(memest_code code) {
  if ((int)code < 0 || (size_t)code >= sizeof code_names / sizeof code_names[0]) return "unknown";
  return code_names[code];
}

void memi_err_clear(memest_error *err) {
  if (err == NULL) return;
  memset(err, 0, sizeof *err);
}

static const char *const reason_names[MEMEST_R_COUNT] = {
  "none", "missing", "gpu_both", "range", "ep_above_max", "ep_experts", "ep_dense",
  "cp_arch", "seq_cp", "pp_layers", "gpus_group", "dp_limit", "gbs_unit", "chunks_min",
  "chunks_max", "replay_work", "timeline_events", "pp_rank", "token_overflow",
  "nodes_mismatch", "whole_nodes", "dp_mismatch", "gpus_limit", "routing_mode", "routing_cap",
  "routing_margin",
  "schedule",
};

const char *memest_reason_name(memest_reason reason) {
  if ((int)reason < 0 || reason >= MEMEST_R_COUNT) return "none";
  return reason_names[reason];
}

static memest_code err_vset(memest_error *err, memest_code code, const char *field, int line,
                            int column, const char *fmt, va_list ap) {
  if (err == NULL) return code;
  memi_err_clear(err);
  err->code = code;
  err->line = line;
  err->column = column;
  if (field != NULL) snprintf(err->field, sizeof err->field, "%s", field);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  return code;
}

memest_code memi_err_set_at(memest_error *err, memest_code code, const char *field, int line,
                       int column, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vset(err, code, field, line, column, fmt, ap);
  va_end(ap);
  return code;
}

memest_code memi_err_set(memest_error *err, memest_code code, const char *field,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vset(err, code, field, 0, 0, fmt, ap);
  va_end(ap);
  return code;
}

void memi_err_reason(memest_error *err, memest_reason reason) {
  if (err != NULL) err->reason = reason;
}

void memi_err_fix(memest_error *err, const char *fmt, ...) {
  va_list ap;
  if (err == NULL) return;
  va_start(ap, fmt);
  vsnprintf(err->fix, sizeof err->fix, fmt, ap);
  va_end(ap);
}

void memest_free(void *ptr) {
  free(ptr);
}
