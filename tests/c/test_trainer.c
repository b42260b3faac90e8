/*
** test_trainer.c — the readers of the trainer's own files, through the
** public API and the tokenizer: Python's lexical rules, what the script
** reader follows and refuses, the launch line's repr forms, both
** config.yaml forms and the metadata, the field table, the trainer commit
** list, and applying a run where flags win.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trainer/trainer.h"
#include "trainer/trainer_commits.h"

/* {======================================================================
** The tokenizer
** ======================================================================= */

/* The kinds of src's tokens as letters (N name, 1 number, S string, O op,
** L newline, I indent, D dedent, E end). */
static const char *kinds(const char *src, char *buf, size_t size) {
  pytok *t = NULL;
  int n = 0, i;
  memest_error e;
  size_t o = 0;
  if (memi_pylex(src, strlen(src), "t.py", 0, &t, &n, &e) != MEMEST_OK) {
    snprintf(buf, size, "error: %.200s", e.message);
    return buf;
  }
  for (i = 0; i < n && o + 1 < size; i++) buf[o++] = "EL ID N1SO"[t[i].kind == PT_END ? 0 : t[i].kind == PT_NEWLINE ? 1 : t[i].kind == PT_INDENT ? 3 : t[i].kind == PT_DEDENT ? 4 : t[i].kind == PT_NAME ? 6 : t[i].kind == PT_NUMBER ? 7 : t[i].kind == PT_STRING ? 8 : 9];
  buf[o] = '\0';
  free(t);
  return buf;
}

static const char *lex_error(const char *src, char *buf, size_t size) {
  pytok *t = NULL;
  int n = 0;
  memest_error e;
  buf[0] = '\0';
  if (memi_pylex(src, strlen(src), "t.py", 0, &t, &n, &e) != MEMEST_OK) snprintf(buf, size, "%.200s", e.message);
  free(t);
  return buf;
}

static void test_tokens(void) {
  char b[512];
  CHECK_STR(kinds("x = 1\n", b, sizeof b), "NO1LE");
  CHECK_STR(kinds("x = (1,\n  2)\n", b, sizeof b), "NOO1O1OLE");           /* brackets span lines */
  CHECK_STR(kinds("x = 1 + \\\n 2\n", b, sizeof b), "NO1O1LE");             /* a continuation */
  CHECK_STR(kinds("# only a comment\n\n   \nx = 1  # and one\n", b, sizeof b), "NO1LE");
  CHECK_STR(kinds("if a:\n    b = 1\nc = 2\n", b, sizeof b), "NNOLINO1LDNO1LE");
  CHECK_STR(kinds("if a:\n\tb = 1\n\tc = 2\n", b, sizeof b), "NNOLINO1LNO1LDE");
  /* A tab is 8 columns and 1: where the two readings disagree, Python's TabError. */
  CHECK_STR(kinds("if a:\n\tb = 1\n        c = 2\n", b, sizeof b),
            "error: t.py:3:9: inconsistent use of tabs and spaces in indentation (TabError)");
  CHECK_STR(kinds("if a:\n        b = 1\n\tc = 2\n", b, sizeof b),
            "error: t.py:3:9: inconsistent use of tabs and spaces in indentation (TabError)");
  CHECK_STR(kinds("if a:\n\tif b:\n\t        c = 2\n", b, sizeof b), "NNOLINNOLINO1LDDE");
  CHECK_STR(kinds("s = rb'a' Br\"b\" f'{x}' t'{y}' u'c' \"\"\"d\n\"e\"\n\"\"\"\n", b, sizeof b), "NOSSSSSSLE");
  CHECK_STR(kinds("s = f\"{d['k']!r:>{w}}\" + f'''{\"a\" if b else 'c'}'''\n", b, sizeof b), "NOSOSLE");
  CHECK_STR(kinds("s = f\"{f'{f\"{x}\"}'}\"\n", b, sizeof b), "NOSLE");        /* 3.12 nesting */
  CHECK_STR(kinds("n = 0x_1F + 0o17 + 0b1_0 + 1_000.5e-3 + .5 + 3j + 00\n", b, sizeof b), "NO1O1O1O1O1O1O1LE");
  CHECK_STR(kinds("x = 1\r\ny = 2\rz = 3", b, sizeof b), "NO1LNO1LNO1LE");    /* CRLF, CR, no last newline */
  CHECK_STR(kinds("\xef\xbb\xbfx = '\xc3\xa9'\n", b, sizeof b), "NOSLE");     /* a BOM; UTF-8 */
  CHECK_STR(kinds("a **= b // c -> d := e != f ... @ g\n", b, sizeof b), "NONONONONONOONLE");
  CHECK_HAS(lex_error("x = 'abc\n", b, sizeof b), "t.py:1:5: unterminated string literal");
  CHECK_HAS(lex_error("x = '''abc\n", b, sizeof b), "t.py:1:5: unterminated triple-quoted string literal");
  CHECK_HAS(lex_error("x = (1,\n2\n", b, sizeof b), "t.py:1:5: '(' was never closed");
  CHECK_HAS(lex_error("x = (1]\n", b, sizeof b), "closing parenthesis ']' does not match opening parenthesis '('");
  CHECK_HAS(lex_error("x = 1)\n", b, sizeof b), "unmatched ')'");
  CHECK_HAS(lex_error("if a:\n    b = 1\n  c = 2\n", b, sizeof b), "t.py:3:3: unindent does not match any outer indentation level");
  CHECK_HAS(lex_error("x = 1 \\ y\n", b, sizeof b), "unexpected character after line continuation character");
  CHECK_HAS(lex_error("x = 012\n", b, sizeof b), "leading zeros in decimal integer literals are not permitted");
  CHECK_HAS(lex_error("x = 0x\n", b, sizeof b), "invalid hexadecimal literal");
  CHECK_HAS(lex_error("x = $\n", b, sizeof b), "invalid character '$' (U+0024)");
  CHECK_HAS(lex_error("x = f'}'\n", b, sizeof b), "f-string: single '}' is not allowed");
  CHECK_HAS(lex_error("x = 1\0", b, sizeof b), "");
  CHECK_HAS(lex_error("x = '\xff'\n", b, sizeof b), "t.py:1:6: byte 0xff is not UTF-8");
  {
    char deep[1024];
    int k;
    for (k = 0; k < 201; k++) deep[k] = '(';
    deep[k] = '\0';
    CHECK_HAS(lex_error(deep, b, sizeof b), "too many nested parentheses");
  }
}

