/*
** runlog.c — the trainer's log read for its memory figures: each reading
** "peak-gpu-memory X GB" (torch.cuda.max_memory_allocated() / 2^30 after a
** MAX all-reduce over ranks, printed "%.2f GB", so GiB) and the step of its
** line ("step 00000123/00004096", 1-based). A reading is a measurement
** when it is a positive decimal number in GB on a step line; any other
** reading is refused, named by its line, and never compared. The figure
** compared with an estimate is the steady state: the largest after each
** run's first step, whose peak differs while the optimizer creates its
** states (docs/measured-runs.md). The same step lines' "step-time S sec"
** and "tokens-per-second N" are read too (a malformed one is an error
** naming its line); logged_time.c makes them one figure. Lines come from
** log_lines.c, which a reader of other lines (the launch line) can walk
** the same way.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured/check.h"
#include "measured/logged_time.h"
#include "base/log_lines.h"

#define RUNLOG_KEY "peak-gpu-memory"
#define RUNLOG_UNIT "GB"
#define RUNLOG_MAX_GIB 1048576.0   /* MEMEST_MAX_GPU_GIB: 1 PiB */

/* Why a reading is not a measurement (a note's `why`). */
static const char WHY_FORM[] = "is not a number as the trainer prints it (%.2f GB)";
static const char WHY_ZERO[] = "is zero, which is no measurement";
static const char WHY_HUGE[] = "is over 1 PiB";
static const char WHY_UNIT[] = "is not in GB, the unit the trainer prints (GiB)";
static const char WHY_TWICE[] = "is a second reading on one line";
static const char WHY_NO_STEP[] = "is on a line without a step, where the log's readings have one";
static const char WHY_STEP[] = "is on a line whose step number is over 10^18";

struct memest_runlog {
  memest_runlog_summary sum;
  int64_t *step;
  double *gib;
  int64_t n, cap;
  memest_runlog_note notes[2 * MEMEST_RUNLOG_NOTES];
  int nnotes, nrefused, nrestarts;  /* notes kept, of each kind */
  logged_step *times;              /* the step lines with a step-time */
  int64_t ntimes, times_cap;
  logged_time time;
};

/* One reading as found on a line. */
typedef struct reading {
  const char *why;         /* NULL: a measurement */
  double gib;
  char value[48], unit[16];
} reading;

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '-'; }
static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* The step number of a line: the digits after "step " (0 when none; -1
** when it is over RUNLOG_MAX_STEP, which no run reaches and whose
** successor must still fit). */
#define RUNLOG_MAX_STEP 1000000000000000000LL
static int64_t line_step(const char *s, size_t n) {
  size_t i;
  for (i = 0; i + 6 <= n; i++) {
    if (memcmp(s + i, "step ", 5) == 0 && is_digit(s[i + 5]) &&
        (i == 0 || !(is_word(s[i - 1]) || s[i - 1] == '/'))) {
      int64_t v = 0;
      size_t j = i + 5;
      for (; j < n && is_digit(s[j]); j++) {
        if (v > (RUNLOG_MAX_STEP - (s[j] - '0')) / 10) return -1;
        v = v * 10 + (s[j] - '0');
      }
      return v;
    }
  }
  return 0;
}

/* Copies s[0..n) into dst[size] as printable ASCII ('?' for other bytes). */
static void copy_shown(char *dst, size_t size, const char *s, size_t n) {
  size_t i;
  if (n >= size) n = size - 1;
  for (i = 0; i < n; i++) dst[i] = s[i] > 0x20 && s[i] < 0x7f ? s[i] : '?';
  dst[n] = '\0';
}

/* The length of a plain decimal number ("62.34", "8") at the start of s;
** 0 when s does not start with one. */
static size_t decimal_length(const char *s, size_t n) {
  size_t i = 0, f;
  while (i < n && is_digit(s[i])) i++;
  if (i == 0) return 0;
  if (i < n && s[i] == '.') {
    for (f = i + 1; f < n && is_digit(s[f]); f++) {}
    if (f == i + 1) return 0;
    i = f;
  }
  return i;
}

