/*
** launchline.c — the trainer's log read for the run's inputs
** (memest_launch_log_read): the line `launch(cfg=PretrainLMCfg(...))` that
** rank 0 prints once its model and optimizers are set up, which is
** Python's dataclass repr of the whole config, read with pylex.c's
** tokenizer and the repr grammar: calls with keywords (nested), strings
** with escapes, numbers, True/False/None, PosixPath('...'),
** <function name at 0x...>, functools.partial(<function ...>, k=v),
** datetime.timedelta(...), lists, tuples, dicts and any other <...> repr.
** A log with several launch lines is a restarted run: the last one holds,
** and the steps compared are those after it. The lines just after it say
** whether the run loaded a checkpoint.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log_lines.h"
#include "trainer/trainer.h"

#define LAUNCH_KEY "launch(cfg="

typedef struct repr_parser {
  const char *src;      /* the line, from "launch(" */
  pytok *t;
  int nt, i;
  const char *label;
  int line;             /* the log's line */
  int col0;             /* the column of src in that line, less one */
  memest_trainer_run *run;
  memest_error *err;
  int depth;
} repr_parser;

static int at_op(const repr_parser *p, const char *s) { return memi_tok_is(p->src, &p->t[p->i], s); }

static memest_code bad(repr_parser *p, const char *expected) {
  const pytok *t = &p->t[p->i < p->nt ? p->i : p->nt - 1];
  char near[48];
  size_t n = t->len < 40 ? t->len : 40;
  memcpy(near, p->src + t->start, n);
  near[n] = '\0';
  return memi_err_set(p->err, MEMEST_E_VALUE, "log",
                      "%.200s:%d: the launch line is not the repr the trainer prints: expected %s "
                      "at column %d%s%s%s; is the line cut short?",
                      p->label, p->line, expected, t->col + p->col0,
                      n ? " ('" : "", near, n ? "')" : "");
}

static void text_of(const repr_parser *p, int from, int to, char *buf, size_t size) {
  size_t a, b, n;
  if (from >= to) {
    buf[0] = '\0';
    return;
  }
  a = p->t[from].start;
  b = p->t[to - 1].start + p->t[to - 1].len;
  n = b - a < size - 1 ? b - a : size - 1;
  memcpy(buf, p->src + a, n);
  buf[n] = '\0';
}

static memest_code parse_value(repr_parser *p, tvalue *v);

/* `<...>`: a function's repr "<function NAME at 0x...>" gives TV_FUNC; any
** other gives TV_OTHER with its text. The index is after the '>'. */
static memest_code parse_angle(repr_parser *p, tvalue *v) {
  int start = p->i, depth = 0, at = -1, k;
  for (; p->i < p->nt && p->t[p->i].kind != PT_NEWLINE && p->t[p->i].kind != PT_END; p->i++) {
    if (at_op(p, "<")) depth++;
    else if (at_op(p, ">") && --depth == 0) break;
    else if (at_op(p, ">>")) {   /* two closings in one token */
      depth -= 2;
      if (depth <= 0) break;
    } else if (depth == 1 && p->t[p->i].kind == PT_NAME && memi_tok_is(p->src, &p->t[p->i], "at")) {
      at = p->i;
    }
  }
  if (p->i >= p->nt || depth > 0) return bad(p, "the '>' closing a <...> repr");
  p->i++;
  memset(v, 0, sizeof *v);
  if (start + 1 < p->nt && memi_tok_is(p->src, &p->t[start + 1], "function") && at > start + 2) {
    char name[TV_TEXT];
    text_of(p, start + 2, at, name, sizeof name);
    for (k = 0; name[k]; k++)
      if (name[k] == ' ') memmove(name + k, name + k + 1, strlen(name + k));
    memi_tv_set_text(v, TV_FUNC, name, strlen(name));
    return MEMEST_OK;
  }
  {
    char what[TV_TEXT];
    text_of(p, start, p->i, what, sizeof what);
    memi_tv_set_text(v, TV_OTHER, what, strlen(what));
  }
  return MEMEST_OK;
}

