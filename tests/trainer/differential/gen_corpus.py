#!/usr/bin/env python3
"""Writes a corpus of launch scripts for the differential test of memest's
launch-script reader (run_diff.py).

Each case is a small trainer checkout of its own (pyproject.toml, the
stand-in pithtrain package of stub/, model files) holding one launch
script in one of the trainer's two forms, an example's script.py that sets
the whole config, or a benchmark script beside its setup.py, mutated with
one construct that can change what Python passes to launch() or that
Python refuses: imports with side effects, sys.path edits, __file__ paths,
setattr, walrus, global, exec, match, del, NFKC identifiers, packages
beside modules, long names, NUL and escapes in strings, number forms,
encodings, decorators, class bodies, functions that change the config,
and so on. After the systematic cases come random combinations of two or
three mutations. The corpus is a function of (count, seed) alone.

    python3 gen_corpus.py OUT_DIR [--count N] [--seed S]
    python3 gen_corpus.py --fuzz-seeds DIR [--count N]   # flat seeds for fuzz_script

OUT_DIR/index.json lists the cases: the script (relative to its root), the
PYTHONPATH entries the launch sets, the construct group, the oldest Python
whose grammar the case needs, and whether memest must read it (the
trainer's own forms, unmutated). Standard library only.
"""
import difflib
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STUB = os.path.join(HERE, "stub", "pithtrain")

# A small MoE config.json memest can estimate quickly; each case's model
# files are variants of it, so that two files never have the same text.
MODEL = {
    "model_type": "qwen3_moe", "hidden_size": 1024, "intermediate_size": 3072,
    "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 64, "num_experts": 32,
    "num_experts_per_tok": 4, "moe_intermediate_size": 384, "num_hidden_layers": 12,
    "vocab_size": 32000, "max_position_embeddings": 8192, "rms_norm_eps": 1e-6,
}

# Layouts that estimate on 16 GPUs: (pp, ep, cp, micro-batch, global batch).
LAYOUTS = [(1, 8, 1, 1, 256), (2, 4, 1, 1, 1024), (4, 2, 2, 2, 512), (2, 8, 1, 1, 256),
           (4, 4, 1, 1, 128), (2, 2, 2, 1, 256), (4, 1, 1, 2, 512), (1, 16, 1, 1, 256)]
SEQS = [1024, 2048, 4096, 8192]
NEW_INT = {"pp": [1, 2, 4], "ep": [2, 4, 8], "cp": [1, 2], "mbs": [1, 2], "gbs": [128, 512, 2048],
           "seq": [16384, 32768, 12288]}

# key: (section, attribute)
FIELDS = {
    "pp": ("distributed", "pipeline_parallel_size"), "ep": ("distributed", "expert_parallel_size"),
    "cp": ("distributed", "context_parallel_size"), "sharding": ("distributed", "sharding_strategy"),
    "mbs": ("training", "micro_batch_size"), "gbs": ("training", "global_batch_size"),
    "seq": ("training", "sequence_length"), "model": ("training", "model"),
    "optimizer": ("training", "optimizer"), "fp8": ("training", "fp8"),
    "benchmark": ("training", "benchmark"),
}
INT_KEYS = ["pp", "ep", "cp", "mbs", "gbs", "seq"]
# Fields the benchmark form sets in setup.py; the rest are the script's.
SETUP_KEYS = ["model", "optimizer", "benchmark"]


# {== scripts as lists of statements ==
class Script:
    """A module's text: header lines, body statements (each tagged with the
    field it sets, if any), the __main__ block and what follows it."""

    def __init__(self):
        self.header = []
        self.body = []          # [key or None, text]
        self.guard = 'if __name__ == "__main__":'
        self.main = []
        self.tail = []
        self.encoding = "utf-8"
        self.prefix = b""       # bytes before the text (a BOM)
        self.alias = {"distributed": "distributed", "training": "training"}

    def index(self, key):
        for i, (k, _) in enumerate(self.body):
            if k == key:
                return i
        return None

    def sets(self, key):
        return self.index(key) is not None

    def field_line(self, key, expr):
        section, attr = FIELDS[key]
        return "%s.%s = %s" % (self.alias[section], attr, expr)

    def set_expr(self, key, expr):
        self.body[self.index(key)][1] = self.field_line(key, expr)

    def insert(self, where, lines, key=None):
        """where: 'before'/'after' the statement setting key, 'end' of the
        body, 'start' (after the config is made), 'main' (before launch)."""
        lines = [[None, l] for l in lines]
        if where == "main":
            self.main[:0] = [l for _, l in lines]
            return
        if where == "end":
            self.body.extend(lines)
            return
        if where == "start":
            i = self.index("cfg") + 1
        else:
            i = self.index(key) + (1 if where == "after" else 0)
        self.body[i:i] = lines

    def render(self):
        out = list(self.header) + [t for _, t in self.body]
        if self.main and self.guard is None:   # no block: the statements at module level
            out += self.main
        elif self.main:
            out.append(self.guard)
            for l in self.main:
                out.extend("    " + x if x else "" for x in l.split("\n"))
        out += self.tail
        return self.prefix + ("\n".join(out) + "\n").encode(self.encoding, "backslashreplace")


class Case:
    def __init__(self, form, values, rng):
        self.form = form
        self.values = values
        self.files = {}        # path under the root -> bytes, str or Script
        self.links = {}        # path under the root -> link target
        self.pythonpath = []
        self.groups = []
        self.min_python = (3, 8)
        self.must_read = False
        self.rng = rng
        self.script = None
        self.main = None       # the launch script's Script
        self.setup = None      # setup.py's Script (benchmark form)
        self.variant = None    # which of its forms a mutation writes (None: at random)

    def owner(self, key):
        """The Script that sets a field in the unmutated form."""
        if self.setup is not None and key in SETUP_KEYS:
            return self.setup
        return self.main

    def folder(self):
        return os.path.dirname(self.script)

    def add(self, name, text):
        """A file beside the launch script."""
        self.files[os.path.join(self.folder(), name)] = text
# }==


# {== the trainer's two forms, written anew ==
def model_json(n):
    m = dict(MODEL, num_hidden_layers=8 + 4 * (n % 3), vocab_size=32000 + 64 * n)
    return json.dumps(m, indent=2) + "\n"


def draw_values(rng):
    pp, ep, cp, mbs, gbs = rng.choice(LAYOUTS)
    return {"pp": pp, "ep": ep, "cp": cp, "mbs": mbs, "gbs": gbs, "seq": rng.choice(SEQS),
            "sharding": rng.choice(["fsdp", "hsdp"]), "optimizer": rng.choice(["make_muon_optimizer",
                                                                              "make_adamw_optimizer"]),
            "fp8": rng.choice([True, False]), "benchmark": rng.choice([True, False]),
            "name": rng.choice(["tiny-moe", "small-moe", "mini-a3b", "toy-8e"])}


def example_case(rng, values):
    c = Case("example", values, rng)
    name = values["name"]
    folder = "examples/pretrain_lm/%s" % name
    c.script = folder + "/script.py"
    c.files[folder + "/config.json"] = model_json(1)
    s = Script()
    s.header = ['"""Pretrain %s on one node with expert parallelism."""' % name, "",
                "from functools import partial", "from pathlib import Path", "",
                "from pithtrain.modules.training import %s, make_wsd_scheduler" % values["optimizer"],
                "from pithtrain.tasks.pretrain_lm import PretrainLMCfg, launch", ""]
    v = values
    s.body = [["cfg", "cfg = PretrainLMCfg()"], [None, ""], [None, "distributed = cfg.distributed"],
              ["cp", "distributed.context_parallel_size = %d" % v["cp"]],
              ["pp", "distributed.pipeline_parallel_size = %d" % v["pp"]],
              ["ep", "distributed.expert_parallel_size = %d" % v["ep"]],
              ["sharding", 'distributed.sharding_strategy = "%s"' % v["sharding"]], [None, ""],
              [None, "training = cfg.training"],
              ["model", 'training.model = Path("%s/config.json")' % folder],
              ["optimizer", "training.optimizer = %s" % v["optimizer"]],
              [None, "kwargs = dict(start_lr=1.0e-5, warmup_ratio=0.03, final_lr=1.0e-5)"],
              [None, "training.scheduler = partial(make_wsd_scheduler, **kwargs)"],
              [None, "training.lr = 3.0e-4"], [None, "training.max_steps = 4096"],
              ["mbs", "training.micro_batch_size = %d" % v["mbs"]],
              ["gbs", "training.global_batch_size = %d" % v["gbs"]],
              ["seq", "training.sequence_length = %d" % v["seq"]],
              [None, 'training.dataset = Path("workspace/datasets/%s")' % name],
              [None, 'training.moe_load_balance_type = "global-batch"'],
              [None, "training.moe_load_balance_coef = 1e-3"],
              ["fp8", "training.fp8 = %s" % v["fp8"]],
              ["benchmark", "training.benchmark = %s" % v["benchmark"]], [None, ""]]
    s.main = ["launch(cfg)"]
    c.main = s
    c.files[c.script] = s
    return c


