/*
** pyscript.c — the launch-script reader (memest_script_read): a restricted
** reader of Python source that never runs it. It walks a script's
** module-level statements as Python would execute them, over pylex.c's
** tokens, and keeps what they do to the trainer's config objects:
** `cfg = PretrainLMCfg()`, aliases (`training = cfg.training`), and
** assignments of literals, names bound to literals, Path("...") (with `/`,
** .parent and __file__), builder names, partial(builder, ...) and dict(...)
** kwargs to cfg.<section>.<field>. `from setup import cfg` is followed
** through the caller's memest_module_finder, as Python imports it (its
** `if __name__ == "__main__":` blocks do not run); the script's own such
** block runs, for its launch(cfg). Any other block (if, for, with, try, def,
** ...) is skipped, and a memory field set inside it, or set to anything
** else (an expression, a call's result), is refused with file:line; names
** it rebinds cannot be used afterwards. The fields of the config passed to
** launch() then go through the field table (trainer_fields.c).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainer/trainer.h"

#define MAX_OBJS 64
#define MAX_SLOTS 2048
#define MAX_AMBIGUOUS 256
#define MAX_NAME 63      /* the longest name memest reads; a longer one is refused, never cut */
#define MAX_DOTTED 127   /* the longest dotted module name */
#define SEQ_ALWAYS 0x7fffffff

/* {======================================================================
** Objects and bindings
** ======================================================================= */

/* The classes of the trainer's config objects. */
typedef enum cls { CL_PRETRAIN = 0, CL_DIST, CL_TRAIN, CL_LOGGING, CL_IGNORED, CL_COUNT } cls;

static const char *const class_names[CL_COUNT] = {"PretrainLMCfg", "DistributedCfg", "TrainingCfg",
                                                  "LoggingCfg", "LoggingWandbCfg"};
static const char *const section_names[3] = {"distributed", "training", "logging"};

typedef struct obj {
  cls c;
  int wandb_set;         /* CL_LOGGING: wandb is a LoggingWandbCfg (else None, its default) */
  int section[3];        /* CL_PRETRAIN: its distributed, training and logging objects */
  int replaced;          /* a section set to something memest cannot read */
  tloc replaced_at;
  char replaced_why[300];
} obj;

/* One field of a section object as the script last set it. */
typedef struct slot {
  int o;
  char name[MAX_NAME + 1];
  int refused;
  int seq;               /* when it was set, in the order the script runs */
  tvalue v;
  tloc at;
  char why[512];
} slot;

typedef enum bind_kind {
  B_VALUE = 0,  /* a value memest can read (v) */
  B_OBJ,        /* a config object (o) */
  B_CLASS,      /* a config class (c) */
  B_PITH,       /* a name of the trainer's package (text: dotted) */
  B_LIB,        /* a name of a library memest knows (text: "pathlib.Path", "os.path") */
  B_MODULE,     /* a module of the user's (text: dotted) */
  B_DICT,       /* a dict: partial's **kwargs */
  B_UNKNOWN     /* something memest does not read (why) */
} bind_kind;

typedef struct binding {
  char name[MAX_NAME + 1];
  bind_kind k;
  int o;
  cls c;
  char text[MAX_DOTTED + 1];
  tvalue v;
  int anchored;   /* v is a path Python holds absolute (from __file__, resolve(), cwd()) */
  char why[240];
} binding;

typedef struct module {
  char name[MAX_DOTTED + 1];
  int is_pkg;          /* a package's __init__.py: relative imports start here */
  char *decoded;       /* the text as UTF-8 when a coding cookie named Latin-1 */
  char label[256];
  const char *src;
  pytok *t;
  int nt;
  binding *names;
  int n_names, cap_names;
  int loading;
  int is_main;
} module;

/* A field set through a name that may no longer be the object it was. */
typedef struct ambiguous {
  char section[16], name[MAX_NAME + 1];
  int seq;               /* when; SEQ_ALWAYS: a function's, which may run after anything */
  tloc at;
  char why[400];
} ambiguous;

typedef struct script {
  memest_trainer_run *run;
  memest_module_finder find;
  void *ctx;
  module mods[MEMEST_MAX_SCRIPT_MODULES];
  int n_mods;
  obj objs[MAX_OBJS];
  int n_objs;
  slot *slots;
  int n_slots, cap_slots;
  ambiguous amb[MAX_AMBIGUOUS];
  int n_amb;
  int launch_obj;
  int launch_line;           /* the launch() call at module level: its line, 0 none */
  int launch_mod;
  char deferred[MAX_NAME + 1];   /* launch(NAME) inside a function: the module name it reads */
  int deferred_line, deferred_mod;
  int fn_lo, fn_hi;          /* the module-level function whose body is being scanned, or -1 */
  int seq;                   /* assignments so far, in the order the script runs */
  int ignored_obj;           /* the one object standing for everything under logging */
  char missing[600];         /* the last module the finder did not find, and where it looked */
  int depth;
  memest_error *err;
} script;

/* What an expression is. */
typedef enum ev_kind {
  EV_VALUE = 0, EV_OBJ, EV_CLASS, EV_PITH, EV_LIB, EV_MODULE, EV_DICT, EV_NOT_STATIC
} ev_kind;

typedef struct ev {
  ev_kind k;
  tvalue v;
  int anchored;     /* EV_VALUE path: absolute in Python, written relative to the working folder */
  int o;
  cls c;
  char text[MAX_DOTTED + 1];   /* EV_PITH, EV_LIB, EV_MODULE: the dotted name; EV_LIB methods: "path.resolve" */
  char why[240];    /* EV_NOT_STATIC */
} ev;

static void not_static(ev *e, const char *fmt, const char *what) {
  memset(e, 0, sizeof *e);
  e->k = EV_NOT_STATIC;
  snprintf(e->why, sizeof e->why, fmt, what);
}

static const char *tok_text(const module *m, const pytok *t, char *buf, size_t size) {
  size_t n = t->len < size - 1 ? t->len : size - 1;
  memcpy(buf, m->src + t->start, n);
  buf[n] = '\0';
  return buf;
}

/* The source text of tokens [lo, hi), shortened, for messages. */
static const char *span_text(const module *m, int lo, int hi, char *buf, size_t size) {
  size_t a, b, n;
  if (lo >= hi) {
    snprintf(buf, size, "%s", "");
    return buf;
  }
  a = m->t[lo].start;
  b = m->t[hi - 1].start + m->t[hi - 1].len;
  n = b - a;
  if (n >= size - 4) {
    snprintf(buf, size, "%.*s...", (int)(size - 4), m->src + a);
  } else {
    memcpy(buf, m->src + a, n);
    buf[n] = '\0';
  }
  for (a = 0; buf[a]; a++)
    if (buf[a] == '\n' || buf[a] == '\r' || buf[a] == '\t') buf[a] = ' ';
  return buf;
}

static int is_op(const module *m, int i, const char *s) { return memi_tok_is(m->src, &m->t[i], s); }
static int is_name(const module *m, int i, const char *s) {
  return m->t[i].kind == PT_NAME && memi_tok_is(m->src, &m->t[i], s);
}

/* A construct memest refuses: the script is not read. The message names
** the file and line, then what the construct is and why. */
static memest_code refuse(script *sc, const module *m, int line, const char *fmt, ...)
    MEMEST_PRINTF(4, 5);
static memest_code refuse(script *sc, const module *m, int line, const char *fmt, ...) {
  char msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return memi_err_set(sc->err, MEMEST_E_VALUE, "script", "%.200s:%d: %s", m->label, line, msg);
}

static memest_code limit(script *sc, const char *what, int max, const char *name) {
  return memi_err_set(sc->err, MEMEST_E_LIMIT, "script",
                      "the script reaches more than %d %s (%s); a launch script has a few", max, what,
                      name);
}

static int new_obj(script *sc, cls c) {
  obj *o;
  int k;
  if (sc->n_objs == MAX_OBJS) return -1;
  o = &sc->objs[sc->n_objs];
  memset(o, 0, sizeof *o);
  o->c = c;
  for (k = 0; k < 3; k++) o->section[k] = -1;
  return sc->n_objs++;
}

/* A new PretrainLMCfg with its three sections made by their default factories. */
static int new_cfg(script *sc) {
  int p = new_obj(sc, CL_PRETRAIN), k;
  if (p < 0) return -1;
  for (k = 0; k < 3; k++) {
    int s = new_obj(sc, (cls)(CL_DIST + k));
    if (s < 0) return -1;
    sc->objs[p].section[k] = s;
  }
  return p;
}

static binding *lookup(module *m, const char *name) {
  int i;
  for (i = m->n_names - 1; i >= 0; i--)
    if (strcmp(m->names[i].name, name) == 0) return &m->names[i];
  return NULL;
}

/* The binding of name in m, made if it is new; NULL with sc->err set. */
static binding *bind(script *sc, module *m, const char *name) {
  binding *b = lookup(m, name);
  if (b != NULL) {
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    return b;
  }
  if (m->n_names == m->cap_names) {
    int nc = m->cap_names ? m->cap_names * 2 : 32;
    binding *nb;
    if (m->cap_names >= MEMEST_MAX_SCRIPT_NAMES) {
      limit(sc, "module-level names in one file (MEMEST_MAX_SCRIPT_NAMES)", MEMEST_MAX_SCRIPT_NAMES,
            m->label);
      return NULL;
    }
    nb = realloc(m->names, (size_t)nc * sizeof *nb);
    if (nb == NULL) {
      memi_err_set(sc->err, MEMEST_E_NOMEM, "script", "out of memory");
      return NULL;
    }
    m->names = nb;
    m->cap_names = nc;
  }
  b = &m->names[m->n_names++];
  memset(b, 0, sizeof *b);
  snprintf(b->name, sizeof b->name, "%s", name);
  return b;
}

static memest_code bind_ev(script *sc, module *m, const char *name, const ev *e) {
  binding *b = bind(sc, m, name);
  if (b == NULL) return sc->err->code;
  switch (e->k) {
    case EV_VALUE: b->k = B_VALUE; b->v = e->v; b->anchored = e->anchored; break;
    case EV_OBJ: b->k = B_OBJ; b->o = e->o; break;
    case EV_CLASS: b->k = B_CLASS; b->c = e->c; break;
    case EV_PITH: b->k = B_PITH; snprintf(b->text, sizeof b->text, "%s", e->text); break;
    case EV_LIB: b->k = B_LIB; b->v = e->v; snprintf(b->text, sizeof b->text, "%s", e->text); break;
    case EV_MODULE: b->k = B_MODULE; snprintf(b->text, sizeof b->text, "%s", e->text); break;
    case EV_DICT: b->k = B_DICT; break;
    case EV_NOT_STATIC:   /* "a subscript" becomes "bound to a subscript" */
      b->k = B_UNKNOWN;
      snprintf(b->why, sizeof b->why, "%s%.220s",
               strncmp(e->why, "bound", 5) == 0 || strstr(e->why, "imported from") != NULL ? "" : "bound to ",
               e->why);
      break;
  }
  return MEMEST_OK;
}

static memest_code bind_unknown(script *sc, module *m, const char *name, const char *why) {
  ev e;
  not_static(&e, "%s", why);
  return bind_ev(sc, m, name, &e);
}

/* What binding b means as an expression; a lost name says which (name, or
** NULL for the binding's reason alone). */
static void binding_ev(const binding *b, ev *e, const char *name) {
  memset(e, 0, sizeof *e);
  switch (b->k) {
    case B_VALUE: e->k = EV_VALUE; e->v = b->v; e->anchored = b->anchored; break;
    case B_OBJ: e->k = EV_OBJ; e->o = b->o; break;
    case B_CLASS: e->k = EV_CLASS; e->c = b->c; break;
    case B_PITH: e->k = EV_PITH; tr_copy(e->text, sizeof e->text, b->text); break;
    case B_LIB: e->k = EV_LIB; e->v = b->v; tr_copy(e->text, sizeof e->text, b->text); break;
    case B_MODULE: e->k = EV_MODULE; tr_copy(e->text, sizeof e->text, b->text); break;
    case B_DICT: e->k = EV_DICT; break;
    case B_UNKNOWN:
      if (name == NULL) {
        not_static(e, "%s", b->why);
      } else {
        char what[240];
        snprintf(what, sizeof what, "%.40s, %.190s", name, b->why);
        not_static(e, "%s", what);
      }
      break;
  }
}

/* The slot of field name of object o, made if new; NULL with sc->err set. */
static slot *field_slot(script *sc, int o, const char *name) {
  int i;
  for (i = 0; i < sc->n_slots; i++)
    if (sc->slots[i].o == o && strcmp(sc->slots[i].name, name) == 0) return &sc->slots[i];
  if (sc->n_slots == sc->cap_slots) {
    int nc = sc->cap_slots ? sc->cap_slots * 2 : 64;
    slot *ns;
    if (sc->cap_slots >= MAX_SLOTS) {
      limit(sc, "config fields set", MAX_SLOTS, name);
      return NULL;
    }
    ns = realloc(sc->slots, (size_t)nc * sizeof *ns);
    if (ns == NULL) {
      memi_err_set(sc->err, MEMEST_E_NOMEM, "script", "out of memory");
      return NULL;
    }
    sc->slots = ns;
    sc->cap_slots = nc;
  }
  memset(&sc->slots[sc->n_slots], 0, sizeof sc->slots[0]);
  sc->slots[sc->n_slots].o = o;
  snprintf(sc->slots[sc->n_slots].name, sizeof sc->slots[0].name, "%s", name);
  return &sc->slots[sc->n_slots++];
}

static const char *section_of(const script *sc, int o) {
  cls c = sc->objs[o].c;
  return c == CL_DIST ? "distributed" : c == CL_TRAIN ? "training" : "logging";
}
/* }====================================================================== */

/* {======================================================================
** Names memest knows: the trainer's package, a few libraries, builtins
** ======================================================================= */

static const char *const known_libs[] = {
  "functools", "pathlib", "os", "sys", "datetime", "typing", "math", "json", "argparse",
  "dataclasses", "logging", "subprocess", "shutil", "time", "re", "itertools", "collections",
  "copy", "random", "warnings", "torch", "transformers", "huggingface_hub", "wandb", "numpy",
  "__future__", "glob", "socket", "platform", "importlib", NULL};

/* Whether a dotted module name is the trainer's package or a library
** memest never looks into. */
static int lib_module(const char *dotted, int *pith) {
  char first[64];
  int k;
  snprintf(first, sizeof first, "%.*s", (int)strcspn(dotted, "."), dotted);
  *pith = strcmp(first, "pithtrain") == 0;
  if (*pith) return 1;
  for (k = 0; known_libs[k]; k++)
    if (strcmp(first, known_libs[k]) == 0) return 1;
  return 0;
}

/* name's meaning inside the trainer's package. */
static void pith_name(const char *dotted, const char *name, ev *e) {
  int k;
  memset(e, 0, sizeof *e);
  for (k = 0; k < CL_COUNT; k++) {
    if (strcmp(name, class_names[k]) == 0) {
      e->k = EV_CLASS;
      e->c = (cls)k;
      return;
    }
  }
  e->k = EV_PITH;
  snprintf(e->text, sizeof e->text, "%.60s%s%.60s", dotted, dotted[0] ? "." : "", name);
}

/* A library's name: the few memest follows, or something it does not read. */
static void lib_name(const char *dotted, const char *name, ev *e) {
  static const char *const known[] = {
    "pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.PurePosixPath",
    "functools.partial", "datetime.timedelta", "os.path", "os.path.join", NULL};
  char full[128];
  int k;
  memset(e, 0, sizeof *e);
  snprintf(full, sizeof full, "%.60s%s%.60s", dotted, dotted[0] ? "." : "", name);
  for (k = 0; known[k]; k++) {
    if (strcmp(full, known[k]) == 0) {
      e->k = EV_LIB;
      snprintf(e->text, sizeof e->text, "%s", strncmp(full, "pathlib.", 8) == 0 ? "pathlib.Path" : full);
      return;
    }
  }
  e->k = EV_LIB;
  snprintf(e->text, sizeof e->text, "%s", full);
}