/* The arguments of a call whose '(' is at p->i, as text after the first
** (for a partial); every value is parsed. */
static memest_code parse_args(repr_parser *p, tvalue *first, char *rest, size_t size) {
  int n = 0, rest_from = -1;
  memest_code rc;
  tvalue scratch;
  p->i++;   /* '(' */
  if (++p->depth > MEMEST_MAX_PY_NESTING) return bad(p, "less nesting");
  while (p->i < p->nt && !at_op(p, ")")) {
    if (n == 1) rest_from = p->i;
    if (p->t[p->i].kind == PT_NAME && p->i + 1 < p->nt && memi_tok_is(p->src, &p->t[p->i + 1], "="))
      p->i += 2;
    if ((rc = parse_value(p, n == 0 && first ? first : &scratch)) != MEMEST_OK) return rc;
    n++;
    if (at_op(p, ",")) p->i++;
    else if (!at_op(p, ")")) return bad(p, "',' or ')'");
  }
  if (p->i >= p->nt) return bad(p, "')'");
  if (rest != NULL) {
    if (rest_from >= 0) text_of(p, rest_from, p->i, rest, size);
    else rest[0] = '\0';
  }
  p->i++;
  p->depth--;
  if (n == 0 && first) memset(first, 0, sizeof *first);
  return MEMEST_OK;
}

/* NAME(.NAME)*: the dotted name at p->i into buf; the index is after it. */
static void dotted(repr_parser *p, char *buf, size_t size) {
  int from = p->i;
  p->i++;
  while (p->i + 1 < p->nt && at_op(p, ".") && p->t[p->i + 1].kind == PT_NAME) p->i += 2;
  text_of(p, from, p->i, buf, size);
}

/* datetime.timedelta(days=, seconds=, microseconds=) as seconds. */
static memest_code parse_timedelta(repr_parser *p, tvalue *v) {
  double s = 0;
  memest_code rc;
  p->i++;
  while (p->i < p->nt && !at_op(p, ")")) {
    char key[32] = "";
    tvalue x;
    if (p->t[p->i].kind == PT_NAME && p->i + 1 < p->nt && memi_tok_is(p->src, &p->t[p->i + 1], "=")) {
      text_of(p, p->i, p->i + 1, key, sizeof key);
      p->i += 2;
    }
    if ((rc = parse_value(p, &x)) != MEMEST_OK) return rc;
    if (x.kind == TV_INT || x.kind == TV_FLOAT) {
      double d = x.kind == TV_INT ? (double)x.i : x.f;
      s += strcmp(key, "microseconds") == 0 ? d / 1e6 : strcmp(key, "days") == 0 || key[0] == '\0' ? d * 86400 : d;
    }
    if (at_op(p, ",")) p->i++;
    else if (!at_op(p, ")")) return bad(p, "',' or ')'");
  }
  if (p->i >= p->nt) return bad(p, "')'");
  p->i++;
  memset(v, 0, sizeof *v);
  v->kind = TV_TIMEDELTA;
  v->f = s;
  return MEMEST_OK;
}

/* A call NAME(...) at p->i: paths, partials, timedeltas, or an object. */
static memest_code parse_call(repr_parser *p, tvalue *v) {
  char name[128];
  const char *base;
  memest_code rc;
  dotted(p, name, sizeof name);
  base = strrchr(name, '.');
  base = base ? base + 1 : name;
  if (strcmp(base, "timedelta") == 0) return parse_timedelta(p, v);
  if (strcmp(base, "partial") == 0) {
    tvalue f;
    char rest[sizeof v->args];
    if ((rc = parse_args(p, &f, rest, sizeof rest)) != MEMEST_OK) return rc;
    memset(v, 0, sizeof *v);
    if (f.kind != TV_FUNC && f.kind != TV_PARTIAL) {
      memi_tv_set_text(v, TV_OTHER, "a partial of something other than a function", 45);
      return MEMEST_OK;
    }
    memi_tv_set_text(v, TV_PARTIAL, f.text, strlen(f.text));
    snprintf(v->args, sizeof v->args, "%s", rest);
    return MEMEST_OK;
  }
  if (strstr(base, "Path") != NULL) {
    tvalue s;
    if ((rc = parse_args(p, &s, NULL, 0)) != MEMEST_OK) return rc;
    if (s.kind != TV_STR) {
      memset(v, 0, sizeof *v);
      memi_tv_set_text(v, TV_OTHER, "a path memest cannot read", 25);
      return MEMEST_OK;
    }
    *v = s;
    v->kind = TV_PATH;
    return MEMEST_OK;
  }
  if ((rc = parse_args(p, NULL, NULL, 0)) != MEMEST_OK) return rc;
  memset(v, 0, sizeof *v);
  memi_tv_set_text(v, TV_OBJECT, base, strlen(base));
  return MEMEST_OK;
}

