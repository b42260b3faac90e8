/*
** check_report.c — measured runs as JSON and text: one snapshot's figures
** (memest_snapshot_json, the page's input) and the comparison of `memest
** check` (docs/result-json.md): memory, and the log's step time beside
** the estimate's (docs/measured-runs.md).
*/
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured/check.h"
#include "model/model_source.h"
#include "sim/result.h"

#define CURVE_MAX_POINTS 100000

static void alloc_json(strbuf *sb, const memest_snapshot_alloc *a) {
  int k;
  memi_sb_printf(sb,
            "{\"bytes\":%llu,\"requested_bytes\":%llu,\"address\":%llu,\"time_us\":%lld,"
            "\"before_recording\":%s,\"frames\":[",
            (unsigned long long)a->bytes, (unsigned long long)a->requested_bytes,
            (unsigned long long)a->address, (long long)a->time_us,
            a->before_recording ? "true" : "false");
  for (k = 0; k < a->frames; k++) {
    if (k) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, a->site[k]);
  }
  memi_sb_put(sb, "]}");
}

/* The summary's members in the JSON, in order: one row per field. */
typedef enum member_kind { M_INT, M_INT64, M_BYTES, M_FRACTION } member_kind;

typedef struct summary_member {
  const char *name;
  member_kind kind;
  size_t offset;   /* into memest_snapshot_summary */
} summary_member;

static const summary_member summary_members[] = {
  {"device", M_INT, offsetof(memest_snapshot_summary, device)},
  {"devices_with_data", M_INT, offsetof(memest_snapshot_summary, devices_with_data)},
  {"events", M_INT64, offsetof(memest_snapshot_summary, events)},
  {"segments", M_INT64, offsetof(memest_snapshot_summary, segments)},
  {"blocks", M_INT64, offsetof(memest_snapshot_summary, blocks)},
  {"peak_allocated_bytes", M_BYTES, offsetof(memest_snapshot_summary, peak_allocated_bytes)},
  {"peak_event", M_INT64, offsetof(memest_snapshot_summary, peak_event)},
  {"peak_time_us", M_INT64, offsetof(memest_snapshot_summary, peak_time_us)},
  {"start_time_us", M_INT64, offsetof(memest_snapshot_summary, start_time_us)},
  {"end_time_us", M_INT64, offsetof(memest_snapshot_summary, end_time_us)},
  {"start_allocated_bytes", M_BYTES, offsetof(memest_snapshot_summary, start_allocated_bytes)},
  {"end_allocated_bytes", M_BYTES, offsetof(memest_snapshot_summary, end_allocated_bytes)},
  {"end_reserved_bytes", M_BYTES, offsetof(memest_snapshot_summary, end_reserved_bytes)},
  {"peak_reserved_bytes", M_BYTES, offsetof(memest_snapshot_summary, peak_reserved_bytes)},
  {"fragmentation", M_FRACTION, offsetof(memest_snapshot_summary, fragmentation)},
  {"inconsistent", M_INT64, offsetof(memest_snapshot_summary, inconsistent)},
};

static void summary_member_json(strbuf *sb, const memest_snapshot_summary *m,
                                const summary_member *f) {
  const char *at = (const char *)m + f->offset;
  memi_sb_printf(sb, "\"%s\":", f->name);
  switch (f->kind) {
    case M_INT: memi_sb_printf(sb, "%d", *(const int *)at); break;
    case M_INT64: memi_sb_printf(sb, "%lld", (long long)*(const int64_t *)at); break;
    case M_BYTES: memi_sb_printf(sb, "%llu", (unsigned long long)*(const uint64_t *)at); break;
    case M_FRACTION: memi_sb_printf(sb, "%.6g", *(const double *)at); break;
  }
  memi_sb_put(sb, ",");
}