static void test_values(void) {
  char out[64];
  int flags;
  tvalue v;
  CHECK(memi_pystr_value("'a\\tb\\x41\\101\\u00e9\\\\'", 22, out, sizeof out, &flags));
  CHECK_STR(out, "a\tbAA\xc3\xa9\\");
  CHECK_I64(flags, 0);
  CHECK(memi_pystr_value("r'a\\tb'", 7, out, sizeof out, &flags));
  CHECK_STR(out, "a\\tb");
  CHECK(memi_pystr_value("f'{{x}}'", 8, out, sizeof out, &flags));
  CHECK_STR(out, "{x}");
  CHECK_I64(flags, 0);
  CHECK(memi_pystr_value("f'{x}'", 6, out, sizeof out, &flags));
  CHECK(flags & PS_FIELDS);
  CHECK(memi_pystr_value("b'ab'", 5, out, sizeof out, &flags));
  CHECK(flags & PS_BYTES);
  CHECK(memi_pystr_value("'\\N{BULLET}'", 12, out, sizeof out, &flags));
  CHECK(flags & PS_NAMED_ESCAPE);
  CHECK(memi_pystr_value("'\\ud800'", 8, out, sizeof out, &flags));
  CHECK(flags & PS_SURROGATE);
  CHECK(memi_pystr_value("'''a\r\nb'''", 10, out, sizeof out, &flags));
  CHECK_STR(out, "a\nb");
  CHECK(!memi_pystr_value("'abcdef'", 8, out, 4, &flags));   /* too long for out */
  memi_pynum_value("1_024", 5, &v);
  CHECK(v.kind == TV_INT && v.i == 1024);
  memi_pynum_value("0x800", 5, &v);
  CHECK(v.kind == TV_INT && v.i == 2048);
  memi_pynum_value("0o17", 4, &v);
  CHECK(v.kind == TV_INT && v.i == 15);
  memi_pynum_value("1.0e-4", 6, &v);
  CHECK(v.kind == TV_FLOAT && v.f == 1.0e-4);
  memi_pynum_value("3j", 2, &v);
  CHECK(v.kind == TV_OTHER);
  memi_pynum_value("99999999999999999999", 20, &v);
  CHECK(v.kind == TV_OTHER);
}
/* }====================================================================== */

/* {======================================================================
** Launch scripts
** ======================================================================= */

/* Modules by name, for the finder. */
typedef struct mods {
  const char *name[4], *text[4];
  int n;
} mods;

static int find(void *ctx, const char *name, const char **text, size_t *len, const char **label,
                memest_error *err) {
  mods *m = ctx;
  int i;
  for (i = 0; i < m->n; i++) {
    if (strcmp(m->name[i], name) == 0) {
      *text = m->text[i];
      *len = strlen(m->text[i]);
      *label = m->name[i];
      return 1;
    }
  }
  snprintf(err->message, sizeof err->message, "no module %s here", name);
  return 0;
}