def benchmark_case(rng, values):
    c = Case("benchmark", values, rng)
    name = values["name"]
    top = "benchmarks/pretraining/%s" % name
    v = values
    dp = 16 // (v["pp"] * v["ep"] * v["cp"]) or 1
    c.script = "%s/h100-2n8g/pp%d-dp%d-cp%d-ep%d-seq%d-bf16.py" % (top, v["pp"], dp, v["cp"], v["ep"], v["seq"])
    c.pythonpath = [top]
    c.files[top + "/model.json"] = model_json(2)
    st = Script()
    st.header = ["#!/usr/bin/env python3", '"""', "Prepare the tokenizer and the dataset.", '"""', "",
                 "from pathlib import Path", "", "from pithtrain.tasks import tokenize_corpus",
                 "from pithtrain.tasks.tokenize_corpus import TokenizeCorpusCfg", "",
                 'if __name__ == "__main__":', '    Path("workspace").resolve().mkdir(parents=True, exist_ok=True)', "",
                 'if __name__ == "__main__":', "    cfg = TokenizeCorpusCfg()",
                 '    cfg.output_path = Path("workspace/datasets/%s")' % name,
                 "    if not any(Path(cfg.output_path).glob(\"*.bin\")):", "        tokenize_corpus.launch(cfg)", "",
                 "from pithtrain.modules.training import make_constant_scheduler, %s" % v["optimizer"],
                 "from pithtrain.tasks.pretrain_lm import PretrainLMCfg", ""]
    st.body = [["cfg", "cfg = PretrainLMCfg()"], [None, "training = cfg.training"],
               ["model", 'training.model = Path("%s/model.json")' % top],
               ["optimizer", "training.optimizer = %s" % v["optimizer"]],
               [None, "training.scheduler = make_constant_scheduler"], [None, "training.lr = 1.0e-6"],
               [None, "training.max_steps = 25"], [None, 'training.dataset = Path("workspace/datasets/%s")' % name],
               [None, 'training.moe_load_balance_type = "global-batch"'],
               ["benchmark", "training.benchmark = %s" % v["benchmark"]]]
    st.guard = None
    c.setup = st
    c.files[top + "/setup.py"] = st
    s = Script()
    s.header = ["#!/usr/bin/env python3", "", "from setup import cfg", "", "from pithtrain.tasks import pretrain_lm", ""]
    s.body = [["cfg", "distributed = cfg.distributed"],
              ["pp", "distributed.pipeline_parallel_size = %d" % v["pp"]],
              ["ep", "distributed.expert_parallel_size = %d" % v["ep"]],
              ["cp", "distributed.context_parallel_size = %d" % v["cp"]],
              ["sharding", 'distributed.sharding_strategy = "%s"' % v["sharding"]], [None, ""],
              [None, "training = cfg.training"],
              ["mbs", "training.micro_batch_size = %d" % v["mbs"]],
              ["gbs", "training.global_batch_size = %d" % v["gbs"]],
              ["seq", "training.sequence_length = %d" % v["seq"]],
              ["fp8", "training.fp8 = %s" % v["fp8"]], [None, ""]]
    s.main = ["pretrain_lm.launch(cfg)"]
    c.main = s
    c.files[c.script] = s
    return c


def base_case(rng, form=None):
    values = draw_values(rng)
    form = form or rng.choice(["example", "benchmark"])
    return example_case(rng, values) if form == "example" else benchmark_case(rng, values)
# }==


# {== mutations: each changes one construct and returns its group ==
def pick(c, rng, forms):
    """The case's variant of a mutation's forms: in the systematic part of
    the corpus the n-th case of a mutation takes its n-th form, so that
    every form is written once the corpus is large enough; else one at
    random."""
    if c.variant is None:
        return rng.choice(forms)
    return forms[c.variant % len(forms)]


def other_int(c, key):
    vals = [x for x in NEW_INT[key] if x != c.values[key]]
    return c.rng.choice(vals)


def pick_int_key(c):
    return c.rng.choice(INT_KEYS)


def int_forms(n):
    """Ways to write n, and neighbours that are no int."""
    forms = ["%d.0" % n, "True", hex(n), "{:_}".format(n), "%d," % n, '"%d"' % n, str(n), "0X%x" % n, oct(n), bin(n),
             "0x_%x" % n, "(%d)" % n, "+%d" % n, "%de0" % n, "%dj" % n,
             "int(%r)" % str(n), "%d * 1" % n, "(%d,)" % n, "[%d][0]" % n,
             "%d if True else 3" % n, "0 or %d" % n, "-(-%d)" % n, "\\\n    %d" % n, "(\n    %d\n)" % n,
             "%d  # a comment" % n, "%d;" % n, "float(%d)" % n, "%d // 1" % n, "%d ** 1" % n, "1_0" if n == 10 else str(n),
             "%d_" % n, "0%d" % n, "%dl" % n, "round(%d.4)" % n]
    forms += ["(True)", "not False", "False"]
    return forms


def m_int_form(c, rng):
    key = pick_int_key(c)
    n = other_int(c, key) if key != "cp" else rng.choice([1, 2])
    c.owner(key).set_expr(key, rng.choice(int_forms(n)))
    return "number-forms"


def m_bool_form(c, rng):
    key = rng.choice(["fp8", "benchmark"])
    forms = ["True", "False", "1", "0", '"True"', '""', "not True", "bool(1)", "(False)", "None", "1 == 1",
             "True if False else False", "[]", "True,"]
    c.owner(key).set_expr(key, pick(c, rng, forms))
    return "bool-forms"


STR_FORMS = ['"{s}"', "'{s}'", 'r"{s}"', 'u"{s}"', 'R"{s}"', '"""{s}"""', "'''{s}'''", '"{a}" "{b}"',
             "'{a}' \"{b}\"", '("{a}"\n    "{b}")', '"\\x{h:02x}{t}"', '"\\u{h:04x}{t}"', '"\\U{h:08x}{t}"',
             '"\\N{{LATIN SMALL LETTER {H}}}{t}"', '"\\{o:o}{t}"', 'b"{s}"', 'rb"{s}"', 'f"{s}"', "f'{{\"{s}\"}}'",
             "f\"{{'{a}'}}{b}\"", 'f"{a}{{\'{b}\'}}"', '"{s} "', '" {s}"', '"{S}"', '"{s}".lower()', '"{S}".lower()',
             '"{s}\\0"', '"{s}\\x00"', '"{a}\\\n{b}"', '"{s}\\q"', '"{s}" + ""', '"{s}"[:]', "str(\"{s}\")",
             '"{s}" if True else "fsdp"', '("{s}")', '("{s}",)', 'f"{{\'{s}\'!s}}"', 'f"{{\'{s}\':>4}}"',
             '"\\N{{FULLWIDTH LATIN SMALL LETTER {H}}}{t}"', '"{s}"  # "fsdp"', '"%s" % "{s}"', '"{{}}".format("{s}")']


def str_form(c, rng, s, forms=STR_FORMS):
    f = pick(c, rng, forms)
    cut = rng.randrange(1, len(s))
    return f.format(s=s, S=s.upper(), a=s[:cut], b=s[cut:], h=ord(s[0]), t=s[1:], o=ord(s[0]),
                    H=s[0].upper())


def m_sharding_form(c, rng):
    s = "hsdp" if c.values["sharding"] == "fsdp" else "fsdp"
    c.main.set_expr("sharding", str_form(c, rng, s))
    return "string-forms"


def m_fstring312(c, rng):
    """f-strings Python 3.12 reads (PEP 701) and older ones refuse."""
    s = "hsdp" if c.values["sharding"] == "fsdp" else "fsdp"
    forms = ['f"{"%s"}"' % s, "f'{'%s'}'" % s, 'f"{"%s" # a comment\n}"' % s, 'f"{f"{"%s"}"}"' % s,
             'f"{\'\\x%02x\'}%s"' % (ord(s[0]), s[1:]), 'f"{"\\N{LATIN SMALL LETTER %s}"}%s"' % (s[0].upper(), s[1:])]
    c.main.set_expr("sharding", pick(c, rng, forms))
    c.min_python = (3, 12)
    return "fstring-3.12"


