/*
** test_pyscript.c — the launch-script reader reads what `python script.py`
** passes to launch(), or refuses naming the construct and its file:line:
** imports run when Python runs them (import x, from x import *, a
** package's __init__.py), launch(cfg=...), __file__ as Python holds it,
** setattr, what rebinds names out of sight (walrus, global, globals(),
** exec, match, del), NFKC names, long names, NUL in strings, relative
** imports at top level, TabError, floats and bools where the trainer takes
** an int, PEP 263 cookies, and the grammar's errors. Each case here was
** read otherwise (or accepted) before.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "memest.h"

/* Modules by name, for the finder. */
typedef struct mod {
  const char *name, *label, *text;
} mod;

static int find(void *ctx, const char *name, const char **text, size_t *len, const char **label,
                memest_error *err) {
  const mod *m = ctx;
  for (; m != NULL && m->name != NULL; m++) {
    if (strcmp(m->name, name) == 0) {
      *text = m->text;
      *len = strlen(m->text);
      *label = m->label;
      return 1;
    }
  }
  snprintf(err->message, sizeof err->message, "no module %s here", name);
  return 0;
}

/* The source JSON of script src (HEAD before it), or "error: message". */
static char *read_with(const char *body, const char *label, const mod *mods) {
  static const char *const head =
    "from pathlib import Path\n"
    "from pithtrain.modules.training import make_muon_optimizer\n"
    "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch\n";
  memest_trainer_run *run = NULL;
  memest_error e;
  /* a body that calls no launch() gets the trainer scripts' own last line */
  const char *tail = strstr(body, "launch(") != NULL ? "" : "launch(cfg)\n";
  char *src = malloc(strlen(head) + strlen(body) + strlen(tail) + 1), *json;
  sprintf(src, "%s%s%s", head, body, tail);
  if (memest_script_read(src, strlen(src), label, find, (void *)mods, &run, &e) != MEMEST_OK) {
    json = malloc(1200);
    snprintf(json, 1200, "error: %s", e.message);
  } else {
    json = memest_trainer_run_json(run);
    memest_trainer_run_free(run);
  }
  free(src);
  return json;
}

static void expect(const char *body, const mod *mods, const char *want) {
  char *j = read_with(body, "run.py", mods);
  CHECK_HAS(j, want);
  free(j);
}

static const char *const SETUP =
  "from pithtrain.tasks.pretrain_lm import PretrainLMCfg\ncfg = PretrainLMCfg()\n"
  "cfg.training.sequence_length = 2048\n";