/* Reads script src; its source JSON, or "error: message". Caller frees. */
static char *read_script(const char *text, const char *label, mods *m) {
  memest_trainer_run *run = NULL;
  memest_error e;
  char *json, *src;
  memest_code rc;
  /* a script that calls no launch() gets the trainer scripts' own last line */
  const char *tail =
    strstr(text, "launch(") != NULL ? "" : "from pithtrain.tasks.pretrain_lm import launch\nlaunch(cfg)\n";
  src = malloc(strlen(text) + strlen(tail) + 1);
  sprintf(src, "%s%s", text, tail);
  rc = memest_script_read(src, strlen(src), label, find, m, &run, &e);
  free(src);
  if (rc != MEMEST_OK) {
    json = malloc(900);
    snprintf(json, 900, "error: %s", e.message);
    return json;
  }
  json = memest_trainer_run_json(run);
  memest_trainer_run_free(run);
  return json;
}

static const char *const HEAD =
  "from functools import partial\nfrom pathlib import Path\n"
  "from pithtrain.modules.training import make_muon_optimizer, make_adamw_optimizer, make_wsd_scheduler\n"
  "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch\n"
  "cfg = PretrainLMCfg()\n";

static char *script(const char *body, const char *label) {
  char src[4096];
  snprintf(src, sizeof src, "%s%s", HEAD, body);
  return read_script(src, label, NULL);
}

static void test_script_forms(void) {
  char *j;
  /* Aliases, chains, literals, names bound to literals, partial with **kwargs. */
  j = script("training = cfg.training\nd = cfg.distributed\nd.pipeline_parallel_size = 4\n"
             "cfg.distributed.expert_parallel_size = 8\nseq = 4096\ntraining.sequence_length = seq\n"
             "training.micro_batch_size = +1\ntraining.global_batch_size = 1024\n"
             "kw = {'weight_decay': 0.1}\ntraining.optimizer = partial(make_muon_optimizer, **kw)\n"
             "training.model = Path('examples') / 'pretrain_lm' / \"qwen3-30b-a3b/config.json\"\n"
             "training.fp8 = True\ntraining.benchmark = False\n",
             "run.py");
  CHECK_HAS(j, "\"pp_size\":{\"value\":\"4\",\"from\":\"run.py:8\"");
  CHECK_HAS(j, "\"ep_size\":{\"value\":\"8\",\"from\":\"run.py:9\"");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"4096\",\"from\":\"run.py:11\"");
  CHECK_HAS(j, "\"optimizer\":{\"value\":\"muon\"");
  CHECK_HAS(j, "\"model\":{\"value\":\"examples/pretrain_lm/qwen3-30b-a3b/config.json\"");
  CHECK_HAS(j, "\"is_path\":true");
  CHECK_HAS(j, "\"fp8_training\":{\"value\":\"deep-gemm\"");
  CHECK_HAS(j, "\"routing\":{\"value\":\"measured\"");
  CHECK_HAS(j, "\"cp_size\":{\"value\":\"1\",\"from\":\"DistributedCfg's default\"");
  free(j);
  /* The last assignment holds; a later refusal undoes an earlier value, a
  ** later value an earlier refusal. */
  j = script("cfg.training.micro_batch_size = 2 * 2\ncfg.training.micro_batch_size = 1\n"
             "cfg.training.global_batch_size = 1024\ncfg.training.global_batch_size = 2 ** 10\n",
             "r.py");
  CHECK_HAS(j, "\"micro_batch_size\":{\"value\":\"1\",\"from\":\"r.py:7\"");
  CHECK_HAS(j, "\"refused\":{\"global_batch_size\":\"r.py:9: training.global_batch_size is set to an arithmetic expression");
  free(j);
  /* A name nothing bound is Python's NameError: the script stops there. */
  j = script("training, distributed = distributed, training\n", "r.py");
  CHECK_HAS(j, "error: r.py:6: the name distributed is not defined at this point (a NameError in Python");
  free(j);
  /* A section replaced by its class starts afresh; by anything else, refused. */
  j = script("from pithtrain.modules.training import TrainingCfg\n"
             "cfg.training.sequence_length = 1\ncfg.training = TrainingCfg()\ncfg.training.micro_batch_size = 2\n",
             "s.py");
  CHECK(strstr(j, "sequence_length\":{\"value") == NULL);
  CHECK_HAS(j, "\"micro_batch_size\":{\"value\":\"2\"");
  free(j);
  /* setattr with a literal name is an assignment. */
  j = script("setattr(cfg.training, 'sequence_length', 8192)\n", "a.py");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"8192\",\"from\":\"a.py:6\"");
  free(j);
  /* __file__ and .parent: a config beside the script. */
  j = script("cfg.training.model = Path(__file__).parent / 'config.json'\n", "runs/x/run.py");
  CHECK_HAS(j, "\"model\":{\"value\":\"runs/x/config.json\"");
  free(j);
  /* A hub id is a string. */
  j = script("cfg.training.model = 'Qwen/Qwen3-30B-A3B'\n", "h.py");
  CHECK_HAS(j, "\"is_path\":false");
  free(j);
  /* Blocks: a memory field set in one is refused; names rebound lose their value. */
  j = script("while False:\n    cfg.distributed.expert_parallel_size = 2\n", "w.py");
  CHECK_HAS(j, "w.py:7: distributed.expert_parallel_size is set inside a while loop (line 6)");
  free(j);
  j = script("try:\n    import torch\nexcept ImportError:\n    pass\ncfg.training.sequence_length = 2048\n", "t.py");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"2048\"");
  free(j);
  j = script("def f():\n    cfg.training.sequence_length = 1\n", "f.py");
  CHECK_HAS(j, "f.py:7: training.sequence_length is set inside a function (line 6)");
  free(j);
  j = script("seq = 4096\nif True: seq = 8192\ncfg.training.sequence_length = seq\n", "i.py");
  CHECK_HAS(j, "i.py:8: training.sequence_length is set to seq, bound inside an if block (line 7)");
  free(j);
  /* The script's own __main__ block runs; launch() names the config. */
  j = script("other = PretrainLMCfg()\nother.training.sequence_length = 1\n"
             "if __name__ == '__main__':\n    cfg.training.sequence_length = 4096\n    launch(cfg)\n",
             "m.py");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"4096\",\"from\":\"m.py:9\"");
  free(j);
  /* An unknown field is named; a field of logging is read and ignored. */
  j = script("cfg.training.flash = True\n", "u.py");
  CHECK_HAS(j, "error: u.py:6: TrainingCfg has no field flash: the trainer's configs have __slots__");
  free(j);
  j = script("cfg.logging.wandb = None\n", "u.py");
  CHECK_HAS(j, "\"logging.wandb (u.py:6)\"");
  free(j);
  /* A call given the config may change it: a warning. */
  j = script("tweak(cfg)\n", "c.py");
  CHECK_HAS(j, "c.py:6: tweak(cfg) passes a config to a call memest does not run");
  free(j);
  /* Python's errors: an unexpected indent. */
  j = script("  x = 1\n", "e.py");
  CHECK_HAS(j, "error: e.py:6: unexpected indent");
  free(j);
  /* The benchmark folder and the script's name. */
  j = script("cfg.distributed.pipeline_parallel_size = 2\n", "b/h200-4n8g/pp4-dp1-cp1-ep8-seq4096-bf16.py");
  CHECK_HAS(j, "\"total_gpus\":{\"value\":\"32\",\"from\":\"h200-4n8g\"");
  CHECK_HAS(j, "\"gpu\":{\"value\":\"h200\"");
  CHECK_HAS(j, "the script's name says pp4, but it sets pp_size = 2");
  free(j);
  j = script("", "b/gb300-2n4g/run.py");
  CHECK_HAS(j, "\"total_gpus\":{\"value\":\"8\"");
  CHECK_HAS(j, "names the GPU 'gb300', which is no GPU preset");
  free(j);
}