def m_model_form(c, rng):
    """training.model written otherwise, or pointing elsewhere."""
    owner = c.owner("model")
    path = [p for p, t in c.files.items() if p.endswith((".json",))][0]
    d, base = os.path.dirname(path), os.path.basename(path)
    alt = d + "/other.json"
    c.files[alt] = model_json(7)
    owner_dir = c.folder() if owner is c.main else os.path.dirname(c.folder())
    up = os.path.relpath(d, owner_dir)
    forms = ['Path("%s")' % path, '"%s"' % path, 'Path("%s") / "%s"' % (d, base), 'Path("%s", "%s")' % (d, base),
             'Path("./%s")' % path, 'Path("%s/../%s/%s")' % (d, os.path.basename(d), base),
             'Path("%s") / "other.json"' % d, 'Path("%s").with_name("other.json")' % path,
             'Path("%s").parent / "other.json"' % path, 'Path("%s").parent.parent / "%s" / "%s"' % (path, os.path.basename(d), base),
             'str(Path("%s"))' % path, 'Path("%s") / ""' % path, '"%s" + ""' % path, 'Path(r"%s")' % path,
             'Path("%s").resolve()' % path, 'Path("%s").absolute()' % path, 'Path.cwd() / "%s"' % path,
             'Path("%s" "%s")' % (path[:5], path[5:]), 'Path("%s\\0other.json")' % d, '"%s\\x00../x.json"' % path,
             '"Qwen/Qwen3-30B-A3B"', 'Path("Qwen/Qwen3-30B-A3B")', '"qwen3-30b-a3b"', '"deepseek-ai/DeepSeek-V2-Lite"',
             'Path(__file__).parent / "%s"' % os.path.join(up, base), 'Path(__file__).resolve().parent / "%s"' % os.path.join(up, base),
             'Path(__file__).parent / "%s"' % os.path.join(up, "other.json"),
             'Path(__file__).resolve().parent.parent / "%s"' % os.path.relpath(path, os.path.dirname(owner_dir)),
             'Path(__file__).parents[0] / "%s"' % os.path.join(up, base),
             'Path(__file__).with_name("%s")' % os.path.join(up, base),
             'os.path.join(os.path.dirname(__file__), "%s")' % os.path.join(up, base),
             'os.path.join(os.path.dirname(os.path.abspath(__file__)), "%s")' % os.path.join(up, "other.json"),
             'os.path.join("%s", "%s")' % (d, base), 'os.path.join("%s", "other.json")' % d,
             'Path("~/%s").expanduser()' % path, '"%s".replace("%s", "other.json")' % (path, base),
             'Path("%s") if False else Path("%s")' % (path, alt), 'PurePath("%s")' % alt, 'PosixPath("%s")' % alt,
             'Path("%s".upper())' % path, 'Path("/%s")' % path, 'Path("%s/")' % d, 'Path("%s")' % d]
    f = pick(c, rng, forms)
    if "os.path" in f:
        owner.header.insert(0, "import os")
    if "PurePath" in f or "PosixPath" in f:
        owner.header.insert(0, "from pathlib import PurePath, PosixPath")
    if "Path" in f and owner is c.main and c.form == "benchmark":
        owner.header.insert(0, "from pathlib import Path")
    owner.set_expr("model", f)
    return "model-paths"


def m_symlink_folder(c, rng):
    """The script's folder is a link: __file__ keeps the link's path,
    .resolve() follows it, and sys.path[0] is the link's folder."""
    real = c.folder() + "-real"
    link = c.folder()
    for p in [p for p in c.files if p.startswith(link + "/")]:
        c.files[real + p[len(link):]] = c.files.pop(p)
    c.links[link] = os.path.basename(real)
    c.files[os.path.dirname(link) + "/model.json"] = model_json(3)
    # model.json one folder above the real and the linked folder's parents
    forms = ['Path(__file__).resolve().parent.parent / "model.json"', 'Path(__file__).parent.parent / "model.json"',
             'Path(__file__).resolve().parent / "model.json"', 'Path(__file__).parent / "model.json"']
    c.files[real + "/model.json"] = model_json(4)
    c.main.header.insert(0, "from pathlib import Path")
    c.main.insert("end", ["training.model = %s" % pick(c, rng, forms)]) if c.main.sets("seq") else None
    if c.form == "benchmark" and rng.random() < 0.5:
        # and a setup.py in the real folder that the link's path does not see
        c.files[real + "/setup.py"] = c.files[os.path.dirname(link) + "/setup.py"].render().replace(b"benchmark = ", b"benchmark = not ")
    return "symlinked-folder"


def m_sys_path(c, rng):
    """sys.path edited before an import: another setup.py, tweaks.py."""
    other = "benchmarks/pretraining/other"
    mod = rng.choice(["setup", "tweaks"])
    c.files[other + "/model.json"] = model_json(5)
    c.files[other + "/%s.py" % mod] = (
        "from pathlib import Path\nfrom pithtrain.tasks.pretrain_lm import PretrainLMCfg\n"
        "from pithtrain.modules.training import make_adamw_optimizer\n"
        "cfg = PretrainLMCfg()\ncfg.training.model = Path(\"%s/model.json\")\n"
        "cfg.training.optimizer = make_adamw_optimizer\ncfg.training.benchmark = False\n"
        "cfg.training.sequence_length = 16384\nseq = 16384\n" % other)
    rel = os.path.relpath(other, c.folder())
    edit = rng.choice(["sys.path.insert(0, %s)", "sys.path.append(%s)", "sys.path[:0] = [%s]", "sys.path = [%s] + sys.path",
                       "sys.path.insert(1, %s)", "sys.path[0] = %s", "sys.path.extend([%s])", "sys.path += [%s]"])
    where = rng.choice(['str(Path(__file__).resolve().parent / "%s")' % rel, '"%s"' % other,
                        'os.path.join(os.path.dirname(__file__), "%s")' % rel, 'os.path.abspath("%s")' % other])
    lines = ["import os", "import sys", "from pathlib import Path", edit % where]
    if c.form == "benchmark" and mod == "setup":
        c.main.header[2:2] = lines
    else:
        imp = rng.choice(["from %s import cfg" % mod, "import %s" % mod, "from %s import *" % mod])
        c.main.insert("after", lines + [imp], key="model" if c.main.sets("model") else "cfg")
    return "sys-path"


def tweaks_text(c, rng, seq):
    how = rng.choice(["main", "setup", "setattr", "function", "seq"])
    if how == "main" or c.form == "example" and how == "setup":
        return "import __main__\n__main__.cfg.training.sequence_length = %d\n" % seq
    if how == "setup":
        return "from setup import cfg\ncfg.training.sequence_length = %d\n" % seq
    if how == "setattr":
        return "import sys\nsetattr(sys.modules['__main__'].cfg.training, 'sequence_length', %d)\n" % seq
    if how == "function":
        return "def apply(cfg):\n    cfg.training.sequence_length = %d\n\n\nimport __main__\napply(__main__.cfg)\n" % seq
    return "seq = %d\ntraining = None\n" % seq


def m_import_side_effect(c, rng):
    """A module imported for its side effects: it changes the config, or
    binds names the script uses afterwards."""
    seq = other_int(c, "seq")
    c.add("tweaks.py", tweaks_text(c, rng, seq))
    imp = rng.choice(["import tweaks", "import tweaks as t", "from tweaks import *", "from tweaks import seq",
                      "import tweaks, os", "from . import tweaks", "__import__('tweaks')",
                      "import importlib\nimportlib.import_module('tweaks')", "from tweaks import seq as sequence"])
    if "seq" in imp:
        c.add("tweaks.py", "seq = %d\n" % seq)
    where = rng.choice(["before", "after", "end", "main"])
    c.main.insert(where, [imp], key="seq")
    if where == "before" and rng.random() < 0.5:
        c.main.set_expr("seq", "seq" if "seq" in imp and "as" not in imp else "%d" % c.values["seq"])
    return "import-side-effects"


def m_star_shadow(c, rng):
    """from x import * binding a name the script set before."""
    seq = other_int(c, "seq")
    all_ = rng.choice(["", "__all__ = ['other']\n", "__all__ = ['seq']\n", "_seq = 1\n"])
    c.add("consts.py", "%sseq = %d\nother = 1\n" % (all_, seq))
    c.main.insert("before", ["seq = %d" % c.values["seq"], "from consts import *"], key="seq")
    c.main.set_expr("seq", "seq")
    return "import-side-effects"


def m_package_init(c, rng):
    """from pkg.sub import cfg runs pkg/__init__.py first."""
    seq = other_int(c, "seq")
    init = rng.choice(["", "from pkg.sub import cfg\ncfg.training.sequence_length = %d\n" % seq,
                       "import sys\n", "from . import sub\nsub.cfg.training.sequence_length = %d\n" % seq])
    sub_init = rng.choice(["", "import os\n"])
    c.add("pkg/__init__.py", init)
    if rng.random() < 0.5:
        c.add("pkg/sub/__init__.py", sub_init + "from pithtrain.tasks.pretrain_lm import PretrainLMCfg\ncfg = PretrainLMCfg()\n")
        c.add("pkg/sub/more.py", "x = 1\n")
    else:
        c.add("pkg/sub.py", "from pithtrain.tasks.pretrain_lm import PretrainLMCfg\ncfg = PretrainLMCfg()\n")
    if rng.random() < 0.3:
        del c.files[os.path.join(c.folder(), "pkg/__init__.py")]   # a namespace package
    imp = rng.choice(["from pkg.sub import cfg", "import pkg.sub\ncfg = pkg.sub.cfg", "from pkg import sub\ncfg = sub.cfg"])
    given = {"model": 'Path("%s")' % [p for p in c.files if p.endswith(".json")][0],
             "optimizer": c.values["optimizer"], "benchmark": str(c.values["benchmark"])}
    c.main.insert("start", [imp] + ["cfg.%s.%s = %s" % (FIELDS[k][0], FIELDS[k][1], given[k])
                                    for k in ["model", "optimizer", "benchmark"] if not c.main.sets(k)] +
                  (["distributed = cfg.distributed", "training = cfg.training"] if c.form == "example" else []))
    if c.form == "benchmark":
        c.main.header.insert(0, "from pathlib import Path")
        c.main.header.insert(0, "from pithtrain.modules.training import make_muon_optimizer, make_adamw_optimizer")
    return "package-init"


