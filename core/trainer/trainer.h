/*
** trainer.h — what the readers of the trainer's own files share: a value
** as the trainer's config holds it (tvalue), where it was read (tloc), the
** Python tokenizer (pylex.c), the one table from trainer fields to memest
** inputs (trainer_fields.c) and the run record they all fill
** (trainer_run.c). The readers are pyscript.c (launch scripts),
** launchline.c (the log's launch line) and wandb.c (W&B run files); none
** touches a file system. Design note: docs/trainer-files.md.
*/
#ifndef MEMEST_TRAINER_H
#define MEMEST_TRAINER_H

#include "base/internal.h"

/* {======================================================================
** A value of a trainer config field, whichever file it came from
** ======================================================================= */
typedef enum tv_kind {
  TV_NONE = 0,   /* None / null */
  TV_BOOL,       /* i: 0 or 1 */
  TV_INT,        /* i */
  TV_FLOAT,      /* f */
  TV_STR,        /* text */
  TV_PATH,       /* text: Path("..."), PosixPath('...') */
  TV_FUNC,       /* text: the function's name (a builder) */
  TV_PARTIAL,    /* text: the wrapped function's name; args: its arguments as written */
  TV_TIMEDELTA,  /* f: seconds */
  TV_OBJECT,     /* text: the class of a constructed object (LoggingWandbCfg()) */
  TV_OTHER       /* not a value memest reads; text says what it is */
} tv_kind;

#define TV_TEXT 512

typedef struct tvalue {
  tv_kind kind;
  int64_t i;
  double f;
  char text[TV_TEXT];
  char args[160];
} tvalue;

/* Where a value was read: the file as the report names it and its line
** (0: the file has no lines to name, as a JSON file). */
typedef struct tloc {
  char file[256];
  int line;
} tloc;

/* Copies src into dst of size bytes, cut short if need be; always ends it. */
static inline void tr_copy(char *dst, size_t size, const char *src) {
  size_t n = 0;
  if (size == 0) return;
  while (src[n] != '\0' && n + 1 < size) n++;
  for (size_t k = 0; k < n; k++) dst[k] = src[k];
  dst[n] = '\0';
}

MEMEST_HIDDEN void memi_tv_set_text(tvalue *v, tv_kind kind, const char *text, size_t n);
/* The value as Python's repr would show it, shortened to size. */
MEMEST_HIDDEN const char *memi_tv_show(const tvalue *v, char *buf, size_t size);
MEMEST_HIDDEN const char *memi_tloc_show(const tloc *at, char *buf, size_t size);
MEMEST_HIDDEN void memi_tloc_set(tloc *at, const char *file, int line);
/* }====================================================================== */

/* {======================================================================
** The Python tokenizer (pylex.c): Python 3.12's lexical rules — physical
** and logical lines, comments, backslash continuations, brackets spanning
** lines, INDENT/DEDENT, names, numbers, strings with every prefix, triple
** quotes and f-strings (3.12 nesting) — over UTF-8 text.
** ======================================================================= */
typedef enum pt_kind {
  PT_END = 0, PT_NEWLINE, PT_INDENT, PT_DEDENT, PT_NAME, PT_NUMBER, PT_STRING, PT_OP
} pt_kind;

typedef struct pytok {
  pt_kind kind;
  uint32_t start, len;   /* bytes of the source */
  int line, col;         /* 1-based, of the first byte */
} pytok;

/* Tokenizes src whole into *toks (malloc'd; the caller frees). MEMEST_E_VALUE
** with "label:line:col: ..." for what Python would refuse as a SyntaxError
** of its tokenizer; MEMEST_E_LIMIT past MEMEST_MAX_SCRIPT_TOKENS or the
** nesting limits. repr_mode: one logical line of a repr, where INDENT and
** DEDENT are not made. */
MEMEST_HIDDEN memest_code memi_pylex(const char *src, size_t len, const char *label, int repr_mode,
                                pytok **toks, int *n, memest_error *err);
/* The source as UTF-8 by its PEP 263 coding cookie: *out (malloc'd; the
** caller frees) holds a Latin-1 file's text as UTF-8; NULL when src is read
** as it is (UTF-8 or ASCII). MEMEST_E_VALUE for an encoding memest does not
** read, or what Python refuses (a BOM with another encoding). */
MEMEST_HIDDEN memest_code memi_py_decode(const char *src, size_t len, const char *label, char **out,
                                         size_t *out_len, memest_error *err);
/* Whether token t is the operator or name `s`. */
MEMEST_HIDDEN int memi_tok_is(const char *src, const pytok *t, const char *s);