static int builtin(const char *name, ev *e) {
  static const char *const names[] = {
    "dict", "print", "setattr", "int", "float", "str", "bool", "len", "min", "max", "sum", "abs",
    "round", "list", "tuple", "set", "range", "getattr", "open", "any", "all", "sorted", "eval",
    "exec", "input", NULL};
  int k;
  for (k = 0; names[k]; k++) {
    if (strcmp(name, names[k]) == 0) {
      memset(e, 0, sizeof *e);
      e->k = EV_LIB;
      snprintf(e->text, sizeof e->text, "builtins.%s", name);
      return 1;
    }
  }
  return 0;
}
/* Whether name is one of Python 3.12's builtins (dir(builtins) less the
** dunder names): a name neither bound nor here is a NameError. */
static int python_builtin(const char *name) {
  static const char *const names[] = {
  "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
  "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
  "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
  "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError", "Exception",
  "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError", "FloatingPointError",
  "FutureWarning", "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError",
  "IndexError", "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt",
  "LookupError", "MemoryError", "ModuleNotFoundError", "NameError", "None", "NotADirectoryError",
  "NotImplemented", "NotImplementedError", "OSError", "OverflowError", "PendingDeprecationWarning",
  "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError", "ResourceWarning",
  "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError",
  "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError", "True", "TypeError",
  "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
  "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError", "Warning",
  "ZeroDivisionError", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
  "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright",
  "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter",
  "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
  "input", "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map",
  "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property",
  "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
  "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", NULL};
  int k;
  for (k = 0; names[k]; k++)
    if (strcmp(name, names[k]) == 0) return 1;
  return 0;
}
/* }====================================================================== */

/* {======================================================================
** Constructs refused wherever they stand: what can rebind any name or
** config field out of memest's sight
** ======================================================================= */

static int close_of(const module *m, int i, int hi);
static int line_end(const module *m, int i, int hi);
static int starts_compound(const module *m, int i);
static int header_colon(const module *m, int i, int end);
static int is_augmented(const module *m, int k);
static int path_parent(char *p, size_t size, int anchored);
static void path_fold(char *p);

/* Where tokens stand, for check_span. */
enum { AT_RUN = 0, AT_SKIPPED, AT_FUNCTION };

/* Names that reach a module's namespace or objects' fields by another way
** than an assignment memest reads, or run text as code. */
static const char *const dynamic_names[] = {
  "exec", "eval", "compile", "globals", "locals", "vars", "__import__", "importlib", "runpy",
  "delattr", "builtins", "__builtins__", "chdir", "fchdir", "breakpoint", "reload", NULL};

/* The index of the first token at depth 0 in [i, hi) that is the name or
** operator s (hi when none). */
static int find_at_depth0(const module *m, int i, int hi, const char *s) {
  int depth = 0;
  for (; i < hi; i++) {
    if (is_op(m, i, "(") || is_op(m, i, "[") || is_op(m, i, "{")) depth++;
    else if (is_op(m, i, ")") || is_op(m, i, "]") || is_op(m, i, "}")) depth--;
    else if (depth == 0 && memi_tok_is(m->src, &m->t[i], s)) return i;
  }
  return hi;
}

