/*
** internal.h — what the core's files share and nothing outside core/ sees:
** the memory components, checked byte arithmetic, the error funnel and a
** growable string buffer. Names here carry a per-module prefix.
*/
#ifndef MEMEST_INTERNAL_H
#define MEMEST_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "memest.h"
#include "base/bounds.h"
#include "base/choices.h"

#if defined(__GNUC__) || defined(__clang__)
#define MEMEST_HIDDEN __attribute__((visibility("hidden")))
#define MEMEST_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MEMEST_HIDDEN
#define MEMEST_PRINTF(a, b)
#endif

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB_BYTES (1024LL * 1024LL)

/* {======================================================================
** Memory components. Every byte the simulator tracks belongs to one. The
** order is the order of the JSON keys and of the text report.
** ======================================================================= */
typedef enum comp {
  C_MASTER = 0,   /* fp32 sharded master parameters */
  C_OPT_STATE,    /* optimizer states */
  C_UNSHARDED,    /* bf16 unsharded layer and expert parameters */
  C_EDGE,         /* bf16 unsharded embed_tokens / norm / lm_head */
  C_ACCUM,        /* fp32 unsharded gradient accumulators */
  C_PENDING,      /* bf16 .grad no fold has taken yet (docs/model.md) */
  C_SHARDED_GRAD, /* fp32 sharded grads after the reduce-scatter */
  C_ROTARY,       /* rotary cos/sin tables */
  C_DATA,         /* the step's token and label batch */
  C_FP8_CACHE,    /* FP8 weight caches */
  C_ACT,          /* saved activations of chunks in flight */
  C_LOGITS,       /* logits awaiting the loss backward */
  C_P2P,          /* pipeline send/receive buffers */
  C_WGS,          /* tensors captured by deferred expert wgrads */
  C_LAYER_T,      /* in-layer temporaries (a2a buffers, grads) */
  C_FSDP_T,       /* all-gather, fold and reduce-scatter buffers */
  C_OPT_T,        /* optimizer-step temporaries */
  C_COUNT
} comp;

#define C_FIRST_DYNAMIC C_ACT

MEMEST_HIDDEN const char *memi_comp_key(comp c);      /* JSON key */
MEMEST_HIDDEN const char *memi_comp_title(comp c);    /* text report label */

typedef struct comp_vec {
  int64_t b[C_COUNT];
} comp_vec;
/* }====================================================================== */

/* {======================================================================
** Checked arithmetic. Byte counts are int64_t; an overflow sets a sticky
** flag that the caller turns into MEMEST_E_OVERFLOW.
** ======================================================================= */
static inline int64_t ck_mul(int *ovf, int64_t a, int64_t b) {
  int64_t r;
  /* Factors below 2^31 cannot overflow; this spares 32-bit targets (wasm32)
  ** the 128-bit multiply the checked builtin needs. */
  if (a > -2147483648LL && a < 2147483648LL && b > -2147483648LL && b < 2147483648LL) return a * b;
  if (__builtin_mul_overflow(a, b, &r)) {
    *ovf = 1;
    return 0;
  }
  return r;
}
static inline int64_t ck_add(int *ovf, int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    *ovf = 1;
    return 0;
  }
  return r;
}
/* a*b*c*d, checked. */
static inline int64_t ck_mul4(int *ovf, int64_t a, int64_t b, int64_t c, int64_t d) {
  return ck_mul(ovf, ck_mul(ovf, a, b), ck_mul(ovf, c, d));
}
static inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
/* }====================================================================== */

/* {======================================================================
** Errors (error.c). Every error passes through memi_err_set or memi_err_set_at, and
** both through one function (error.c's err_vset), so that one breakpoint
** there stops on every failure. memi_err_set_at
** also records the 1-based line and column of a problem in the config
** text (0, 0: none); memi_err_set is memi_err_set_at without a position. Compose the
** message once, in the call: nothing rewrites it afterwards.
** ======================================================================= */
MEMEST_HIDDEN memest_code memi_err_set(memest_error *err, memest_code code,
                                  const char *field, const char *fmt, ...)
    MEMEST_PRINTF(4, 5);
MEMEST_HIDDEN memest_code memi_err_set_at(memest_error *err, memest_code code, const char *field,
                                     int line, int column, const char *fmt, ...)
    MEMEST_PRINTF(6, 7);
MEMEST_HIDDEN void memi_err_fix(memest_error *err, const char *fmt, ...) MEMEST_PRINTF(2, 3);
/* Tags err with why a check refused the inputs (after memi_err_set). */
MEMEST_HIDDEN void memi_err_reason(memest_error *err, memest_reason reason);
MEMEST_HIDDEN void memi_err_clear(memest_error *err);
/* }====================================================================== */