/* Skips a bracketed display ([...], (...), {...}) whose opening is at p->i. */
static memest_code skip_display(repr_parser *p, tvalue *v) {
  int from = p->i, depth = 0;
  char what[TV_TEXT];
  for (; p->i < p->nt && p->t[p->i].kind != PT_NEWLINE; p->i++) {
    if (at_op(p, "(") || at_op(p, "[") || at_op(p, "{")) depth++;
    else if ((at_op(p, ")") || at_op(p, "]") || at_op(p, "}")) && --depth == 0) break;
  }
  if (p->i >= p->nt || depth != 0) return bad(p, "a closing bracket");
  p->i++;
  memset(v, 0, sizeof *v);
  text_of(p, from, p->i, what, sizeof what);
  memi_tv_set_text(v, TV_OTHER, what, strlen(what));
  return MEMEST_OK;
}

static memest_code parse_value(repr_parser *p, tvalue *v) {
  const pytok *t;
  if (p->i >= p->nt) return bad(p, "a value");
  t = &p->t[p->i];
  memset(v, 0, sizeof *v);
  if (t->kind == PT_STRING) {
    int flags;
    size_t o = 0;
    v->kind = TV_STR;
    while (p->i < p->nt && p->t[p->i].kind == PT_STRING) {
      char part[TV_TEXT];
      t = &p->t[p->i++];
      if (!memi_pystr_value(p->src + t->start, t->len, part, sizeof part, &flags) ||
          o + strlen(part) >= sizeof v->text) {
        memi_tv_set_text(v, TV_OTHER, "a string longer than memest reads (511 bytes)", 45);
        return MEMEST_OK;
      }
      memcpy(v->text + o, part, strlen(part) + 1);
      o += strlen(part);
      if (flags & (PS_BYTES | PS_NAMED_ESCAPE | PS_SURROGATE | PS_FIELDS | PS_TEMPLATE))
        memi_tv_set_text(v, TV_OTHER, "a string memest cannot read", 27);
    }
    return MEMEST_OK;
  }
  if (t->kind == PT_NUMBER || (at_op(p, "-") && p->i + 1 < p->nt && p->t[p->i + 1].kind == PT_NUMBER)) {
    int neg = at_op(p, "-");
    p->i += neg;
    memi_pynum_value(p->src + p->t[p->i].start, p->t[p->i].len, v);
    if (neg) v->i = -v->i, v->f = -v->f;
    p->i++;
    return MEMEST_OK;
  }
  if (at_op(p, "<")) return parse_angle(p, v);
  if (at_op(p, "(") || at_op(p, "[") || at_op(p, "{")) return skip_display(p, v);
  if (t->kind == PT_NAME) {
    if (p->i + 1 < p->nt && (memi_tok_is(p->src, &p->t[p->i + 1], "(") || memi_tok_is(p->src, &p->t[p->i + 1], "."))) {
      int save = p->i;
      char name[128];
      dotted(p, name, sizeof name);
      if (p->i < p->nt && at_op(p, "(")) {
        p->i = save;
        return parse_call(p, v);
      }
      memi_tv_set_text(v, TV_OTHER, name, strlen(name));
      return MEMEST_OK;
    }
    p->i++;
    if (memi_tok_is(p->src, t, "True") || memi_tok_is(p->src, t, "False")) {
      v->kind = TV_BOOL;
      v->i = memi_tok_is(p->src, t, "True");
    } else if (memi_tok_is(p->src, t, "None")) {
      v->kind = TV_NONE;
    } else if (memi_tok_is(p->src, t, "inf") || memi_tok_is(p->src, t, "nan")) {
      v->kind = TV_FLOAT;
      v->f = memi_tok_is(p->src, t, "inf") ? HUGE_VAL : NAN;
    } else {
      char name[128];
      text_of(p, p->i - 1, p->i, name, sizeof name);
      memi_tv_set_text(v, TV_OTHER, name, strlen(name));
    }
    return MEMEST_OK;
  }
  return bad(p, "a value");
}

/* One section's call, SectionCfg(field=value, ...): each field through the table. */
static memest_code parse_section(repr_parser *p, const char *section) {
  memest_code rc;
  tloc at;
  memi_tloc_set(&at, p->label, p->line);
  if (p->t[p->i].kind != PT_NAME || p->i + 1 >= p->nt || !memi_tok_is(p->src, &p->t[p->i + 1], "(")) {
    tvalue v;
    if ((rc = parse_value(p, &v)) != MEMEST_OK) return rc;
    memi_trainer_refuse(p->run, section, "*", &at, "the section is not a config object");
    return MEMEST_OK;
  }
  p->i += 2;
  while (p->i < p->nt && !at_op(p, ")")) {
    char field[64];
    tvalue v;
    if (p->t[p->i].kind != PT_NAME || p->i + 1 >= p->nt || !memi_tok_is(p->src, &p->t[p->i + 1], "="))
      return bad(p, "field=value");
    text_of(p, p->i, p->i + 1, field, sizeof field);
    p->i += 2;
    if ((rc = parse_value(p, &v)) != MEMEST_OK) return rc;
    memi_trainer_take(p->run, section, field, &v, &at);
    if (at_op(p, ",")) p->i++;
    else if (!at_op(p, ")")) return bad(p, "',' or ')'");
  }
  if (p->i >= p->nt) return bad(p, "')'");
  p->i++;
  return MEMEST_OK;
}