/* Refuses what no reading of [lo, hi) can follow: names over MAX_NAME or
** not ASCII (Python reads them in NFKC form), exec/eval/globals() and
** their kind, dunder names, sys.path and sys.modules, a global statement
** in a function, setattr() outside a module-level statement of its own,
** attribute or subscript targets of a for (comprehensions too). */
static memest_code check_span(script *sc, module *m, int lo, int hi, int at) {
  char buf[MAX_NAME + 1];
  int k, j;
  for (k = lo; k < hi; k++) {
    const pytok *t = &m->t[k];
    const char *p = m->src + t->start;
    int line = t->line;
    if (t->kind != PT_NAME) continue;
    for (j = 0; j < (int)t->len; j++) {
      if ((unsigned char)p[j] >= 0x80)
        return refuse(sc, m, line,
                      "the name %.*s is not ASCII: Python reads a name in its NFKC form (a "
                      "fullwidth \xef\xbd\x83\xef\xbd\x86\xef\xbd\x87 is cfg), which memest does not "
                      "compute; write it in ASCII",
                      (int)(t->len > 60 ? 60 : t->len), p);
    }
    if (t->len > MAX_NAME)
      return refuse(sc, m, line,
                    "the name %.40s... is %u characters long; memest reads names of up to %d "
                    "(a longer one is refused, never cut): shorten it",
                    p, (unsigned)t->len, MAX_NAME);
    tok_text(m, t, buf, sizeof buf);
    for (j = 0; dynamic_names[j]; j++) {
      if (strcmp(buf, dynamic_names[j]) == 0)
        return refuse(sc, m, line,
                      "%s can bind names or set fields that memest cannot see without running "
                      "the script; memest reads only plain assignments: remove it",
                      buf);
    }
    if (t->len > 4 && buf[0] == '_' && buf[1] == '_' && buf[t->len - 1] == '_' &&
        buf[t->len - 2] == '_' && strcmp(buf, "__name__") != 0 && strcmp(buf, "__file__") != 0 &&
        strcmp(buf, "__future__") != 0 && !(k > lo && is_name(m, k - 1, "def")))
      return refuse(sc, m, line,
                    "%s reaches Python's machinery (a module's or an object's internals), which "
                    "memest does not follow: remove it",
                    buf);
    if ((strcmp(buf, "__name__") == 0 || strcmp(buf, "__file__") == 0) &&
        ((k + 1 < hi && (is_op(m, k + 1, "=") || is_op(m, k + 1, ":=") || is_op(m, k + 1, ",") ||
                         is_augmented(m, k + 1))) ||
         (k > lo && (is_name(m, k - 1, "as") || is_name(m, k - 1, "for") || is_name(m, k - 1, "import") ||
                     is_name(m, k - 1, "del") || is_name(m, k - 1, "global")))))
      return refuse(sc, m, line, "%s is rebound: memest reads it as Python sets it at the start "
                    "and follows no other value", buf);
    if (strcmp(buf, "sys") == 0 && k + 2 < hi && is_op(m, k + 1, ".") &&
        m->t[k + 2].kind == PT_NAME &&
        (is_name(m, k + 2, "path") || is_name(m, k + 2, "modules") || is_name(m, k + 2, "meta_path") ||
         is_name(m, k + 2, "path_hooks") || is_name(m, k + 2, "path_importer_cache")))
      return refuse(sc, m, line,
                    "sys.%s changes where or what Python imports, which memest does not follow: "
                    "set PYTHONPATH instead, as the trainer's launch.sh does",
                    tok_text(m, &m->t[k + 2], buf, sizeof buf));
    if (strcmp(buf, "global") == 0 && at == AT_FUNCTION)
      return refuse(sc, m, line,
                    "a global statement lets a function rebind module names when it is called, "
                    "which memest does not follow: set the names at module level");
    if (strcmp(buf, "setattr") == 0 && (at != AT_RUN || k != lo || k + 1 >= hi || !is_op(m, k + 1, "(") ||
                                        close_of(m, k + 1, hi) != hi))
      return refuse(sc, m, line,
                    "setattr() %s sets a field memest cannot tell; memest reads setattr(section, "
                    "'field', value) as a statement of its own at module level",
                    at == AT_RUN ? "inside an expression" : at == AT_SKIPPED ? "inside a block" : "inside a function");
    if (strcmp(buf, "launch") == 0 && !(k + 1 < hi && is_op(m, k + 1, "(")) &&
        !is_name(m, lo, "from") && !is_name(m, lo, "import") && !is_name(m, lo, "def"))
      return refuse(sc, m, line,
                    "launch is used as a value, not called; memest follows launch(cfg) called "
                    "by its name");
    if (strcmp(buf, "for") == 0) {   /* a for loop's or a comprehension's target */
      int in = find_at_depth0(m, k + 1, hi, "in");
      for (j = k + 1; j < in; j++) {
        if (is_op(m, j, ".") || is_op(m, j, "["))
          return refuse(sc, m, line,
                        "a for target that is an attribute or a subscript sets it on each "
                        "round, which memest does not run: assign the value itself");
      }      k = in - 1;   /* on from the target's end: one pass over the statement */
    }
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** The grammar's checks that the tokenizer cannot make: what Python refuses
** with a SyntaxError anywhere in a file refuses the file (one pass)
** ======================================================================= */

static const char *const hard_keywords[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
  "yield", NULL};

static int is_keyword(const module *m, int i) {
  int k;
  if (m->t[i].kind != PT_NAME) return 0;
  for (k = 0; hard_keywords[k]; k++)
    if (memi_tok_is(m->src, &m->t[i], hard_keywords[k])) return 1;
  return 0;
}

/* A token that ends an operand: a name (not a keyword), a number, a string,
** a closing bracket. */
static int ends_operand(const module *m, int i) {
  const pytok *t = &m->t[i];
  return (t->kind == PT_NAME && !is_keyword(m, i)) || t->kind == PT_NUMBER || t->kind == PT_STRING ||
         is_op(m, i, ")") || is_op(m, i, "]") || is_op(m, i, "}");
}

/* A token that starts an operand. */
static int starts_operand(const module *m, int i) {
  const pytok *t = &m->t[i];
  return (t->kind == PT_NAME && !is_keyword(m, i)) || t->kind == PT_NUMBER || t->kind == PT_STRING;
}

static memest_code syntax_error(script *sc, const module *m, int line, const char *what) {
  return refuse(sc, m, line, "%s (a SyntaxError in Python, which stops before launch)", what);
}

/* One simple statement [lo, hi) (on a logical line whose first token is
** first): what Python's parser refuses of it. */
static memest_code check_simple(script *sc, const module *m, int lo, int hi, int first) {
  int k, depth = 0, line = m->t[lo].line;
  const pytok *last = &m->t[hi - 1];
  for (k = lo; k < hi; k++) {   /* a bytes literal holds ASCII only */
    const char *p = m->src + m->t[k].start, *q = p;
    uint32_t j;
    if (m->t[k].kind != PT_STRING) continue;
    while (*q != '\'' && *q != '"') q++;
    if (memchr(p, 'b', (size_t)(q - p)) == NULL && memchr(p, 'B', (size_t)(q - p)) == NULL) continue;
    for (j = 0; j < m->t[k].len; j++)
      if ((unsigned char)p[j] >= 0x80)
        return syntax_error(sc, m, m->t[k].line, "bytes can only contain ASCII literal characters");
  }
  if (last->kind == PT_OP && !is_op(m, hi - 1, ")") && !is_op(m, hi - 1, "]") &&
      !is_op(m, hi - 1, "}") && !is_op(m, hi - 1, "...") && !is_op(m, hi - 1, ",") &&
      !(is_op(m, hi - 1, "*") && hi - 2 >= lo && is_name(m, hi - 2, "import")) &&
      !(is_op(m, hi - 1, ":") && starts_compound(m, first)))
    return syntax_error(sc, m, last->line, "invalid syntax: the statement ends in an operator");
  for (k = lo; k < hi; k++) {
    if (is_op(m, k, "(") || is_op(m, k, "[") || is_op(m, k, "{")) depth++;
    else if (is_op(m, k, ")") || is_op(m, k, "]") || is_op(m, k, "}")) depth--;
    if (k + 1 < hi && ends_operand(m, k) && starts_operand(m, k + 1) &&
        !(m->t[k].kind == PT_STRING && m->t[k + 1].kind == PT_STRING) &&
        !(k == lo && (is_name(m, k, "match") || is_name(m, k, "case") || is_name(m, k, "type") ||
                      is_name(m, k, "print"))))
      return syntax_error(sc, m, m->t[k + 1].line, "invalid syntax: two operands with no operator between");
    if (k == lo && is_name(m, k, "print") && k + 1 < hi && starts_operand(m, k + 1))
      return syntax_error(sc, m, line, "Missing parentheses in call to 'print'");
    if (depth == 0 && is_op(m, k, ":=") && !starts_compound(m, first))
      return syntax_error(sc, m, line, "invalid syntax: an assignment expression (:=) needs parentheses here");
    if (depth == 0 && (is_op(m, k, "=") || is_augmented(m, k)) && k > lo && is_keyword(m, k - 1))
      return syntax_error(sc, m, line, "cannot assign to a keyword (True, False, None, ...)");
  }
  if (is_name(m, lo, "nonlocal") && first == lo)
    return syntax_error(sc, m, line, "nonlocal declaration not allowed at module level");
  return MEMEST_OK;
}

/* A call's arguments in one logical line [lo, hi), in one pass: Python
** refuses a positional argument after a keyword argument or **, and *
** after **. Brackets deeper than the stack are not judged (the tokenizer
** bounds nesting well below it). */
static memest_code check_calls(script *sc, const module *m, int lo, int hi) {
  struct frame { char call, start, kw, kwu; } st[MEMEST_MAX_PY_NESTING + 8];
  int k, n = 0, deep = 0;
  const int cap = (int)(sizeof st / sizeof st[0]);
  for (k = lo; k < hi; k++) {
    struct frame *f;
    if (is_op(m, k, "(") || is_op(m, k, "[") || is_op(m, k, "{")) {
      if (n == cap) {
        deep++;
        continue;
      }
      st[n].call = is_op(m, k, "(") && k > lo && ends_operand(m, k - 1) && !(k - 2 >= lo && is_name(m, k - 2, "def"));
      st[n].start = 1;
      st[n].kw = st[n].kwu = 0;
      n++;
      continue;
    }
    if (is_op(m, k, ")") || is_op(m, k, "]") || is_op(m, k, "}")) {
      if (deep > 0) deep--;
      else if (n > 0) n--;
      if (n > 0) st[n - 1].start = 0;
      continue;
    }
    if (n == 0 || deep > 0 || !st[n - 1].call) continue;
    f = &st[n - 1];
    if (is_op(m, k, ",")) {
      f->start = 1;
      continue;
    }
    if (!f->start) continue;
    f->start = 0;
    if (is_op(m, k, "**")) {
      f->kwu = 1;
    } else if (is_op(m, k, "*")) {
      if (f->kwu)
        return syntax_error(sc, m, m->t[k].line, "iterable argument unpacking follows keyword argument unpacking");
    } else if (m->t[k].kind == PT_NAME && k + 1 < hi && is_op(m, k + 1, "=")) {
      f->kw = 1;
    } else if (f->kw || f->kwu) {
      return syntax_error(sc, m, m->t[k].line, f->kwu ? "positional argument follows keyword argument unpacking"
                                                     : "positional argument follows keyword argument");
    }
  }
  return MEMEST_OK;
}

/* The whole file: empty statements, statements ending in an operator,
** operands side by side, keywords assigned, unparenthesized :=, a block
** header without its block, return/yield/await outside a function,
** break/continue outside a loop, __future__ imports. Blocks are tracked by
** their INDENT: 'f' a function, 'c' a class, 'l' a loop, 'o' any other. */
static memest_code check_syntax(script *sc, module *m) {
  char kinds[MEMEST_MAX_PY_INDENT + 2];
  int n = 0, i = 0, past_future = 0, first_stmt = 1;
  memest_code rc;
  while (i < m->nt && m->t[i].kind != PT_END) {
    int end, s, inner, k;
    char kind = 'o', inline_kind;
    if (m->t[i].kind == PT_INDENT) {
      i++;
      continue;
    }
    if (m->t[i].kind == PT_DEDENT) {
      if (n > 0) n--;
      i++;
      continue;
    }
    if (m->t[i].kind == PT_NEWLINE) {
      i++;
      continue;
    }
    end = line_end(m, i, m->nt);
    if ((rc = check_calls(sc, m, i, end)) != MEMEST_OK) return rc;
    if ((is_name(m, i, "match") || is_name(m, i, "case")) && end - i > 1 && is_op(m, end - 1, ":") &&
        !is_op(m, i + 1, "=") && !is_op(m, i + 1, "."))
      return refuse(sc, m, m->t[i].line,
                    "a match statement: its patterns bind names, which memest does not follow");
    k = is_name(m, i, "async") ? i + 1 : i;
    if (is_name(m, k, "def")) kind = 'f';
    else if (is_name(m, k, "class")) kind = 'c';
    else if (is_name(m, k, "for") || is_name(m, k, "while")) kind = 'l';
    inner = -1;   /* an inline body after a header's colon */
    if (starts_compound(m, i)) {
      int colon = header_colon(m, i, end);
      if (colon < 0) return syntax_error(sc, m, m->t[i].line, "invalid syntax: a block header without ':'");
      if (colon == end - 1 && !(end + 1 < m->nt && m->t[end + 1].kind == PT_INDENT))
        return refuse(sc, m, m->t[i].line, "expected an indented block after the header on line %d "
                      "(an IndentationError in Python)", m->t[i].line);
      if (colon + 1 < end) inner = colon + 1;
      if (colon == end - 1 && n <= MEMEST_MAX_PY_INDENT) kinds[n++] = kind;
    }
    s = inner >= 0 ? inner : (starts_compound(m, i) || is_op(m, i, "@") ? end : i);
    inline_kind = kind;
    if (is_op(m, i, "@")) s = end;
    while (s < end) {   /* the simple statements of the line, split at ';' */
      int e = s, j, f_in = 0, l_in = 0;
      while (e < end && !is_op(m, e, ";")) e = is_op(m, e, "(") || is_op(m, e, "[") || is_op(m, e, "{") ? close_of(m, e, end) : e + 1;
      if (e == s) return syntax_error(sc, m, m->t[s].line, "invalid syntax: an empty statement (';')");
      if ((rc = check_simple(sc, m, s, e, s)) != MEMEST_OK) return rc;
      for (j = n - 1; j >= 0 && !f_in; j--) {   /* the innermost function or class, loops inside it */
        if (kinds[j] == 'f') f_in = 1;
        else if (kinds[j] == 'c') break;
        else if (kinds[j] == 'l' && !f_in) l_in = 1;
      }
      if (inner >= 0 && inline_kind == 'f') f_in = 1;
      if (inner >= 0 && inline_kind == 'l') l_in = 1;
      for (j = s; j < e && !f_in; j++) {
        if (is_name(m, j, "return") || is_name(m, j, "yield") || is_name(m, j, "await")) {
          int lam = 0, x;
          for (x = s; x < j; x++) lam |= is_name(m, x, "lambda");
          if (!lam) return syntax_error(sc, m, m->t[j].line, "'return', 'yield' or 'await' outside a function");
        }
      }
      if (!l_in && (is_name(m, s, "break") || is_name(m, s, "continue")))
        return syntax_error(sc, m, m->t[s].line, "'break' or 'continue' outside a loop");
      if (is_name(m, s, "from") && s + 1 < e && is_name(m, s + 1, "__future__")) {
        static const char *const features[] = {"nested_scopes", "generators", "division", "absolute_import",
                                               "with_statement", "print_function", "unicode_literals",
                                               "generator_stop", "annotations", NULL};
        if (past_future || n > 0)
          return syntax_error(sc, m, m->t[s].line, "from __future__ imports must occur at the beginning of the file");
        for (j = s + 3; j < e; j++) {
          int f, ok = 0;
          if (m->t[j].kind != PT_NAME || is_name(m, j, "as") || (j > s && is_name(m, j - 1, "as"))) continue;
          for (f = 0; features[f]; f++) ok |= memi_tok_is(m->src, &m->t[j], features[f]);
          if (!ok) return syntax_error(sc, m, m->t[j].line,
                                       is_name(m, j, "braces") ? "not a chance" : "future feature is not defined");
        }
      } else if (!(first_stmt && e == s + 1 && m->t[s].kind == PT_STRING)) {
        past_future = 1;
      }
      first_stmt = 0;
      s = e + 1;
    }
    if (starts_compound(m, i) || is_op(m, i, "@")) past_future = 1, first_stmt = 0;
    i = end + 1;
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Modules: the script and what it imports
** ======================================================================= */

static memest_code run_range(script *sc, module *m, int lo, int hi);

static int module_index(const script *sc, const char *dotted) {
  int i;
  for (i = 0; i < sc->n_mods; i++)
    if (strcmp(sc->mods[i].name, dotted) == 0) return i;
  return -1;
}

/* Loads module dotted (absolute, its parent packages loaded) through the
** finder and runs it, as Python's import does the first time; *idx is its
** index, or -1 when the finder has no such module (*why says where it
** looked). A package's submodule is bound in the package's names. */
static memest_code load_module(script *sc, const char *dotted, int *idx, char *why, size_t why_size) {
  const char *text = NULL, *label = NULL, *dot;
  size_t len = 0, n;
  memest_error e;
  module *m;
  int found;
  memest_code rc;
  *idx = module_index(sc, dotted);
  if (*idx >= 0) return MEMEST_OK;   /* loaded, or still loading: a circular import sees what is defined so far */
  memset(&e, 0, sizeof e);
  found = sc->find != NULL ? sc->find(sc->ctx, dotted, &text, &len, &label, &e) : 0;
  if (found < 0) {
    return memi_err_set(sc->err, e.code != MEMEST_OK ? e.code : MEMEST_E_IO, "script", "%s",
                        e.message[0] ? e.message : "a module of the script cannot be read");
  }
  if (found == 0 || text == NULL) {
    tr_copy(why, why_size, e.message[0] ? e.message : "no module finder was given");
    return MEMEST_OK;
  }
  if (sc->n_mods == MEMEST_MAX_SCRIPT_MODULES)
    return limit(sc, "files (MEMEST_MAX_SCRIPT_MODULES)", MEMEST_MAX_SCRIPT_MODULES, dotted);
  if (len > (size_t)MEMEST_MAX_SCRIPT_BYTES)
    return memi_err_set(sc->err, MEMEST_E_LIMIT, "script",
                        "%.200s is %zu bytes, over MEMEST_MAX_SCRIPT_BYTES (%d)",
                        label ? label : dotted, len, (int)MEMEST_MAX_SCRIPT_BYTES);
  m = &sc->mods[sc->n_mods];
  memset(m, 0, sizeof *m);
  snprintf(m->name, sizeof m->name, "%s", dotted);
  snprintf(m->label, sizeof m->label, "%s", label ? label : dotted);
  n = strlen(m->label);
  m->is_pkg = n >= 11 && strcmp(m->label + n - 11, "__init__.py") == 0 &&
              (n == 11 || m->label[n - 12] == '/');
  m->src = text;
  if ((rc = memi_py_decode(text, len, m->label, &m->decoded, &n, sc->err)) != MEMEST_OK) return rc;
  if (m->decoded != NULL) m->src = m->decoded, len = n;
  sc->n_mods++;   /* freed with the others from here on */
  rc = memi_pylex(m->src, len, m->label, 0, &m->t, &m->nt, sc->err);
  if (rc == MEMEST_OK) rc = check_syntax(sc, m);
  if (rc != MEMEST_OK) return rc;
  *idx = sc->n_mods - 1;
  memi_run_file(sc->run, m->label);
  if (++sc->depth > MEMEST_MAX_SCRIPT_MODULES)
    return limit(sc, "nested imports", MEMEST_MAX_SCRIPT_MODULES, dotted);
  m->loading = 1;
  rc = run_range(sc, m, 0, m->nt);
  sc->mods[*idx].loading = 0;
  sc->depth--;
  if (rc != MEMEST_OK) return rc;
  dot = strrchr(dotted, '.');
  if (dot != NULL) {   /* import a.b sets a's attribute b: a name of a's */
    char parent[MAX_DOTTED + 1];
    int p;
    ev sub;
    snprintf(parent, sizeof parent, "%.*s", (int)(dot - dotted), dotted);
    p = module_index(sc, parent);
    memset(&sub, 0, sizeof sub);
    sub.k = EV_MODULE;
    snprintf(sub.text, sizeof sub.text, "%s", dotted);
    if (p >= 0) return bind_ev(sc, &sc->mods[p], dot + 1, &sub);
  }
  return MEMEST_OK;
}

/* Imports the user's module dotted as Python does: each parent package
** first, then it; a module the finder does not have stops Python with
** ModuleNotFoundError, and the script is refused. *idx: its index. */
static memest_code import_module(script *sc, module *m, int line, const char *dotted, int *idx) {
  char part[MAX_DOTTED + 1], why[600] = "";
  size_t k;
  memest_code rc;
  for (k = 0;; k++) {
    if (dotted[k] != '.' && dotted[k] != '\0') continue;
    snprintf(part, sizeof part, "%.*s", (int)k, dotted);
    if ((rc = load_module(sc, part, idx, why, sizeof why)) != MEMEST_OK) return rc;
    if (*idx < 0) {
      snprintf(sc->missing, sizeof sc->missing, "%.100s: %.480s", part, why);
      return refuse(sc, m, line,
                    "the script imports module %.100s, which memest could not find (%.400s); "
                    "Python stops there with ModuleNotFoundError",
                    part, why);
    }
    if (dotted[k] == '\0') return MEMEST_OK;
  }
}

/* The absolute name of a relative import's module (dots: how many; rest:
** what follows them) from module m; "" and a refusal when m is in no
** package, as Python's ImportError. */
static memest_code absolute_name(script *sc, module *m, int line, int dots, const char *rest,
                                 char *out, size_t size) {
  char pkg[MAX_DOTTED + 1];
  int k;
  if (m->is_main || (!m->is_pkg && strchr(m->name, '.') == NULL))
    return refuse(sc, m, line,
                  "a relative import in %s, which is in no package: Python stops with \"attempted "
                  "relative import with no known parent package\"; write the module's name",
                  m->is_main ? "the script Python runs" : "a top-level module");
  snprintf(pkg, sizeof pkg, "%s", m->name);
  if (!m->is_pkg) *strrchr(pkg, '.') = '\0';
  for (k = 1; k < dots; k++) {
    char *dot = strrchr(pkg, '.');
    if (dot == NULL)
      return refuse(sc, m, line, "a relative import beyond the top-level package (ImportError in Python)");
    *dot = '\0';
  }
  if (strlen(pkg) + 1 + strlen(rest) > MAX_DOTTED)
    return refuse(sc, m, line, "a module name longer than %d characters, which memest does not read",
                  MAX_DOTTED);
  {
    size_t n = strlen(pkg), r = strlen(rest);
    if (n + 1 + r >= size) return refuse(sc, m, line, "a module name too long");
    memcpy(out, pkg, n);
    if (r > 0) out[n++] = '.';
    memcpy(out + n, rest, r + 1);
  }
  return MEMEST_OK;
}

/* The meaning of name in the loaded user module idx, after from-import:
** its binding, else its submodule (imported then, as Python does). */
static memest_code module_name(script *sc, module *m, int line, int idx, const char *name, ev *e) {
  binding *b = lookup(&sc->mods[idx], name);
  char sub[2 * MAX_DOTTED + 2];
  int s;
  if (b != NULL) {
    binding_ev(b, e, NULL);
    return MEMEST_OK;
  }
  snprintf(sub, sizeof sub, "%s.%s", sc->mods[idx].name, name);
  if (strlen(sub) > MAX_DOTTED)
    return refuse(sc, m, line, "a module name longer than %d characters, which memest does not read",
                  MAX_DOTTED);
  if (sc->mods[idx].is_pkg) {
    char why[600] = "";
    memest_code rc = load_module(sc, sub, &s, why, sizeof why);
    if (rc != MEMEST_OK) return rc;
    if (s >= 0) {
      memset(e, 0, sizeof *e);
      e->k = EV_MODULE;
      snprintf(e->text, sizeof e->text, "%.127s", sub);   /* longer names were refused */
      return MEMEST_OK;
    }
  }
  return refuse(sc, m, line,
                "cannot import name %.60s from %.100s, which does not define it at module level "
                "(Python stops with ImportError)",
                name, sc->mods[idx].label);
}
/* }====================================================================== */

/* {======================================================================
** Expressions: what memest can read of a right-hand side
** ======================================================================= */

static memest_code eval_range(script *sc, module *m, int lo, int hi, ev *e);

/* The index after the bracket that opens at i. */
static int close_of(const module *m, int i, int hi) {
  int depth = 0;
  for (; i < hi; i++) {
    if (m->t[i].kind != PT_OP) continue;
    if (is_op(m, i, "(") || is_op(m, i, "[") || is_op(m, i, "{")) depth++;
    else if (is_op(m, i, ")") || is_op(m, i, "]") || is_op(m, i, "}")) {
      if (--depth == 0) return i + 1;
    }
  }
  return hi;
}

/* The next comma at depth 0 in [i, hi), or hi. */
static int next_comma(const module *m, int i, int hi) {
  while (i < hi) {
    if (is_op(m, i, "(") || is_op(m, i, "[") || is_op(m, i, "{")) i = close_of(m, i, hi);
    else if (is_op(m, i, ",")) return i;
    else i++;
  }
  return hi;
}

/* Adjacent string tokens [lo, hi) as one str value. */
static void eval_strings(const module *m, int lo, int hi, ev *e) {
  size_t o = 0;
  int i, bytes = -1;
  memset(e, 0, sizeof *e);
  e->k = EV_VALUE;
  e->v.kind = TV_STR;
  for (i = lo; i < hi; i++) {
    int flags;
    char part[TV_TEXT];
    if (!memi_pystr_value(m->src + m->t[i].start, m->t[i].len, part, sizeof part, &flags)) {
      not_static(e, "%s", "a string longer than memest reads (511 bytes)");
      return;
    }
    if (flags & PS_FIELDS) {
      not_static(e, "%s", "an f-string with replacement fields");
      return;
    }
    if (flags & PS_TEMPLATE) {
      not_static(e, "%s", "a template string");
      return;
    }
    if (flags & PS_NUL) {
      not_static(e, "%s", "a string holding a NUL character (a path with one is a ValueError in Python)");
      return;
    }
    if (flags & (PS_NAMED_ESCAPE | PS_SURROGATE)) {
      not_static(e, "%s", "a string with a \\N{...} or surrogate escape");
      return;
    }
    if (bytes >= 0 && bytes != ((flags & PS_BYTES) != 0)) {
      not_static(e, "%s", "bytes joined to a str (a SyntaxError in Python)");
      return;
    }
    bytes = (flags & PS_BYTES) != 0;
    if (o + strlen(part) >= sizeof e->v.text) {
      not_static(e, "%s", "a string longer than memest reads (511 bytes)");
      return;
    }
    memcpy(e->v.text + o, part, strlen(part) + 1);
    o += strlen(part);
  }
  if (bytes == 1) not_static(e, "%s", "a bytes literal");
}

/* Joins path b onto a as pathlib does ("/" and os.path.join). */
static int path_join(char *a, size_t size, const char *b) {
  size_t n = strlen(a);
  if (b[0] == '/' || n == 0 || strcmp(a, ".") == 0) {
    if (strlen(b) >= size) return 0;
    memmove(a, b, strlen(b) + 1);
    return 1;
  }
  if (b[0] == '\0') return 1;
  if (n + 1 + strlen(b) >= size) return 0;
  if (a[n - 1] != '/') a[n++] = '/';
  memcpy(a + n, b, strlen(b) + 1);
  return 1;
}

/* PurePath's normal form: no empty or "." parts, no trailing slash; ".."
** stays a part as PurePath keeps it (path_walk below). */
static void path_walk(char *p, int fold);
static void path_normal(char *p) {
  path_walk(p, 0);
}

/* The arguments [lo, hi) of Path(...) or os.path.join(...) as one path. */
static memest_code eval_path_args(script *sc, module *m, int lo, int hi, int is_path, ev *e) {
  char acc[TV_TEXT] = "";
  int i = lo, anchored = 0;
  memest_code rc;
  while (i < hi) {
    int end = next_comma(m, i, hi);
    ev a;
    if (m->t[i].kind == PT_OP && (is_op(m, i, "*") || is_op(m, i, "**"))) {
      not_static(e, "%s", "a path from unpacked arguments");
      return MEMEST_OK;
    }
    if (end > i + 1 && is_op(m, i + 1, "=")) {
      not_static(e, "%s", "a path call with keyword arguments");
      return MEMEST_OK;
    }
    if ((rc = eval_range(sc, m, i, end, &a)) != MEMEST_OK) return rc;
    if (a.k != EV_VALUE || (a.v.kind != TV_STR && a.v.kind != TV_PATH)) {
      not_static(e, "%s", a.k == EV_NOT_STATIC ? a.why : "a path built from something other than strings");
      return MEMEST_OK;
    }
    if (a.anchored && a.v.text[0] != '/') {   /* absolute in Python: it replaces what came before */
      snprintf(acc, sizeof acc, "%s", a.v.text);
      anchored = 1;
    } else if (!path_join(acc, sizeof acc, a.v.text)) {
      not_static(e, "%s", "a path longer than memest reads (511 bytes)");
      return MEMEST_OK;
    }
    i = end + 1;
  }
  memset(e, 0, sizeof *e);
  e->k = EV_VALUE;
  e->anchored = anchored;
  e->v.kind = is_path ? TV_PATH : TV_STR;
  snprintf(e->v.text, sizeof e->v.text, "%s", acc[0] ? acc : ".");
  if (is_path) path_normal(e->v.text);
  return MEMEST_OK;
}

/* partial(func, ...): the wrapped function's name and the rest as written. */
static memest_code eval_partial(script *sc, module *m, int lo, int hi, ev *e) {
  int end = next_comma(m, lo, hi);
  ev f;
  memest_code rc;
  char args[160];
  if (lo >= hi || is_op(m, lo, "*") || is_op(m, lo, "**")) {
    not_static(e, "%s", "partial() without a function first");
    return MEMEST_OK;
  }
  if ((rc = eval_range(sc, m, lo, end, &f)) != MEMEST_OK) return rc;
  if (f.k == EV_PITH) {
    const char *dot = strrchr(f.text, '.');
    memset(&f.v, 0, sizeof f.v);
    memi_tv_set_text(&f.v, TV_FUNC, dot ? dot + 1 : f.text, strlen(dot ? dot + 1 : f.text));
    f.k = EV_VALUE;
  }
  if (f.k != EV_VALUE || (f.v.kind != TV_FUNC && f.v.kind != TV_PARTIAL)) {
    not_static(e, "%s", "partial() of something other than a function");
    return MEMEST_OK;
  }
  memset(e, 0, sizeof *e);
  e->k = EV_VALUE;
  e->v.kind = TV_PARTIAL;
  snprintf(e->v.text, sizeof e->v.text, "%s", f.v.text);
  span_text(m, end + 1, hi, args, sizeof args);
  snprintf(e->v.args, sizeof e->v.args, "%s", end < hi ? args : "");
  return MEMEST_OK;
}

/* A call of callee with arguments [lo, hi) (inside the parentheses). */
static memest_code eval_call(script *sc, module *m, const ev *callee, int lo, int hi, int name_tok,
                             ev *e) {
  char what[140], name[80];
  if (callee->k == EV_CLASS) {
    int o;
    if (lo < hi) {
      snprintf(what, sizeof what, "%s(...) with arguments, which the trainer's configs do not take",
               class_names[callee->c]);
      not_static(e, "%s", what);
      return MEMEST_OK;
    }
    if (callee->c == CL_IGNORED) {
      memset(e, 0, sizeof *e);
      e->k = EV_VALUE;
      memi_tv_set_text(&e->v, TV_OBJECT, class_names[callee->c], strlen(class_names[callee->c]));
      return MEMEST_OK;
    }
    o = callee->c == CL_PRETRAIN ? new_cfg(sc) : new_obj(sc, callee->c);
    if (o < 0) return limit(sc, "config objects", MAX_OBJS, class_names[callee->c]);
    memset(e, 0, sizeof *e);
    e->k = EV_OBJ;
    e->o = o;
    return MEMEST_OK;
  }
  if (callee->k == EV_LIB) {
    if (strcmp(callee->text, "pathlib.Path") == 0)
      return eval_path_args(sc, m, lo, hi, 1, e);
    if (strcmp(callee->text, "os.path.join") == 0) return eval_path_args(sc, m, lo, hi, 0, e);
    if (strcmp(callee->text, "functools.partial") == 0) return eval_partial(sc, m, lo, hi, e);
    if (strcmp(callee->text, "builtins.dict") == 0) {
      memset(e, 0, sizeof *e);
      e->k = EV_DICT;
      return MEMEST_OK;
    }
    if (strcmp(callee->text, "datetime.timedelta") == 0) {
      memset(e, 0, sizeof *e);
      e->k = EV_VALUE;
      memi_tv_set_text(&e->v, TV_OTHER, "a timedelta", 11);
      return MEMEST_OK;
    }
    if ((strcmp(callee->text, "path.resolve") == 0 || strcmp(callee->text, "path.absolute") == 0) &&
        lo == hi) {   /* the working folder joined; resolve() also folds "..": no links (the
                         command line refuses a script reached through one) */
      memset(e, 0, sizeof *e);
      e->k = EV_VALUE;
      e->v = callee->v;
      e->anchored = 1;
      if (callee->text[5] == 'r') path_fold(e->v.text);
      return MEMEST_OK;
    }
    if ((strcmp(callee->text, "pathlib.Path.cwd") == 0 || strcmp(callee->text, "os.getcwd") == 0) &&
        lo == hi) {
      memset(e, 0, sizeof *e);
      e->k = EV_VALUE;
      e->anchored = 1;
      memi_tv_set_text(&e->v, callee->text[0] == 'p' ? TV_PATH : TV_STR, ".", 1);
      return MEMEST_OK;
    }
    if (strcmp(callee->text, "os.path.dirname") == 0 || strcmp(callee->text, "os.path.abspath") == 0 ||
        strcmp(callee->text, "os.path.realpath") == 0 || strcmp(callee->text, "builtins.str") == 0) {
      ev a;
      memest_code rc;
      if (lo >= hi || next_comma(m, lo, hi) != hi || is_op(m, lo, "*") || is_op(m, lo, "**"))
        goto other;
      if ((rc = eval_range(sc, m, lo, hi, &a)) != MEMEST_OK) return rc;
      if (a.k != EV_VALUE || (a.v.kind != TV_STR && a.v.kind != TV_PATH)) goto other;
      *e = a;
      e->v.kind = TV_STR;
      if (strcmp(callee->text, "os.path.dirname") == 0) {   /* the part before the last '/' */
        char *slash = strrchr(e->v.text, '/');
        if (e->anchored) {
          path_fold(e->v.text);
          if (!path_parent(e->v.text, sizeof e->v.text, 1)) goto other;
        } else if (slash == NULL) {
          e->v.text[0] = '\0';
        } else {
          while (slash > e->v.text && slash[-1] == '/') slash--;
          slash[slash == e->v.text ? 1 : 0] = '\0';
        }
      } else if (strcmp(callee->text, "builtins.str") != 0) {   /* abspath, realpath */
        e->anchored = 1;
        path_fold(e->v.text);
      }
      return MEMEST_OK;
    }
  }
other:
  tr_copy(name, sizeof name, name_tok >= 0 ? tok_text(m, &m->t[name_tok], what, 64) : "");
  snprintf(what, sizeof what, "the result of a call to %.70s()", name[0] ? name : "a function");
  not_static(e, "%s", what);
  return MEMEST_OK;
}

/* Attribute name of e, in place. */
/* Attribute name of config object e->o, in place: a section of a
** PretrainLMCfg, a field's value as set so far, or logging's (ignored). */
static memest_code obj_attr(script *sc, ev *e, const char *name) {
  const obj *o = &sc->objs[e->o];
  char what[200];
  int k, i;
  if (o->c == CL_PRETRAIN) {
    for (k = 0; k < 3; k++) {
      if (strcmp(name, section_names[k]) != 0) continue;
      if (o->section[k] < 0) not_static(e, "%s", "a section replaced by something memest does not read");
      else e->o = o->section[k];
      return MEMEST_OK;
    }
    snprintf(what, sizeof what, "cfg.%.60s, which PretrainLMCfg does not have", name);
    not_static(e, "%s", what);
    return MEMEST_OK;
  }
  if (o->c == CL_DIST || o->c == CL_TRAIN) {
    int ob = e->o;
    for (i = 0; i < sc->n_slots; i++) {
      if (sc->slots[i].o == ob && strcmp(sc->slots[i].name, name) == 0 && !sc->slots[i].refused) {
        memset(e, 0, sizeof *e);
        e->k = EV_VALUE;
        e->v = sc->slots[i].v;
        return MEMEST_OK;
      }
    }
    snprintf(what, sizeof what, "%s.%.60s read before the script sets it", section_of(sc, ob), name);
    not_static(e, "%s", what);
    return MEMEST_OK;
  }
  if (o->c == CL_LOGGING && strcmp(name, "wandb") == 0 && !o->wandb_set) {
    memset(e, 0, sizeof *e);   /* None, LoggingCfg's default */
    e->k = EV_VALUE;
    e->v.kind = TV_NONE;
    return MEMEST_OK;
  }
  if (o->c == CL_LOGGING && strcmp(name, "wandb") != 0) {
    snprintf(what, sizeof what, "logging.%.60s, which LoggingCfg does not have", name);
    not_static(e, "%s", what);
    return MEMEST_OK;
  }
  if (sc->ignored_obj < 0) sc->ignored_obj = new_obj(sc, CL_IGNORED);   /* inside logging */
  if (sc->ignored_obj < 0) return limit(sc, "config objects", MAX_OBJS, name);
  e->o = sc->ignored_obj;
  return MEMEST_OK;
}

/* The parent of path p in place, as PurePath.parent: lexical; an anchored
** path (absolute in Python, written relative to the working folder) goes
** above it with "..". 0 when the last part is "..", whose lexical parent
** is not the folder above (memest refuses it). */
static int path_parent(char *p, size_t size, int anchored) {
  char *slash = strrchr(p, '/');
  const char *last = slash ? slash + 1 : p;
  if (strcmp(last, "..") == 0) {
    int all_up = 1;   /* "../..": an anchored path above the working folder */
    const char *q;
    for (q = p; *q && all_up; q += strcspn(q, "/") + (q[strcspn(q, "/")] == '/'))
      all_up = strncmp(q, "..", 2) == 0 && (q[2] == '/' || q[2] == '\0');
    if (!anchored || !all_up) return 0;
    if (strlen(p) + 4 >= size) return 0;
    strcat(p, "/..");
    return 1;
  }
  if (strcmp(p, ".") == 0 || p[0] == '\0') {
    if (anchored) snprintf(p, size, "..");
    else snprintf(p, size, ".");
    return 1;
  }
  if (slash == NULL) snprintf(p, size, ".");
  else if (slash == p) p[1] = '\0';
  else *slash = '\0';
  return 1;
}

/* Folds ".." parts into the part before them, as os.path.normpath does, in
** an anchored path (leading ".." stay: folders above the working folder). */
static void path_fold(char *p) {
  path_walk(p, 1);
}

/* The one walk over a path's parts: empty and "." parts dropped, and with
** fold, ".." folded into the part before it. */
static void path_walk(char *p, int fold) {
  char out[TV_TEXT];
  size_t o = 0, i = 0, n = strlen(p), ups = 0;
  int absolute = p[0] == '/';
  if (absolute) out[o++] = '/';
  while (i < n) {
    size_t j = i;
    while (j < n && p[j] != '/') j++;
    if (fold && j - i == 2 && p[i] == '.' && p[i + 1] == '.') {
      if (o > ups && o > (size_t)absolute) {   /* drop the last plain part */
        while (o > (size_t)absolute && out[o - 1] != '/') o--;
        if (o > (size_t)absolute) o--;
      } else if (!absolute) {
        if (o > 0) out[o++] = '/';
        out[o++] = '.';
        out[o++] = '.';
        ups = o;
      }
    } else if (j > i && !(j - i == 1 && p[i] == '.')) {
      if (o > (size_t)absolute) out[o++] = '/';
      memcpy(out + o, p + i, j - i);
      o += j - i;
    }
    i = j + 1;
  }
  if (o == 0) out[o++] = '.';
  out[o] = '\0';
  memcpy(p, out, o + 1);
}

/* Attribute name of a path value, in place: .parent, or .resolve and
** .absolute (methods: their call makes the path anchored). */
static int path_attr(ev *e, const char *name) {
  if (strcmp(name, "parent") == 0) {
    if (!path_parent(e->v.text, sizeof e->v.text, e->anchored))
      not_static(e, "%s", "the parent of a path ending in \"..\" (lexical in Python, not the folder above)");
    return 1;
  }
  if (strcmp(name, "resolve") == 0 || strcmp(name, "absolute") == 0) {
    e->k = EV_LIB;
    snprintf(e->text, sizeof e->text, "path.%s", name);
    return 1;
  }
  return 0;
}

/* Attribute name of e, in place. */
static memest_code eval_attr(script *sc, ev *e, const char *name) {
  char what[200], dotted[MAX_DOTTED + 1];
  if (e->k == EV_OBJ) return obj_attr(sc, e, name);
  if (e->k == EV_PITH || e->k == EV_LIB || e->k == EV_MODULE) {
    tr_copy(dotted, sizeof dotted, e->text);
    if (e->k == EV_MODULE) {   /* the module was run at its import; its names as they are now */
      int idx = module_index(sc, dotted);
      binding *b = idx >= 0 ? lookup(&sc->mods[idx], name) : NULL;
      if (b != NULL) {
        binding_ev(b, e, NULL);
      } else {
        snprintf(what, sizeof what, "%.40s.%.40s, which module %.40s does not define (an "
                 "AttributeError in Python)", dotted, name, dotted);
        not_static(e, "%s", what);
      }
      return MEMEST_OK;
    }
    if (e->k == EV_PITH) pith_name(dotted, name, e);
    else lib_name(dotted, name, e);
    return MEMEST_OK;
  }
  if (e->k == EV_VALUE && e->v.kind == TV_PATH && path_attr(e, name)) return MEMEST_OK;
  if (e->k != EV_NOT_STATIC) {
    snprintf(what, sizeof what, "an attribute (.%.60s) memest does not read", name);
    not_static(e, "%s", what);
  }
  return MEMEST_OK;
}

/* A name's meaning in m at this point of the script. */
static memest_code eval_name(module *m, const char *name, ev *e) {
  binding *b = lookup(m, name);
  memset(e, 0, sizeof *e);
  if (strcmp(name, "True") == 0 || strcmp(name, "False") == 0) {
    e->k = EV_VALUE;
    e->v.kind = TV_BOOL;
    e->v.i = name[0] == 'T';
    return MEMEST_OK;
  }
  if (strcmp(name, "None") == 0) {
    e->k = EV_VALUE;
    e->v.kind = TV_NONE;
    return MEMEST_OK;
  }
  if (b == NULL && strcmp(name, "__file__") == 0) {   /* absolute in Python: the file's path */
    e->k = EV_VALUE;
    e->anchored = 1;
    memi_tv_set_text(&e->v, TV_STR, m->label, strlen(m->label));
    path_fold(e->v.text);
    return MEMEST_OK;
  }
  if (b == NULL) {
    char what[120];
    if (builtin(name, e)) return MEMEST_OK;
    snprintf(what, sizeof what, "the name %.60s, which is not defined at this point", name);
    not_static(e, "%s", what);
    return MEMEST_OK;
  }
  binding_ev(b, e, name);
  return MEMEST_OK;
}

/* What a token starting a non-static form says it is. */
static const char *form_of(const module *m, int i) {
  static const char *const arith[] = {"+", "-", "*", "**", "//", "%", "@", "&", "|", "^", "<<",
                                      ">>", "~", NULL};
  int k;
  if (m->t[i].kind == PT_NAME) {
    if (is_name(m, i, "if") || is_name(m, i, "else")) return "a conditional expression";
    if (is_name(m, i, "for")) return "a comprehension";
    if (is_name(m, i, "lambda")) return "a lambda";
    if (is_name(m, i, "and") || is_name(m, i, "or") || is_name(m, i, "not")) return "a boolean expression";
    if (is_name(m, i, "in") || is_name(m, i, "is")) return "a comparison";
    if (is_name(m, i, "await") || is_name(m, i, "yield")) return "an await or yield";
  }
  for (k = 0; arith[k]; k++)
    if (is_op(m, i, arith[k])) return "an arithmetic expression";
  if (is_op(m, i, ",")) return "a tuple";
  if (is_op(m, i, "[")) return "a subscript";
  if (is_op(m, i, "==") || is_op(m, i, "!=") || is_op(m, i, "<") || is_op(m, i, ">") ||
      is_op(m, i, "<=") || is_op(m, i, ">="))
    return "a comparison";
  if (is_op(m, i, ":=")) return "an assignment expression";
  return "an expression";
}

/* One operand: an atom and its trailers, from *i in [*i, hi). */
/* A number token at k (negated when neg) as a value. */
static void eval_number(const module *m, int k, int neg, ev *e) {
  memset(e, 0, sizeof *e);
  memi_pynum_value(m->src + m->t[k].start, m->t[k].len, &e->v);
  e->k = e->v.kind == TV_OTHER ? EV_NOT_STATIC : EV_VALUE;
  tr_copy(e->why, sizeof e->why, e->v.text);
  if (neg) e->v.i = -e->v.i, e->v.f = -e->v.f;
}

/* A bracketed display at k: a parenthesised expression, else a tuple, a
** dict (partial's kwargs), a set or a list. */
static memest_code eval_display(script *sc, module *m, int k, int end, ev *e) {
  int j, colon = end - 1 == k + 1;
  if (is_op(m, k, "(")) {
    if (next_comma(m, k + 1, end - 1) < end - 1 || end - 1 == k + 1) not_static(e, "%s", "a tuple");
    else return eval_range(sc, m, k + 1, end - 1, e);
    return MEMEST_OK;
  }
  if (is_op(m, k, "[")) {
    not_static(e, "%s", "a list");
    return MEMEST_OK;
  }
  for (j = k + 1; j < end - 1; j = is_op(m, j, "(") || is_op(m, j, "[") || is_op(m, j, "{") ? close_of(m, j, end) : j + 1)
    colon |= is_op(m, j, ":");
  memset(e, 0, sizeof *e);
  if (colon) e->k = EV_DICT;
  else not_static(e, "%s", "a set");
  return MEMEST_OK;
}

/* An operand's atom from *i; *name_tok is its name token, or -1. Leaves
** *i past it, or at hi when the operand is not one memest reads. */
static memest_code eval_atom(script *sc, module *m, int *i, int hi, int *name_tok, ev *e) {
  static const char *const keywords[] = {"lambda", "not", "await", "yield", "if", "for", NULL};
  int k = *i, j;
  char buf[80];
  const pytok *t = &m->t[k];
  *name_tok = -1;
  if (t->kind == PT_OP && (is_op(m, k, "-") || is_op(m, k, "+")) && k + 1 < hi &&
      m->t[k + 1].kind == PT_NUMBER) {
    eval_number(m, k + 1, is_op(m, k, "-"), e);
    *i = k + 2;
  } else if (t->kind == PT_NUMBER) {
    eval_number(m, k, 0, e);
    *i = k + 1;
  } else if (t->kind == PT_STRING) {
    int end = k;
    while (end < hi && m->t[end].kind == PT_STRING) end++;
    eval_strings(m, k, end, e);
    *i = end;
  } else if (t->kind == PT_NAME) {
    tok_text(m, t, buf, sizeof buf);
    for (j = 0; keywords[j]; j++) {
      if (strcmp(buf, keywords[j]) == 0) {
        not_static(e, "%s", form_of(m, k));
        *i = hi;
        return MEMEST_OK;
      }
    }
    *name_tok = k;
    *i = k + 1;
    return eval_name(m, buf, e);
  } else if (is_op(m, k, "(") || is_op(m, k, "[") || is_op(m, k, "{")) {
    *i = close_of(m, k, hi);
    return eval_display(sc, m, k, *i, e);
  } else {
    not_static(e, "%s", form_of(m, k));
    *i = hi;
  }
  return MEMEST_OK;
}

/* One operand: an atom and its trailers (.name, (args), [subscript]),
** from *i in [*i, hi). */
static memest_code eval_operand(script *sc, module *m, int *i, int hi, ev *e) {
  int k = *i, name_tok;
  char buf[80];
  memest_code rc;
  if ((rc = eval_atom(sc, m, &k, hi, &name_tok, e)) != MEMEST_OK) return rc;
  while (k < hi) {
    if (is_op(m, k, ".") && k + 1 < hi && m->t[k + 1].kind == PT_NAME) {
      if (e->k != EV_NOT_STATIC && (rc = eval_attr(sc, e, tok_text(m, &m->t[k + 1], buf, sizeof buf))) != MEMEST_OK)
        return rc;
      name_tok = k + 1;
      k += 2;
    } else if (is_op(m, k, "(")) {
      int end = close_of(m, k, hi);
      ev callee = *e;
      if (e->k != EV_NOT_STATIC && (rc = eval_call(sc, m, &callee, k + 1, end - 1, name_tok, e)) != MEMEST_OK)
        return rc;
      name_tok = -1;
      k = end;
    } else if (is_op(m, k, "[")) {
      if (e->k != EV_NOT_STATIC) not_static(e, "%s", "a subscript");
      k = close_of(m, k, hi);
    } else {
      break;
    }
  }
  *i = k;
  return MEMEST_OK;
}

/* An expression [lo, hi): one operand, or operands joined by "/" (a path). */
static memest_code eval_range(script *sc, module *m, int lo, int hi, ev *e) {
  int i = lo;
  memest_code rc;
  if (lo >= hi) {
    not_static(e, "%s", "nothing");
    return MEMEST_OK;
  }
  if ((rc = eval_operand(sc, m, &i, hi, e)) != MEMEST_OK) return rc;
  while (i < hi) {
    ev b;
    if (!is_op(m, i, "/") || i + 1 >= hi) {
      not_static(e, "%s", form_of(m, i));
      return MEMEST_OK;
    }
    i++;
    if ((rc = eval_operand(sc, m, &i, hi, &b)) != MEMEST_OK) return rc;
    if (e->k == EV_NOT_STATIC) continue;
    if (e->k == EV_VALUE && e->v.kind == TV_PATH && b.k == EV_VALUE &&
        (b.v.kind == TV_STR || b.v.kind == TV_PATH)) {
      if (b.anchored && b.v.text[0] != '/') {   /* absolute in Python: it replaces the left side */
        snprintf(e->v.text, sizeof e->v.text, "%s", b.v.text);
        e->anchored = 1;
        path_normal(e->v.text);
      } else if (!path_join(e->v.text, sizeof e->v.text, b.v.text)) {
        not_static(e, "%s", "a path too long");
      } else {
        path_normal(e->v.text);
      }
    } else {
      not_static(e, "%s", b.k == EV_NOT_STATIC ? b.why : "an arithmetic expression");
    }
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Statements
** ======================================================================= */

/* The index of the NEWLINE that ends the logical line at i (or hi). */
static int line_end(const module *m, int i, int hi) {
  while (i < hi && m->t[i].kind != PT_NEWLINE && m->t[i].kind != PT_END) i++;
  return i;
}

/* After the block whose INDENT is at i: the index after its DEDENT. */
static int block_end(const module *m, int i, int hi) {
  int depth = 0;
  for (; i < hi; i++) {
    if (m->t[i].kind == PT_INDENT) depth++;
    else if (m->t[i].kind == PT_DEDENT && --depth == 0) return i + 1;
  }
  return hi;
}

static const char *const compound_words[] = {"if", "elif", "else", "for", "while", "with", "try",
                                             "except", "finally", "def", "class", "async", NULL};

static int starts_compound(const module *m, int i) {
  int k;
  if (m->t[i].kind != PT_NAME) return 0;
  for (k = 0; compound_words[k]; k++)
    if (is_name(m, i, compound_words[k])) return 1;
  return 0;
}

/* The header's ':' of a compound statement on [i, end): the first at
** depth 0 that no lambda takes. */
static int header_colon(const module *m, int i, int end) {
  int lambdas = 0;
  while (i < end) {
    if (is_op(m, i, "(") || is_op(m, i, "[") || is_op(m, i, "{")) {
      i = close_of(m, i, end);
      continue;
    }
    if (is_name(m, i, "lambda")) lambdas++;
    if (is_op(m, i, ":")) {
      if (lambdas == 0) return i;
      lambdas--;
    }
    i++;
  }
  return -1;
}

/* What a block is, for messages. */
static const char *block_kind(const module *m, int i) {
  if (is_name(m, i, "if") || is_name(m, i, "elif") || is_name(m, i, "else")) return "an if block";
  if (is_name(m, i, "for")) return "a for loop";
  if (is_name(m, i, "while")) return "a while loop";
  if (is_name(m, i, "with")) return "a with block";
  if (is_name(m, i, "try") || is_name(m, i, "except") || is_name(m, i, "finally")) return "a try block";
  if (is_name(m, i, "def") || is_name(m, i, "async")) return "a function";
  if (is_name(m, i, "class")) return "a class";
  if (is_op(m, i, "@")) return "a decorated definition";
  return "a block";
}

/* Whether the header [i, colon) is `if __name__ == "__main__"`. */
static int main_guard(const module *m, int i, int colon) {
  char s[16];
  int flags, name_at, str_at;
  if (!is_name(m, i, "if") || colon - i != 4 || !is_op(m, i + 2, "==")) return 0;
  name_at = is_name(m, i + 1, "__name__") ? i + 1 : i + 3;
  str_at = name_at == i + 1 ? i + 3 : i + 1;
  if (!is_name(m, name_at, "__name__") || m->t[str_at].kind != PT_STRING) return 0;
  return memi_pystr_value(m->src + m->t[str_at].start, m->t[str_at].len, s, sizeof s, &flags) &&
         flags == 0 && strcmp(s, "__main__") == 0;
}

/* Sets field name of section object o to e (refused when e is not a value). */
static memest_code set_field(script *sc, module *m, int o, const char *name, const ev *e, int line,
                             const char *rhs) {
  slot *s;
  const char *sec = section_of(sc, o);
  if (sc->objs[o].c == CL_LOGGING || sc->objs[o].c == CL_IGNORED) {
    static const char *const wandb_fields[] = {"entity", "project", "name", "group", NULL};
    tloc at;
    char field[96];
    int k, known = sc->objs[o].c == CL_LOGGING && strcmp(name, "wandb") == 0;
    for (k = 0; wandb_fields[k] && sc->objs[o].c == CL_IGNORED; k++) known |= strcmp(name, wandb_fields[k]) == 0;
    if (!known)   /* the trainer's configs have __slots__: a new attribute is an AttributeError */
      return refuse(sc, m, line, "%s has no field %s (an AttributeError in Python)",
                    sc->objs[o].c == CL_LOGGING ? "LoggingCfg" : "LoggingWandbCfg", name);
    if (sc->objs[o].c == CL_LOGGING)
      sc->objs[o].wandb_set = e->k == EV_VALUE && e->v.kind == TV_OBJECT;
    memi_tloc_set(&at, m->label, line);
    snprintf(field, sizeof field, "logging.%s%.60s", sc->objs[o].c == CL_IGNORED ? "wandb." : "", name);
    memi_run_ignored(sc->run, field, &at);
    return MEMEST_OK;
  }
  if (memi_trainer_field(sec, name) == NULL)
    return refuse(sc, m, line,
                  "%s has no field %s: the trainer's configs have __slots__, so Python stops with "
                  "AttributeError",
                  sc->objs[o].c == CL_DIST ? "DistributedCfg" : "TrainingCfg", name);
  if ((s = field_slot(sc, o, name)) == NULL) return sc->err->code;
  memi_tloc_set(&s->at, m->label, line);
  s->seq = ++sc->seq;
  s->refused = 0;
  s->why[0] = '\0';
  if (e->k == EV_VALUE) {
    s->v = e->v;
    return MEMEST_OK;
  }
  if (e->k == EV_PITH) {   /* a name of the trainer's: a builder */
    const char *dot = strrchr(e->text, '.');
    memset(&s->v, 0, sizeof s->v);
    memi_tv_set_text(&s->v, TV_FUNC, dot ? dot + 1 : e->text, strlen(dot ? dot + 1 : e->text));
    return MEMEST_OK;
  }
  memset(&s->v, 0, sizeof s->v);
  s->refused = 1;
  if (e->k == EV_OBJ || e->k == EV_CLASS || e->k == EV_DICT || e->k == EV_MODULE) {
    snprintf(s->why, sizeof s->why, "%s:%d: %s.%s is set to %s, not a value", m->label, line, sec,
             name, e->k == EV_DICT ? "a dict" : "an object");
  } else {
    snprintf(s->why, sizeof s->why,
             "%.120s:%d: %s.%.40s is set to %.100s (%.50s); memest reads literals, Path(...), builder "
             "names and partial(builder, ...), and never runs the script: write the value",
             m->label, line, sec, name, e->k == EV_NOT_STATIC ? e->why : "a name of a library", rhs);
  }
  return MEMEST_OK;
}

/* Sets section k of PretrainLMCfg object p to e. */
static void set_section(script *sc, module *m, int p, int k, const ev *e, int line) {
  obj *o = &sc->objs[p];
  if (e->k == EV_OBJ && sc->objs[e->o].c == (cls)(CL_DIST + k)) {
    o->section[k] = e->o;
    return;
  }
  if (k == 2) return;   /* logging changes no memory */
  o->section[k] = new_obj(sc, (cls)(CL_DIST + k));
  if (o->section[k] < 0) return;
  sc->objs[o->section[k]].replaced = 1;
  memi_tloc_set(&sc->objs[o->section[k]].replaced_at, m->label, line);
  snprintf(sc->objs[o->section[k]].replaced_why, sizeof sc->objs[0].replaced_why,
           "%.150s:%d: cfg.%s is set to %.100s, which memest does not read", m->label, line,
           section_names[k], e->k == EV_NOT_STATIC ? e->why : "something other than its config class");
}

/* What an assignment target [lo, hi) ending in .NAME names. */
enum { TGT_NONE = -1, TGT_LOST = -2, TGT_MODULE = -3, TGT_TRAINER = -4, TGT_VALUE = -5 };

/* The object and last attribute of an assignment target [lo, hi): *o the
** config object of a target NAME(.NAME)+, else TGT_NONE (not an attribute,
** or not a config's: args.x), TGT_LOST (a name or form memest lost track
** of: which object is not known), TGT_MODULE (a name of the user's module
** *mod), TGT_TRAINER (the trainer's module or class: refused). */
static memest_code target_object(script *sc, module *m, int lo, int hi, int *o, char *attr,
                                 size_t size, int *mod) {
  ev e;
  char buf[MAX_NAME + 1];
  int k;
  memest_code rc;
  *o = TGT_NONE;
  *mod = -1;
  if (hi - lo < 3 || !is_op(m, hi - 2, ".") || m->t[hi - 1].kind != PT_NAME) return MEMEST_OK;
  tr_copy(attr, size, tok_text(m, &m->t[hi - 1], buf, sizeof buf));
  for (k = lo + 1; k < hi; k += 2) {
    if (m->t[lo].kind != PT_NAME || !is_op(m, k, ".") || m->t[k + 1].kind != PT_NAME) {
      *o = TGT_LOST;   /* x[0].training.f, (cfg).training.f, f().f: an object memest does not follow */
      return MEMEST_OK;
    }
  }
  if ((rc = eval_name(m, tok_text(m, &m->t[lo], buf, sizeof buf), &e)) != MEMEST_OK) return rc;
  for (k = lo + 1; k < hi - 2 && (e.k == EV_OBJ || e.k == EV_MODULE); k += 2)
    if ((rc = eval_attr(sc, &e, tok_text(m, &m->t[k + 1], buf, sizeof buf))) != MEMEST_OK) return rc;
  if (e.k == EV_OBJ) *o = e.o;
  else if (e.k == EV_NOT_STATIC) *o = TGT_LOST;
  else if (e.k == EV_MODULE) *o = TGT_MODULE, *mod = module_index(sc, e.text);
  else if (e.k == EV_PITH || e.k == EV_CLASS) *o = TGT_TRAINER;
  else if (e.k == EV_VALUE && e.v.kind != TV_OTHER) *o = TGT_VALUE;   /* None.x, 4096 .x, "s".x */
  if (*o == TGT_MODULE && *mod < 0) *o = TGT_LOST;
  return MEMEST_OK;
}

/* Records that field section.name is set in a way that makes it unknown. */
static memest_code add_ambiguous(script *sc, module *m, int line, const char *section,
                                 const char *name, const char *why) {
  ambiguous *a = NULL;
  int k;
  for (k = 0; k < sc->n_amb && a == NULL; k++)
    if (strcmp(sc->amb[k].section, section) == 0 && strcmp(sc->amb[k].name, name) == 0) a = &sc->amb[k];
  if (a == NULL) {
    if (sc->n_amb == MAX_AMBIGUOUS)
      return refuse(sc, m, line, "more than %d config fields are set in ways memest cannot follow",
                    MAX_AMBIGUOUS);
    a = &sc->amb[sc->n_amb++];
  }
  snprintf(a->section, sizeof a->section, "%s", section);
  snprintf(a->name, sizeof a->name, "%s", name);
  a->seq = sc->seq == SEQ_ALWAYS ? SEQ_ALWAYS : ++sc->seq;
  memi_tloc_set(&a->at, m->label, line);
  snprintf(a->why, sizeof a->why, "%s", why);
  return MEMEST_OK;
}

/* A field set through a lost name or form (why: how it was lost): which
** section it is of is told by its name; a section's name (training =
** ...) makes every memory field of that section unknown. */
static memest_code ambiguous_field(script *sc, module *m, int lo, const char *attr, int line,
                                   const char *why, int inside) {
  const char *sections[2] = {"distributed", "training"};
  char head[MAX_NAME + 10], buf[MAX_NAME + 1], msg[500];
  int k, i;
  memest_code rc;
  if (m->t[lo].kind == PT_NAME) snprintf(head, sizeof head, "the name %.40s", tok_text(m, &m->t[lo], buf, sizeof buf));
  else snprintf(head, sizeof head, "%s", "an expression");
  for (k = 0; k < 2; k++) {
    if (strcmp(attr, sections[k]) == 0) {   /* the whole section may be another object */
      snprintf(msg, sizeof msg,
               "%.150s:%d: a config's %s section is set %s%.50s, %.120s: memest cannot "
               "tell which config it changes",
               m->label, line, sections[k], inside ? "" : "through ", inside ? "" : head, why);
      for (i = 0; i < memi_trainer_field_count(); i++) {
        const trainer_field *tf = memi_trainer_field_at(i);
        if (strcmp(tf->section, sections[k]) == 0 && memi_trainer_field_matters(tf->section, tf->name) &&
            (rc = add_ambiguous(sc, m, line, tf->section, tf->name, msg)) != MEMEST_OK)
          return rc;
      }
      continue;
    }
    if (!memi_trainer_field_matters(sections[k], attr)) continue;
    if (inside)
      snprintf(msg, sizeof msg,
               "%.150s:%d: %s.%s is set %.140s; memest reads only module-level statements that "
               "always run: move it out of the block",
               m->label, line, sections[k], attr, why);
    else
      snprintf(msg, sizeof msg,
               "%.150s:%d: %s.%s is set through %.50s, %.110s: memest cannot tell which "
               "config it names",
               m->label, line, sections[k], attr, head, why);
    if ((rc = add_ambiguous(sc, m, line, sections[k], attr, msg)) != MEMEST_OK) return rc;
  }
  return MEMEST_OK;
}

/* An assignment to the trainer's module or class: refused. */
static memest_code refuse_trainer_target(script *sc, module *m, int lo, int hi) {
  char target[96];
  return refuse(sc, m, m->t[lo].line,
                "%s changes the trainer's own code or classes, which memest does not follow",
                span_text(m, lo, hi, target, sizeof target));
}

/* A target wrapped in parentheses with no comma inside, "(seq)" or
** "((cfg.training).x)", is the target itself, as Python reads it; [lo, hi)
** narrows to what the parentheses hold. */
static void strip_target_parens(const module *m, int *lo, int *hi) {
  while (*hi - *lo > 2 && is_op(m, *lo, "(") && close_of(m, *lo, *hi) == *hi &&
         next_comma(m, *lo + 1, *hi - 1) == *hi - 1 && !is_op(m, *lo + 1, "*")) {
    (*lo)++;
    (*hi)--;
  }
}

/* A target that is a bracketed expression with a trailer after it
** ("(cfg.training).x", "(a)[k]"): Python assigns to the attribute or item
** of the bracket's value, which memest does not follow. Refused by name. */
static int bracket_trailer_target(const module *m, int lo, int hi) {
  return (is_op(m, lo, "(") || is_op(m, lo, "[")) && close_of(m, lo, hi) < hi &&
         next_comma(m, lo, hi) == hi;
}

static memest_code refuse_bracket_target(script *sc, module *m, int lo, int hi, int line) {
  char target[96];
  return refuse(sc, m, line,
                "%s assigns to an attribute or item of a bracketed expression, which memest does "
                "not follow: write the path without the brackets (cfg.training.x = ...)",
                span_text(m, lo, hi, target, sizeof target));
}

/* One assignment target [lo, hi) gets e. */
static memest_code assign(script *sc, module *m, int lo, int hi, const ev *e, const char *rhs) {
  char buf[MAX_NAME + 1], attr[MAX_NAME + 1];
  int o, line = m->t[lo].line, k, mod;
  memest_code rc;
  strip_target_parens(m, &lo, &hi);
  if (hi - lo == 1 && m->t[lo].kind == PT_NAME) return bind_ev(sc, m, tok_text(m, &m->t[lo], buf, sizeof buf), e);
  if (bracket_trailer_target(m, lo, hi)) return refuse_bracket_target(sc, m, lo, hi, line);
  if (is_op(m, lo, "(") || is_op(m, lo, "[") || next_comma(m, lo, hi) < hi || is_op(m, lo, "*")) {
    /* Unpacking: names lose their values; fields are unknown. */
    for (k = lo; k < hi; k++) {
      if (m->t[k].kind == PT_NAME && !(k > lo && is_op(m, k - 1, ".")) && !(k + 1 < hi && (is_op(m, k + 1, ".") || is_op(m, k + 1, "[")))) {
        if ((rc = bind_unknown(sc, m, tok_text(m, &m->t[k], buf, sizeof buf), "bound by unpacking")) != MEMEST_OK)
          return rc;
      } else if (is_op(m, k, ".") || is_op(m, k, "[")) {
        return refuse(sc, m, line,
                      "an unpacking assignment to an attribute or subscript, which memest does not "
                      "follow: assign each field on its own");
      }
    }
    return MEMEST_OK;
  }
  if ((rc = target_object(sc, m, lo, hi, &o, attr, sizeof attr, &mod)) != MEMEST_OK) return rc;
  if (o == TGT_LOST) {
    binding *b = m->t[lo].kind == PT_NAME ? lookup(m, tok_text(m, &m->t[lo], buf, sizeof buf)) : NULL;
    return ambiguous_field(sc, m, lo, attr, line,
                           b != NULL && b->k == B_UNKNOWN ? b->why : "an object memest does not follow", 0);
  }
  if (o == TGT_MODULE) return bind_ev(sc, &sc->mods[mod], attr, e);   /* setup.cfg = ...: setup's name */
  if (o == TGT_TRAINER) return refuse_trainer_target(sc, m, lo, hi);
  if (o == TGT_VALUE)
    return refuse(sc, m, line, "%s sets an attribute of a value that has none (None, a number, a "
                  "string or a path): an AttributeError in Python",
                  span_text(m, lo, hi, buf, sizeof buf));
  if (o < 0) return MEMEST_OK;   /* args.x = ..., os.environ[...] = ...: not a config's */
  if (sc->objs[o].c == CL_PRETRAIN) {
    for (k = 0; k < 3; k++)
      if (strcmp(attr, section_names[k]) == 0) set_section(sc, m, o, k, e, line);
    return MEMEST_OK;
  }
  return set_field(sc, m, o, attr, e, line, rhs);
}

/* The dotted name of tokens [k, end) (NAME . NAME ...) into out; 0 when it
** is longer than MAX_DOTTED. */
static int dotted_name(const module *m, int k, int end, char *out, size_t size) {
  size_t o = 0;
  out[0] = '\0';
  for (; k < end; k++) {
    size_t n = m->t[k].len;
    if (o + n >= size) return 0;
    memcpy(out + o, m->src + m->t[k].start, n);
    o += n;
    out[o] = '\0';
  }
  return 1;
}

/* Whether a library's name is one that changes what Python imports or
** runs (sys.path, sys.modules, ...): refused. */
static int import_machinery(const char *full) {
  static const char *const names[] = {"sys.path", "sys.modules", "sys.meta_path", "sys.path_hooks",
                                      "sys.path_importer_cache", "os.chdir", NULL};
  int k;
  for (k = 0; names[k]; k++)
    if (strcmp(full, names[k]) == 0) return 1;
  return 0;
}

/* `import a.b [as c], d` and `from x import a [as b], (c, d), *`, run as
** Python runs them: a user's module (and each package above it) is run at
** its first import. */
static memest_code run_import(script *sc, module *m, int lo, int hi) {
  char dotted[MAX_DOTTED + 1], abs_name[MAX_DOTTED + 1], name[MAX_NAME + 1], as[MAX_NAME + 1];
  int k = lo + 1, line = m->t[lo].line, pith, idx, dots = 0;
  memest_code rc;
  if (is_name(m, lo, "import")) {
    while (k < hi) {
      int end = next_comma(m, k, hi), j = k;
      ev e;
      while (j < end && !is_name(m, j, "as")) j++;
      if (!dotted_name(m, k, j, dotted, sizeof dotted))
        return refuse(sc, m, line, "a module name longer than %d characters, which memest does not read",
                      MAX_DOTTED);
      memset(&e, 0, sizeof e);
      if (lib_module(dotted, &pith)) {
        e.k = pith ? EV_PITH : EV_LIB;
      } else {
        if ((rc = import_module(sc, m, line, dotted, &idx)) != MEMEST_OK) return rc;
        e.k = EV_MODULE;
      }
      if (j + 1 < end) {   /* import a.b as c: c is a.b */
        tok_text(m, &m->t[j + 1], as, sizeof as);
        snprintf(e.text, sizeof e.text, "%s", dotted);
      } else {             /* import a.b: a is bound */
        snprintf(as, sizeof as, "%.*s", (int)strcspn(dotted, "."), dotted);
        snprintf(e.text, sizeof e.text, "%s", as);
      }
      if ((rc = bind_ev(sc, m, as, &e)) != MEMEST_OK) return rc;
      k = end + 1;
    }
    return MEMEST_OK;
  }
  /* from X import ... */
  for (; k < hi && m->t[k].kind == PT_OP && (is_op(m, k, ".") || is_op(m, k, "...")); k++)
    dots += (int)m->t[k].len;
  {
    int j = k;
    while (j < hi && !is_name(m, j, "import")) j++;
    if (!dotted_name(m, k, j, dotted, sizeof dotted))
      return refuse(sc, m, line, "a module name longer than %d characters, which memest does not read",
                    MAX_DOTTED);
    k = j + 1;
  }
  if (dots > 0) {
    if ((rc = absolute_name(sc, m, line, dots, dotted, abs_name, sizeof abs_name)) != MEMEST_OK) return rc;
  } else {
    snprintf(abs_name, sizeof abs_name, "%s", dotted);
  }
  idx = -1;
  if (!lib_module(abs_name, &pith) && (rc = import_module(sc, m, line, abs_name, &idx)) != MEMEST_OK)
    return rc;
  if (k < hi && is_op(m, k, "(")) {
    hi = close_of(m, k, hi) - 1;
    k++;
  }
  while (k < hi) {
    int end = next_comma(m, k, hi);
    ev e;
    if (end == k) {
      k++;
      continue;
    }
    tok_text(m, &m->t[k], name, sizeof name);
    if (strcmp(name, "*") == 0) {
      int i, n;
      if (idx < 0)
        return refuse(sc, m, line,
                      "from %.100s import * binds names memest cannot list (the library's); "
                      "import the names by name",
                      abs_name);
      n = sc->mods[idx].n_names;
      for (i = 0; i < n; i++) {   /* every name not starting with '_' (no __all__: refused there) */
        binding b = sc->mods[idx].names[i];
        if (b.name[0] == '_') continue;
        binding_ev(&b, &e, NULL);
        if ((rc = bind_ev(sc, m, b.name, &e)) != MEMEST_OK) return rc;
      }
      k = end + 1;
      continue;
    }
    if (end - k >= 3 && is_name(m, k + 1, "as")) tok_text(m, &m->t[k + 2], as, sizeof as);
    else snprintf(as, sizeof as, "%s", name);
    if (idx >= 0) {
      if ((rc = module_name(sc, m, line, idx, name, &e)) != MEMEST_OK) return rc;
    } else {
      char full[2 * MAX_DOTTED + 2];
      snprintf(full, sizeof full, "%s.%s", abs_name, name);
      if (import_machinery(full))
        return refuse(sc, m, line, "%s changes where or what Python imports, which memest does not "
                      "follow: set PYTHONPATH instead", full);
      if (pith) pith_name(abs_name, name, &e);
      else lib_name(abs_name, name, &e);
    }
    if ((rc = bind_ev(sc, m, as, &e)) != MEMEST_OK) return rc;
    k = end + 1;
  }
  return MEMEST_OK;
}

/* Whether token k is an augmented assignment (+=, //=, ...). */
static int is_augmented(const module *m, int k) {
  return m->t[k].kind == PT_OP && m->t[k].len >= 2 &&
         m->src[m->t[k].start + m->t[k].len - 1] == '=' && !is_op(m, k, "==") &&
         !is_op(m, k, "!=") && !is_op(m, k, "<=") && !is_op(m, k, ">=") && !is_op(m, k, ":=");
}

/* The targets [a, b) of a for, an as, a del or an unpacking: each plain
** name loses its value (unless locals: a function's own), an attribute or
** subscript is refused (what: the construct). */
static memest_code bind_target_names(script *sc, module *m, int a, int b, const char *why,
                                     int locals, const char *what) {
  char buf[MAX_NAME + 1];
  int k;
  memest_code rc;
  for (k = a; k < b; k++) {
    if (is_op(m, k, ".") || is_op(m, k, "["))
      return refuse(sc, m, m->t[k].line,
                    "%s sets an attribute or a subscript, which memest does not follow: assign "
                    "the value on a line of its own",
                    what);
    if (m->t[k].kind == PT_NAME && !locals && !is_name(m, k, "in") &&
        (rc = bind_unknown(sc, m, tok_text(m, &m->t[k], buf, sizeof buf), why)) != MEMEST_OK)
      return rc;
  }
  return MEMEST_OK;
}

/* The end of an `as` target from i: a name, or a bracketed tuple. */
static int as_target_end(const module *m, int i, int hi) {
  if (i < hi && (is_op(m, i, "(") || is_op(m, i, "["))) return close_of(m, i, hi);
  while (i < hi && (m->t[i].kind == PT_NAME || is_op(m, i, "."))) i++;
  if (i < hi && is_op(m, i, "[")) return close_of(m, i, hi);   /* a subscript: refused by the caller */
  return i;
}

/* The names a statement of a skipped block binds lose their values (for
** x in, as x, def f, class C, import a, del x, x := ...): one pass over
** the statement. locals: a function's or class's body, whose names are
** its own (only what they reach outside is refused). */
static memest_code scan_bound_names(script *sc, module *m, int lo, int hi, const char *why,
                                    int locals) {
  char buf[MAX_NAME + 1];
  int k = lo;
  memest_code rc;
  while (k < hi) {
    if (is_name(m, k, "for")) {
      int in = find_at_depth0(m, k + 1, hi, "in");
      if ((rc = bind_target_names(sc, m, k + 1, in, why, locals, "a for target")) != MEMEST_OK) return rc;
      k = in + 1;
    } else if (is_name(m, k, "as")) {
      int end = as_target_end(m, k + 1, hi);
      if ((rc = bind_target_names(sc, m, k + 1, end, why, locals, "an as target")) != MEMEST_OK) return rc;
      k = end;
    } else if (is_name(m, k, "import")) {   /* the first name of each item, or its alias */
      int j = k + 1;
      while (j < hi) {
        int end = next_comma(m, j, hi), first = j, at = -1, x;
        while (first < end && m->t[first].kind != PT_NAME) first++;
        for (x = first; x < end; x++)
          if (is_name(m, x, "as")) at = x + 1;
        if (at < 0) at = first;
        if (!locals && at < end && m->t[at].kind == PT_NAME &&
            (rc = bind_unknown(sc, m, tok_text(m, &m->t[at], buf, sizeof buf), why)) != MEMEST_OK)
          return rc;
        j = end + 1;
      }
      k = hi;
    } else if ((is_name(m, k, "def") || is_name(m, k, "class")) && k + 1 < hi && m->t[k + 1].kind == PT_NAME) {
      if (!locals && (rc = bind_unknown(sc, m, tok_text(m, &m->t[k + 1], buf, sizeof buf), why)) != MEMEST_OK)
        return rc;
      k += 2;
    } else if (is_name(m, k, "del") && k == lo) {
      return bind_target_names(sc, m, k + 1, hi, why, locals, "del");
    } else {
      if (!locals && k + 1 < hi && m->t[k].kind == PT_NAME && is_op(m, k + 1, ":=") &&
          (rc = bind_unknown(sc, m, tok_text(m, &m->t[k], buf, sizeof buf), why)) != MEMEST_OK)
        return rc;
      k++;
    }
  }
  return MEMEST_OK;
}

/* One assignment target [lo, hi) inside a skipped block or a function (at
** line `line`): a name loses its value (not a function's own); a config's
** memory field is refused: at once when the block is at module level and
** memest knows the object (a later assignment may set it again), else for
** whichever config runs, whenever it is set (a function runs when called). */
static memest_code scan_target(script *sc, module *m, int lo, int hi, int line, const char *kind,
                               int header_line, int locals) {
  char buf[MAX_NAME + 1], attr[MAX_NAME + 1], why[200];
  int o, mod, k;
  slot *s;
  memest_code rc;
  snprintf(why, sizeof why, "bound inside %s (line %d), which memest does not run", kind, header_line);
  if (hi <= lo) return MEMEST_OK;
  strip_target_parens(m, &lo, &hi);
  if (hi - lo == 1 && m->t[lo].kind == PT_NAME)
    return locals ? MEMEST_OK : bind_unknown(sc, m, tok_text(m, &m->t[lo], buf, sizeof buf), why);
  if (bracket_trailer_target(m, lo, hi)) return refuse_bracket_target(sc, m, lo, hi, line);
  if (is_op(m, lo, "(") || is_op(m, lo, "[") || is_op(m, lo, "*") || next_comma(m, lo, hi) < hi)
    return bind_target_names(sc, m, lo, hi, why, locals, "an unpacking assignment");
  if ((rc = target_object(sc, m, lo, hi, &o, attr, sizeof attr, &mod)) != MEMEST_OK) return rc;
  if (o == TGT_TRAINER) return refuse_trainer_target(sc, m, lo, hi);
  if (o == TGT_MODULE)
    return bind_unknown(sc, &sc->mods[mod], attr, why);
  if (o == TGT_VALUE) return MEMEST_OK;   /* an AttributeError if the block runs: nothing set */
  if (o == TGT_NONE && hi - lo >= 3 && is_op(m, hi - 2, ".")) return MEMEST_OK;   /* args.x: no config's */
  if (o == TGT_NONE) return MEMEST_OK;                                             /* d[k] = v */
  if (locals || o == TGT_LOST) {
    char msg[400];
    int saved = sc->seq;
    snprintf(msg, sizeof msg, "inside %s (line %d)", kind, header_line);
    if (locals) sc->seq = SEQ_ALWAYS;   /* a function's body runs when it is called: any time later */
    rc = ambiguous_field(sc, m, lo, attr, line, msg, 1);
    if (locals) sc->seq = saved;
    return rc;
  }
  if (sc->objs[o].c == CL_LOGGING || sc->objs[o].c == CL_IGNORED) return MEMEST_OK;
  if (sc->objs[o].c == CL_PRETRAIN) {
    for (k = 0; k < 2; k++) {
      if (strcmp(attr, section_names[k]) == 0) {
        ev lost;
        char what[200];
        snprintf(what, sizeof what, "something set inside %s (line %d)", kind, header_line);
        not_static(&lost, "%s", what);
        set_section(sc, m, o, k, &lost, line);
      }
    }
    return MEMEST_OK;
  }
  if ((s = field_slot(sc, o, attr)) == NULL) return sc->err->code;
  memset(&s->v, 0, sizeof s->v);
  s->refused = 1;
  s->seq = ++sc->seq;
  memi_tloc_set(&s->at, m->label, line);
  snprintf(s->why, sizeof s->why,
           "%.200s:%d: %s.%s is set inside %s (line %d); memest reads only module-level "
           "statements that always run: move it out of the block",
           m->label, line, section_of(sc, o), attr, kind, header_line);
  return MEMEST_OK;
}

/* The target of the assignment segment [lo, k): after an inline body's
** header, up to an annotation's ':'. *lo -1 when there is none. */
static void target_span(const module *m, int *lo, int k, int *hi) {
  int c;
  if (starts_compound(m, *lo)) {
    c = header_colon(m, *lo, k);
    if (c < 0) {
      *lo = -1;
      return;
    }
    *lo = c + 1;
  }
  *hi = k;
  for (c = *lo; c < k; c++) {
    if (is_op(m, c, "(") || is_op(m, c, "[") || is_op(m, c, "{")) c = close_of(m, c, k) - 1;
    else if (is_op(m, c, ":")) {
      *hi = c;
      return;
    }
  }
}

/* Whether name is assigned, imported or declared anywhere in [lo, hi): a
** function's own name then. */
static int assigned_in(const module *m, int lo, int hi, const char *name) {
  /* launch(NAME) itself, f(NAME): reads; NAME =, NAME, =, for NAME, as NAME: binds */
  int k;
  for (k = lo; k < hi; k++) {
    if (m->t[k].kind != PT_NAME || !memi_tok_is(m->src, &m->t[k], name)) continue;
    if (k + 1 < hi && (is_op(m, k + 1, "=") || is_op(m, k + 1, ":=") || is_op(m, k + 1, ",") ||
                       is_op(m, k + 1, ":") || is_augmented(m, k + 1)))
      return 1;
    if (k > lo && (is_name(m, k - 1, "for") || is_name(m, k - 1, "as") || is_name(m, k - 1, "import") ||
                   is_name(m, k - 1, "def") ||
                   is_name(m, k - 1, "class") || is_name(m, k - 1, "del") || is_op(m, k - 1, "*")))
      return 1;
  }
  return 0;
}

/* launch(...) inside a skipped block or a function (its call's '(' at
** open): a function's launch(NAME) reads the module's NAME when it is
** called; anything else is refused. */
static memest_code skipped_launch(script *sc, module *m, int k, int open, int hi, const char *kind,
                                  int header_line, int at) {
  int end = close_of(m, open, hi) - 1, a = open + 1;
  char name[MAX_NAME + 1];
  if (a + 2 < end && is_name(m, a, "cfg") && is_op(m, a + 1, "=")) a += 2;
  if (at != AT_FUNCTION || sc->fn_lo < 0 || a + 1 != end || m->t[a].kind != PT_NAME ||
      (sc->deferred[0] && sc->deferred_line != m->t[k].line))
    return refuse(sc, m, m->t[k].line,
                  "launch() inside %s (line %d): memest cannot tell whether it runs, or with which "
                  "config; call launch(cfg) at module level or in the if __name__ == \"__main__\" "
                  "block",
                  kind, header_line);
  tok_text(m, &m->t[a], name, sizeof name);
  if (assigned_in(m, sc->fn_lo, sc->fn_hi, name))
    return refuse(sc, m, m->t[k].line,
                  "launch(%s) inside %s (line %d), which binds %s itself: memest does not run "
                  "functions; build the config at module level",
                  name, kind, header_line, name);
  snprintf(sc->deferred, sizeof sc->deferred, "%s", name);
  sc->deferred_line = m->t[k].line;
  sc->deferred_mod = (int)(m - sc->mods);
  return MEMEST_OK;
}

/* The names a statement inside a skipped block or a function binds lose
** their values; config fields it sets are refused; what memest cannot see
** the effect of (an import of the user's module, launch()) is refused. */
static memest_code scan_statement(script *sc, module *m, int lo, int hi, const char *kind,
                                  int header_line, int at) {
  char why[200];
  int k, eq = -1, locals = at == AT_FUNCTION;
  memest_code rc;
  if (lo >= hi) return MEMEST_OK;
  if ((rc = check_span(sc, m, lo, hi, at)) != MEMEST_OK) return rc;
  if ((is_name(m, lo, "match") || is_name(m, lo, "case")) && is_op(m, hi - 1, ":") && hi - lo > 1 &&
      !is_op(m, lo + 1, "=") && !is_op(m, lo + 1, "."))
    return refuse(sc, m, m->t[lo].line,
                  "a match statement: its patterns bind names, which memest does not follow");
  if (is_name(m, lo, "import") || is_name(m, lo, "from")) {
    int j = lo + 1, pith;
    char dotted[MAX_DOTTED + 1];
    if (is_name(m, lo, "from")) {
      int e = j;
      while (e < hi && !is_name(m, e, "import")) e++;
      if (!dotted_name(m, j, e, dotted, sizeof dotted) || dotted[0] == '.' || !lib_module(dotted, &pith))
        return refuse(sc, m, m->t[lo].line,
                      "an import of module %.100s inside %s (line %d): a module of the user's "
                      "runs when imported, and memest does not run the block; import it at "
                      "module level",
                      dotted, kind, header_line);
    } else {
      while (j < hi) {
        int end = next_comma(m, j, hi), e = j;
        while (e < end && !is_name(m, e, "as")) e++;
        if (!dotted_name(m, j, e, dotted, sizeof dotted) || !lib_module(dotted, &pith))
          return refuse(sc, m, m->t[lo].line,
                        "an import of module %.100s inside %s (line %d): a module of the user's "
                        "runs when imported, and memest does not run the block; import it at "
                        "module level",
                        dotted, kind, header_line);
        j = end + 1;
      }
    }
  }
  for (k = lo; k + 1 < hi; k++) {
    if (is_name(m, k, "launch") && is_op(m, k + 1, "(") && !is_name(m, lo, "def") &&
        (rc = skipped_launch(sc, m, k, k + 1, hi, kind, header_line, at)) != MEMEST_OK)
      return rc;
  }
  snprintf(why, sizeof why, "bound inside %s (line %d), which memest does not run", kind, header_line);
  if ((rc = scan_bound_names(sc, m, lo, hi, why, locals)) != MEMEST_OK) return rc;
  /* Assignment targets: each segment before a '=' at depth 0, or an augmented one. */
  for (k = lo; k < hi; k++) {
    int start, end, aug;
    if (is_op(m, k, "(") || is_op(m, k, "[") || is_op(m, k, "{")) {
      k = close_of(m, k, hi) - 1;
      continue;
    }
    aug = is_augmented(m, k);
    if (!is_op(m, k, "=") && !aug) continue;
    start = eq < 0 ? lo : eq + 1;
    target_span(m, &start, k, &end);
    if (start >= 0 && (rc = scan_target(sc, m, start, end, m->t[k].line, kind, header_line, locals)) != MEMEST_OK)
      return rc;
    if (aug) break;
    eq = k;
  }
  return MEMEST_OK;
}

/* Every statement of a skipped block [lo, hi) (at: AT_SKIPPED, or
** AT_FUNCTION for a function's or a class's body, whose names are not the
** module's); a def or class inside a skipped block starts a body of its
** own, to its dedent. */
static memest_code scan_block(script *sc, module *m, int lo, int hi, const char *kind, int header_line,
                              int at) {
  int i = lo, depth = 0, fn_depth = -1, pending = 0;
  memest_code rc;
  while (i < hi) {
    int end = line_end(m, i, hi), s = i, here;
    if (m->t[i].kind == PT_INDENT) {
      depth++;
      if (pending && fn_depth < 0) fn_depth = depth;
      pending = 0;
      i++;
      continue;
    }
    if (m->t[i].kind == PT_DEDENT) {
      if (--depth < fn_depth) fn_depth = -1;
      i++;
      continue;
    }
    if (m->t[i].kind == PT_NEWLINE) {
      i++;
      continue;
    }
    here = fn_depth >= 0 ? AT_FUNCTION : at;
    pending = is_name(m, i, "def") || is_name(m, i, "class") ||
              (is_name(m, i, "async") && i + 1 < end && is_name(m, i + 1, "def"));
    while (s < end) {   /* statements on one line, split at ';' */
      int e = s;
      while (e < end && !is_op(m, e, ";")) e = is_op(m, e, "(") || is_op(m, e, "[") || is_op(m, e, "{") ? close_of(m, e, end) : e + 1;
      if ((rc = scan_statement(sc, m, s, e, kind, header_line, here)) != MEMEST_OK) return rc;
      s = e + 1;
    }
    i = end + 1;
  }
  return MEMEST_OK;
}

/* Whether the callee [lo, open) is the trainer's pretraining launch. */
static int is_launch(const ev *callee) {
  return callee->k == EV_PITH && (strcmp(callee->text, "pithtrain.tasks.pretrain_lm.launch") == 0 ||
                                  strcmp(callee->text, "pithtrain.tasks.pretrain_language_model.launch") == 0);
}

/* launch(cfg) or launch(cfg=cfg) at module level: the run's config. */
static memest_code run_launch(script *sc, module *m, int lo, int open, int end) {
  int a = open + 1, line = m->t[lo].line;
  ev arg;
  char text[80];
  memest_code rc;
  if (a + 2 < end && is_name(m, a, "cfg") && is_op(m, a + 1, "=")) a += 2;
  if (a >= end || next_comma(m, a, end) != end || is_op(m, a, "*") || is_op(m, a, "**") ||
      (a + 1 < end && is_op(m, a + 1, "=")))
    return refuse(sc, m, line, "launch(%s): the trainer's launch takes one config, launch(cfg) or "
                  "launch(cfg=cfg)", span_text(m, open + 1, end, text, sizeof text));
  if ((rc = eval_range(sc, m, a, end, &arg)) != MEMEST_OK) return rc;
  if (arg.k != EV_OBJ || sc->objs[arg.o].c != CL_PRETRAIN)
    return refuse(sc, m, line, "launch() is given %.200s, not a PretrainLMCfg memest follows",
                  arg.k == EV_NOT_STATIC ? arg.why : span_text(m, a, end, text, sizeof text));
  if (sc->launch_line > 0)
    return refuse(sc, m, line, "launch() runs a second time (first at line %d of %s); memest "
                  "estimates one run", sc->launch_line, sc->mods[sc->launch_mod].label);
  sc->launch_obj = arg.o;
  sc->launch_line = line;
  sc->launch_mod = (int)(m - sc->mods);
  return MEMEST_OK;
}

/* setattr(obj, 'name', value) at module level: an assignment. */
static memest_code run_setattr(script *sc, module *m, int lo, int open, int end) {
  int c1 = next_comma(m, open + 1, end), c2 = next_comma(m, c1 + 1, end), flags, line = m->t[lo].line;
  char attr[MAX_NAME + 1], rhs[80];
  ev target, val;
  memest_code rc;
  if (c2 >= end || next_comma(m, c2 + 1, end) != end)
    return refuse(sc, m, line, "setattr() with other than three arguments");
  if ((rc = eval_range(sc, m, open + 1, c1, &target)) != MEMEST_OK) return rc;
  if (c2 != c1 + 2 || m->t[c1 + 1].kind != PT_STRING ||
      !memi_pystr_value(m->src + m->t[c1 + 1].start, m->t[c1 + 1].len, attr, sizeof attr, &flags) ||
      flags != 0) {
    if (target.k == EV_VALUE || target.k == EV_LIB) return MEMEST_OK;   /* setattr(args, k, v): no config's */
    return refuse(sc, m, line, "setattr() with a name memest cannot read (not one plain string): "
                  "the field it sets is not known");
  }
  if ((rc = eval_range(sc, m, c2 + 1, end, &val)) != MEMEST_OK) return rc;
  span_text(m, c2 + 1, end, rhs, sizeof rhs);
  switch (target.k) {
    case EV_OBJ:
      if (sc->objs[target.o].c == CL_PRETRAIN) {
        int k;
        for (k = 0; k < 3; k++) {
          if (strcmp(attr, section_names[k]) == 0) {
            set_section(sc, m, target.o, k, &val, line);
            return MEMEST_OK;
          }
        }
        return refuse(sc, m, line, "setattr(cfg, '%s', ...): PretrainLMCfg has no field %s "
                      "(an AttributeError in Python)", attr, attr);
      }
      return set_field(sc, m, target.o, attr, &val, line, rhs);
    case EV_MODULE: {
      int idx = module_index(sc, target.text);
      if (idx >= 0) return bind_ev(sc, &sc->mods[idx], attr, &val);
      return refuse(sc, m, line, "setattr() on a module memest did not load");
    }
    case EV_PITH: case EV_CLASS:
      return refuse(sc, m, line, "setattr() on the trainer's module or class, which memest does not follow");
    case EV_NOT_STATIC:
      return ambiguous_field(sc, m, lo + 2, attr, line, target.why, 0);
    default:
      return MEMEST_OK;
  }
}

/* An expression statement: launch(cfg) names the run's config; setattr on
** a config is an assignment; a call given a config may change it. */
static memest_code run_expression(script *sc, module *m, int lo, int hi) {
  int open = lo, end, k;
  ev callee, arg;
  char buf[MAX_NAME + 1];
  memest_code rc;
  while (open < hi && !is_op(m, open, "(")) {
    if (m->t[open].kind != PT_NAME && !is_op(m, open, ".")) return MEMEST_OK;
    open++;
  }
  if (open >= hi || open == lo || close_of(m, open, hi) != hi) return MEMEST_OK;
  end = hi - 1;
  if ((rc = eval_range(sc, m, lo, open, &callee)) != MEMEST_OK) return rc;
  if (is_launch(&callee)) return run_launch(sc, m, lo, open, end);
  if (is_name(m, open - 1, "launch"))
    return refuse(sc, m, m->t[lo].line,
                  "%s is not the trainer's pretrain_lm.launch (it is %.100s); memest follows "
                  "the config given to that one",
                  span_text(m, lo, open, buf, sizeof buf),
                  callee.k == EV_NOT_STATIC ? callee.why : callee.k == EV_PITH ? callee.text : "another function");
  if (callee.k == EV_LIB && strcmp(callee.text, "builtins.setattr") == 0)
    return run_setattr(sc, m, lo, open, end);
  if (callee.k == EV_LIB && strcmp(callee.text, "builtins.print") == 0) return MEMEST_OK;
  for (k = open + 1; k < end; k++) {
    if (m->t[k].kind != PT_NAME || (k > open + 1 && is_op(m, k - 1, "."))) continue;
    if ((rc = eval_name(m, tok_text(m, &m->t[k], buf, sizeof buf), &arg)) != MEMEST_OK) return rc;
    if (arg.k == EV_OBJ) {
      char call[80];
      memi_run_warn(sc->run, "%s:%d: %s passes a config to a call memest does not run; if it "
                    "changes a memory field, the estimate misses it",
                    m->label, m->t[lo].line, span_text(m, lo, hi, call, sizeof call));
      break;
    }
  }
  return MEMEST_OK;
}

/* The right side [lo, hi) of an assignment, as its comma-separated
** elements: one that is a bare name neither bound nor a builtin is a
** NameError in Python (a, b = b, a before either exists). */
static memest_code undefined_names(script *sc, module *m, int lo, int hi) {
  int k = lo;
  while (k < hi) {
    int end = next_comma(m, k, hi);
    char buf[MAX_NAME + 1];
    if (end == k + 1 && m->t[k].kind == PT_NAME && !is_keyword(m, k)) {
      tok_text(m, &m->t[k], buf, sizeof buf);
      if (lookup(m, buf) == NULL && strncmp(buf, "__", 2) != 0 && !python_builtin(buf))
        return refuse(sc, m, m->t[k].line, "the name %s is not defined at this point (a NameError "
                      "in Python, which stops before launch)", buf);
    }
    k = end + 1;
  }
  return MEMEST_OK;
}

/* One simple statement [lo, hi) at module level. */
static memest_code run_simple(script *sc, module *m, int lo, int hi) {
  int k, eq[64], n_eq = 0, launch_at = -1;
  char rhs[80], buf[MAX_NAME + 1];
  ev e;
  memest_code rc;
  if (lo >= hi) return MEMEST_OK;
  if ((rc = check_span(sc, m, lo, hi, AT_RUN)) != MEMEST_OK) return rc;
  if (is_name(m, lo, "import") || is_name(m, lo, "from")) return run_import(sc, m, lo, hi);
  if (is_name(m, lo, "del")) {
    char why[120];
    snprintf(why, sizeof why, "bound by del (line %d), which deletes it", m->t[lo].line);
    return bind_target_names(sc, m, lo + 1, hi, why, 0, "del");
  }
  if (is_name(m, lo, "global") || is_name(m, lo, "nonlocal") || is_name(m, lo, "pass") ||
      is_name(m, lo, "assert") || is_name(m, lo, "raise") || is_name(m, lo, "return") ||
      is_name(m, lo, "break") || is_name(m, lo, "continue"))
    return MEMEST_OK;
  for (k = lo; k < hi; k++) {
    if (is_name(m, k, "launch") && k + 1 < hi && is_op(m, k + 1, "(") && launch_at < 0) launch_at = k;
    if (is_op(m, k, "(") || is_op(m, k, "[") || is_op(m, k, "{")) {
      int c = close_of(m, k, hi) - 1, j;
      for (j = k; j < c && launch_at < 0; j++)
        if (is_name(m, j, "launch") && is_op(m, j + 1, "(")) launch_at = j;
      k = c;
      continue;
    }
    if (is_op(m, k, "=")) {
      if (n_eq == 64)
        return refuse(sc, m, m->t[lo].line, "an assignment to more than 64 targets at once");
      eq[n_eq++] = k;
    } else if (is_augmented(m, k)) {
      /* An augmented assignment: the target's old value is read, memest refuses it. */
      return scan_statement(sc, m, lo, hi, "an augmented assignment", m->t[lo].line, AT_SKIPPED);
    }
  }
  if (launch_at >= 0 && (n_eq > 0 || close_of(m, launch_at + 1, hi) != hi))
    return refuse(sc, m, m->t[lo].line,
                  "launch() inside an expression; memest follows launch(cfg) as a statement of "
                  "its own");
  if (n_eq == 0) {
    rc = run_expression(sc, m, lo, hi);
  } else {
    if ((rc = undefined_names(sc, m, eq[n_eq - 1] + 1, hi)) != MEMEST_OK) return rc;
    if ((rc = eval_range(sc, m, eq[n_eq - 1] + 1, hi, &e)) != MEMEST_OK) return rc;
    span_text(m, eq[n_eq - 1] + 1, hi, rhs, sizeof rhs);
    for (k = 0; k < n_eq && rc == MEMEST_OK; k++) {
      int start = k == 0 ? lo : eq[k - 1] + 1, end = eq[k], c;
      for (c = start; c < end; c++) {   /* an annotation, x: int = ... */
        if (is_op(m, c, "(") || is_op(m, c, "[") || is_op(m, c, "{")) c = close_of(m, c, end) - 1;
        else if (is_op(m, c, ":")) end = c;
      }
      rc = assign(sc, m, start, end, &e, rhs);
    }
  }
  for (k = lo + 1; k < hi && rc == MEMEST_OK; k++) {   /* x := ...: binds x at module level */
    if (is_op(m, k, ":=") && m->t[k - 1].kind == PT_NAME) {
      char why[120];
      snprintf(why, sizeof why, "bound by an assignment expression (:=) on line %d", m->t[k].line);
      rc = bind_unknown(sc, m, tok_text(m, &m->t[k - 1], buf, sizeof buf), why);
    }
  }
  return rc;
}

/* The statements of [lo, hi), as Python runs them at module level. */
static memest_code run_range(script *sc, module *m, int lo, int hi) {
  int i = lo;
  memest_code rc;
  while (i < hi && m->t[i].kind != PT_END) {
    int end, next, colon, guard;
    if (m->t[i].kind == PT_NEWLINE || m->t[i].kind == PT_DEDENT) {
      i++;
      continue;
    }
    if (m->t[i].kind == PT_INDENT)
      return memi_err_set(sc->err, MEMEST_E_VALUE, "script", "%s:%d: unexpected indent", m->label,
                          m->t[i].line);
    end = line_end(m, i, hi);
    next = end + 1 < hi && m->t[end + 1].kind == PT_INDENT ? block_end(m, end + 1, hi) : end + 1;
    if (next > end + 1 && !starts_compound(m, i) && !(end > i && is_op(m, end - 1, ":")))
      return memi_err_set(sc->err, MEMEST_E_VALUE, "script", "%s:%d: unexpected indent", m->label,
                          m->t[end + 1].line);
    if (next > end + 1 || starts_compound(m, i) || is_op(m, i, "@")) {
      colon = header_colon(m, i, end);
      guard = colon > i && main_guard(m, i, colon);
      if (guard && m->is_main) {
        if (colon + 1 < end) rc = run_range(sc, m, colon + 1, end + 1);
        else rc = run_range(sc, m, end + 2, next - 1);
      } else if (guard) {
        rc = MEMEST_OK;   /* an imported module's __main__ block does not run */
      } else {
        const char *kind = block_kind(m, i);
        int line = m->t[i].line, d = i;
        if (is_name(m, d, "async")) d++;
        if ((is_name(m, d, "def") || is_name(m, d, "class")) && colon > d && m->t[d + 1].kind == PT_NAME) {
          char name[MAX_NAME + 1], what[200];
          ev f;
          /* The header runs now (defaults, bases); the body when called. */
          if ((rc = scan_statement(sc, m, i, colon, kind, line, AT_SKIPPED)) != MEMEST_OK) return rc;
          tok_text(m, &m->t[d + 1], name, sizeof name);
          memset(&f, 0, sizeof f);
          f.k = EV_VALUE;
          snprintf(what, sizeof what, "%s (%s %.100s defines)", name,
                   is_name(m, d, "def") ? "a function" : "a class", m->label);
          memi_tv_set_text(&f.v, TV_OTHER, what, strlen(what));
          if ((rc = bind_ev(sc, m, name, &f)) != MEMEST_OK) return rc;
          sc->fn_lo = colon + 1;
          sc->fn_hi = next;
          rc = scan_block(sc, m, colon + 1, colon + 1 < end ? end : next, kind, line, AT_FUNCTION);
          sc->fn_lo = sc->fn_hi = -1;
        } else {
          rc = scan_block(sc, m, i, next, kind, line, AT_SKIPPED);
        }
      }
      if (rc != MEMEST_OK) return rc;
      i = next;
      continue;
    }
    {
      int s = i;
      while (s < end) {
        int e = s;
        while (e < end && !is_op(m, e, ";")) e = is_op(m, e, "(") || is_op(m, e, "[") || is_op(m, e, "{") ? close_of(m, e, end) : e + 1;
        if ((rc = run_simple(sc, m, s, e)) != MEMEST_OK) return rc;
        s = e + 1;
      }
    }
    i = end + 1;
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** The run: the config that reaches launch(), through the field table
** ======================================================================= */

/* The PretrainLMCfg the script runs (*p): the one passed to launch(), else
** the one a function's launch(NAME) reads from its module at the end. A
** script that reaches no launch() starts no run under Python: refused, and
** so is a name bound to anything but a PretrainLMCfg. */
static memest_code final_config(script *sc, const char *label, int *p) {
  const module *m = &sc->mods[0];
  binding *b;
  const char *name = "cfg";
  *p = -1;
  if (sc->deferred[0]) {
    m = &sc->mods[sc->deferred_mod];
    name = sc->deferred;
  }
  b = lookup((module *)m, name);
  if (sc->launch_obj >= 0) {
    if (sc->deferred[0] && (b == NULL || b->k != B_OBJ || b->o != sc->launch_obj))
      return memi_err_set(sc->err, MEMEST_E_VALUE, "script",
                          "%.200s:%d: a function calls launch(%s) besides the launch() at line %d "
                          "of %.200s: memest estimates one run",
                          m->label, sc->deferred_line, name, sc->launch_line, sc->mods[sc->launch_mod].label);
    *p = sc->launch_obj;
    return MEMEST_OK;
  }
  if (b != NULL && b->k == B_OBJ && sc->objs[b->o].c == CL_PRETRAIN) {
    if (sc->deferred[0]) {
      *p = b->o;
      return MEMEST_OK;
    }
    return memi_err_set(sc->err, MEMEST_E_VALUE, "script",
                        "%.200s calls no launch(): `python %.200s` builds cfg but starts no run, so "
                        "there is no launched config to read; give the launch script that calls "
                        "launch(cfg) (at module level or under if __name__ == \"__main__\":)",
                        label, label);
  }
  if (b != NULL)
    return memi_err_set(sc->err, MEMEST_E_VALUE, "script",
                        "%.200s: the config the run takes, %s, is %.240s at the end of the script, "
                        "not a PretrainLMCfg memest follows",
                        m->label, name, b->k == B_UNKNOWN ? b->why : "another kind of object");
  if (sc->missing[0])
    return memi_err_set(sc->err, MEMEST_E_VALUE, "script",
                        "%.200s builds no PretrainLMCfg that memest can follow: it imports module "
                        "%.500s",
                        label, sc->missing);
  return memi_err_set(sc->err, MEMEST_E_VALUE, "script",
                      "%s builds no PretrainLMCfg that memest can follow (cfg = PretrainLMCfg(), "
                      "or from setup import cfg with setup.py found); is it a pretraining launch "
                      "script?",
                      label);
}

/* Whether field name of the run's section object s was set after seq. */
static int set_after(const script *sc, int s, const char *name, int seq) {
  int i;
  for (i = 0; i < sc->n_slots; i++)
    if (sc->slots[i].o == s && strcmp(sc->slots[i].name, name) == 0) return sc->slots[i].seq > seq;
  return 0;
}

static void take_section(script *sc, int s) {
  const char *sec = section_of(sc, s);
  int i;
  for (i = 0; i < sc->n_slots; i++) {
    const slot *f = &sc->slots[i];
    if (f->o != s) continue;
    if (f->refused) memi_trainer_refuse(sc->run, sec, f->name, &f->at, f->why);
    else memi_trainer_take_python(sc->run, sec, f->name, &f->v, &f->at);
  }
  if (sc->objs[s].replaced) {
    for (i = 0; i < memi_trainer_field_count(); i++) {
      const trainer_field *tf = memi_trainer_field_at(i);
      if (strcmp(tf->section, sec) == 0 && tf->input >= 0 && !sc->run->in[tf->input].set &&
          !sc->run->in[tf->input].refused)
        memi_trainer_refuse(sc->run, sec, tf->name, &sc->objs[s].replaced_at, sc->objs[s].replaced_why);
    }
  }
}

/* Checks a benchmark script's name (pp4-dp1-cp1-ep8-seq4096-bf16) against what it sets. */
static void check_name(memest_trainer_run *run, const char *label) {
  static const struct { const char *key; memest_param_id id; } parts[] = {
    {"pp", MEMEST_P_PP_SIZE}, {"cp", MEMEST_P_CP_SIZE}, {"ep", MEMEST_P_EP_SIZE},
    {"seq", MEMEST_P_SEQUENCE_LENGTH}};
  const char *base = strrchr(label, '/');
  size_t k;
  base = base ? base + 1 : label;
  for (k = 0; k < sizeof parts / sizeof parts[0]; k++) {
    const char *p = strstr(base, parts[k].key);
    size_t n = strlen(parts[k].key);
    long long v = 0;
    if (p == NULL || (p != base && p[-1] != '-') || p[n] < '0' || p[n] > '9') continue;
    for (p += n; *p >= '0' && *p <= '9' && v < 100000000; p++) v = v * 10 + (*p - '0');
    if (*p != '-' && *p != '.' && *p != '\0') continue;
    if (run->in[parts[k].id].set && atoll(run->in[parts[k].id].value) != v)
      memi_run_warn(run, "the script's name says %s%lld, but it sets %s = %s", parts[k].key, v,
                    memest_param_describe(parts[k].id)->name, run->in[parts[k].id].value);
  }
}

static memest_code finish(script *sc, const char *label) {
  int p, k;
  char folder[128];
  const char *slash;
  memest_code rc = final_config(sc, label, &p);
  if (rc != MEMEST_OK) return rc;
  for (k = 0; k < 2; k++)
    if (sc->objs[p].section[k] >= 0) take_section(sc, sc->objs[p].section[k]);
  for (k = 0; k < sc->n_amb; k++) {   /* unless the run's config sets the field again later */
    const ambiguous *a = &sc->amb[k];
    int sec = sc->objs[p].section[strcmp(a->section, "training") == 0 ? 1 : 0];
    if (sec >= 0 && set_after(sc, sec, a->name, a->seq)) continue;
    memi_trainer_refuse(sc->run, a->section, a->name, &a->at, a->why);
  }
  memi_trainer_date_fields(sc->run, 0);
  memi_trainer_defaults(sc->run);
  memi_trainer_note_required(sc->run, "the script never sets");
  /* The folder: "h100-4n8g" gives the GPU and the GPU count. */
  slash = strrchr(label, '/');
  if (slash != NULL && slash > label) {
    const char *start = slash;
    while (start > label && start[-1] != '/') start--;
    snprintf(folder, sizeof folder, "%.*s", (int)(slash - start), start);
    memi_run_folder_layout(sc->run, folder, folder);
  }
  check_name(sc->run, label);
  return MEMEST_OK;
}

memest_code memest_script_read(const char *text, size_t len, const char *label,
                               memest_module_finder find, void *ctx, memest_trainer_run **out,
                               memest_error *err) {
  script *sc;
  module *m;
  memest_code rc;
  size_t dlen = 0;
  int i;
  *out = NULL;
  memi_err_clear(err);
  if (text == NULL) return memi_err_set(err, MEMEST_E_VALUE, "script", "no script text was given");
  if (label == NULL || label[0] == '\0') label = "script.py";
  if (len > (size_t)MEMEST_MAX_SCRIPT_BYTES)
    return memi_err_set(err, MEMEST_E_LIMIT, "script",
                        "%.200s is %zu bytes, over MEMEST_MAX_SCRIPT_BYTES (%d); a launch script "
                        "is a few KB",
                        label, len, (int)MEMEST_MAX_SCRIPT_BYTES);
  sc = calloc(1, sizeof *sc);
  if (sc == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "script", "out of memory");
  sc->run = memi_run_new(MEMEST_SOURCE_SCRIPT);
  if (sc->run == NULL) {
    free(sc);
    return memi_err_set(err, MEMEST_E_NOMEM, "script", "out of memory");
  }
  sc->find = find;
  sc->ctx = ctx;
  sc->err = err;
  sc->launch_obj = -1;
  sc->ignored_obj = -1;
  sc->fn_lo = sc->fn_hi = -1;
  m = &sc->mods[0];
  snprintf(m->name, sizeof m->name, "__main__");
  snprintf(m->label, sizeof m->label, "%s", label);
  m->src = text;
  m->is_main = 1;
  sc->n_mods = 1;
  memi_run_file(sc->run, m->label);
  rc = memi_py_decode(text, len, m->label, &m->decoded, &dlen, err);
  if (rc == MEMEST_OK && m->decoded != NULL) m->src = m->decoded, len = dlen;
  if (rc == MEMEST_OK) rc = memi_pylex(m->src, len, m->label, 0, &m->t, &m->nt, err);
  if (rc == MEMEST_OK) rc = check_syntax(sc, m);
  if (rc == MEMEST_OK) rc = run_range(sc, m, 0, m->nt);
  if (rc == MEMEST_OK) rc = finish(sc, m->label);
  for (i = 0; i < sc->n_mods; i++) {
    free(sc->mods[i].t);
    free(sc->mods[i].names);
    free(sc->mods[i].decoded);
  }
  free(sc->slots);
  if (rc == MEMEST_OK) *out = sc->run;
  else memest_trainer_run_free(sc->run);
  free(sc);
  return rc;
}
/* }====================================================================== */