/* Reads the value after the key at s[0..n): the number, its unit (after
** blanks, or written on to the number), and whether it is a measurement. */
static void read_value(const char *s, size_t n, reading *r) {
  size_t i = 0, tok, num, u, e;
  char text[48];
  while (i < n && is_blank(s[i])) i++;
  if (i < n && (s[i] == ':' || s[i] == '=')) i++;
  while (i < n && is_blank(s[i])) i++;
  for (tok = i; tok < n && !is_blank(s[tok]) && s[tok] != '|'; tok++) {}
  copy_shown(r->value, sizeof r->value, s + i, tok - i);
  r->unit[0] = '\0';
  num = decimal_length(s + i, tok - i);
  /* A unit written on to the number ("62.34GB") is its unit; anything else
  ** after the digits ("0x10", "1e-400", "50,10") makes no number. */
  for (e = i + num; e < tok && is_alpha(s[e]); e++) {}
  if (num == 0 || num >= sizeof text || e != tok) {
    r->why = WHY_FORM;
    return;
  }
  memcpy(text, s + i, num);
  text[num] = '\0';
  r->gib = strtod(text, NULL);
  copy_shown(r->value, sizeof r->value, s + i, num);
  if (i + num == tok) {  /* the unit is the next word */
    for (u = tok; u < n && is_blank(s[u]); u++) {}
    for (e = u; e < n && is_alpha(s[e]); e++) {}
    copy_shown(r->unit, sizeof r->unit, s + u, e - u);
    if (e < n && is_word(s[e])) copy_shown(r->unit, sizeof r->unit, s + u, e - u + 1);
  } else {
    copy_shown(r->unit, sizeof r->unit, s + i + num, tok - i - num);
  }
  if (strcmp(r->unit, RUNLOG_UNIT) != 0) r->why = WHY_UNIT;
  else if (r->gib <= 0) r->why = WHY_ZERO;
  else if (!(r->gib <= RUNLOG_MAX_GIB)) r->why = WHY_HUGE;
  else r->why = NULL;
}

/* The readings of a line: the key as a word of its own (not inside a
** longer name such as W&B's "infra/peak-gpu-memory"), then its value.
** Returns how many; *r is the first, refused as WHY_TWICE when more. */
static int line_reading(const char *s, size_t n, reading *r) {
  const size_t k = sizeof RUNLOG_KEY - 1;
  size_t i;
  int found = 0;
  for (i = 0; i + k <= n; i++) {
    if (memcmp(s + i, RUNLOG_KEY, k) != 0) continue;
    if (i > 0 && (is_word(s[i - 1]) || s[i - 1] == '/' || s[i - 1] == '.')) continue;
    if (i + k < n && is_word(s[i + k])) continue;
    if (found++ == 0) read_value(s + i + k, n - i - k, r);
    i += k - 1;
  }
  if (found > 1) r->why = WHY_TWICE;
  return found;
}

/* {======================================================================
** The step line's timing: "step-time 41.015 sec" (the slowest rank's wall
** time, printed "%.3f sec") and "tokens-per-second 102,261" (global batch
** x sequence / step-time, printed with thousands separators). A value that
** is no such number is an error naming its line.
** ======================================================================= */

#define TIME_KEY "step-time"
#define TOKENS_KEY "tokens-per-second"
#define TIME_UNIT "sec"
#define TIME_MAX_SECONDS 1e7            /* 115 days: no step takes longer */
#define TOKENS_MAX_PER_SECOND 1e15

/* The offset of the next key at s[from..n) standing as a word of its own
** (not inside a longer name such as W&B's "infra/step-time"); -1 when none. */
static long find_key(const char *s, size_t n, size_t from, const char *key) {
  const size_t k = strlen(key);
  size_t i;
  for (i = from; i + k <= n; i++) {
    if (memcmp(s + i, key, k) != 0) continue;
    if (i > 0 && (is_word(s[i - 1]) || s[i - 1] == '/' || s[i - 1] == '.')) continue;
    if (i + k < n && is_word(s[i + k])) continue;
    return (long)i;
  }
  return -1;
}

/* The value after a key at s[0..n): blanks, an optional ':' or '=', blanks,
** then the token up to a blank or '|' at s[*start..*end). */
static void value_token(const char *s, size_t n, size_t *start, size_t *end) {
  size_t i = 0;
  while (i < n && is_blank(s[i])) i++;
  if (i < n && (s[i] == ':' || s[i] == '=')) i++;
  while (i < n && is_blank(s[i])) i++;
  *start = i;
  while (i < n && !is_blank(s[i]) && s[i] != '|') i++;
  *end = i;
}