static void test_script_imports(void) {
  mods m;
  char *j;
  m.name[0] = "setup";
  m.text[0] = "from pathlib import Path\n"
              "from pithtrain.modules.training import make_muon_optimizer\n"
              "from pithtrain.tasks.pretrain_lm import PretrainLMCfg\n"
              "if __name__ == '__main__':\n    for i in range(3):\n        cfg = i\n"
              "cfg = PretrainLMCfg()\ntraining = cfg.training\n"
              "training.model = Path('m.json')\ntraining.optimizer = make_muon_optimizer\n"
              "training.benchmark = True\n";
  m.n = 1;
  j = read_script("from setup import cfg\nfrom setup import training as t\n"
                  "cfg.distributed.pipeline_parallel_size = 2\nt.sequence_length = 1024\n",
                  "h100-1n8g/run.py", &m);
  CHECK_HAS(j, "\"files\":[\"h100-1n8g/run.py\",\"setup\"]");
  CHECK_HAS(j, "\"routing\":{\"value\":\"balanced\",\"from\":\"setup:11\"");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"1024\",\"from\":\"h100-1n8g/run.py:4\"");
  CHECK_HAS(j, "\"pp_size\":{\"value\":\"2\"");
  free(j);
  /* A module the finder does not have: its message in the error. */
  m.n = 0;
  j = read_script("from setup import cfg\ncfg.distributed.pipeline_parallel_size = 2\n", "run.py", &m);
  CHECK_HAS(j, "error: run.py:1: the script imports module setup, which memest could not find (no module setup here); Python stops there with ModuleNotFoundError");
  free(j);
  /* A circular import sees what is defined so far, as Python's does. */
  m.name[0] = "a";
  m.text[0] = "from pithtrain.tasks.pretrain_lm import PretrainLMCfg\ncfg = PretrainLMCfg()\nfrom a import cfg\n";
  m.n = 1;
  j = read_script("from a import cfg\ncfg.training.sequence_length = 8\n", "run.py", &m);
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"8\"");
  free(j);
}
/* }====================================================================== */