def m_lazy_getattr(c, rng):
    """A module whose __getattr__ runs at its first attribute use."""
    seq = other_int(c, "seq")
    c.add("lazy.py", "def __getattr__(name):\n    import __main__\n    __main__.cfg.training.sequence_length = %d\n"
          "    return %d\n" % (seq, seq))
    use = rng.choice(["lazy.anything", "x = lazy.seq", "from lazy import seq", "print(lazy.value)", "getattr(lazy, 'v')",
                      "hasattr(lazy, 'v')"])
    c.main.insert("start", ["import lazy"])
    c.main.insert(rng.choice(["after", "end", "main"]), [use], key="seq")
    return "lazy-module"


def launch_line(c):
    """The statement of the __main__ block that calls launch()."""
    return next((l for l in c.main.main if l.split("(")[0].endswith("launch")),
                "pretrain_lm.launch(cfg)" if c.form == "benchmark" else "launch(cfg)")


def m_launch_arg(c, rng):
    """launch given another config, or called otherwise."""
    seq = other_int(c, "seq")
    launch = launch_line(c).split("(")[0]
    make = "PretrainLMCfg" if c.form == "example" else "type(cfg)"
    big = ["big = %s()" % make, "big.distributed = cfg.distributed", "big.training = cfg.training",
           "big.logging = cfg.logging"]
    forms = [(["import copy", "big = copy.deepcopy(cfg)", "big.training.sequence_length = %d" % seq], "%s(cfg=big)"),
             (["import copy", "big = copy.copy(cfg)", "big.training = copy.copy(cfg.training)",
               "big.training.sequence_length = %d" % seq], "%s(big)"),
             ([], "%s(cfg=cfg)"), ([], "%s(*[cfg])"), ([], "%s(**{'cfg': cfg})"), ([], "%s((cfg))"),
             (big, "%s(big)"), (["other = cfg", "cfg = None"], "%s(other)"),
             (["run = %s" % launch], "run(cfg)"), ([], "%s(cfg); %s(cfg)"),
             (["import copy", "big = copy.deepcopy(cfg)", "big.training.sequence_length = %d" % seq], "%s(cfg)\n%s(big)"),
             ([], "%s(cfg) if True else None"), ([], "[%s(c) for c in [cfg]]"), ([], "list(map(%s, [cfg]))"),
             ([], "map(%s, [cfg])"), ([], "%s(cfg=cfg, **{})"), ([], "%s(cfg, )")]
    pre, call = pick(c, rng, forms)
    c.main.main = pre + [call.replace("%s", launch)]
    return "launch-call"


def m_main_guard(c, rng):
    """The __main__ block written otherwise, or absent."""
    launch = launch_line(c)
    forms = ['if __name__ == "__main__":', "if __name__ == '__main__':", 'if "__main__" == __name__:',
             'if __name__ == "__main__" and True:', 'if __name__ != "__main__":', 'if __name__ == "main":',
             "if True:", "if __name__.startswith('__main'):", 'if (__name__ == "__main__"):',
             'if __name__ == "__main__" :  # run', "if __name__ == __name__:"]
    g = pick(c, rng, forms + ["none", "def", "else", "while"])
    if g == "none":
        c.main.guard, c.main.tail, c.main.main = None, [launch], []
        c.main.tail = [launch]
    elif g == "def":
        c.main.tail = ["", "", "def main():"] + ["    " + launch] + ["", "", 'if __name__ == "__main__":', "    main()"]
        c.main.main = []
    elif g == "else":
        c.main.guard = 'if __name__ != "__main__":\n    pass\nelse:'
    elif g == "while":
        c.main.guard = 'while __name__ == "__main__":'
        c.main.main = [launch, "break"]
    else:
        c.main.guard = g
    return "main-block"


def m_setattr(c, rng):
    key = rng.choice(INT_KEYS)
    n = other_int(c, key) if key != "cp" else 2
    sec, attr = FIELDS[key]
    al = c.main.alias[sec]
    forms = ['setattr(%s, "%s", %d)' % (al, attr, n), 'setattr(cfg.%s, "%s", %d)' % (sec, attr, n),
             "for k, v in {\"%s\": %d}.items():\n    setattr(%s, k, v)" % (attr, n, al),
             "for k, v in [(\"%s\", %d)]:\n    setattr(cfg.%s, k, v)" % (attr, n, sec),
             'getattr(cfg, "%s").%s = %d' % (sec, attr, n), '%s.__setattr__("%s", %d)' % (al, attr, n),
             'object.__setattr__(%s, "%s", %d)' % (al, attr, n), 'setattr(%s, "%s" "", %d)' % (al, attr, n),
             'name = "%s"\nsetattr(%s, name, %d)' % (attr, al, n), 'setattr(%s, "%s", %d.0)' % (al, attr, n),
             'delattr(%s, "%s")' % (al, attr), "del %s.%s" % (al, attr), "del cfg.%s.%s" % (sec, attr),
             'vars(%s)["%s"] = %d' % (al, attr, n), '%s.__dict__["%s"] = %d' % (al, attr, n),
             'setattr(%s, "%s", getattr(%s, "%s"))' % (al, attr, al, attr), 'setattr(*[%s, "%s", %d])' % (al, attr, n),
             't2 = type(cfg.training)()\nfor f in ("model", "optimizer", "scheduler", "lr", "max_steps", "micro_batch_size", '
             '"global_batch_size", "sequence_length", "dataset", "fp8", "benchmark"):\n'
             '    if hasattr(cfg.training, f):\n        setattr(t2, f, getattr(cfg.training, f))\n'
             't2.sequence_length = %d\nsetattr(cfg, "training", t2)' % other_int(c, "seq")]
    c.main.insert(rng.choice(["after", "end", "main"]), [pick(c, rng, forms)], key=key)
    return "setattr"