/* Imports run as Python runs them: at the import, once, parents first. */
static void test_imports(void) {
  const mod tweaks[] = {{"setup", "setup.py", SETUP},
                        {"tweaks", "tweaks.py",
                         "from setup import cfg\ncfg.training.sequence_length = 16384\nmbs = 2\nseq = 8192\n_hidden = 1\n"},
                        {NULL, NULL, NULL}};
  const mod pkg[] = {{"setup", "setup.py", SETUP},
                     {"pkg", "pkg/__init__.py", "from setup import cfg\ncfg.training.sequence_length = 8192\n"},
                     {"pkg.sub", "pkg/sub.py", "from setup import cfg\nfrom . import helper\n"},
                     {"pkg.helper", "pkg/helper.py", "x = 1\n"},
                     {NULL, NULL, NULL}};
  /* import tweaks runs tweaks.py, though nothing is read through it. */
  expect("from setup import cfg\nimport tweaks\n", tweaks,
         "\"sequence_length\":{\"value\":\"16384\",\"from\":\"tweaks.py:2\"");
  /* Its values land at the import, before later assignments. */
  expect("from setup import cfg\nimport tweaks\ncfg.training.sequence_length = 4096\n"
         "cfg.training.micro_batch_size = tweaks.mbs\n",
         tweaks, "\"sequence_length\":{\"value\":\"4096\",\"from\":\"run.py:6\"");
  expect("from setup import cfg\nimport tweaks\ncfg.training.sequence_length = 4096\n"
         "cfg.training.micro_batch_size = tweaks.mbs\n",
         tweaks, "\"micro_batch_size\":{\"value\":\"2\",\"from\":\"run.py:7\"");
  /* from x import * binds its public names. */
  expect("from setup import cfg\nfrom tweaks import *\ncfg.training.sequence_length = seq\n", tweaks,
         "\"sequence_length\":{\"value\":\"8192\",\"from\":\"run.py:6\"");
  expect("from setup import cfg\nfrom tweaks import *\ncfg.training.sequence_length = _hidden\n", tweaks,
         "error: run.py:6: the name _hidden is not defined at this point (a NameError in Python");
  /* A package's __init__.py runs before its submodule; relative imports inside it. */
  expect("from pkg.sub import cfg\n", pkg,
         "\"sequence_length\":{\"value\":\"8192\",\"from\":\"pkg/__init__.py:2\"");
  expect("import pkg.sub\ncfg = pkg.sub.cfg\n", pkg, "\"files\":[\"run.py\",\"pkg/__init__.py\",\"setup.py\",\"pkg/sub.py\",\"pkg/helper.py\"]");
  /* A module the finder lacks: ModuleNotFoundError. */
  expect("import nothere\ncfg = PretrainLMCfg()\n", NULL,
         "error: run.py:4: the script imports module nothere, which memest could not find");
  /* A relative import at the top level: Python's ImportError. */
  expect("from ..setup import cfg\n", tweaks, "error: run.py:4: a relative import in the script Python runs");
  expect("from .setup import cfg\n", tweaks, "attempted relative import with no known parent package");
  /* A library's star import binds names memest cannot list. */
  expect("from os.path import *\ncfg = PretrainLMCfg()\n", NULL, "error: run.py:4: from os.path import * binds names");
  /* An import of the user's module inside a block. */
  expect("cfg = PretrainLMCfg()\ntry:\n    import tweaks\nexcept ImportError:\n    pass\n", tweaks,
         "error: run.py:6: an import of module tweaks inside a try block (line 5)");
  /* Assigning a module's name is the module's. */
  expect("import setup\nsetup.cfg = PretrainLMCfg()\nfrom setup import cfg\ncfg.training.micro_batch_size = 1\n",
         tweaks, "\"refused\":{}");
}

/* launch() names the run's config: launch(cfg=...), launch(x), once. */
static void test_launch(void) {
  const char *two = "cfg = PretrainLMCfg()\ncfg.training.sequence_length = 4096\n"
                    "big = PretrainLMCfg()\nbig.training.sequence_length = 32768\n";
  char body[600];
  snprintf(body, sizeof body, "%sif __name__ == '__main__':\n    launch(cfg=big)\n", two);
  expect(body, NULL, "\"sequence_length\":{\"value\":\"32768\",\"from\":\"run.py:7\"");
  snprintf(body, sizeof body, "%slaunch(big)\n", two);
  expect(body, NULL, "\"sequence_length\":{\"value\":\"32768\"");
  snprintf(body, sizeof body, "%slaunch(cfg)\nlaunch(big)\n", two);
  expect(body, NULL, "error: run.py:9: launch() runs a second time (first at line 8 of run.py)");
  snprintf(body, sizeof body, "%sif big:\n    launch(big)\n", two);
  expect(body, NULL, "error: run.py:9: launch() inside an if block (line 8)");
  snprintf(body, sizeof body, "%sx = launch(big)\n", two);
  expect(body, NULL, "error: run.py:8: launch() inside an expression");
  snprintf(body, sizeof body, "%slaunch(big, 1)\n", two);
  expect(body, NULL, "error: run.py:8: launch(big, 1): the trainer's launch takes one config");
  /* A function's launch(NAME) reads the module's NAME when called. */
  snprintf(body, sizeof body, "%sdef main():\n    launch(big)\nif __name__ == '__main__':\n    main()\n", two);
  expect(body, NULL, "\"sequence_length\":{\"value\":\"32768\"");
  snprintf(body, sizeof body, "%sdef main():\n    big = cfg\n    launch(big)\n", two);
  expect(body, NULL, "error: run.py:10: launch(big) inside a function (line 8), which binds big itself");
  /* No launch(): Python starts no run, so there is no config to read. */
  expect("cfg = PretrainLMCfg()\ncfg.training.sequence_length = 4096\n# launch( comes later\n", NULL,
         "error: run.py calls no launch(): `python run.py` builds cfg but starts no run");
  expect("cfg = PretrainLMCfg()\nif __name__ == '__main__':\n    print(cfg)\n# launch(\n", NULL,
         "error: run.py calls no launch()");
  /* cfg rebound to something memest does not read. */
  expect("cfg = PretrainLMCfg()\ncfg = dict()\nlaunch(cfg)\n", NULL,
         "error: run.py:6: launch() is given cfg, not a PretrainLMCfg memest follows");
}