/* {======================================================================
** The log's launch line
** ======================================================================= */

static char *read_log(const char *text) {
  memest_trainer_run *run = NULL;
  memest_error e;
  char *json;
  if (memest_launch_log_read(text, strlen(text), "t.log", &run, &e) != MEMEST_OK) {
    json = malloc(900);
    snprintf(json, 900, "error %s: %s", memest_code_name(e.code), e.message);
    return json;
  }
  json = memest_trainer_run_json(run);
  memest_trainer_run_free(run);
  return json;
}

static void test_launch_line(void) {
  char *j;
  size_t off;
  int64_t line;
  memest_trainer_run *run = NULL;
  memest_error e;
  const char *two =
    "x\n2026-01-01 | INFO | launch(cfg=PretrainLMCfg(distributed=DistributedCfg(pipeline_parallel_size=2, "
    "context_parallel_size=1, expert_parallel_size=8, timeout=datetime.timedelta(0), sharding_strategy='fsdp'), "
    "training=TrainingCfg(sequence_length=2048, micro_batch_size=1, global_batch_size=512, "
    "optimizer=<function make_muon_optimizer at 0x7f00>, model='Qwen/Qwen3-30B-A3B'), logging=LoggingCfg(wandb=None)))\n"
    "step 00000001/00000010 | peak-gpu-memory 1.00 GB\n"
    "2026-01-02 | INFO | launch(cfg=PretrainLMCfg(distributed=DistributedCfg(pipeline_parallel_size=4, "
    "context_parallel_size=1, expert_parallel_size=8, timeout=datetime.timedelta(days=1, seconds=5), "
    "sharding_strategy=\"hsdp\"), training=TrainingCfg(dataset=PosixPath('d\\'s'), sequence_length=4096, "
    "micro_batch_size=1, global_batch_size=1024, optimizer=functools.partial(<function "
    "make_muon_optimizer.<locals>.f at 0x1>, weight_decay=-0.5), scheduler=<function <lambda> at 0x2>, "
    "model=PosixPath('/abs/m.json'), save_location=None, lr=inf, seed=[1, (2, 3)], extra={'k': [1]}, "
    "init_std=<object object at 0x3>, benchmark=True, fp8_training='deep-gemm', memory_profile_output=PosixPath('/root')), "
    "logging=LoggingCfg(wandb=LoggingWandbCfg(entity='a', project=\"b'c\", name='\\n', group=None))))\r\n"
    "No save_location set; training from scratch.\r\n"
    "step 00000001/00000010 | peak-gpu-memory 2.00 GB\r\n";
  j = read_log(two);
  CHECK_HAS(j, "\"pp_size\":{\"value\":\"4\",\"from\":\"t.log:4\"");
  CHECK_HAS(j, "\"sharding\":{\"value\":\"hsdp\"");
  CHECK_HAS(j, "\"optimizer\":\"t.log:4: training.optimizer is partial(make_muon_optimizer.<locals>.f, weight_decay=-0.5)");
  CHECK_HAS(j, "\"model\":{\"value\":\"/abs/m.json\"");
  CHECK_HAS(j, "fit no one version of the trainer");
  CHECK_HAS(j, "\"fp8_training\":{\"value\":\"deep-gemm\"");
  CHECK_HAS(j, "\"routing\":{\"value\":\"balanced\"");
  CHECK_HAS(j, "\"launch_lines\":[2,4],\"launches\":2,\"steps_from_line\":5");
  CHECK_HAS(j, "\"init\":\"scratch\"");
  CHECK_HAS(j, "has 2 launch lines, a restarted run");
  free(j);
  CHECK(memest_launch_log_read(two, strlen(two), "t.log", &run, &e) == MEMEST_OK);
  memest_trainer_run_steps(run, &off, &line);
  CHECK_I64(line, 5);
  CHECK(strncmp(two + off, "No save_location", 16) == 0);
  CHECK_STR(memest_trainer_run_root_hint(run), "/root");
  memest_trainer_run_free(run);
  /* A hub id; an unknown section. */
  j = read_log("launch(cfg=PretrainLMCfg(distributed=DistributedCfg(pipeline_parallel_size=1), "
               "training=TrainingCfg(model='openai/gpt-oss-20b'), eval=EvalCfg(every=5)))\n");
  CHECK_HAS(j, "\"is_path\":false");
  CHECK_HAS(j, "section eval that memest does not know");
  free(j);
  /* Refusals. */
  j = read_log("no launch here\nstep 1 | peak-gpu-memory 3 GB\n");
  CHECK_HAS(j, "error missing: no line of t.log has launch(cfg=...)");
  free(j);
  j = read_log("launch(cfg=PretrainLMCfg(distributed=DistributedCfg(pipeline_parallel_size=1\n");
  CHECK_HAS(j, "error value: t.log:1: the launch line cannot be read as Python's repr");
  CHECK_HAS(j, "was never closed");
  free(j);
  j = read_log("x | launch(cfg=PretrainLMCfg(distributed=DistributedCfg(pipeline_parallel_size 1)))\n");
  CHECK_HAS(j, "error value: t.log:1: the launch line is not the repr the trainer prints: expected field=value at column 57 ('pipeline_parallel_size')");
  free(j);
  j = read_log("launch(cfg=PretrainLMCfg(training=TrainingCfg(optimizer=<function f at 0x1)))\n");
  CHECK_HAS(j, "error value");
  free(j);
}
/* }====================================================================== */