/* "41.015 sec" (or "41.015sec"): *seconds, or why it is no step time. */
static const char *read_seconds(const char *s, size_t n, double *seconds, char *shown, size_t size) {
  size_t a, b, num, u, e, i;
  char text[48];
  value_token(s, n, &a, &b);
  num = decimal_length(s + a, b - a);
  if (num == 0 || num >= sizeof text) {
    copy_shown(shown, size, s + a, b - a);
    return "is not a number as the trainer prints it (%.3f sec)";
  }
  memcpy(text, s + a, num);
  text[num] = '\0';
  *seconds = strtod(text, NULL);
  if (a + num < b) {  /* the unit written on to the number ("41.015sec") */
    u = a + num;
    e = b;
    for (i = u; i < e; i++)
      if (!is_alpha(s[i])) {
        copy_shown(shown, size, s + a, b - a);
        return "is not a number as the trainer prints it (%.3f sec)";
      }
  } else {
    for (u = b; u < n && is_blank(s[u]); u++) {}
    for (e = u; e < n && is_word(s[e]); e++) {}
  }
  copy_shown(shown, size, s + a, b - a);
  if (u > b && e > u) {  /* the unit after blanks: shown after one */
    char unit[16];
    copy_shown(unit, sizeof unit, s + u, e - u);
    snprintf(shown + strlen(shown), size - strlen(shown), " %s", unit);
  }
  if (e - u != sizeof TIME_UNIT - 1 || memcmp(s + u, TIME_UNIT, e - u) != 0)
    return "is not in sec, the unit the trainer prints";
  if (*seconds <= 0) return "is zero, which is no step time";
  if (*seconds > TIME_MAX_SECONDS) return "is over 10^7 seconds";
  return NULL;
}

/* "1,234,567" (thousands separated by commas, as Python's format(x, ",.0f")
** writes it) or plain digits, with an optional fraction: *rate, or why it
** is no rate. */
static const char *read_tokens(const char *s, size_t n, double *rate, char *shown, size_t size) {
  size_t a, b, i, group = 0, o = 0;
  char text[48];
  int commas = 0;
  value_token(s, n, &a, &b);
  copy_shown(shown, size, s + a, b - a);
  for (i = a; i < b && (is_digit(s[i]) || s[i] == ','); i++) {
    if (s[i] == ',') {
      /* Every group is three digits but the first, which has one to three. */
      if (group == 0 || group > 3 || (commas > 0 && group != 3)) break;
      commas++;
      group = 0;
      continue;
    }
    if (o + 1 >= sizeof text) break;
    text[o++] = s[i];
    group++;
  }
  if (i < b && s[i] == '.' && group > 0 && o + 1 < sizeof text) {
    size_t f = i + 1;
    text[o++] = '.';
    while (f < b && is_digit(s[f]) && o + 1 < sizeof text) text[o++] = s[f++];
    if (f == i + 1) f = i;   /* "12." has no fraction: not a number */
    i = f;
  }
  if (i != b || group == 0 || (commas > 0 && group != 3))
    return "is not a number as the trainer prints it (1,234,567)";
  text[o] = '\0';
  *rate = strtod(text, NULL);
  if (*rate <= 0) return "is zero, which is no rate";
  if (*rate > TOKENS_MAX_PER_SECOND) return "is over 10^15 tokens a second";
  return NULL;
}

/* The error for the value of key at line `line`. */
static memest_code timing_error(memest_error *err, int64_t line, const char *key, const char *shown,
                                const char *why) {
  return memi_err_set(err, MEMEST_E_VALUE, "log",
                      "line %lld: %s %s %s; give the trainer's log as it printed it, or leave "
                      "the line out",
                      (long long)line, key, shown[0] ? shown : "(nothing)", why);
}

/* Reads one key's value on a step line into *v (left as it is when the
** line has none); an error for a malformed value or a second one. */
static memest_code line_timing(const char *s, size_t n, int64_t line, const char *key,
                               const char *(*read)(const char *, size_t, double *, char *, size_t),
                               double *v, memest_error *err) {
  const size_t k = strlen(key);
  long at = find_key(s, n, 0, key);
  char shown[48];
  const char *why;
  if (at < 0) return MEMEST_OK;
  why = read(s + at + k, n - (size_t)at - k, v, shown, sizeof shown);
  if (why == NULL && find_key(s, n, (size_t)at + k, key) >= 0) why = "is followed by a second one on the line";
  return why != NULL ? timing_error(err, line, key, shown, why) : MEMEST_OK;
}