def m_rebind_name(c, rng):
    """A name the field is set from, rebound by a construct that is no
    plain assignment, before the field is set."""
    key = rng.choice(INT_KEYS)
    n = other_int(c, key) if key != "cp" else 2
    old = c.values[key]
    v = "value"
    forms = ["print(%s := %d)" % (v, n), "(%s := %d)" % (v, n), "x = [%s := %d]" % (v, n),
             "def f():\n    global %s\n    %s = %d\n\n\nf()" % (v, v, n),
             "def f():\n    global %s\n    %s = %d" % (v, v, n),
             'globals()["%s"] = %d' % (v, n), "globals().update(%s=%d)" % (v, n), 'exec("%s = %d")' % (v, n),
             'eval("(%s := %d)")' % (v, n), 'exec(compile("%s = %d", "<x>", "exec"))' % (v, n),
             "match %d:\n    case %s:\n        pass" % (n, v), "match (%d, 1):\n    case (%s, _):\n        pass" % (n, v),
             "match %d:\n    case 1:\n        %s = 1\n    case _:\n        pass" % (n, v),
             "del %s" % v, "for %s in [%d]:\n    pass" % (v, n), "for %s in []:\n    pass" % v,
             "while True:\n    %s = %d\n    break" % (v, n), "if True:\n    %s = %d" % (v, n), "if False:\n    %s = %d" % (v, n),
             "if 0:\n    pass\nelse:\n    %s = %d" % (v, n),
             "try:\n    %s = %d\nexcept Exception:\n    pass" % (v, n),
             "try:\n    raise ValueError\nexcept ValueError as %s:\n    pass" % v,
             "with open(__file__) as %s:\n    pass" % v, "import os as %s" % v, "[%s for %s in [%d]]" % (v, v, n),
             "lambda %s=%d: %s" % (v, n, v), "class C:\n    %s = %d" % (v, n),
             "def %s():\n    return %d" % (v, n), "%s, other = %d, 1" % (v, n), "(%s, other) = (%d, 1)" % (v, n),
             "[%s, other] = [%d, 1]" % (v, n), "%s = other = %d" % (v, n), "other = %s = %d" % (v, n),
             "*%s, = [%d]" % (v, n), "first, *%s = [1, %d]" % (v, n), "%s += %d" % (v, n - old),
             "%s *= %d" % (v, max(1, n // old)), "%s = %s * 2" % (v, v), "%s: int = %d" % (v, n), "%s: int" % v,
             "%s = %d if %s else 1" % (v, n, v), "%s = (%d)" % (v, n), "%s = %d;" % (v, n),
             "if (%s := %d) > 0:\n    pass" % (v, n), "assert (%s := %d)" % (v, n),
             "import sys\nsetattr(sys.modules[__name__], '%s', %d)" % (v, n),
             "import sys\nsys.modules[__name__].__dict__['%s'] = %d" % (v, n),
             "vars()['%s'] = %d" % (v, n), "locals()['%s'] = %d" % (v, n),
             "type('C', (), {'%s': %d})" % (v, n), "from os import sep as %s" % v, "__builtins__.%s = %d" % (v, n),
             "@lambda f: %d\ndef %s():\n    pass" % (n, v), "async def %s():\n    pass" % v]
    f = pick(c, rng, forms)
    if f.startswith("match") or "case" in f:
        c.min_python = max(c.min_python, (3, 10))
    owner = c.main
    owner.insert("before", ["%s = %d" % (v, old), f], key=key)
    owner.set_expr(key, v)
    return "rebinding"


def m_nfkc(c, rng):
    """Identifiers Python reads through NFKC."""
    seq = other_int(c, "seq")
    fw = lambda s: "".join(chr(ord(ch) + 0xFEE0) if ch.isalpha() else ch for ch in s)
    bold = lambda s: "".join(chr(0x1D41A + ord(ch) - 97) if "a" <= ch <= "z" else ch for ch in s)
    lig = lambda s: s.replace("fi", "\ufb01")
    al = c.main.alias["training"]
    conv = rng.choice([fw, bold, lig, lambda s: s])
    forms = ["import copy\nbig = copy.deepcopy(cfg)\nbig.training.sequence_length = %d\n%s = big" % (seq, conv("cfg")),
             "%s.sequence_length = %d" % (conv(al), seq), "%s.%s = %d" % (al, conv("sequence_length"), seq),
             "%s.sequence_length = %d" % (lig("fi") if False else conv("training"), seq),
             "%s = 1\n%s.sequence_length = %d" % (conv("training"), al, seq),
             "cfg.%s.sequence_length = %d" % (conv("training"), seq),
             "%s = %d\n%s.sequence_length = %s" % (conv("seq"), seq, al, "seq"),
             "%s.%s = %d" % (conv(al), conv("sequence_length"), seq),
             "x\u00b2 = 1", "%s.sequence_length = %d" % ("\u0074raining\u200b", seq),
             "%s = %d\n%s.sequence_length = %s" % ("seq", seq, al, conv("seq")),
             "\u212bngstrom = 1\n%s.sequence_length = \u00c5ngstrom * %d" % (al, seq)]
    c.main.insert(rng.choice(["after", "end"]), [pick(c, rng, forms)], key="seq")
    return "nfkc-identifiers"


def m_package_vs_module(c, rng):
    """A folder holding a package and a module of one name."""
    seq = other_int(c, "seq")
    mk = ("from pithtrain.tasks.pretrain_lm import PretrainLMCfg\nfrom pathlib import Path\ncfg = PretrainLMCfg()\n"
          "cfg.training.sequence_length = %d\n")
    c.add("cfgs.py", mk % c.values["seq"])
    kind = rng.choice(["package", "namespace", "both-init-empty", "pyc-only", "so"])
    if kind == "package":
        c.add("cfgs/__init__.py", mk % seq)
    elif kind == "namespace":
        c.add("cfgs/extra.py", mk % seq)
    elif kind == "both-init-empty":
        c.add("cfgs/__init__.py", "")
    elif kind == "so":
        c.add("cfgs.cpython-311-x86_64-linux-gnu.so", b"\x7fELF not really")
    else:
        c.add("__pycache__/cfgs.cpython-311.pyc", b"\0\0\0\0")
    c.main.insert("after", ["from cfgs import cfg as other", "%s.sequence_length = other.training.sequence_length" %
                            c.main.alias["training"]], key="seq")
    return "package-vs-module"


def m_long_names(c, rng):
    """Names longer than 63 and module names longer than 79 characters."""
    seq = other_int(c, "seq")
    n = rng.choice([63, 64, 79, 80, 100, 255, 300])
    a = "v" * n
    kind = rng.choice(["name", "module", "attribute", "alias"])
    if kind == "module":
        n = min(n, 200)   # a file name has at most 255 bytes
    if kind == "name":
        c.main.insert("before", ["%s1 = %d" % (a, c.values["seq"]), "%s2 = %d" % (a, seq)], key="seq")
        c.main.set_expr("seq", "%s%d" % (a, rng.choice([1, 2])))
    elif kind == "module":
        m = "m" * n
        c.add(m + "1.py", "seq = %d\n" % c.values["seq"])
        c.add(m + "2.py", "seq = %d\n" % seq)
        c.main.insert("before", ["from %s%d import seq" % (m, rng.choice([1, 2]))], key="seq")
        c.main.set_expr("seq", "seq")
    elif kind == "attribute":
        c.main.insert("after", ["%s.%s = %d" % (c.main.alias["training"], "sequence_length" + "_" * (n - 15), seq)], key="seq")
    else:
        c.main.insert("before", ["%s = %s" % (a + "t", c.main.alias["training"]), "%s.sequence_length = %d" % (a + "t", seq)], key="seq")
    return "long-names"


def m_relative_import(c, rng):
    forms = ["from .setup import cfg", "from ..setup import cfg", "from . import setup", "from .tweaks import x",
             "from .. import tweaks", "from .pkg import x", "from __future__ import annotations",
             "from __future__ import braces"]
    c.add("tweaks.py", "x = 1\n")
    f = pick(c, rng, forms)
    if f.startswith("from __future__"):
        c.main.header.insert(1 if c.main.header[0].startswith("#!") else 0, f)
        if "annotations" in f:
            c.main.insert("end", ["x: print(1) = 1"])
    else:
        c.main.insert("start" if c.form == "example" else "end", [f])
    return "relative-imports"


def m_tabs(c, rng):
    """Indentation with tabs, consistent or not."""
    forms = ["if True:\n\tx = 1\n        y = 2", "if True:\n        x = 1\n\ty = 2", "if True:\n\tx = 1\n\ty = 2",
             "if True:\n    \tx = 1\n    \ty = 2", "if True:\n\t    x = 1\n        y = 2",
             "if True:\n  \tx = 1\n\t  y = 2", "if True:\n\f    x = 1", "if True:\n    x = 1\n\f\ty = 2",
             "def f():\n\tif True:\n\t\treturn 1\n        return 2", "x = [\n\t1,\n  2]"]
    c.main.insert(rng.choice(["after", "end"]), [pick(c, rng, forms)], key=rng.choice(INT_KEYS))
    return "tabs"


def m_encoding(c, rng):
    """PEP 263 coding cookies, byte-order marks and bytes no cookie allows."""
    s = c.main
    k = pick(c, rng, ["latin1-comment", "latin1-string", "latin1-model", "bom", "bom-utf8-cookie", "bom-latin1-cookie",
                    "cookie-line3", "bad-utf8", "unknown-cookie", "ascii-cookie", "cp1252", "utf8-cookie-latin1-bytes",
                    "vim-cookie", "cookie-after-code", "emacs-utf-8", "bom-mid"])
    cookie_at = 1 if s.header and s.header[0].startswith("#!") else 0
    if k.startswith("latin1") or k in ("cp1252", "vim-cookie"):
        s.encoding = "cp1252" if k == "cp1252" else "latin-1"
        cookie = {"cp1252": "# -*- coding: cp1252 -*-", "vim-cookie": "# vim: set fileencoding=latin-1 :"}.get(
            k, rng.choice(["# -*- coding: latin-1 -*-", "# coding=latin-1", "# coding: iso-8859-1", "#coding:latin1"]))
        s.header.insert(cookie_at, cookie)
        if k == "latin1-model":
            src = [p for p in c.files if p.endswith(".json")][0]
            dst = os.path.dirname(src) + "/mod\u00e8le.json"
            c.files[dst] = model_json(6)
            if c.owner("model") is s:
                s.set_expr("model", 'Path("%s")' % dst)
            else:
                s.insert("end", ['training.model = "%s"' % dst])
        elif k == "latin1-string" or k == "cp1252":
            s.insert("end", ['note = "caf\u00e9 \u2014 na\u00efve"' if k == "cp1252" else 'note = "caf\u00e9"'])
        else:
            s.insert("end", ["# r\u00e9sum\u00e9 of the run"])
    elif k == "bom":
        s.prefix = b"\xef\xbb\xbf"
    elif k == "bom-utf8-cookie":
        s.prefix = b"\xef\xbb\xbf"
        s.header.insert(cookie_at, "# -*- coding: utf-8 -*-")
    elif k == "bom-latin1-cookie":
        s.prefix = b"\xef\xbb\xbf"
        s.header.insert(cookie_at, "# -*- coding: latin-1 -*-")
    elif k == "cookie-line3":
        s.header[0:0] = ["#!/usr/bin/env python3", "# a comment", "# -*- coding: latin-1 -*-"]
        s.encoding = "latin-1"
        s.insert("end", ['note = "caf\u00e9"'])
    elif k == "bad-utf8":
        s.encoding = "latin-1"
        s.insert("end", ['note = "caf\u00e9"'])
    elif k == "unknown-cookie":
        s.header.insert(cookie_at, "# -*- coding: klingon -*-")
    elif k == "ascii-cookie":
        s.header.insert(cookie_at, "# -*- coding: ascii -*-")
        s.insert("end", ['note = "caf\u00e9"'])
    elif k == "utf8-cookie-latin1-bytes":
        s.header.insert(cookie_at, "# -*- coding: utf-8 -*-")
        s.encoding = "latin-1"
        s.insert("end", ["# caf\u00e9"])
    elif k == "cookie-after-code":
        s.encoding = "latin-1"
        s.insert("start", ["# -*- coding: latin-1 -*-", 'note = "caf\u00e9"'])
    elif k == "emacs-utf-8":
        s.header.insert(cookie_at, "# -*- mode: python; coding: utf-8 -*-")
        s.insert("end", ['note = "caf\u00e9 \u2603"'])
    else:
        s.insert("end", ['note = "\ufeff"', "\ufeffx = 1"])
    return "encodings"


def m_function_mutates(c, rng):
    """Functions, classes, decorators and defaults that change the config
    when they are defined or called."""
    seq = other_int(c, "seq")
    t = "cfg.training.sequence_length = %d" % seq
    forms = ["def tweak(c):\n    c.training.sequence_length = %d\n\n\ntweak(cfg)" % seq,
             "def tweak(t):\n    t.sequence_length = %d\n\n\ntweak(cfg.training)" % seq,
             "def tweak(c):\n    c.training.sequence_length = %d" % seq,
             "def tweak():\n    %s\n\n\ntweak()" % t,
             "(lambda c: setattr(c.training, 'sequence_length', %d))(cfg)" % seq,
             "class C:\n    %s" % t, "class C:\n    def m(self):\n        %s" % t,
             "def deco(f):\n    %s\n    return f\n\n\n@deco\ndef g():\n    pass" % t,
             "@lambda f: setattr(cfg.training, 'sequence_length', %d)\ndef g():\n    pass" % seq,
             "def g(x=setattr(cfg.training, 'sequence_length', %d)):\n    pass" % seq,
             "x: setattr(cfg.training, 'sequence_length', %d) = 1" % seq,
             "y: setattr(cfg.training, 'sequence_length', %d)" % seq,
             "class C(dict, metaclass=type):\n    x = setattr(cfg.training, 'sequence_length', %d)" % seq,
             "list(map(lambda c: setattr(c.training, 'sequence_length', %d), [cfg]))" % seq,
             "map(lambda c: setattr(c.training, 'sequence_length', %d), [cfg])" % seq,
             "[setattr(cfg.training, 'sequence_length', %d) for _ in range(1)]" % seq,
             "(setattr(cfg.training, 'sequence_length', %d) for _ in range(1))" % seq,
             "{setattr(cfg.training, 'sequence_length', %d)}" % seq,
             "import atexit\natexit.register(lambda: setattr(cfg.training, 'sequence_length', %d))" % seq,
             "assert not setattr(cfg.training, 'sequence_length', %d)" % seq,
             "print(setattr(cfg.training, 'sequence_length', %d))" % seq,
             "if setattr(cfg.training, 'sequence_length', %d) is None:\n    pass" % seq,
             "with open(__file__):\n    %s" % t, "try:\n    %s\nfinally:\n    pass" % t,
             "try:\n    1 / 0\nexcept ZeroDivisionError:\n    %s" % t, "for _ in range(1):\n    %s" % t,
             "for _ in range(0):\n    %s" % t, "while False:\n    %s" % t,
             "if __name__ == '__main__':\n    %s" % t, "if __name__ != '__main__':\n    %s" % t,
             "match 1:\n    case 1:\n        %s" % t, "async def f():\n    %s" % t,
             "def f():\n    yield\n    %s\n\n\nf()" % t, "def f():\n    yield\n    %s\n\n\nlist(f())" % t,
             "import functools\nfunctools.partial(setattr, cfg.training, 'sequence_length', %d)()" % seq]
    f = pick(c, rng, forms)
    if f.startswith("match"):
        c.min_python = max(c.min_python, (3, 10))
    c.main.insert(rng.choice(["after", "end", "main"]), [f], key="seq")
    return "code-that-runs"


def m_shadow(c, rng):
    """Names of the trainer's package or of Python's rebound."""
    al = c.main.alias["training"]
    forms = []
    if c.form == "example":
        other = "make_adamw_optimizer" if c.values["optimizer"] == "make_muon_optimizer" else "make_muon_optimizer"
        forms += ["from pithtrain.modules.training import %s\n%s = %s" % (other, c.values["optimizer"], other),
                  "%s = None" % c.values["optimizer"], "Path = str", "def Path(*a):\n    return 'Qwen/Qwen3-30B-A3B'",
                  "partial = lambda f, **k: f", "PretrainLMCfg = None", "launch = print",
                  "class PretrainLMCfg:\n    pass"]
        where = "start"
    else:
        forms += ["import pithtrain.tasks.pretrain_lm as pretrain_lm", "pretrain_lm = None",
                  "cfg = type(cfg)()", "from setup import cfg"]
        where = "start"
    forms += ["%s = cfg.distributed" % al, "training, distributed = distributed, training",
              "True, False = 1, 0", "int = float", "print = None", "setattr = lambda *a: None",
              "__name__ = 'other'", "__file__ = 'elsewhere/x.py'", "getattr = None"]
    f = pick(c, rng, forms)
    c.main.insert(rng.choice([where, "start", "end"]), [f], key=None)
    return "shadowed-names"


def m_section_replaced(c, rng):
    """A section object replaced, aliased, shared or copied."""
    seq = other_int(c, "seq")
    imp = "from pithtrain.modules.training import TrainingCfg\nfrom pithtrain.modules.distributed import DistributedCfg"
    al = c.main.alias["training"]
    forms = ["%s\ncfg.training = TrainingCfg()" % imp, "%s\ncfg.distributed = DistributedCfg()" % imp,
             "t = cfg.training\nt.sequence_length = %d" % seq, "t = %s\nt2 = t\nt2.sequence_length = %d" % (al, seq),
             "import copy\n%s = copy.copy(%s)\n%s.sequence_length = %d" % (al, al, al, seq),
             "import copy\ncfg.training = copy.copy(cfg.training)", "%s = cfg.logging" % al,
             "cfg.training, cfg.distributed = cfg.training, cfg.distributed",
             "cfg.training = cfg.training", "cfg = type(cfg)()\ncfg.training = %s" % al,
             "import dataclasses\ncfg = dataclasses.replace(cfg)",
             "cfg.training.sequence_length = cfg.training.sequence_length", "%s.sequence_length = %s.sequence_length * 2" % (al, al),
             "(%s).sequence_length = %d" % (al, seq), "%s.sequence_length, x = %d, 1" % (al, seq),
             "[%s.sequence_length] = [%d]" % (al, seq), "%s.sequence_length = x = %d" % (al, seq),
             "x = %s.sequence_length = %d" % (al, seq), "%s.sequence_length += 0" % al, "%s.sequence_length *= 2" % al,
             "%s.sequence_length //= 2" % al, "%s.sequence_length: int = %d" % (al, seq), "%s.sequence_length: int" % al,
             "%s.sequence_length = %d; %s.sequence_length = %d" % (al, seq, al, c.values["seq"]),
             "cfg.training.sequence_length = %d if %s.sequence_length > 0 else 1" % (seq, al)]
    c.main.insert(rng.choice(["after", "end", "main"]), [pick(c, rng, forms)], key="seq")
    return "sections-and-aliases"


def m_env(c, rng):
    """Values from the environment, the command line or a file."""
    key = rng.choice(INT_KEYS)
    n = c.values[key]
    forms = ['int(os.environ.get("MEMEST_DIFF_UNSET", "%d"))' % n, 'int(os.getenv("MEMEST_DIFF_UNSET", %d))' % n,
             "int(sys.argv[1]) if len(sys.argv) > 1 else %d" % n, 'json.loads("%d")' % n,
             "len(open(__file__).read()) and %d" % n, "int(%r)" % str(n), "max(%d, 1)" % n, "abs(-%d)" % n,
             "sum([%d])" % n, "%d if os.environ.get('MEMEST_DIFF_UNSET') else %d" % (n * 2, n)]
    c.main.header.insert(0, "import os, sys, json")
    c.main.set_expr(key, pick(c, rng, forms)) if c.main.sets(key) else None
    return "environment-and-calls"


def m_exec_eval(c, rng):
    seq = other_int(c, "seq")
    al = c.main.alias["training"]
    forms = ['exec("%s.sequence_length = %d")' % (al, seq), 'eval("setattr(%s, \'sequence_length\', %d)")' % (al, seq),
             'exec(open(%r).read())' % "tweaks.py", 'exec("import tweaks")',
             'exec("x = 1")', 'eval("1")', 'exec("cfg = None") if False else None',
             'exec("%s.sequence_length = %d", {"%s": %s})' % (al, seq, al, al), 'exec("pass", {}, {})',
             'import builtins\nbuiltins.exec("%s.sequence_length = %d")' % (al, seq), 'e = exec\ne("%s.sequence_length = %d")' % (al, seq)]
    c.add("tweaks.py", "cfg.training.sequence_length = %d\n" % seq)
    f = pick(c, rng, forms)
    if "open(" in f:
        f = f.replace("'tweaks.py'", "__file__.rsplit('/', 1)[0] + '/tweaks.py'")
    c.main.insert(rng.choice(["after", "end", "main"]), [f], key="seq")
    return "exec-eval"


def m_sys_modules(c, rng):
    seq = other_int(c, "seq")
    forms = ["import sys, types\nfake = types.ModuleType('tweaks')\nfake.seq = %d\nsys.modules['tweaks'] = fake\nfrom tweaks import seq" % seq,
             "import importlib\nimport tweaks\ntweaks = importlib.reload(tweaks)\nfrom tweaks import seq",
             "import runpy\nseq = runpy.run_path(__file__.rsplit('/', 1)[0] + '/tweaks.py')['seq']",
             "import sys\nsys.modules.pop('tweaks', None)\nfrom tweaks import seq",
             "import tweaks\nseq = tweaks.seq"]
    c.add("tweaks.py", "seq = %d\n" % seq)
    c.main.insert("before", [pick(c, rng, forms)], key="seq")
    c.main.set_expr("seq", "seq")
    return "sys-modules"


def m_optimizer_form(c, rng):
    opts = ["make_muon_optimizer", "make_adamw_optimizer"]
    other = [o for o in opts if o != c.values["optimizer"]][0]
    owner = c.owner("optimizer")
    imp = "from pithtrain.modules.training import make_muon_optimizer, make_adamw_optimizer\nimport functools\nfrom functools import partial\nimport pithtrain.modules.training as T"
    forms = ["partial(%s, weight_decay=0.05)" % other, "functools.partial(%s)" % other, "partial(partial(%s), weight_decay=0.1)" % other,
             "T.%s" % other, "lambda cfg: %s(cfg)" % other, "%s if False else %s" % (c.values["optimizer"], other),
             "(%s)" % other, "[%s][0]" % other, "partial(%s, **dict(weight_decay=0.0))" % other,
             "partial(%s, **{'weight_decay': 0.0})" % other, '"%s"' % other, '"Muon"', '"Adam"', "None",
             "partial(%s, 0.1)" % other, "getattr(T, %r)" % other, "%s.__call__" % other, "staticmethod(%s)" % other]
    owner.header.insert(0, imp)
    owner.set_expr("optimizer", pick(c, rng, forms))
    return "optimizer-forms"


def m_conditional(c, rng):
    """Fields set under literal conditions and in loops, at module level."""
    key = rng.choice(INT_KEYS + ["sharding"])
    sec, attr = FIELDS[key]
    al = c.main.alias[sec]
    n = other_int(c, key) if key in NEW_INT and key != "cp" else (2 if key == "cp" else '"fsdp"')
    forms = ["if True:\n    %s.%s = %s" % (al, attr, n), "if False:\n    %s.%s = %s" % (al, attr, n),
             "if 1:\n    %s.%s = %s\nelse:\n    pass" % (al, attr, n), "for _ in range(2):\n    %s.%s = %s" % (al, attr, n),
             "while True:\n    %s.%s = %s\n    break" % (al, attr, n), "if None:\n    pass\nelif True:\n    %s.%s = %s" % (al, attr, n),
             "with open(__file__):\n    %s.%s = %s" % (al, attr, n), "try:\n    pass\nfinally:\n    %s.%s = %s" % (al, attr, n),
             "try:\n    import nonexistent_module_x\nexcept ImportError:\n    %s.%s = %s" % (al, attr, n),
             "if __debug__:\n    %s.%s = %s" % (al, attr, n), "%s.%s = %s if __debug__ else %s.%s" % (al, attr, n, al, attr),
             "if True: %s.%s = %s" % (al, attr, n), "for x in [%s]: %s.%s = x" % (n, al, attr)]
    c.main.insert(rng.choice(["after", "end", "main"]), [pick(c, rng, forms)], key=key)
    return "conditional-and-loop"


def m_syntax(c, rng):
    """Statements Python refuses, and odd but valid layout."""
    forms = ["x = (1", "x = 1 +", "print 'hello'", "x = 1\n  y = 2", "\\", "x = 1 \\ ", "def f(:\n    pass", "x = $",
             "x = 1;;", "if True:\npass", "return 1", "break", "yield 1", "await x", "x := 1", "f(**{}, *[])",
             "nonlocal x", "x = 'abc", "x = '''abc", "x = 0777", "x = 1__0", "x = 1e", "x = 0b2", "async = 1", "match = 1",
             "case = 2", "_ = 1", "type X = int", "x = [i for i in range(3) if i if i]", "x = 1 if 2 else 3 if 4 else 5",
             "del ()", "() = []", "x = \"\\N{NOT A NAME}\"", "x = b'\u00e9'", "global x", "x = f'{1!z}'", "x = f'{'",
             "x = 1\n\x0c\ny = 2", "x = 1 # \x00 nul in a comment", "x = 1\r\ny = 2", "x = 1\ry = 2", "x = (\n\n)"]
    f = pick(c, rng, forms)
    if f.startswith("type "):
        c.min_python = (3, 12)
    c.main.insert(rng.choice(["after", "end"]), [f], key=pick_int_key(c))
    return "syntax"


def m_launch_elsewhere(c, rng):
    """The config made inside a function, or the launch in another module."""
    v = c.values
    seq = other_int(c, "seq")
    if c.form == "example":
        forms = ["def build():\n    c = PretrainLMCfg()\n    c.distributed = cfg.distributed\n    c.training = cfg.training\n"
                 "    c.training.sequence_length = %d\n    return c" % seq]
        c.main.insert("end", [forms[0]])
        c.main.main = [rng.choice(["launch(build())", "cfg = build()\nlaunch(cfg)"])]
    else:
        c.add("runner.py", "from pithtrain.tasks import pretrain_lm\n\n\ndef go(c):\n    c.training.sequence_length = %d\n"
              "    pretrain_lm.launch(c)\n" % seq)
        c.main.main = ["import runner", "runner.go(cfg)"]
    del v
    return "launch-call"


MUTATIONS = [m_int_form, m_bool_form, m_sharding_form, m_fstring312, m_model_form, m_symlink_folder, m_sys_path,
             m_import_side_effect, m_star_shadow, m_package_init, m_lazy_getattr, m_launch_arg, m_main_guard,
             m_setattr, m_rebind_name, m_nfkc, m_package_vs_module, m_long_names, m_relative_import, m_tabs,
             m_encoding, m_function_mutates, m_shadow, m_section_replaced, m_env, m_exec_eval, m_sys_modules,
             m_optimizer_form, m_conditional, m_syntax, m_launch_elsewhere]
# Mutations that change the tree or the encoding do not combine.
SOLO = {m_symlink_folder, m_encoding, m_package_init}
# }==


# {== the corpus ==
def pin_end(text, group):
    def apply(c):
        c.main.insert("end", [text])
        return group
    return apply


def pin_files(text, files, group):
    def apply(c):
        for name, body in files.items():
            c.add(name, body)
        c.main.insert("end", [text])
        return group
    return apply


def pin_no_launch(c):
    c.main.main = []
    return "launch-call"


def pin_launch_big(c):
    c.main.insert("end", ["import copy", "big = copy.deepcopy(cfg)", "big.training.sequence_length = 32768"])
    c.main.main = ["launch(cfg=big)"]
    return "launch-call"


def pin_preset_name(c):
    c.main.set_expr("model", '"qwen3-30b-a3b"')
    return "model-paths"


def pin_latin1(c):
    c.main.header.insert(0, "# -*- coding: latin-1 -*-")
    c.main.encoding = "latin-1"
    c.main.insert("end", ['note = "caf\u00e9"'])
    return "encodings"


# Constructs every corpus holds, whatever its size: those the reader once
# read otherwise than Python, each on the example form.
PINS = [
    pin_files("import tweaks", {"tweaks.py": "import __main__\n__main__.cfg.training.sequence_length = 16384\n"},
              "import-side-effects"),
    pin_files("from tweaks import *\ntraining.fp8 = True", {"tweaks.py": "training = None\n"}, "import-side-effects"),
    pin_files("from pkg.sub import x", {"pkg/__init__.py": "import __main__\n__main__.cfg.training.sequence_length = 16384\n",
                                        "pkg/sub.py": "x = 1\n"}, "package-init"),
    pin_files("import lazy\nlazy.anything", {"lazy.py": "def __getattr__(name):\n    import __main__\n"
                                                        "    __main__.cfg.training.sequence_length = 16384\n"}, "lazy-module"),
    pin_launch_big, pin_no_launch,
    pin_files("import sys\nsys.path.insert(0, 'other')\nfrom tweaks import seq\ntraining.sequence_length = seq",
              {"tweaks.py": "seq = 4096\n", "../../../other/tweaks.py": "seq = 16384\n"}, "sys-path"),
    pin_end("for k, v in {'sequence_length': 32768}.items():\n    setattr(training, k, v)", "setattr"),
    pin_end("seq = 4096\nprint(seq := 32768)\ntraining.sequence_length = seq", "rebinding"),
    pin_end("seq = 4096\ndef f():\n    global seq\n    seq = 32768\nf()\ntraining.sequence_length = seq", "rebinding"),
    pin_end("seq = 4096\nglobals()['seq'] = 32768\ntraining.sequence_length = seq", "rebinding"),
    pin_end("exec('training.sequence_length = 32768')", "exec-eval"),
    pin_end("seq = 4096\nmatch 32768:\n    case seq:\n        pass\ntraining.sequence_length = seq", "rebinding"),
    pin_end("seq = 4096\ndel seq\ntraining.sequence_length = seq", "rebinding"),
    pin_end("import copy\nbig = copy.deepcopy(cfg)\nbig.training.sequence_length = 32768\n\uff43\uff46\uff47 = big",
            "nfkc-identifiers"),
    pin_files("from cfgs import seq\ntraining.sequence_length = seq", {"cfgs.py": "seq = 4096\n",
                                                                      "cfgs/__init__.py": "seq = 32768\n"},
              "package-vs-module"),
    pin_end("%s1 = 4096\n%s2 = 32768\ntraining.sequence_length = %s2" % ("v" * 63, "v" * 63, "v" * 63), "long-names"),
    pin_end("training.model = 'examples/pretrain_lm/x/config.json\\x00../evil.json'", "model-paths"),
    pin_files("from ..setup import cfg", {"../setup.py": "x = 1\n"}, "relative-imports"),
    pin_end("if True:\n\tx = 1\n        y = 2", "tabs"),
    pin_end("training.sequence_length = 4096.0", "number-forms"),
    pin_end("training.micro_batch_size = True", "number-forms"),
    pin_latin1,
    pin_end("training = cfg.logging\ntraining.fp8 = False", "sections-and-aliases"),
    pin_end("cfg.logging.colour = 1", "sections-and-aliases"),
    pin_end("training.sequence_lenght = 8192", "sections-and-aliases"),
    pin_end("__name__ = 'other'", "shadowed-names"),
    pin_end("training.optimizer = 'make_adamw_optimizer'", "optimizer-forms"),
    pin_end("x = b'\u00e9'", "syntax"), pin_end("x = f'{1!z}'", "syntax"), pin_end("f(**{}, *[])", "syntax"),
    pin_end("break", "syntax"), pin_end("True, False = 1, 0", "syntax"),
    pin_preset_name,
]


def make_case(rng, index, count):
    """The index-th case, with the change its mutations made (a diff of
    the script and the files they added); past count, the pinned ones."""
    if index >= count:
        c = example_case(rng, draw_values(rng))
        c.before = {"script.py": c.main.render().decode("utf-8").splitlines(), "setup.py": []}
        c.files_before = set(c.files)
        c.groups = ["pinned", PINS[index - count](c)]
    else:
        c = choose_case(rng, index, count)
    diff = []
    for name, script in [(os.path.basename(c.script), c.main), ("setup.py", c.setup)]:
        if script is not None:
            after = script.render().decode("utf-8", "replace").splitlines()
            diff += ["%s:" % name] + list(difflib.unified_diff(c.before[name], after, n=1, lineterm=""))[2:]
    added = sorted(p for p in c.files if p not in c.files_before)
    c.change = "\n".join([l for i, l in enumerate(diff) if not (l.endswith(":") and (i + 1 == len(diff) or
                                                                  diff[i + 1].endswith(":")))] +
                         [l for p in added for l in added_file(p, c.files[p])])
    return c


def added_file(path, text):
    """A file a mutation added, as the change lists it: its name, and its
    first lines when it is a short text."""
    out = ["+ file %s" % path]
    if isinstance(text, str) and text:
        lines = text.splitlines()
        out += ["+     " + l for l in lines[:8]] + (["+     ..."] if len(lines) > 8 else [])
    return out


def choose_case(rng, index, count):
    """First each mutation in turn (over both forms), unmutated forms now
    and then, then combinations."""
    n = len(MUTATIONS)
    c = base_case(rng, ["example", "benchmark"][index % 2])
    c.before = {os.path.basename(c.script): c.main.render().decode("utf-8").splitlines(),
                "setup.py": c.setup.render().decode("utf-8").splitlines() if c.setup else []}
    c.files_before = set(c.files)
    if index % 25 == 0:
        c.must_read = True
        c.groups = ["trainer-form"]
        return c
    if index < max(count * 2 // 3, 2 * n):
        c.variant = index // n
        c.groups = [MUTATIONS[index % n](c, rng)]
        return c
    ms = rng.sample([m for m in MUTATIONS if m not in SOLO], rng.choice([2, 2, 3]))
    if rng.random() < 0.2:
        ms.insert(0, rng.choice(sorted(SOLO, key=lambda m: m.__name__)))
    groups = []
    for m in ms:
        try:
            groups.append(m(c, rng))
        except (TypeError, IndexError, ValueError, KeyError):
            pass    # a mutation that no longer fits the script after another
    c.groups = ["combination"] + groups
    return c


def render_file(v):
    if isinstance(v, Script):
        return v.render()
    return v if isinstance(v, bytes) else v.encode("utf-8")


def write_case(c, root):
    os.makedirs(root)
    with open(os.path.join(root, "pyproject.toml"), "w") as f:
        f.write('[project]\nname = "pithtrain"\nversion = "0.0.0"\n')
    shutil.copytree(STUB, os.path.join(root, "pithtrain"), ignore=shutil.ignore_patterns("__pycache__"))
    for path, text in sorted(c.files.items()):
        for link, target in c.links.items():
            if path.startswith(link + "/"):   # a file added through the link lives in its target
                path = os.path.join(os.path.dirname(link), target) + path[len(link):]
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(render_file(text))
    for path, target in c.links.items():
        os.symlink(target, os.path.join(root, path))


def generate(out, count, seed=1):
    """Writes count cases under out and returns the index."""
    cases = []
    for i in range(count + len(PINS)):
        rng = random.Random("%d/%d" % (seed, i))
        c = make_case(rng, i, count)
        name = "%05d-%s" % (i, c.groups[-1] if c.groups else "trainer-form")
        write_case(c, os.path.join(out, name))
        cases.append({"root": name, "script": c.script, "pythonpath": c.pythonpath, "groups": c.groups,
                      "min_python": list(c.min_python), "must_read": c.must_read, "change": c.change})
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump({"seed": seed, "count": len(cases), "cases": cases}, f, indent=1)
    return cases


def fuzz_seeds(out, count, seed=1):
    """Flat seeds for tests/fuzz/fuzz_script.c: the script's bytes, then,
    after a NUL, the first module of the case it imports (setup.py or the
    mutation's own), which the target hands to every import."""
    os.makedirs(out, exist_ok=True)
    for i in range(count + len(PINS)):
        rng = random.Random("%d/%d" % (seed, i))
        c = make_case(rng, i, count)
        data = c.main.render()
        mods = [p for p in sorted(c.files) if p.endswith(".py") and c.files[p] is not c.main]
        mods.sort(key=lambda p: not p.endswith("setup.py"))
        if mods:
            data += b"\0" + render_file(c.files[mods[0]])
        with open(os.path.join(out, "gen-%05d.py" % i), "wb") as f:
            f.write(data)


def main(argv):
    args = list(argv)
    count, seed, seeds = 400, 1, None
    if "--count" in args:
        i = args.index("--count")
        count = int(args[i + 1])
        del args[i:i + 2]
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if "--fuzz-seeds" in args:
        i = args.index("--fuzz-seeds")
        seeds = args[i + 1]
        del args[i:i + 2]
    if seeds:
        fuzz_seeds(seeds, count, seed)
        return 0
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    if os.path.exists(args[0]) and os.listdir(args[0]):
        sys.stderr.write("gen_corpus: %s is not empty\n" % args[0])
        return 2
    os.makedirs(args[0], exist_ok=True)
    generate(args[0], count, seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