/* A string token's value: prefixes, quotes and escapes as Python reads them.
** Sets *flags (PS_*). Returns 0 when out is too small for the value. */
enum {
  PS_BYTES = 1, PS_FIELDS = 2, PS_NAMED_ESCAPE = 4, PS_SURROGATE = 8, PS_TEMPLATE = 16,
  PS_NUL = 32   /* the value holds a NUL character (cut short in out) */
};
MEMEST_HIDDEN int memi_pystr_value(const char *tok, size_t len, char *out, size_t size,
                              int *flags);
/* A number token's value: TV_INT, TV_FLOAT or TV_OTHER (imaginary, or an
** integer past 64 bits). */
MEMEST_HIDDEN void memi_pynum_value(const char *tok, size_t len, tvalue *v);
/* }====================================================================== */

/* {======================================================================
** The run record and the field table (trainer_run.c, trainer_fields.c)
** ======================================================================= */
#define TR_MAX_IGNORED 48
#define TR_MAX_NOTES 16
#define TR_MAX_FILES 8
#define TR_MAX_LAUNCHES 8

/* One memest input as a file gave it. */
typedef struct tr_input {
  int set;             /* 1: value holds what the file says */
  int refused;         /* 1: the file sets it in a way memest cannot read; why says how */
  char value[512];     /* as memest_params_set takes it */
  tloc at;
  char field[64];      /* the trainer field, "training.benchmark", or "" */
  char how[200];       /* how the value was made from the field, or "" */
  char why[512];       /* refused: the reason, naming the file and line */
  int overridden;      /* apply: a flag on the command line gave it instead */
} tr_input;

typedef enum tr_init { TR_INIT_UNKNOWN = 0, TR_INIT_SCRATCH, TR_INIT_CHECKPOINT, TR_INIT_MAYBE } tr_init;

struct memest_trainer_run {
  memest_source_kind kind;
  char files[TR_MAX_FILES][256];
  int n_files;
  tr_input in[MEMEST_P_COUNT];
  int model_is_path;          /* training.model: 1 a Path, 0 a string (hub id), -1 either (W&B) */
  char model_resolved[512];   /* the front end's resolution, or "" */
  char model_how[200];
  char ignored[TR_MAX_IGNORED][96];   /* "training.lr (script.py:12)" */
  int n_ignored, more_ignored;
  char warnings[TR_MAX_NOTES][400];
  int n_warnings, more_warnings;
  char notes[TR_MAX_NOTES][400];
  int n_notes, more_notes;
  /* The regime: force-balanced routing and how the weights start. */
  int benchmark;              /* -1 unknown, 0, 1 */
  tloc benchmark_at;
  tr_init init;
  int init_unread;            /* save_location is set in a way memest cannot read */
  char checkpoint[512];       /* save_location, or the checkpoint the log loaded */
  tloc init_at;
  /* The trainer commit, and where it was named. */
  char commit[48], commit_from[96];
  /* Hints for resolving relative paths: the trainer's root as the run saw it. */
  char root_hint[512];
  /* A log: its launch lines and where the steps after the last begin. */
  int launches, launch_line[TR_MAX_LAUNCHES];
  size_t steps_offset;
  int64_t steps_line;
  /* Which rows of the field table the file held (log and W&B: every field
  ** of its trainer's version), for dating the version by its fields. */
  unsigned char seen[64];
  /* W&B: the last step's figure from wandb-summary.json, -1 when none. */
  double summary_gib;
  int64_t summary_step;
  /* W&B: the last step's infra/step-time (s) and infra/tokens-per-second
  ** from wandb-summary.json; 0 when none. */
  double summary_step_seconds, summary_tokens_per_second;
  /* A config object (MEMEST_SOURCE_CFG): where it was handed over. */
  tloc handed;
};

MEMEST_HIDDEN memest_trainer_run *memi_run_new(memest_source_kind kind);
MEMEST_HIDDEN void memi_run_file(memest_trainer_run *run, const char *label);
MEMEST_HIDDEN void memi_run_warn(memest_trainer_run *run, const char *fmt, ...) MEMEST_PRINTF(2, 3);
MEMEST_HIDDEN void memi_run_note(memest_trainer_run *run, const char *fmt, ...) MEMEST_PRINTF(2, 3);
/* Records input id = value, read at `at` from trainer field `field`. */
MEMEST_HIDDEN void memi_run_input(memest_trainer_run *run, memest_param_id id, const char *value,
                             const tloc *at, const char *field, const char *how);