/* {======================================================================
** W&B
** ======================================================================= */

static char *read_wandb(const char *yaml, const char *meta, const char *summary) {
  memest_wandb_files f;
  memest_trainer_run *run = NULL;
  memest_error e;
  char *json;
  memset(&f, 0, sizeof f);
  f.dir = "run";
  f.config_yaml = yaml;
  f.config_len = yaml ? strlen(yaml) : 0;
  f.metadata_json = meta;
  f.metadata_len = meta ? strlen(meta) : 0;
  f.summary_json = summary;
  f.summary_len = summary ? strlen(summary) : 0;
  if (memest_wandb_read(&f, &run, &e) != MEMEST_OK) {
    json = malloc(900);
    snprintf(json, 900, "error %s: %s", memest_code_name(e.code), e.message);
    return json;
  }
  json = memest_trainer_run_json(run);
  if (summary) {
    int64_t step;
    double gib = memest_trainer_run_summary_gib(run, &step);
    CHECK(gib > 45.3 && gib < 45.4);
    CHECK_I64(step, 25);
  }
  memest_trainer_run_free(run);
  return json;
}

static void test_wandb(void) {
  char *j;
  const char *meta =
    "{\"gpu\": \"NVIDIA H200\", \"gpu_count\": 8, \"gpu_nvidia\": [{\"name\": \"NVIDIA H200\", "
    "\"memoryTotal\": \"150754820096\"}], \"git\": {\"commit\": \"d2fffcc363182cc4c7467b2cc1e0158e77a4bf62\"}, "
    "\"slurm\": {\"nnodes\": \"2\"}, \"root\": \"/srv/t\"}";
  /* wandb-core's form, any key order, quoted and tagged scalars, a
  ** container on a field that changes no memory. */
  j = read_wandb("_wandb:\n    value:\n        e:\n            w1:\n                gpu: NVIDIA A100-SXM4-40GB\n"
                 "training:\n    value:\n        sequence_length: !!int \"2048\"\n        benchmark: true\n"
                 "        optimizer: make_muon_optimizer(weight_decay=0.05)\n        model: 'Qwen/Qwen3-30B-A3B'\n"
                 "        micro_batch_size: 1\n        global_batch_size: 1.024e3\n        dataset: [a, b]\n"
                 "distributed:\n    value: {pipeline_parallel_size: 2, expert_parallel_size: 8, sharding_strategy: hsdp}\n",
                 meta, "{\"infra/peak-gpu-memory\": 45.38, \"train/step\": 24}");
  CHECK_HAS(j, "\"pp_size\":{\"value\":\"2\",\"from\":\"run/config.yaml:16\"");
  CHECK_HAS(j, "\"sequence_length\":{\"value\":\"2048\",\"from\":\"run/config.yaml:8\"");
  CHECK_HAS(j, "\"global_batch_size\":{\"value\":\"1024\"");
  CHECK_HAS(j, "\"optimizer\":{\"value\":\"muon\"");
  CHECK_HAS(j, "\"is_path\":null");
  CHECK_HAS(j, "\"total_gpus\":{\"value\":\"16\",\"from\":\"wandb-metadata.json\"");
  CHECK_HAS(j, "\"gpu\":{\"value\":\"h200\"");
  CHECK_HAS(j, "\"commit\":\"d2fffcc363182cc4c7467b2cc1e0158e77a4bf62\"");
  free(j);
  /* The older SDK's form; the GPU of _wandb's environment when the metadata is missing. */
  j = read_wandb("wandb_version: 1\n\n_wandb:\n  desc: null\n  value:\n    e:\n      w1:\n"
                 "        gpu_nvidia:\n        - name: NVIDIA A100-SXM4-40GB\n          memoryTotal: '42949672960'\n"
                 "        gpu_count: 4\n        slurm:\n          nnodes: '1'\n"
                 "distributed:\n  desc: null\n  value:\n    pipeline_parallel_size: 1\n"
                 "training:\n  desc: null\n  value:\n    fp8_training: deep-gemm\n    optimizer: Adam\n",
                 NULL, NULL);
  CHECK_HAS(j, "\"gpu\":{\"value\":\"a100-40\"");
  CHECK_HAS(j, "\"total_gpus\":{\"value\":\"4\"");
  CHECK_HAS(j, "\"fp8_training\":{\"value\":\"deep-gemm\"");
  CHECK_HAS(j, "\"optimizer\":{\"value\":\"adamw\"");
  CHECK_HAS(j, "has no wandb-metadata.json");
  CHECK_HAS(j, "before d80a5e6 (2026-04-12: it has no memory_profile_start)");
  free(j);
  /* A GPU no preset has; no node count. */
  j = read_wandb("training:\n  value:\n    sequence_length: 8\n",
                 "{\"gpu\": \"NVIDIA H100 NVL\", \"gpu_count\": 2, \"gpu_nvidia\": [{\"memoryTotal\": \"100485038080\"}]}",
                 NULL);
  CHECK_HAS(j, "is no GPU preset; give --gpu-memory-gb");
  CHECK_HAS(j, "no node count (no slurm.nnodes); give --total-gpus");
  CHECK(strstr(j, "\"gpu\":{") == NULL);
  free(j);
  /* Refusals. */
  j = read_wandb(NULL, NULL, NULL);
  CHECK_HAS(j, "error missing: run has neither config.yaml nor wandb-metadata.json");
  free(j);
  j = read_wandb("training: [unclosed\n", NULL, NULL);
  CHECK_HAS(j, "error value: run/config.yaml:2:1: not YAML as W&B writes it");
  free(j);
  j = read_wandb("other: 1\n", NULL, NULL);
  CHECK_HAS(j, "has no distributed or training section");
  free(j);
  j = read_wandb("training:\n  value:\n    sequence_length: 8\n", "[1]", NULL);
  CHECK_HAS(j, "error value: run/wandb-metadata.json:1: not a JSON object");
  free(j);
  {
    char deep[400];
    int k;
    for (k = 0; k < 70; k++) deep[k] = '[';
    deep[k] = '\0';
    j = read_wandb(deep, NULL, NULL);
    CHECK_HAS(j, "MEMEST_MAX_YAML_DEPTH");
    free(j);
  }
}
/* }====================================================================== */