/* The snapshot's summary, top allocations and sites as JSON members. */
static void snapshot_members(strbuf *sb, const memest_snapshot *s) {
  const memest_snapshot_summary *m = memest_snapshot_summary_of(s);
  size_t k;
  int i;
  for (k = 0; k < sizeof summary_members / sizeof summary_members[0]; k++)
    summary_member_json(sb, m, &summary_members[k]);
  memi_sb_put(sb, "\"top\":[");
  for (i = 0; i < memest_snapshot_top_count(s); i++) {
    if (i) memi_sb_put(sb, ",");
    alloc_json(sb, memest_snapshot_top(s, i));
  }
  memi_sb_put(sb, "],\"sites\":[");
  for (i = 0; i < memest_snapshot_site_count(s); i++) {
    const memest_snapshot_site *st = memest_snapshot_site_at(s, i);
    memi_sb_printf(sb, "%s{\"bytes\":%llu,\"count\":%lld,\"site\":", i ? "," : "",
              (unsigned long long)st->bytes, (long long)st->count);
    memi_sb_json_str(sb, st->site);
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "]");
}

char *memest_snapshot_json(const memest_snapshot *s, int points) {
  strbuf sb;
  int64_t *t;
  uint64_t *b;
  int n, i;
  if (points < 2) points = 2;
  if (points > CURVE_MAX_POINTS) points = CURVE_MAX_POINTS;
  t = malloc((size_t)points * sizeof *t);
  b = malloc((size_t)points * sizeof *b);
  if (t == NULL || b == NULL) {
    free(t);
    free(b);
    return NULL;
  }
  n = memest_snapshot_curve(s, points, t, b);
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{");
  snapshot_members(&sb, s);
  memi_sb_put(&sb, ",\"curve\":{\"t_us\":[");
  for (i = 0; i < n; i++) memi_sb_printf(&sb, "%s%lld", i ? "," : "", (long long)t[i]);
  memi_sb_put(&sb, "],\"bytes\":[");
  for (i = 0; i < n; i++) memi_sb_printf(&sb, "%s%llu", i ? "," : "", (unsigned long long)b[i]);
  memi_sb_put(&sb, "]}}");
  free(t);
  free(b);
  return memi_sb_finish(&sb);
}

/* {======================================================================
** memest check: JSON
** ======================================================================= */

/* An error fraction, or null when nothing was measured to compare with. */
static void error_json(strbuf *sb, uint64_t measured, double error) {
  if (measured > 0) memi_sb_printf(sb, "%.6f", error);
  else memi_sb_put(sb, "null");
}

static void ranks_json(strbuf *sb, const memest_check *c) {
  int i;
  memi_sb_put(sb, "\"ranks\":[");
  for (i = 0; i < c->n; i++) {
    const check_rank *r = &c->ranks[i];
    memi_sb_printf(sb, "%s{\"pp_rank\":%lld,\"global_rank\":%lld,\"source\":", i ? "," : "",
              (long long)r->pp_rank, (long long)r->global_rank);
    memi_sb_json_str(sb, r->source);
    memi_sb_printf(sb, ",\"measured_peak_bytes\":%llu,\"estimated_peak_bytes\":%llu,"
              "\"error_fraction\":",
              (unsigned long long)r->measured, (unsigned long long)r->estimated);
    error_json(sb, r->measured, r->error);
    memi_sb_put(sb, ",\"snapshot\":{");
    snapshot_members(sb, r->snap);
    memi_sb_put(sb, "}}");
  }
  memi_sb_put(sb, "]");
}

/* The max, where it came from and the log against the snapshots. */
static void max_json(strbuf *sb, const memest_check *c) {
  memi_sb_printf(sb,
            "\"max\":{\"measured_peak_bytes\":%llu,\"estimated_peak_bytes\":%llu,"
            "\"error_fraction\":",
            (unsigned long long)c->meas_max, (unsigned long long)c->est_max);
  error_json(sb, c->meas_max, c->error_max);
  memi_sb_put(sb, ",\"source\":");
  if (c->max_from >= 0 && c->n > 0) memi_sb_json_str(sb, c->ranks[c->max_from].source);
  else memi_sb_put(sb, "\"log\"");
  memi_sb_put(sb, ",\"log_vs_snapshots\":");
  if (c->has_log && c->n > 0) {
    const check_rank *r = &c->ranks[c->snap_from];
    memi_sb_printf(sb, "{\"log_bytes\":%llu,\"snapshot_bytes\":%llu,\"snapshot\":",
              (unsigned long long)c->log.compared_bytes, (unsigned long long)r->measured);
    memi_sb_json_str(sb, r->source);
    memi_sb_put(sb, ",\"difference_fraction\":");
    error_json(sb, r->measured, c->log_vs_snapshots);
    memi_sb_printf(sb, ",\"disagree\":%s}", c->disagree ? "true" : "false");
  } else {
    memi_sb_put(sb, "null");
  }
  memi_sb_put(sb, "}");
}

/* A fraction, or null when the figure under it is none. */
static void fraction_json(strbuf *sb, int known, double fraction) {
  if (known) memi_sb_printf(sb, "%.6f", fraction);
  else memi_sb_put(sb, "null");
}

/* The log's step time beside the estimate's; null with time_note when a
** side has none. */
static void time_json(strbuf *sb, const check_time *t) {
  if (!t->logged_known || !t->estimated_known) {
    memi_sb_put(sb, "\"time\":null,\"time_note\":");
    memi_sb_json_str(sb, t->note);
    return;
  }
  memi_sb_put(sb, "\"time\":{\"logged\":");
  memi_logged_time_json(sb, &t->logged);
  memi_sb_printf(sb, ",\"estimated\":{\"step_seconds\":%.6f,\"tokens_per_second\":%.1f},"
                 "\"step_seconds_error\":%.6f,\"tokens_per_second_error\":",
                 t->est_seconds, t->est_tokens_per_second, t->seconds_error);
  fraction_json(sb, t->logged.tokens_per_second > 0, t->tokens_error);
  memi_sb_put(sb, ",\"tokens_per_step\":");
  if (t->logged.tokens_per_step > 0 && t->inputs_tokens > 0)
    memi_sb_printf(sb, "{\"logged\":%.1f,\"inputs\":%.1f,\"difference_fraction\":%.6f,"
                   "\"disagree\":%s}",
                   t->logged.tokens_per_step, t->inputs_tokens, t->tokens_difference,
                   t->tokens_disagree ? "true" : "false");
  else
    memi_sb_put(sb, "null");
  memi_sb_put(sb, "}");
}

/* The fragmentation of the snapshot with the largest peak (null without
** snapshots). */
static void fragmentation_json(strbuf *sb, const memest_check *c) {
  const memest_snapshot_summary *m;
  memi_sb_put(sb, "\"fragmentation\":");
  if (c->n == 0) {
    memi_sb_put(sb, "null");
    return;
  }
  m = memest_snapshot_summary_of(c->ranks[c->max_from >= 0 ? c->max_from : 0].snap);
  memi_sb_printf(sb,
            "{\"measured\":%.6g,\"estimate_uses\":%.6g,\"peak_reserved_bytes\":%llu,"
            "\"peak_allocated_bytes\":%llu,\"end_reserved_bytes\":%llu,"
            "\"end_allocated_bytes\":%llu}",
            m->fragmentation, c->fragmentation_param,
            (unsigned long long)m->peak_reserved_bytes,
            (unsigned long long)m->peak_allocated_bytes,
            (unsigned long long)m->end_reserved_bytes,
            (unsigned long long)m->end_allocated_bytes);
}

char *memest_check_json(const memest_check *c) {
  strbuf sb;
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{");
  ranks_json(&sb, c);
  memi_sb_put(&sb, ",");
  max_json(&sb, c);
  memi_sb_put(&sb, ",");
  time_json(&sb, &c->time);
  memi_sb_put(&sb, ",");
  memi_inputs_json(&sb, &c->params, c->result->capacity);
  memi_source_put_json(&sb, c->source_json);
  memi_sb_put(&sb, ",\"log\":");
  if (c->has_log) {
    memi_sb_put(&sb, "{");
    memi_runlog_json_members(&sb, c->runlog, 0);
    memi_sb_put(&sb, "}");
  } else {
    memi_sb_put(&sb, "null");
  }
  memi_sb_put(&sb, ",");
  fragmentation_json(&sb, c);
  memi_model_source_json(&sb, &c->result->params);
  memi_sb_put(&sb, "}");
  return memi_sb_finish(&sb);
}
/* }====================================================================== */

/* {======================================================================
** memest check: text
** ======================================================================= */

static const char *gib(char *buf, size_t size, uint64_t bytes) {
  snprintf(buf, size, "%.2f GiB", (double)bytes / GIB);
  return buf;
}

/* An error as "+3.2%"; "none" when nothing was measured to compare with. */
static const char *error_text(char *buf, size_t size, uint64_t measured, double error) {
  if (measured > 0) snprintf(buf, size, "%+.1f%%", error * 100.0);
  else snprintf(buf, size, "none");
  return buf;
}

/* The log's first line: its readings, the figure compared and the largest. */
static void log_heading(strbuf *sb, const memest_runlog_summary *l) {
  if (l->restarts == 0)
    memi_sb_printf(sb,
              "Log: %lld peak-gpu-memory line%s, steps %lld..%lld; compared: %s, %.2f GiB "
              "(steps %lld..%lld); the largest is %.2f GiB at step %lld\n",
              (long long)l->steps, l->steps == 1 ? "" : "s", (long long)l->first_step,
              (long long)l->last_step,
              memi_runlog_compared(l), l->steady_gib, (long long)l->steady_from,
              (long long)l->last_step, l->max_gib, (long long)l->max_step);
  else
    memi_sb_printf(sb,
              "Log: %lld peak-gpu-memory lines in %lld runs, from step %lld to step %lld; "
              "compared: %s, %.2f GiB; the largest is %.2f GiB at step %lld\n",
              (long long)l->steps, (long long)l->restarts + 1, (long long)l->first_step,
              (long long)l->last_step, memi_runlog_compared(l), l->steady_gib, l->max_gib,
              (long long)l->max_step);
}

/* The log's notes of one kind (restarts, or readings it did not take), one
** a line; returns how many. */
static int notes_text(strbuf *sb, const memest_runlog *log, int restart) {
  char line[200];
  int k, shown = 0, n = memest_runlog_note_count(log);
  for (k = 0; k < n; k++) {
    const memest_runlog_note *note = memest_runlog_note_at(log, k);
    if ((note->restart != 0) != restart) continue;
    memi_sb_printf(sb, "    %s\n", memest_runlog_note_text(note, line, sizeof line));
    shown++;
  }
  return shown;
}

/* The log's line, the lines it did not take, and its restarts. */
static void log_text(strbuf *sb, const memest_check *c) {
  const memest_runlog_summary *l = &c->log;
  int refused;
  log_heading(sb, l);
  if (l->numbered)
    memi_sb_put(sb, "  no reading is on a step line: they are counted 1, 2, ... in the log's order\n");
  if (l->refused > 0)
    memi_sb_printf(sb, "  %lld reading%s, never compared:\n", (long long)l->refused,
              l->refused == 1 ? " is not a measurement" : "s are not measurements");
  refused = notes_text(sb, c->runlog, 0);
  if (l->refused > refused)
    memi_sb_printf(sb, "    and %lld more\n", (long long)(l->refused - refused));
  if (l->restarts > 0)
    memi_sb_printf(sb, "  the steps start again %lld time%s (each run's first step is left out of "
                   "the steady state):\n",
              (long long)l->restarts, l->restarts == 1 ? "" : "s");
  notes_text(sb, c->runlog, 1);
}

/* The snapshot's largest live allocations at its peak, with their frames. */
static void top_text(strbuf *sb, const memest_snapshot *s) {
  int i, k;
  memi_sb_put(sb, "  largest live allocations:\n");
  for (i = 0; i < memest_snapshot_top_count(s); i++) {
    const memest_snapshot_alloc *t = memest_snapshot_top(s, i);
    memi_sb_printf(sb, "    %10.3f MiB  %s", (double)t->bytes / (1024.0 * 1024.0),
              t->before_recording ? "before the window " : "in the window     ");
    if (t->frames == 0) memi_sb_put(sb, "  (no frames recorded)");
    for (k = 0; k < t->frames; k++) {
      memi_sb_put(sb, k ? " < " : "  ");
      memi_sb_text(sb, t->site[k]);
    }
    memi_sb_put(sb, "\n");
  }
}

static void sites_text(strbuf *sb, const memest_snapshot *s) {
  int i;
  memi_sb_put(sb, "  by allocation site:\n");
  for (i = 0; i < memest_snapshot_site_count(s); i++) {
    const memest_snapshot_site *st = memest_snapshot_site_at(s, i);
    memi_sb_printf(sb, "    %10.3f MiB  %5lld x  ", (double)st->bytes / (1024.0 * 1024.0),
              (long long)st->count);
    memi_sb_text(sb, st->site);
    memi_sb_put(sb, "\n");
  }
}

static void peak_detail(strbuf *sb, const check_rank *r) {
  const memest_snapshot_summary *m = memest_snapshot_summary_of(r->snap);
  char a[32], b[32], name[4 * sizeof r->source];
  memi_sb_printf(sb, "\nAt the measured peak of %s (global rank %lld, pp rank %lld",
            memi_text_line(name, sizeof name, r->source), (long long)r->global_rank, (long long)r->pp_rank);
  if (m->peak_time_us >= 0 && m->start_time_us >= 0)
    memi_sb_printf(sb, ", %.3f ms into the window", (double)(m->peak_time_us - m->start_time_us) / 1000.0);
  memi_sb_printf(sb, "): %s allocated, %s before the window\n", gib(a, sizeof a, m->peak_allocated_bytes),
            gib(b, sizeof b, m->start_allocated_bytes));
  top_text(sb, r->snap);
  sites_text(sb, r->snap);
}

/* One row per snapshot: ranks, measured, estimated, error, file. */
static void ranks_text(strbuf *sb, const memest_check *c) {
  char a[32], b[32], e[32], name[4 * sizeof c->ranks[0].source];
  int i;
  memi_sb_printf(sb, "  %-7s  %-11s  %-12s  %-12s  %-8s  %s\n", "pp rank", "global rank",
            "measured", "estimated", "error", "source");
  for (i = 0; i < c->n; i++) {
    const check_rank *r = &c->ranks[i];
    memi_sb_printf(sb, "  %-7lld  %-11lld  %-12s  %-12s  %8s  %s\n", (long long)r->pp_rank,
              (long long)r->global_rank, gib(a, sizeof a, r->measured),
              gib(b, sizeof b, r->estimated), error_text(e, sizeof e, r->measured, r->error),
              memi_text_line(name, sizeof name, r->source));
  }
}

static void max_text(strbuf *sb, const memest_check *c) {
  char a[32], b[32], e[32], name[4 * sizeof c->ranks[0].source];
  memi_sb_printf(sb, "Max: measured %s (%s), estimated %s (every rank), error %s\n",
            gib(a, sizeof a, c->meas_max),
            c->max_from >= 0 && c->n > 0
                ? memi_text_line(name, sizeof name, c->ranks[c->max_from].source) : "the log",
            gib(b, sizeof b, c->est_max), error_text(e, sizeof e, c->meas_max, c->error_max));
}

/* The log's figure far from the largest snapshot's: why that may be. */
static void disagree_text(strbuf *sb, const memest_check *c) {
  const check_rank *r = &c->ranks[c->snap_from];
  char a[32], b[32], e[32], name[4 * sizeof r->source];
  memi_sb_printf(sb,
            "Note: the log's %s and the largest snapshot peak, %s (%s), differ by %s: the log "
            "is a MAX over every rank and step read, a snapshot one step of one rank. Is the "
            "rank of the log's peak among the snapshots, and is the snapshots' step a steady "
            "one of the same run?\n",
            gib(a, sizeof a, c->log.compared_bytes), gib(b, sizeof b, r->measured),
            memi_text_line(name, sizeof name, r->source),
            r->measured > 0 ? error_text(e, sizeof e, r->measured, c->log_vs_snapshots)
                            : "all of it");
}

/* Seconds as "14.26 s" (three decimals under a second). */
static const char *seconds_text(char *buf, size_t size, double s) {
  snprintf(buf, size, s >= 1.0 ? "%.2f s" : "%.3f s", s);
  return buf;
}

/* A count of tokens as the trainer prints it: "1,234,567". */
static const char *tokens_text(char *buf, size_t size, double v) {
  char digits[48];
  int n, i, o = 0;
  n = snprintf(digits, sizeof digits, "%.0f", v);
  if (n < 0 || (size_t)n >= sizeof digits || (size_t)(n + n / 3 + 1) > size) {
    snprintf(buf, size, "%.0f", v);
    return buf;
  }
  for (i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  return buf;
}

/* What the logged figure is: "median of 23 steps", or "one step". */
static const char *logged_how(char *buf, size_t size, const logged_time *l) {
  if (l->steps == 1) snprintf(buf, size, "one step");
  else snprintf(buf, size, "median of %lld steps", (long long)l->steps);
  return buf;
}

/* The steps the median leaves out: each run's first, and the slow ones. */
static void left_out_text(strbuf *sb, const logged_time *l) {
  char a[32];
  int i;
  if (l->first_skipped && l->runs == 1)
    memi_sb_printf(sb, "  the first step (%s) is left out: it compiles and grows the allocator\n",
                   seconds_text(a, sizeof a, l->first_seconds));
  else if (l->first_skipped)
    memi_sb_printf(sb, "  each run's first step is left out (%lld runs in the log)\n",
                   (long long)l->runs);
  if (l->slow == 0) return;
  memi_sb_printf(sb, "  %lld slow step%s left out (over %.0fx the median of the others: a "
                 "checkpoint save, an evaluation):",
                 (long long)l->slow, l->slow == 1 ? "" : "s", MEMEST_LOGGED_SLOW_FACTOR);
  for (i = 0; i < l->nslow_shown; i++)
    memi_sb_printf(sb, "%s step %lld %s (line %lld)", i ? "," : "", (long long)l->slow_steps[i].step,
                   seconds_text(a, sizeof a, l->slow_steps[i].seconds),
                   (long long)l->slow_steps[i].line);
  memi_sb_put(sb, l->slow > l->nslow_shown ? ", ...\n" : "\n");
}

/* The log's tokens a step far from the estimate's global batch x sequence. */
static void tokens_warning(strbuf *sb, const check_time *t) {
  char a[48], b[48];
  memi_sb_printf(sb, "Warning: the log's tokens-per-second x step-time is %s tokens a step, the "
                 "estimate's global batch x sequence %s (%+.1f%%): the estimate's "
                 "--global-batch-size or --sequence-length is not the run's\n",
                 tokens_text(a, sizeof a, t->logged.tokens_per_step),
                 tokens_text(b, sizeof b, t->inputs_tokens), t->tokens_difference * 100.0);
}

/* The log's step time and tokens/s beside the estimate's. */
static void time_text(strbuf *sb, const check_time *t) {
  const logged_time *l = &t->logged;
  char a[48], b[48], how[48];
  if (!t->logged_known || !t->estimated_known) {
    memi_sb_printf(sb, "Step time: not compared: %s", t->note);
    if (t->logged_known)
      memi_sb_printf(sb, " (logged %s, %s)", seconds_text(a, sizeof a, l->step_seconds),
                     logged_how(how, sizeof how, l));
    memi_sb_put(sb, "\n");
  } else {
    memi_sb_printf(sb, "Step time: logged %s (%s), estimated %s, %+.1f%%\n",
                   seconds_text(a, sizeof a, l->step_seconds), logged_how(how, sizeof how, l),
                   seconds_text(b, sizeof b, t->est_seconds), t->seconds_error * 100.0);
    if (l->tokens_per_second > 0)
      memi_sb_printf(sb, "Tokens/s: logged %s (%s), estimated %s, %+.1f%%\n",
                     tokens_text(a, sizeof a, l->tokens_per_second), how,
                     tokens_text(b, sizeof b, t->est_tokens_per_second), t->tokens_error * 100.0);
  }
  if (t->logged_known) left_out_text(sb, l);
  if (t->tokens_disagree) tokens_warning(sb, t);
}

/* The measured fragmentation of rank r against the estimate's. */
static void fragmentation_text(strbuf *sb, const memest_check *c, const check_rank *r) {
  const memest_snapshot_summary *m = memest_snapshot_summary_of(r->snap);
  char a[32], b[32], e[32], name[4 * sizeof r->source];
  memi_sb_printf(sb,
            "\nFragmentation of %s: %s reserved at most against %s allocated at the peak, "
            "%.1f%% (at the snapshot: %s reserved, ",
            memi_text_line(name, sizeof name, r->source), gib(a, sizeof a, m->peak_reserved_bytes),
            gib(b, sizeof b, m->peak_allocated_bytes), m->fragmentation * 100.0,
            gib(e, sizeof e, m->end_reserved_bytes));
  memi_sb_printf(sb, "%s allocated); the estimate uses --fragmentation %.3g, the run's is "
                 "--fragmentation %.3f\n",
            gib(b, sizeof b, m->end_allocated_bytes), c->fragmentation_param,
            m->fragmentation > MEMEST_MAX_FRAGMENTATION ? MEMEST_MAX_FRAGMENTATION
                                                        : m->fragmentation);
  if (m->inconsistent > 0)
    memi_sb_printf(sb, "Note: %lld trace entries did not match an allocation (a trace that "
                   "overflowed max_entries, or a damaged file)\n",
              (long long)m->inconsistent);
}

char *memest_check_text(const memest_check *c) {
  strbuf sb;
  memi_sb_init(&sb);
  if (c->source_text != NULL) memi_sb_printf(&sb, "%s\n", c->source_text);
  memi_sb_put(&sb, "memest check: measured against estimated (the tensor peak, like for like with "
              "torch.cuda.max_memory_allocated)\n");
  if (memi_model_source_shown(&c->result->params)) {
    memi_sb_printf(&sb, "Model %s: ", c->result->params.model);
    memi_model_source_text(&sb, &c->result->params);
    memi_sb_put(&sb, "\n");
  }
  if (c->n > 0) ranks_text(&sb, c);
  if (c->has_log) log_text(&sb, c);
  max_text(&sb, c);
  if (c->has_log && c->disagree) disagree_text(&sb, c);
  if (c->has_log) time_text(&sb, &c->time);
  if (c->n > 0) {
    const check_rank *r = &c->ranks[c->max_from >= 0 ? c->max_from : 0];
    peak_detail(&sb, r);
    fragmentation_text(&sb, c, r);
  }
  return memi_sb_finish_text(&sb);
}
/* }====================================================================== */