static int add_timing(memest_runlog *log, const logged_step *t) {
  if (log->ntimes == log->times_cap) {
    int64_t nc = log->times_cap ? log->times_cap * 2 : 64;
    logged_step *nt = realloc(log->times, (size_t)nc * sizeof *nt);
    if (nt == NULL) return 0;
    log->times = nt;
    log->times_cap = nc;
  }
  log->times[log->ntimes++] = *t;
  return 1;
}

/* The timing of the current line when it is a step line with a step-time. */
static memest_code read_timing(memest_runlog *log, const log_lines *it, memest_error *err) {
  logged_step t;
  memest_code rc;
  memset(&t, 0, sizeof t);
  t.step = line_step(it->line, it->n);
  t.line = it->number;
  t.seconds = -1;
  t.tokens_per_second = -1;
  if (t.step <= 0) return MEMEST_OK;
  rc = line_timing(it->line, it->n, it->number, TIME_KEY, read_seconds, &t.seconds, err);
  if (rc == MEMEST_OK)
    rc = line_timing(it->line, it->n, it->number, TOKENS_KEY, read_tokens, &t.tokens_per_second, err);
  if (rc != MEMEST_OK || t.seconds < 0) return rc;
  if (log->ntimes >= MEMEST_MAX_RUNLOG_STEPS)
    return memi_err_set(err, MEMEST_E_LIMIT, "log",
                        "the log has more than MEMEST_MAX_RUNLOG_STEPS (%lld) step-time readings; "
                        "give the steps you want compared",
                        (long long)MEMEST_MAX_RUNLOG_STEPS);
  return add_timing(log, &t) ? MEMEST_OK : memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory");
}
/* }====================================================================== */

/* Keeps a note while fewer than MEMEST_RUNLOG_NOTES of its kind are kept. */
static void add_note(memest_runlog *log, const memest_runlog_note *note) {
  int *kept = note->restart ? &log->nrestarts : &log->nrefused;
  if (*kept < MEMEST_RUNLOG_NOTES) {
    log->notes[log->nnotes++] = *note;
    (*kept)++;
  }
}

static int add_step(memest_runlog *log, int64_t step, double gib) {
  if (log->n == log->cap) {
    int64_t nc = log->cap ? log->cap * 2 : 64;
    int64_t *ns = realloc(log->step, (size_t)nc * sizeof *ns);
    double *ng;
    if (ns) log->step = ns;
    ng = ns ? realloc(log->gib, (size_t)nc * sizeof *ng) : NULL;
    if (ng == NULL) return 0;
    log->gib = ng;
    log->cap = nc;
  }
  log->step[log->n] = step;
  log->gib[log->n++] = gib;
  return 1;
}

/* 1 when some line with a step has a reading that is a measurement: then
** every reading must be on a step line. */
static int has_steps(const char *text, size_t len, int *oom) {
  log_lines it;
  int got, found = 0;
  memi_log_lines_init(&it, text, len);
  while (!found && (got = memi_log_lines_next(&it)) != 0) {
    reading r;
    if (got < 0) {
      *oom = 1;
      break;
    }
    found = line_reading(it.line, it.n, &r) == 1 && r.why == NULL && line_step(it.line, it.n) > 0;
  }
  memi_log_lines_free(&it);
  return found;
}

/* The steady state and the other figures of the summary. */
static void summarize(memest_runlog *log) {
  memest_runlog_summary *s = &log->sum;
  int64_t i;
  int counted = 0;
  s->steps = log->n;
  s->first_step = log->step[0];
  s->last_step = log->step[log->n - 1];
  s->max_gib = -1;
  s->steady_gib = -1;
  for (i = 0; i < log->n; i++) {
    if (log->gib[i] > s->max_gib) {
      s->max_gib = log->gib[i];
      s->max_step = log->step[i];
    }
    /* Each run's first step is left out: it creates the optimizer states. */
    if (i > 0 && log->step[i] > log->step[i - 1]) {
      if (!counted) s->steady_from = log->step[i];
      counted = 1;
      if (log->gib[i] > s->steady_gib) s->steady_gib = log->gib[i];
    }
  }
  if (!counted) {  /* every run has one step */
    s->steady_gib = s->max_gib;
    s->steady_from = s->first_step;
  }
  s->compared_bytes = (uint64_t)llround(s->steady_gib * GIB);
}

memest_code memest_runlog_read(const char *text, size_t len, memest_runlog **out,
                               memest_error *err) {
  return memest_runlog_read_from(text, len, 1, out, err);
}