/* {======================================================================
** The table, the commits, applying a run
** ======================================================================= */

static void test_table_and_commits(void) {
  int i, m, n = memi_trainer_field_count();
  /* Every row names a known section, an input or none, and commits memest knows. */
  for (i = 0; i < n; i++) {
    const trainer_field *f = memi_trainer_field_at(i);
    CHECK(memi_trainer_section_known(f->section));
    CHECK(f->input >= -1 && f->input < MEMEST_P_COUNT);
    CHECK(f->since == NULL || memi_commit_find(f->since, &m) >= 0);
    CHECK(f->until == NULL || memi_commit_find(f->until, &m) > memi_commit_find(f->since ? f->since : "e610429", &m));
    CHECK(f->note != NULL && f->note[0]);
    CHECK(memi_trainer_field(f->section, f->name) == f);
  }
  CHECK(memi_trainer_field("training", "nope") == NULL);
  /* docs/trainer-files.md's table names every field. */
  {
    size_t len;
    char *doc = check_read_file("docs/trainer-files.md", &len);
    CHECK(doc != NULL);
    for (i = 0; doc != NULL && i < n; i++) {
      char name[80];
      snprintf(name, sizeof name, "`%s`", memi_trainer_field_at(i)->name);
      CHECK_HAS(doc, name);
    }
    free(doc);
  }
  /* The list is the trainer's history, oldest first. */
  CHECK_I64(memi_commit_count(), 74);
  CHECK_STR(memi_commit_at(0)->hash, "e61042915c2e5e44cdefb919320dd51aba345b4e");
  CHECK_STR(memi_commit_at(73)->hash, "889a4088adf3bf8c786d6d667b77fb69ad559a06");
  for (i = 1; i < memi_commit_count(); i++) CHECK(strcmp(memi_commit_at(i - 1)->date, memi_commit_at(i)->date) <= 0);
  CHECK(memi_commit_find("287070f", &m) < memi_commit_find("093a9e4", &m));
  CHECK_I64(memi_commit_find("14", &m), -1);   /* 14027f8, 14a9d48, 1487dd2, 14d6bf3 */
  CHECK_I64(m, 4);
  for (i = 0; i < memi_memory_change_count(); i++)
    CHECK(memi_commit_find(memi_memory_change_at(i)->commit, &m) >= 0);
}