/* __file__ is absolute in Python: its parents go above the working folder. */
static void test_file_paths(void) {
  char *j = read_with("cfg = PretrainLMCfg()\n"
                      "cfg.training.model = Path(__file__).resolve().parent.parent / 'model.json'\n",
                      "runs/x/run.py", NULL);
  CHECK_HAS(j, "\"model\":{\"value\":\"runs/model.json\"");
  free(j);
  j = read_with("cfg = PretrainLMCfg()\n"
                "cfg.training.model = Path(__file__).resolve().parent.parent / 'model.json'\n",
                "run.py", NULL);
  CHECK_HAS(j, "\"model\":{\"value\":\"../model.json\"");
  free(j);
  j = read_with("import os\ncfg = PretrainLMCfg()\n"
                "cfg.training.model = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'm.json')\n",
                "a/run.py", NULL);
  CHECK_HAS(j, "\"model\":{\"value\":\"a/m.json\"");
  free(j);
  j = read_with("cfg = PretrainLMCfg()\ncfg.training.model = Path.cwd() / 'm.json'\n", "a/run.py", NULL);
  CHECK_HAS(j, "\"model\":{\"value\":\"m.json\"");
  free(j);
  /* A relative path's parent stays lexical, as PurePath's. */
  j = read_with("cfg = PretrainLMCfg()\ncfg.training.model = Path('m.json').parent.parent / 'x.json'\n",
                "a/run.py", NULL);
  CHECK_HAS(j, "\"model\":{\"value\":\"x.json\"");
  free(j);
}