MEMEST_HIDDEN void memi_run_refuse(memest_trainer_run *run, memest_param_id id, const tloc *at,
                              const char *field, const char *fmt, ...) MEMEST_PRINTF(5, 6);
MEMEST_HIDDEN void memi_run_ignored(memest_trainer_run *run, const char *field, const tloc *at);
/* The GPU and the GPU count from a folder named like the trainer's
** benchmark folders, "h100-4n8g"; 0 when the name is not of that form. */
MEMEST_HIDDEN int memi_run_folder_layout(memest_trainer_run *run, const char *folder,
                                    const char *label);

/* How a trainer field is turned into a memest input (trainer_fields.c). */
typedef enum tf_conv {
  TF_IGNORE = 0,    /* read and ignored: changes no memory */
  TF_INT,           /* a whole number into the row's input */
  TF_SHARDING,      /* "fsdp" | "hsdp" */
  TF_MODEL,         /* Path or hub id */
  TF_OPTIMIZER,     /* a builder, partial(builder, ...), or the older strings */
  TF_FP8,           /* bool -> deep-gemm | disabled */
  TF_FP8_STRING,    /* "deep-gemm" | "disabled" (before f53f32d) */
  TF_BENCHMARK,     /* bool -> routing balanced | measured; the regime */
  TF_SAVE_LOCATION, /* None: from scratch; a path: loads its latest checkpoint */
  TF_ROOT_HINT      /* memory_profile_output: the trainer root (cwd at import) */
} tf_conv;

typedef struct trainer_field {
  const char *section;   /* "distributed", "training" */
  const char *name;
  const char *since;     /* the commit that added it, or NULL (the first) */
  const char *until;     /* the commit that removed it, or NULL (it is at 889a408) */
  tf_conv conv;
  int input;             /* the memest_param_id it sets, or -1 */
  const char *dflt;      /* the trainer's default at 889a408 as memest takes it, or NULL */
  const char *note;      /* the schema history or why it changes no memory */
} trainer_field;

MEMEST_HIDDEN const trainer_field *memi_trainer_field(const char *section, const char *name);
MEMEST_HIDDEN int memi_trainer_field_count(void);
MEMEST_HIDDEN const trainer_field *memi_trainer_field_at(int i);
/* Marks field section.name as one the run's config holds (for dating its
** trainer) without a value: a field of the object left unset. */
MEMEST_HIDDEN void memi_trainer_field_seen(memest_trainer_run *run, const char *section,
                                           const char *name);
/* Whether a section holds fields memest reads ("distributed", "training"). */
MEMEST_HIDDEN int memi_trainer_section_known(const char *section);
/* Takes field section.name = v, read at `at`, through the table into run:
** an input, the regime, read and ignored, or a warning for a field memest
** does not know. */
MEMEST_HIDDEN void memi_trainer_take(memest_trainer_run *run, const char *section, const char *name,
                                const tvalue *v, const tloc *at);
/* memi_trainer_take of a value as Python holds it (a script's or a live
** object's): a whole number as a float (4096.0) or a bool where the trainer
** takes an int, and a builder's name as a string, are refused as Python
** would pass them on. */
MEMEST_HIDDEN void memi_trainer_take_python(memest_trainer_run *run, const char *section,
                                            const char *name, const tvalue *v, const tloc *at);
/* A note for each field the trainer requires that the run never set
** ("<who> training.optimizer, which the trainer requires"). */
MEMEST_HIDDEN void memi_trainer_note_required(memest_trainer_run *run, const char *who);
/* A field the file sets in a way that cannot be read (an expression, a
** block): refused if it is a memory input, else read and ignored. */
MEMEST_HIDDEN void memi_trainer_refuse(memest_trainer_run *run, const char *section,
                                  const char *name, const tloc *at, const char *why);
/* Whether section.name sets a memest input (or the regime). */
MEMEST_HIDDEN int memi_trainer_field_matters(const char *section, const char *name);
/* The defaults of the fields a script left unset (DistributedCfg's sizes,
** fsdp, no FP8, no benchmark): the trainer's dataclass defaults. */
MEMEST_HIDDEN void memi_trainer_defaults(memest_trainer_run *run);
/* A note dating the run's trainer by the fields its file holds (a log's or
** W&B's whole config: fields added later are absent), when they say more
** than "the current one". */
MEMEST_HIDDEN void memi_trainer_date_fields(memest_trainer_run *run, int complete);
/* }====================================================================== */

#endif /* MEMEST_TRAINER_H */