static void test_apply(void) {
  memest_trainer_run *run = NULL;
  memest_params p;
  memest_error e;
  const char *src = "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch\ncfg = PretrainLMCfg()\n"
                    "cfg.distributed.pipeline_parallel_size = 4\ncfg.training.sequence_length = 2 * 4\n"
                    "cfg.training.benchmark = True\nlaunch(cfg)\n";
  CHECK(memest_script_read(src, strlen(src), "a.py", NULL, NULL, &run, &e) == MEMEST_OK);
  /* The refused sequence length stops the run unless a flag gives it. */
  memest_params_init(&p);
  CHECK(memest_trainer_run_apply(run, &p, &e) == MEMEST_E_VALUE);
  CHECK_HAS(e.message, "a.py:4: training.sequence_length is set to an arithmetic expression (2 * 4)");
  CHECK_HAS(e.message, "; or give --sequence-length");
  memest_params_init(&p);
  CHECK(memest_params_set(&p, "--sequence-length", "4096", &e) == MEMEST_OK);
  CHECK(memest_params_set(&p, "--pp-size", "8", &e) == MEMEST_OK);
  CHECK(memest_params_set(&p, "--routing-factor", "1.3", &e) == MEMEST_OK);
  CHECK(memest_trainer_run_apply(run, &p, &e) == MEMEST_OK);
  CHECK_I64(p.pp_size, 8);                        /* the flag wins */
  CHECK_I64(p.sequence_length, 4096);
  CHECK(p.routing == MEMEST_ROUTING_FACTOR);      /* --routing-factor stands for the routing */
  CHECK_I64(p.cp_size, 1);                        /* the trainer's default */
  {
    char *j = memest_trainer_run_json(run);
    CHECK_HAS(j, "\"pp_size\":{\"value\":\"4\",\"from\":\"a.py:3\",\"field\":\"distributed.pipeline_parallel_size\",\"how\":\"\",\"overridden\":true}");
    CHECK(strstr(j, "\"read\":{\"pp_size\"") == NULL);
    memest_free(j);
  }
  /* Commits: a prefix must match one. */
  CHECK(memest_trainer_run_set_commit(run, "14", "t", &e) == MEMEST_E_VALUE);
  CHECK(memest_trainer_run_set_commit(run, "14a9d48", "t", &e) == MEMEST_OK);
  CHECK(memest_trainer_run_set_commit(run, "abcdef0", "t", &e) == MEMEST_E_VALUE);
  CHECK_HAS(e.message, "no commit of the trainer that memest knows");
  CHECK(memest_trainer_run_set_commit(run, "ABCDEF0123456789ABCDEF0123456789ABCDEF01", "t", &e) == MEMEST_OK);
  memest_trainer_run_free(run);
}

/* The sizes of an older trainer's differences at a layout. */
static void test_differences(void) {
  memest_params p;
  memest_result *r = NULL;
  memest_trainer_run *run = memest_trainer_run_new(MEMEST_SOURCE_FLAGS);
  memest_error e;
  char *j;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK(memest_estimate(NULL, 0, &p, &r, &e) == MEMEST_OK);
  CHECK(memest_trainer_run_set_commit(run, "287070f", "--trainer-commit", &e) == MEMEST_OK);
  CHECK(memest_result_set_source(r, run, &e) == MEMEST_OK);
  j = memest_result_json(r);
  /* The router's input: 8 + 1 chunks in flight on rank 0 over 6 + 6 MoE
  ** layers, 4096 x 2048 bf16 each (docs/accuracy.md: +0.84 GiB). */
  CHECK_HAS(j, "\"commit\":\"f53f32d\",\"date\":\"2026-07-14\",\"change\":\"the router computed inside the stage-1 compiled region\"");
  CHECK_HAS(j, "\"bytes\":905969664");
  CHECK_HAS(j, "\"kind\":\"flags\"");
  CHECK(strstr(j, "\"commit\":\"093a9e4\"") == NULL);   /* no HSDP in this run */
  memest_free(j);
  j = memest_result_text(r);
  CHECK_HAS(j, "Trainer commit: 287070f (2026-04-23, --trainer-commit)");
  memest_free(j);
  memest_result_free(r);
  memest_trainer_run_free(run);
}
/* }====================================================================== */

int main(void) {
  test_tokens();
  test_values();
  test_script_forms();
  test_script_imports();
  test_launch_line();
  test_wandb();
  test_table_and_commits();
  test_apply();
  test_differences();
  return check_done("test_trainer");
}