/* What rebinds a name or a field out of sight. */
static void test_rebinding(void) {
  expect("cfg = PretrainLMCfg()\nt2 = PretrainLMCfg().training\nt2.sequence_length = 8192\n"
         "setattr(cfg, 'training', t2)\n",
         NULL, "\"sequence_length\":{\"value\":\"8192\",\"from\":\"run.py:6\"");
  expect("cfg = PretrainLMCfg()\nfor k, v in [('sequence_length', 1)]:\n    setattr(cfg.training, k, v)\n",
         NULL, "error: run.py:6: setattr() inside a block");
  expect("cfg = PretrainLMCfg()\nk = 'sequence_length'\nsetattr(cfg.training, k, 1)\n", NULL,
         "error: run.py:6: setattr() with a name memest cannot read");
  expect("cfg = PretrainLMCfg()\nseq = 4096\nprint(seq, seq := 32768)\ncfg.training.sequence_length = seq\n",
         NULL, "training.sequence_length is set to seq, bound by an assignment expression (:=) on line 6");
  expect("cfg = PretrainLMCfg()\nseq = 4096\ndef f():\n    global seq\n    seq = 1\n", NULL,
         "error: run.py:7: a global statement");
  expect("cfg = PretrainLMCfg()\nglobals()['seq'] = 1\n", NULL, "error: run.py:5: globals can bind names");
  expect("cfg = PretrainLMCfg()\nexec('seq = 1')\n", NULL, "error: run.py:5: exec can bind names");
  expect("cfg = PretrainLMCfg()\nimport sys\nsys.path.insert(0, 'other')\n", NULL,
         "error: run.py:6: sys.path changes where or what Python imports");
  expect("cfg = PretrainLMCfg()\nmatch 1:\n    case seq:\n        pass\n", NULL,
         "error: run.py:5: a match statement");
  expect("cfg = PretrainLMCfg()\nseq = 1\ndel seq\ncfg.training.sequence_length = seq\n", NULL,
         "training.sequence_length is set to seq, bound by del (line 6), which deletes it");
  expect("cfg = PretrainLMCfg()\ndel cfg.training.sequence_length\n", NULL, "error: run.py:5: del sets an attribute");
  expect("cfg = PretrainLMCfg()\nfor cfg.training.sequence_length in [1]:\n    pass\n", NULL,
         "error: run.py:5: a for target that is an attribute");
  expect("cfg = PretrainLMCfg()\nlst = [cfg]\nlst[0].training.sequence_length = 1\n", NULL,
         "\"sequence_length\":\"run.py:6: training.sequence_length is set through the name lst, bound to a list");
  /* A function's field assignment may run later than any module-level one. */
  expect("cfg = PretrainLMCfg()\ndef f(c):\n    c.training.sequence_length = 1\n"
         "cfg.training.sequence_length = 4096\nf(cfg)\n",
         NULL, "\"sequence_length\":\"run.py:6: training.sequence_length is set inside a function (line 5)");
  /* A block at module level runs in place: a later assignment holds. */
  expect("cfg = PretrainLMCfg()\nx = cfg\nfor x in []:\n    x.training.sequence_length = 1\n"
         "cfg.training.sequence_length = 4096\n",
         NULL, "\"sequence_length\":{\"value\":\"4096\",\"from\":\"run.py:8\"");
  /* The trainer's own code changed. */
  expect("from pithtrain.tasks import pretrain_lm\ncfg = PretrainLMCfg()\npretrain_lm.launch = print\n",
         NULL, "error: run.py:6: launch is used as a value");
  expect("from pithtrain.modules import training\ncfg = PretrainLMCfg()\ntraining.make_muon_optimizer = print\n",
         NULL, "error: run.py:6: training.make_muon_optimizer changes the trainer's own code");
  /* A builder the script defines is not the trainer's. */
  expect("cfg = PretrainLMCfg()\ndef make_muon_optimizer(p):\n    pass\n"
         "cfg.training.optimizer = make_muon_optimizer\n",
         NULL, "\"optimizer\":\"run.py:7: training.optimizer is make_muon_optimizer (a function run.py defines)");
  expect("cfg = PretrainLMCfg()\n__name__ = 'x'\n", NULL, "error: run.py:5: __name__ is rebound");
}