/* launch(cfg=NAME(section=SectionCfg(...), ...)) */
static memest_code parse_launch(repr_parser *p) {
  memest_code rc;
  if (!(p->nt > 4 && memi_tok_is(p->src, &p->t[0], "launch") && memi_tok_is(p->src, &p->t[1], "(") &&
        memi_tok_is(p->src, &p->t[2], "cfg") && memi_tok_is(p->src, &p->t[3], "=")))
    return bad(p, "launch(cfg=");
  p->i = 4;
  if (p->t[p->i].kind != PT_NAME || p->i + 1 >= p->nt || !memi_tok_is(p->src, &p->t[p->i + 1], "("))
    return bad(p, "the config's class and '('");
  p->i += 2;
  while (p->i < p->nt && !at_op(p, ")")) {
    char section[64];
    if (p->t[p->i].kind != PT_NAME || p->i + 1 >= p->nt || !memi_tok_is(p->src, &p->t[p->i + 1], "="))
      return bad(p, "section=");
    text_of(p, p->i, p->i + 1, section, sizeof section);
    p->i += 2;
    if (strcmp(section, "distributed") != 0 && strcmp(section, "training") != 0 &&
        strcmp(section, "logging") != 0) {
      tvalue v;
      memi_run_warn(p->run, "%s:%d: the launch line's config has a section %s that memest does "
                            "not know; it was not read",
                    p->label, p->line, section);
      if ((rc = parse_value(p, &v)) != MEMEST_OK) return rc;
    } else if ((rc = parse_section(p, section)) != MEMEST_OK) {
      return rc;
    }
    if (at_op(p, ",")) p->i++;
    else if (!at_op(p, ")")) return bad(p, "',' or ')'");
  }
  if (p->i + 1 >= p->nt || !at_op(p, ")")) return bad(p, "')' closing the config");
  p->i++;
  if (!at_op(p, ")")) return bad(p, "')' closing launch(");
  return MEMEST_OK;
}

/* Whether line [s, s+n) begins with text after the logger's prefix. */
static const char *find_in(const char *s, size_t n, const char *text) {
  size_t m = strlen(text), k;
  for (k = 0; k + m <= n; k++)
    if (memcmp(s + k, text, m) == 0) return s + k;
  return NULL;
}

/* What the lines from text (line `line` of the log) say about the
** weights, until the first step line. */
static memest_code scan_init(memest_trainer_run *run, const char *text, size_t len, int64_t line,
                             const char *label) {
  log_lines it;
  int got;
  memi_log_lines_init(&it, text, len);
  it.number = line - 1;
  while ((got = memi_log_lines_next(&it)) > 0) {
    const char *s = it.line, *found;
    size_t n = it.n;
    if (find_in(s, n, "step ") != NULL && find_in(s, n, "peak-gpu-memory") != NULL) break;
    if (find_in(s, n, "training from scratch.") != NULL) {
      run->init = TR_INIT_SCRATCH;
      run->checkpoint[0] = '\0';
      memi_tloc_set(&run->init_at, label, (int)it.number);
    } else if ((found = find_in(s, n, "Load checkpoint: ")) != NULL &&
               find_in(s, n, "Load checkpoint: Elapsed") == NULL) {
      size_t k = (size_t)(found - s) + 17, m = n - k;
      run->init = TR_INIT_CHECKPOINT;
      snprintf(run->checkpoint, sizeof run->checkpoint, "%.*s", (int)(m < 500 ? m : 500), s + k);
      memi_tloc_set(&run->init_at, label, (int)it.number);
    }
  }
  memi_log_lines_free(&it);
  return got < 0 ? MEMEST_E_NOMEM : MEMEST_OK;
}

/* The last launch line, as the log's lines give it (log_lines.c: any line
** end, terminal colours taken out). */
typedef struct launch_at {
  char *text;        /* from "launch(" to the line's end; free() it */
  size_t len;
  int col0;          /* the column of "launch(" in its line, less one */
  int64_t line;      /* its line number */
  size_t after;      /* the offset in the log of the line after it */
} launch_at;