/* {======================================================================
** Stored parameters (params.c): the table's range check of every value in
** p, for callers that fill memest_params directly. Writes up to max
** problems into errs and returns how many there are.
** ======================================================================= */
MEMEST_HIDDEN int memi_params_refused(const memest_params *p, memest_error *errs, int max);
/* Writes the inputs whose values differ from `from` in `to`, in the
** table's order, as "name=value[,name=value]" into buf (params.c): the
** fix a suggestion applies; it needs no allocation. */
MEMEST_HIDDEN void memi_params_fix(const memest_params *from, const memest_params *to, char *buf,
                                   size_t size);
/* Reads a number of row pi from text, as memest_params_set does (params.c):
** decimal only, in pi's range; a refusal names a value in range (and in
** err->fix where one is sure). Other readers of numbers share it. */
MEMEST_HIDDEN memest_code memi_parse_num(const memest_param_info *pi, const char *v, double *out,
                                         memest_error *err);
/* }====================================================================== */

/* {======================================================================
** A growable string buffer (strbuf.c). On allocation failure it stops
** growing and remembers it; memi_sb_finish then returns NULL.
** ======================================================================= */
typedef struct strbuf {
  char *p;
  size_t n, cap;
  int failed;
} strbuf;

MEMEST_HIDDEN void memi_sb_init(strbuf *sb);
MEMEST_HIDDEN void memi_sb_put(strbuf *sb, const char *s);
MEMEST_HIDDEN void memi_sb_putn(strbuf *sb, const char *s, size_t n);
MEMEST_HIDDEN void memi_sb_printf(strbuf *sb, const char *fmt, ...) MEMEST_PRINTF(2, 3);
/* An integer in decimal, without printf (the timeline writes thousands). */
MEMEST_HIDDEN void memi_sb_put_i64(strbuf *sb, int64_t v);
MEMEST_HIDDEN char *memi_sb_finish(strbuf *sb);                   /* caller frees */
MEMEST_HIDDEN void memi_sb_free(strbuf *sb);
/* Formats bytes as GiB with two decimals into buf. */
MEMEST_HIDDEN const char *memi_fmt_gib(char *buf, size_t size, int64_t bytes);
/* Formats an integer with thousands separators. */
MEMEST_HIDDEN const char *memi_fmt_int(char *buf, size_t size, int64_t v);
/* Formats a number for people: thousands separators, at most six decimals
** (error_json.c). */
MEMEST_HIDDEN const char *memi_fmt_num(char *buf, size_t size, double v);
/* The result's or check's "source" member (source_report.c): the attached
** object, or the one of inputs from flags only when NULL. */
MEMEST_HIDDEN void memi_source_put_json(strbuf *sb, const char *attached);
/* Builds the run's source JSON and text at r's layout into *json and
** *text, replacing what they held (source_report.c). */
MEMEST_HIDDEN memest_code memi_source_attach(const memest_trainer_run *run, const memest_result *r,
                                             char **json, char **text, memest_error *err);
/* The estimate's "inputs" member, typed as result-json.md says, for the
** estimate and for check (report_json.c). */
MEMEST_HIDDEN void memi_inputs_json(strbuf *sb, const memest_params *p, int64_t capacity);
/* }====================================================================== */

/* {======================================================================
** Text from outside (file names, config names and keys, snapshot frames,
** log lines), written only through these (text_escape.c; the rules are
** docs/result-json.md's "Strings" and "Terminal text"). JSON: a quoted
** string that is strict UTF-8 whatever the bytes. Terminal text: controls,
** bidi marks and invalid UTF-8 made visible. Every text report ends with
** memi_sb_finish_text; a value that must stay on its line (a name in a
** sentence) goes in with memi_sb_text or, as a printf argument,
** memi_text_line.
** ======================================================================= */
MEMEST_HIDDEN void memi_sb_json_str(strbuf *sb, const char *s);
MEMEST_HIDDEN void memi_sb_json_strn(strbuf *sb, const char *s, size_t n);
/* s on one line: newline, return and tab escaped too. */
MEMEST_HIDDEN void memi_sb_text(strbuf *sb, const char *s);
/* memi_sb_text into buf (cut at a whole character or escape); returns buf. */
MEMEST_HIDDEN const char *memi_text_line(char *buf, size_t size, const char *s);
/* s as one shell word in ANSI-C quotes ($'caf\xe9'), each byte the terminal
** rules would escape as \xNN, so that a command line stays exact and safe;
** returns 0 (writing nothing) when s has no such byte. */
MEMEST_HIDDEN int memi_sb_shell_bytes(strbuf *sb, const char *s);
/* memi_sb_finish with the whole text made safe (newline and tab kept). */
MEMEST_HIDDEN char *memi_sb_finish_text(strbuf *sb);
/* }====================================================================== */

#endif /* MEMEST_INTERNAL_H */