/* Names and values as Python reads them. */
static void test_values(void) {
  char body[400];
  /* NFKC: a fullwidth cfg is cfg. */
  expect("cfg = PretrainLMCfg()\n\xef\xbd\x83\xef\xbd\x86\xef\xbd\x87 = PretrainLMCfg()\n", NULL,
         "error: run.py:5: the name \xef\xbd\x83\xef\xbd\x86\xef\xbd\x87 is not ASCII");
  /* Names are never cut: 64 characters are refused. */
  snprintf(body, sizeof body, "cfg = PretrainLMCfg()\n%s = 1\n",
           "a123456789b123456789c123456789d123456789e123456789f123456789abcd");
  expect(body, NULL, "error: run.py:5: the name a123456789b123456789c123456789d123456789... is 64 characters");
  snprintf(body, sizeof body, "import %s\n",
           "a123456789.b123456789.c123456789.d123456789.e123456789.f123456789.g123456789.h123456789."
           "i123456789.j123456789.k123456789.l123456789");
  expect(body, NULL, "error: run.py:4: a module name longer than 127 characters");
  /* NUL in a string: Python's ValueError for a path. */
  expect("cfg = PretrainLMCfg()\ncfg.training.model = 'qwen3-30b-a3b\\x00../evil.json'\n", NULL,
         "\"model\":\"run.py:5: training.model is set to a string holding a NUL character");
  /* Python passes 4096.0 and True as they are. */
  expect("cfg = PretrainLMCfg()\ncfg.training.sequence_length = 4096.0\n", NULL,
         "\"sequence_length\":\"run.py:5: training.sequence_length is 4096.0, a float where the trainer takes an int");
  expect("cfg = PretrainLMCfg()\ncfg.training.micro_batch_size = True\n", NULL,
         "training.micro_batch_size is True, a bool where the trainer takes an int");
  expect("cfg = PretrainLMCfg()\ncfg.training.sequence_length = 0x1000\ncfg.training.micro_batch_size = 1_0\n",
         NULL, "\"sequence_length\":{\"value\":\"4096\"");
  expect("cfg = PretrainLMCfg()\ncfg.training.optimizer = 'make_muon_optimizer'\n", NULL,
         "training.optimizer is the string 'make_muon_optimizer', not a builder");
  /* The trainer's configs have __slots__. */
  expect("cfg = PretrainLMCfg()\ncfg.training.sequence_lenght = 1\n", NULL,
         "error: run.py:5: TrainingCfg has no field sequence_lenght");
  expect("cfg = PretrainLMCfg()\nlogging = cfg.logging\nlogging.fp8 = False\n", NULL,
         "error: run.py:6: LoggingCfg has no field fp8");
  expect("cfg = PretrainLMCfg()\ncfg.logging.wandb.entity = 'x'\n", NULL,
         "error: run.py:5: cfg.logging.wandb.entity sets an attribute of a value that has none");
}