memest_code memest_runlog_read_from(const char *text, size_t len, int64_t first_line,
                                    memest_runlog **out, memest_error *err) {
  memest_runlog *log;
  log_lines it;
  int got, oom = 0, stepped;
  int64_t readings = 0;
  memest_code rc = MEMEST_OK;
  *out = NULL;
  memi_err_clear(err);
  if (len > (uint64_t)MEMEST_MAX_RUNLOG_BYTES)
    return memi_err_set(err, MEMEST_E_LIMIT, "log",
                   "the log is %zu bytes, over MEMEST_MAX_RUNLOG_BYTES (%lld); give only the "
                   "lines with peak-gpu-memory (grep peak-gpu-memory)",
                   len, (long long)MEMEST_MAX_RUNLOG_BYTES);
  log = calloc(1, sizeof *log);
  if (log == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory");
  stepped = has_steps(text, len, &oom);
  memi_log_lines_init(&it, text, len);
  it.number = first_line > 0 ? first_line - 1 : 0;   /* the lines before text's first */
  while (!oom && (got = memi_log_lines_next(&it)) != 0) {
    reading r;
    int64_t step;
    if (got < 0) {
      oom = 1;
      continue;
    }
    if ((rc = read_timing(log, &it, err)) != MEMEST_OK) break;
    if (line_reading(it.line, it.n, &r) == 0) continue;
    if (++readings > MEMEST_MAX_RUNLOG_STEPS) {
      rc = memi_err_set(err, MEMEST_E_LIMIT, "log",
                   "the log has more than MEMEST_MAX_RUNLOG_STEPS (%lld) peak-gpu-memory "
                   "readings; give the steps you want compared",
                   (long long)MEMEST_MAX_RUNLOG_STEPS);
      break;
    }
    step = line_step(it.line, it.n);
    if (r.why == NULL && step < 0) r.why = WHY_STEP;
    if (r.why == NULL && stepped && step == 0) r.why = WHY_NO_STEP;
    if (r.why != NULL) {
      memest_runlog_note note;
      memset(&note, 0, sizeof note);
      note.line = it.number;
      note.why = r.why;
      memcpy(note.value, r.value, sizeof note.value);
      memcpy(note.unit, r.unit, sizeof note.unit);
      add_note(log, &note);
      log->sum.refused++;
      continue;
    }
    if (!stepped) step = log->n + 1;  /* a log of figures only: counted 1, 2, ... */
    if (log->n > 0 && step <= log->step[log->n - 1]) {
      memest_runlog_note note;
      memset(&note, 0, sizeof note);
      note.line = it.number;
      note.restart = 1;
      note.step = step;
      note.after = log->step[log->n - 1];
      add_note(log, &note);
      log->sum.restarts++;
    }
    if (!add_step(log, step, r.gib)) oom = 1;
  }
  memi_log_lines_free(&it);
  if (rc == MEMEST_OK && !oom && memi_logged_time_of(log->times, log->ntimes, &log->time) != MEMEST_OK)
    oom = 1;
  if (rc == MEMEST_OK && oom) rc = memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory reading the log");
  if (rc == MEMEST_OK && log->n == 0) {
    if (log->sum.refused > 0) {
      char first[200];
      memest_runlog_note_text(&log->notes[0], first, sizeof first);
      rc = memi_err_set(err, MEMEST_E_VALUE, "log",
                   "no peak-gpu-memory reading of the log is a measurement: %s%s; give the "
                   "trainer's log, which prints \"peak-gpu-memory X.XX GB\" each step",
                   first, log->sum.refused > 1 ? " (and others like it)" : "");
    } else {
      rc = memi_err_set(err, MEMEST_E_VALUE, "log",
                   "no line of the log has \"peak-gpu-memory X GB\"; give the output of "
                   "rank 0, which prints one such line per step");
    }
  }
  if (rc != MEMEST_OK) {
    memest_runlog_free(log);
    return rc;
  }
  log->sum.numbered = !stepped;
  summarize(log);
  *out = log;
  return MEMEST_OK;
}

void memest_runlog_free(memest_runlog *log) {
  if (log == NULL) return;
  free(log->step);
  free(log->gib);
  free(log->times);
  free(log);
}

const memest_runlog_summary *memest_runlog_summary_of(const memest_runlog *log) {
  return &log->sum;
}

int64_t memest_runlog_step(const memest_runlog *log, int64_t i, double *gib) {
  if (i < 0 || i >= log->n) {
    *gib = 0;
    return -1;
  }
  *gib = log->gib[i];
  return log->step[i];
}

const logged_time *memi_runlog_time(const memest_runlog *log) { return &log->time; }

int memest_runlog_note_count(const memest_runlog *log) { return log->nnotes; }

const memest_runlog_note *memest_runlog_note_at(const memest_runlog *log, int i) {
  return i >= 0 && i < log->nnotes ? &log->notes[i] : NULL;
}

const char *memi_runlog_compared(const memest_runlog_summary *s) {
  if (s->steps == 1) return "the only step";
  if (s->restarts == 0) return "the largest after the first step";
  return "the largest after each run's first step";
}

char *memest_runlog_note_text(const memest_runlog_note *note, char *buf, size_t size) {
  if (note->restart && note->step == note->after)
    snprintf(buf, size, "line %lld: step %lld again, a new run (a restart, or another run's log)",
             (long long)note->line, (long long)note->step);
  else if (note->restart)
    snprintf(buf, size, "line %lld: step %lld after step %lld, a new run (a restart, or another "
             "run's log)", (long long)note->line, (long long)note->step, (long long)note->after);
  else
    snprintf(buf, size, "line %lld: peak-gpu-memory %s%s%s %s", (long long)note->line,
             note->value[0] ? note->value : "(nothing)", note->unit[0] ? " " : "", note->unit,
             note->why);
  return buf;
}

void memi_runlog_json_members(strbuf *sb, const memest_runlog *log, int with_steps) {
  const memest_runlog_summary *s = &log->sum;
  int64_t i;
  int k, first;
  if (with_steps) {
    memi_sb_put(sb, "\"steps\":[");
    for (i = 0; i < log->n; i++)
      memi_sb_printf(sb, "%s{\"step\":%lld,\"gib\":%.15g}", i ? "," : "", (long long)log->step[i],
                log->gib[i]);
    memi_sb_put(sb, "],");
  } else {
    memi_sb_printf(sb, "\"steps\":%lld,", (long long)s->steps);
  }
  memi_sb_printf(sb,
            "\"first_step\":%lld,\"last_step\":%lld,\"max_gib\":%.15g,\"max_step\":%lld,"
            "\"steady_gib\":%.15g,\"steady_from\":%lld,\"compared\":\"%s\","
            "\"compared_bytes\":%llu,\"numbered\":%s,\"refused_count\":%lld,\"refused\":[",
            (long long)s->first_step, (long long)s->last_step, s->max_gib, (long long)s->max_step,
            s->steady_gib, (long long)s->steady_from, memi_runlog_compared(s),
            (unsigned long long)s->compared_bytes, s->numbered ? "true" : "false",
            (long long)s->refused);
  for (k = 0, first = 1; k < log->nnotes; k++) {
    const memest_runlog_note *n = &log->notes[k];
    char text[200];
    if (n->restart) continue;
    memi_sb_printf(sb, "%s{\"line\":%lld,\"value\":", first ? "" : ",", (long long)n->line);
    memi_sb_json_str(sb, n->value);
    memi_sb_put(sb, ",\"unit\":");
    memi_sb_json_str(sb, n->unit);
    memi_sb_put(sb, ",\"why\":");
    memi_sb_json_str(sb, n->why);
    memi_sb_put(sb, ",\"text\":");
    memi_sb_json_str(sb, memest_runlog_note_text(n, text, sizeof text));
    memi_sb_put(sb, "}");
    first = 0;
  }
  memi_sb_printf(sb, "],\"restart_count\":%lld,\"restarts\":[", (long long)s->restarts);
  for (k = 0, first = 1; k < log->nnotes; k++) {
    const memest_runlog_note *n = &log->notes[k];
    if (!n->restart) continue;
    memi_sb_printf(sb, "%s{\"line\":%lld,\"step\":%lld,\"after\":%lld}", first ? "" : ",",
              (long long)n->line, (long long)n->step, (long long)n->after);
    first = 0;
  }
  memi_sb_put(sb, "],\"step_time\":");
  memi_logged_time_json(sb, &log->time);
}

char *memest_runlog_json(const memest_runlog *log) {
  strbuf sb;
  memi_sb_init(&sb);
  memi_sb_put(&sb, "{");
  memi_runlog_json_members(&sb, log, 1);
  memi_sb_put(&sb, "}");
  return memi_sb_finish(&sb);
}