/* Finds the launch lines: counts them into run and keeps the last in *at
** (at->text NULL when there is none). MEMEST_E_NOMEM when out of memory. */
static memest_code find_launches(memest_trainer_run *run, const char *text, size_t len,
                                 launch_at *at) {
  log_lines it;
  int got;
  memset(at, 0, sizeof *at);
  memi_log_lines_init(&it, text, len);
  while ((got = memi_log_lines_next(&it)) > 0) {
    const char *hit = find_in(it.line, it.n, LAUNCH_KEY);
    char *copy;
    if (hit == NULL) continue;
    run->launch_line[run->launches < TR_MAX_LAUNCHES ? run->launches : TR_MAX_LAUNCHES - 1] =
        (int)it.number;
    run->launches++;
    copy = malloc(it.n - (size_t)(hit - it.line) + 1);
    if (copy == NULL) {
      got = -1;
      break;
    }
    free(at->text);
    at->len = it.n - (size_t)(hit - it.line);
    memcpy(copy, hit, at->len);
    copy[at->len] = '\0';
    at->text = copy;
    at->col0 = (int)(hit - it.line);
    at->line = it.number;
    at->after = it.pos;
  }
  memi_log_lines_free(&it);
  if (got < 0) {
    free(at->text);
    at->text = NULL;
    return MEMEST_E_NOMEM;
  }
  return MEMEST_OK;
}

/* Reads the launch line at->text into run. */
static memest_code read_launch(memest_trainer_run *run, const launch_at *at, const char *label,
                               memest_error *err) {
  repr_parser p;
  memest_code rc;
  memset(&p, 0, sizeof p);
  p.src = at->text;
  p.label = label;
  p.line = (int)at->line;
  p.run = run;
  p.err = err;
  p.col0 = at->col0;
  rc = memi_pylex(p.src, at->len, "launch(", 1, &p.t, &p.nt, err);
  if (rc != MEMEST_OK) {
    char why[400];
    tr_copy(why, sizeof why, err->message);
    memi_err_set(err, rc, "log", "%.200s:%lld: the launch line cannot be read as Python's repr "
                 "(%.380s); is it cut short?", label, (long long)at->line, why);
  }
  if (rc == MEMEST_OK) rc = parse_launch(&p);
  free(p.t);
  return rc;
}

memest_code memest_launch_log_read(const char *text, size_t len, const char *label,
                                   memest_trainer_run **out, memest_error *err) {
  memest_trainer_run *run;
  launch_at at;
  memest_code rc;
  *out = NULL;
  memi_err_clear(err);
  if (text == NULL) return memi_err_set(err, MEMEST_E_VALUE, "log", "no log text was given");
  if (label == NULL || label[0] == '\0') label = "log";
  if (len > (size_t)MEMEST_MAX_RUNLOG_BYTES)
    return memi_err_set(err, MEMEST_E_LIMIT, "log",
                        "the log is %zu bytes, over MEMEST_MAX_RUNLOG_BYTES (%lld)", len,
                        (long long)MEMEST_MAX_RUNLOG_BYTES);
  run = memi_run_new(MEMEST_SOURCE_LOG);
  if (run == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory");
  memi_run_file(run, label);
  if (find_launches(run, text, len, &at) != MEMEST_OK) {
    memest_trainer_run_free(run);
    return memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory reading the log");
  }
  if (at.text == NULL) {
    memest_trainer_run_free(run);
    return memi_err_set(err, MEMEST_E_MISSING, "log",
                        "no line of %.200s has launch(cfg=...): rank 0 prints it once the model "
                        "and optimizers are set up, in the log of node 0 from the start of the run",
                        label);
  }
  rc = read_launch(run, &at, label, err);
  free(at.text);
  if (rc == MEMEST_OK && scan_init(run, text + at.after, len - at.after, at.line + 1, label) != MEMEST_OK)
    rc = memi_err_set(err, MEMEST_E_NOMEM, "log", "out of memory reading the log");
  if (rc != MEMEST_OK) {
    memest_trainer_run_free(run);
    return rc;
  }
  run->steps_offset = at.after;
  run->steps_line = at.line + 1;
  if (run->launches > 1)
    memi_run_note(run, "%s has %d launch lines, a restarted run: the inputs are the last one's "
                       "(line %lld), and the steps compared are those after it",
                  label, run->launches, (long long)at.line);
  memi_trainer_date_fields(run, 1);
  memi_trainer_defaults(run);
  *out = run;
  return MEMEST_OK;
}