/* The file as Python decodes and parses it. */
static void test_file_form(void) {
  memest_trainer_run *run = NULL;
  memest_error e;
  const char *latin1 = "# -*- coding: latin-1 -*-\n"
                       "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch\n"
                       "cfg = PretrainLMCfg()\n# caf\xe9\ncfg.training.model = 'caf\xe9.json'\nlaunch(cfg)\n";
  char *j;
  CHECK(memest_script_read(latin1, strlen(latin1), "l.py", NULL, NULL, &run, &e) == MEMEST_OK);
  if (run != NULL) {
    j = memest_trainer_run_json(run);
    CHECK_HAS(j, "\"model\":{\"value\":\"caf\xc3\xa9.json\"");
    free(j);
    memest_trainer_run_free(run);
  }
  run = NULL;
  CHECK(memest_script_read("# coding: cp1252\nx = 1\n", 22, "c.py", NULL, NULL, &run, &e) == MEMEST_E_VALUE);
  CHECK_HAS(e.message, "c.py:1: the file declares the encoding 'cp1252'");
  CHECK(memest_script_read("\xef\xbb\xbf# coding: latin-1\nx = 1\n", 29, "b.py", NULL, NULL, &run, &e) ==
        MEMEST_E_VALUE);
  CHECK_HAS(e.message, "encoding problem: latin-1 with BOM");
  expect("cfg = PretrainLMCfg()\nif cfg:\n\tx = 1\n        y = 2\n", NULL,
         "error: run.py:7:9: inconsistent use of tabs and spaces in indentation (TabError)");
  expect("cfg = PretrainLMCfg()\nx = b'caf\xc3\xa9'\n", NULL, "error: run.py:5: bytes can only contain ASCII");
  expect("cfg = PretrainLMCfg()\nx = 1 +\n", NULL, "error: run.py:5: invalid syntax: the statement ends in an operator");
  expect("cfg = PretrainLMCfg()\nx = 1;;\n", NULL, "error: run.py:5: invalid syntax: an empty statement");
  expect("cfg = PretrainLMCfg()\nx := 1\n", NULL, "error: run.py:5: invalid syntax: an assignment expression (:=) needs parentheses");
  expect("cfg = PretrainLMCfg()\nprint 'x'\n", NULL, "error: run.py:5: Missing parentheses in call to 'print'");
  expect("cfg = PretrainLMCfg()\nTrue = 1\n", NULL, "error: run.py:5: cannot assign to a keyword");
  expect("cfg = PretrainLMCfg()\nreturn\n", NULL, "error: run.py:5: 'return', 'yield' or 'await' outside a function");
  expect("cfg = PretrainLMCfg()\nif cfg:\n    break\n", NULL, "error: run.py:6: 'break' or 'continue' outside a loop");
  expect("cfg = PretrainLMCfg()\nif cfg:\nx = 1\n", NULL, "error: run.py:5: expected an indented block");
  CHECK(memest_script_read("from __future__ import braces\n", 30, "f.py", NULL, NULL, &run, &e) == MEMEST_E_VALUE);
  CHECK_HAS(e.message, "f.py:1: not a chance");
  expect("cfg = PretrainLMCfg()\nfrom __future__ import annotations\n", NULL,
         "error: run.py:5: from __future__ imports must occur at the beginning of the file");
  expect("cfg = PretrainLMCfg()\nx = f'{cfg!x}'\n", NULL,
         "error: run.py:5:11: f-string: invalid conversion character: expected 's', 'r', or 'a'");
  expect("cfg = PretrainLMCfg()\nprint(**{}, *[])\n", NULL,
         "error: run.py:5: iterable argument unpacking follows keyword argument unpacking");
  expect("cfg = PretrainLMCfg()\nprint(sep='', cfg)\n", NULL,
         "error: run.py:5: positional argument follows keyword argument");
  expect("cfg = PretrainLMCfg()\nif print(**{}, cfg):\n    pass\n", NULL,
         "error: run.py:5: positional argument follows keyword argument unpacking");
  /* A bracketed expression with a trailer is an attribute or item
  ** assignment, not unpacking: refused in those words, at module level and
  ** inside a block. */
  expect("cfg = PretrainLMCfg()\n(cfg.training).sequence_length = 2048\n", NULL,
         "error: run.py:5: (cfg.training).sequence_length assigns to an attribute or item of a bracketed "
         "expression");
  expect("cfg = PretrainLMCfg()\nif cfg:\n    (cfg.training)[0] = 1\n", NULL,
         "error: run.py:6: (cfg.training)[0] assigns to an attribute or item of a bracketed expression");
  expect("cfg = PretrainLMCfg()\n(a, b) = (1, 2)\ncfg.training.sequence_length = 2048\n", NULL,
         "\"sequence_length\":{\"value\":\"2048\"");
  /* Parentheses around one target are the target itself, as in Python. */
  expect("cfg = PretrainLMCfg()\n((seq)) = 1024\ncfg.training.sequence_length = seq\n", NULL,
         "\"sequence_length\":{\"value\":\"1024\"");
  expect("cfg = PretrainLMCfg()\n(cfg.training.sequence_length) = 512\n", NULL,
         "\"sequence_length\":{\"value\":\"512\"");
  expect("cfg = PretrainLMCfg()\n(seq,) = (1024,)\ncfg.training.sequence_length = seq\n", NULL,
         "\"refused\":{\"sequence_length\":\"run.py:6: training.sequence_length is set to seq, bound by "
         "unpacking (seq)");
  /* What Python accepts stays read. */
  expect("cfg = PretrainLMCfg()\nprint(*[1], **{}, sep='')\nprint(f'{cfg!r:>3}{1!s}', *[2], end='', *[3])\n"
         "def g(a=1, *b, c, **d):\n    pass\ncfg.training.sequence_length = 2048\n", NULL,
         "\"sequence_length\":{\"value\":\"2048\"");
  expect("cfg = PretrainLMCfg()\nfor i in range(2):\n    if i:\n        continue\ndef f():\n    return [x for x in (yield)]\n"
         "cfg.training.sequence_length = 2048;\n", NULL, "\"sequence_length\":{\"value\":\"2048\"");
}

int main(void) {
  test_imports();
  test_launch();
  test_file_paths();
  test_rebinding();
  test_values();
  test_file_form();
  return check_done("test_pyscript");
}
