/*
** params.c — the estimate's inputs: one table (name, flag, meaning, kind,
** bounds and limit name, choices, default, offset into memest_params, the
** worked example's value and a form's slider) and what it drives: parsing one value from text with its range check, the
** same check of a value stored by a C caller, the defaults, the enum
** names and the equivalent CLI command line. Cross-parameter checks
** (divisibility, the layout) live in layout.c. A new parameter is one row
** here plus its field in memest_params.
*/
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"

/* Enum value names, each written once: the table's choices are these
** joined by '|', and memest_*_name() return them. */
#define N_ADAMW "adamw"
#define N_MUON "muon"
#define N_FSDP "fsdp"
#define N_HSDP "hsdp"
#define N_FP8_OFF "disabled"
#define N_FP8_DEEP_GEMM "deep-gemm"
#define N_ROUTING_MEASURED "measured"
#define N_ROUTING_BALANCED "balanced"
#define N_ROUTING_FACTOR "factor"
#define N_SCHED_DUALPIPEV "dualpipev"
#define N_SCHED_1F1B "1f1b"
#define N_SCHED_INTERLEAVED "interleaved-1f1b"
#define N_SCHED_ZBH1 "zb-h1"
#define N_SCHED_DUALPIPE "dualpipe"

static const char *const optimizer_names[] = {N_ADAMW, N_MUON, NULL};
static const char *const sharding_names[] = {N_FSDP, N_HSDP, NULL};
static const char *const fp8_names[] = {N_FP8_OFF, N_FP8_DEEP_GEMM, NULL};
static const char *const routing_names[] = {N_ROUTING_MEASURED, N_ROUTING_BALANCED,
                                            N_ROUTING_FACTOR, NULL};
static const char *const schedule_names[] = {N_SCHED_DUALPIPEV, N_SCHED_1F1B, N_SCHED_INTERLEAVED,
                                             N_SCHED_ZBH1, N_SCHED_DUALPIPE, NULL};

typedef enum param_kind { K_TEXT, K_INT, K_NUM, K_ENUM, K_BOOL } param_kind;

typedef struct param_row {
  memest_param_info info;
  param_kind kind;
  const char *const *names;  /* K_ENUM stored as an int: its values' names */
  size_t size;               /* bytes of the field */
  int command;               /* place in the equivalent command; 0: left out */
  memest_param_form form;    /* the example's value and the slider a form gives it */
} param_row;

/* info: name, flag, kind, meaning, choose, choices, default, required, min, max, limit, offset,
** label, short name; form: example, slider ends, step, powers of two, the choices' titles */
#define ROW(name, flag, kind, meaning, choose, choices, dflt, req, lo, hi, limit, k, names, f, cmd, \
            label, short_name, example, s_lo, s_hi, s_step, s_log2, titles)                        \
  {{name, flag, kind, meaning, choose, choices, dflt, req, lo, hi, limit, offsetof(memest_params, f), \
    label, short_name},                                                                            \
   k, names, sizeof(((memest_params *)0)->f), cmd, {example, s_lo, s_hi, s_step, s_log2, titles}}

static const param_row param_table[MEMEST_P_COUNT] = {
  ROW("model", "--model", "text",
      "the model: a HuggingFace config.json path, a preset name or a hub id org/name",
      "a preset from --list-models, or the config.json (or hub id) of the model you train", "",
      "", 1,
      0, 0, "", K_TEXT, NULL, model, 1,
      "Model", "model",
      "qwen3-30b-a3b", 0, 0, 0, 0, ""),
  ROW("pp_size", "--pp-size", "int",
      "pipeline-parallel degree; DualPipeV runs 2*pp stages, two per GPU",
      "the model must have at least 2*pp layers; more pp lowers parameter and activation memory "
      "per GPU",
      "", "", 1, 1, MEMEST_MAX_PP, "MEMEST_MAX_PP", K_INT, NULL, pp_size, 2,
      "Pipeline parallel (pp)", "pp",
      "4", 1, 32, 1, 0, ""),
  ROW("ep_size", "--ep-size", "int",
      "expert-parallel degree: GPUs that split each MoE layer's experts",
      "a divisor of the expert count, at most 32; usually the GPUs per node (8)", "", "", 1,
      1, MEMEST_MAX_GPUS, "MEMEST_MAX_GPUS", K_INT, NULL, ep_size, 3,
      "Expert parallel (ep)", "ep",
      "8", 1, 32, 1, 1, ""),
  ROW("cp_size", "--cp-size", "int",
      "context-parallel degree: GPUs that split each sequence",
      "1 if you do not use context parallelism", "", "", 1,
      1, MEMEST_MAX_CP, "MEMEST_MAX_CP", K_INT, NULL, cp_size, 4,
      "Context parallel (cp)", "cp",
      "1", 1, 64, 1, 1, ""),
  ROW("total_gpus", "--total-gpus", "int",
      "total GPUs in the run",
      "nodes x GPUs per node, a multiple of pp*ep*cp; the data-parallel degree is total/(pp*ep*cp)",
      "", "", 1, 1, MEMEST_MAX_GPUS, "MEMEST_MAX_GPUS", K_INT, NULL, total_gpus, 5,
      "Total GPUs", "total GPUs",
      "32", 1, 16384, 1, 1, ""),
  ROW("micro_batch_size", "--micro-batch-size", "int",
      "sequences per micro-batch on one GPU",
      "usually 1; activation memory grows with it", "", "", 1,
      1, MEMEST_MAX_MICRO_BATCH, "MEMEST_MAX_MICRO_BATCH", K_INT, NULL, micro_batch_size, 6,
      "Micro batch size", "micro batch",
      "1", 1, 64, 1, 1, ""),
  ROW("global_batch_size", "--global-batch-size", "int",
      "sequences per optimizer step across all GPUs",
      "a multiple of micro_batch_size*dp*ep that gives at least 2*pp micro-batches", "", "", 1,
      1, (double)MEMEST_MAX_GLOBAL_BATCH, "MEMEST_MAX_GLOBAL_BATCH", K_INT, NULL,
      global_batch_size, 7,
      "Global batch size", "global batch",
      "1024", 1, 65536, 1, 1, ""),
  ROW("sequence_length", "--sequence-length", "int",
      "tokens per training sequence",
      "your context length; a multiple of 2*cp when cp > 1", "", "", 1,
      1, MEMEST_MAX_SEQUENCE, "MEMEST_MAX_SEQUENCE", K_INT, NULL, sequence_length, 8,
      "Sequence length", "sequence length",
      "4096", 128, 1048576, 1, 1, ""),
  ROW("gpu_memory_gb", "--gpu-memory-gb", "number",
      "GPU memory capacity in GiB (N * 2^30 bytes); or name the GPU with --gpu",
      "give --gpu h100|h200|b200|a100-80|a100-40 for the capacity the driver reports, or the GiB "
      "your GPU has",
      "", "", 1, MEMEST_MIN_GPU_GIB, MEMEST_MAX_GPU_GIB, "MEMEST_MAX_GPU_GIB", K_NUM, NULL,
      gpu_memory_gb, 10,
      "GPU memory (GiB)", "GPU memory",
      "80", 0, 0, 0, 0, ""),
  ROW("gpu", "--gpu", "enum",
      "GPU model, for the memory capacity its driver reports",
      "the GPU you run on; use --gpu-memory-gb for any other", "h100|h200|b200|a100-80|a100-40",
      "", 0, 0, 0, "", K_ENUM, NULL, gpu, 9,
      "GPU", "GPU",
      "h100", 0, 0, 0, 0, ""),
  ROW("fp8_training", "--fp8-training", "enum",
      "FP8 training through DeepGEMM", "deep-gemm if the run trains in FP8",
      N_FP8_OFF "|" N_FP8_DEEP_GEMM, N_FP8_OFF, 0, 0, 0, "", K_ENUM, fp8_names, fp8_training, 11,
      "FP8 training", "FP8",
      "", 0, 0, 0, 0, "Off (bf16)|DeepGEMM FP8"),
  ROW("pp_rank", "--pp-rank", "int",
      "pipeline rank to report; -1 simulates every rank and reports the worst",
      "-1 unless you look at one rank", "", "-1", 0,
      -1, MEMEST_MAX_PP - 1, "MEMEST_MAX_PP - 1", K_INT, NULL, pp_rank, 14,
      "Pipeline rank shown", "pipeline rank",
      "", 0, 0, 0, 0, ""),
  ROW("ep_imbalance", "--ep-imbalance", "number",
      "extra routing skew on top of the measured worst-layer factor (1.18)",
      "1.0; raise it for models with badly balanced routing", "", "1.0", 0,
      1.0, MEMEST_MAX_EP_IMBALANCE, "MEMEST_MAX_EP_IMBALANCE", K_NUM, NULL, ep_imbalance, 15,
      "EP imbalance", "EP imbalance",
      "", 0, 0, 0, 0, ""),
  ROW("fragmentation", "--fragmentation", "number",
      "caching-allocator overhead as a fraction of PyTorch tensor bytes",
      "0.10 unless you measured your allocator", "", "0.10", 0,
      0.0, MEMEST_MAX_FRAGMENTATION, "MEMEST_MAX_FRAGMENTATION", K_NUM, NULL, fragmentation, 16,
      "Fragmentation (allocator overhead)", "fragmentation",
      "", 0, 0.5, 0.01, 0, ""),
  ROW("optimizer", "--optimizer", "enum",
      "optimizer", "the optimizer your run uses", N_ADAMW "|" N_MUON, N_ADAMW, 0,
      0, 0, "", K_ENUM, optimizer_names, optimizer, 12,
      "Optimizer", "optimizer",
      "", 0, 0, 0, 0, "AdamW|Muon"),
  ROW("sharding", "--sharding", "enum",
      "FSDP shards over all data-parallel ranks; HSDP shards inside a replica",
      "the trainer's sharding_strategy", N_FSDP "|" N_HSDP, N_FSDP, 0,
      0, 0, "", K_ENUM, sharding_names, sharding, 13,
      "Sharding", "sharding",
      "", 0, 0, 0, 0, "FSDP|HSDP"),
  ROW("detail", "--detail", "bool",
      "add per-tensor tables at the peak", "", "", "false", 0, 0, 0, "", K_BOOL, NULL, detail, 0,
      "Per-tensor detail", "per-tensor detail",
      "", 0, 0, 0, 0, ""),
  ROW("timeline", "--timeline", "bool",
      "add the event timeline of the schedule", "", "", "false", 0, 0, 0, "", K_BOOL, NULL,
      timeline, 0,
      "Timeline", "timeline",
      "", 0, 0, 0, 0, ""),
  ROW("timeline_limit", "--timeline-limit", "int",
      "events shown in the timeline, centred on the peak (0 = all)", "", "", "100", 0,
      0, MEMEST_MAX_TIMELINE_EVENTS, "MEMEST_MAX_TIMELINE_EVENTS", K_INT, NULL, timeline_limit, 0,
      "Timeline events", "timeline events",
      "", 0, 0, 0, 0, ""),
  ROW("routing", "--routing", "enum",
      "how tokens spread over the EP ranks: measured (1.18x), balanced or factor",
      "balanced for training.benchmark=True runs",
      N_ROUTING_MEASURED "|" N_ROUTING_BALANCED "|" N_ROUTING_FACTOR, N_ROUTING_MEASURED, 0,
      0, 0, "", K_ENUM, routing_names, routing, 17,
      "Routing", "routing",
      "", 0, 0, 0, 0, "Measured|Balanced|Custom factor"),
  ROW("routing_factor", "--routing-factor", "number",
      "the busiest EP rank's routed rows over the uniform m*k",
      "1 to min(ep, experts/top_k)",
      "", "1.18", 0, 1.0, MEMEST_MAX_ROUTING_FACTOR, "MEMEST_MAX_ROUTING_FACTOR", K_NUM, NULL,
      routing_factor, 18,
      "Routing factor", "routing factor",
      "", 1, 8, 0.01, 0, ""),
  ROW("nvlink_gb_per_s", "--nvlink-gb-per-s", "number",
      "NVLink bandwidth per GPU in one direction, GB/s, for the time model (0: the GPU's "
      "datasheet)",
      "0 unless your NVLink differs from the GPU's datasheet (e.g. 450 for H100 SXM)", "", "0", 0,
      0.0, MEMEST_MAX_LINK_GB_PER_S, "MEMEST_MAX_LINK_GB_PER_S", K_NUM, NULL, nvlink_gb_per_s, 19,
      "NVLink (GB/s, one direction)", "NVLink bandwidth",
      "", 0, 0, 0, 0, ""),
  ROW("network_gbit_per_s", "--network-gbit-per-s", "number",
      "network bandwidth per GPU between nodes, Gb/s, for the time model (0: the GPU table's)",
      "0 unless your nodes have another network per GPU (e.g. 400 for one NDR NIC a GPU)", "", "0",
      0, 0.0, MEMEST_MAX_NETWORK_GBIT_PER_S, "MEMEST_MAX_NETWORK_GBIT_PER_S", K_NUM, NULL,
      network_gbit_per_s, 20,
      "Network (Gb/s per GPU)", "network bandwidth",
      "", 0, 0, 0, 0, ""),
  ROW("efficiency", "--efficiency", "text",
      "overrides of the time model's efficiency table, kind=value[,kind=value]: shares of peak "
      "0..1, layer_us in microseconds, expert_rows and attention_seq in rows and tokens",
      "leave unset unless you measured your kernels; docs/time-model.md lists the kinds", "", "",
      0, 0, 0, "", K_TEXT, NULL, efficiency, 21,
      "Efficiency overrides", "efficiency overrides",
      "", 0, 0, 0, 0, ""),
  ROW("schedule", "--schedule", "enum",
      "the pipeline schedule replayed; the trainer runs dualpipev, the others show what the same "
      "run would hold and take under them",
      "dualpipev for the trainer's runs; compare --schedules all sets them side by side",
      N_SCHED_DUALPIPEV "|" N_SCHED_1F1B "|" N_SCHED_INTERLEAVED "|" N_SCHED_ZBH1 "|"
      N_SCHED_DUALPIPE, N_SCHED_DUALPIPEV, 0,
      0, 0, "", K_ENUM, schedule_names, schedule, 22,
      "Pipeline schedule", "schedule",
      "", 0, 0, 0, 0, "DualPipeV|1F1B|Interleaved 1F1B|ZB-H1|DualPipe"),
  ROW("virtual_stages", "--virtual-stages", "int",
      "stages per GPU of interleaved-1f1b (Megatron's virtual pipeline size)",
      "2 unless your interleaved runs use more; only interleaved-1f1b reads it", "", "2", 0,
      2, MEMEST_MAX_MODULES, "MEMEST_MAX_MODULES", K_INT, NULL, virtual_stages, 23,
      "Virtual stages per GPU", "virtual stages",
      "", 2, MEMEST_MAX_MODULES, 1, 0, ""),
};

const memest_param_info *memest_param_describe(memest_param_id id) {
  if ((int)id < 0 || id >= MEMEST_P_COUNT) return NULL;
  return &param_table[id].info;
}

const memest_param_form *memest_param_form_describe(memest_param_id id) {
  if ((int)id < 0 || id >= MEMEST_P_COUNT) return NULL;
  return &param_table[id].form;
}

/* Name i of a NULL-terminated list of n names, or NULL. */
static const char *name_at(const char *const *names, int i) {
  int k;
  if (i < 0) return NULL;
  for (k = 0; k < i && names[k] != NULL; k++) continue;
  return names[k];
}

const char *memest_optimizer_name(memest_optimizer o) { return name_at(optimizer_names, (int)o); }
const char *memest_sharding_name(memest_sharding s) { return name_at(sharding_names, (int)s); }
const char *memest_fp8_name(memest_fp8 f) { return name_at(fp8_names, (int)f); }
const char *memest_routing_name(memest_routing r) { return name_at(routing_names, (int)r); }
const char *memest_schedule_name(memest_schedule s) { return name_at(schedule_names, (int)s); }

static int names_count(const char *const *names) {
  int n = 0;
  while (names[n] != NULL) n++;
  return n;
}

/* The field of row r in p. */
static void *field_of(memest_params *p, const param_row *r) {
  return (char *)p + r->info.offset;
}
static const void *field_in(const memest_params *p, const param_row *r) {
  return (const char *)p + r->info.offset;
}

/* Finds a parameter by snake_case name or CLI flag; -1 if unknown. */
static int param_lookup(const char *name) {
  int i;
  for (i = 0; i < MEMEST_P_COUNT; i++) {
    if (strcmp(name, param_table[i].info.name) == 0) return i;
    if (strcmp(name, param_table[i].info.flag) == 0) return i;
  }
  return -1;
}

/* Integer rule: optional '-', then decimal digits, nothing else. */
static memest_code parse_int(const memest_param_info *pi, const char *v, int64_t *out,
                             memest_error *err) {
  const char *s = v, *field = pi->name, *flag = pi->flag;
  int64_t x = 0, lo = (int64_t)pi->min, hi = (int64_t)pi->max;
  int neg = 0, digits = 0, ovf = 0;
  while (*s == ' ') s++;
  if (*s == '-' || *s == '+') neg = (*s++ == '-');
  for (; *s >= '0' && *s <= '9'; s++, digits++) {
    x = ck_add(&ovf, ck_mul(&ovf, x, 10), *s - '0');
  }
  while (*s == ' ') s++;
  if (digits == 0 || *s != '\0') {
    return memi_err_set(err, MEMEST_E_VALUE, field,
                   "%s must be a whole number, got '%.40s'; give e.g. %s %lld",
                   flag, v, flag, (long long)(lo > 1 ? lo : 1));
  }
  if (ovf) {
    return memi_err_set(err, MEMEST_E_LIMIT, field,
                   "%s %.40s is far beyond the supported maximum %s = %lld; give a value up to %lld",
                   flag, v, pi->limit, (long long)hi, (long long)hi);
  }
  if (neg) x = -x;
  if (x < lo) {
    if (lo == 1) {
      return memi_err_set(err, MEMEST_E_VALUE, field,
                     "%s must be at least 1, got %lld; give a positive whole number",
                     flag, (long long)x);
    }
    return memi_err_set(err, MEMEST_E_VALUE, field, "%s must be at least %lld, got %lld",
                   flag, (long long)lo, (long long)x);
  }
  if (x > hi) {
    return memi_err_set(err, MEMEST_E_LIMIT, field,
                   "%s %lld exceeds the supported maximum %s = %lld; give a value up to %lld",
                   flag, (long long)x, pi->limit, (long long)hi, (long long)hi);
  }
  *out = x;
  return MEMEST_OK;
}

/* A value of number row pi to give as an example: its default, else 80
** (the GPU's capacity in GiB, the one number an estimate needs without a
** default) where the range holds it, else the least value. */
static double num_example(const memest_param_info *pi) {
  if (pi->default_text[0]) return strtod(pi->default_text, NULL);
  return 80.0 >= pi->min && 80.0 <= pi->max ? 80.0 : pi->min;
}

/* x as memest_params_set reads it back, without thousands separators. */
static const char *plain_num(char *buf, size_t size, double x) {
  snprintf(buf, size, "%.10g", x);
  return buf;
}

/* A fix for a number row: x to the hundredth, as the page's fields and the
** messages show a number, kept inside min..max (a bound of more decimals,
** 1/1024 GiB, gives the nearest hundredth inside it: 0.01). */
static const char *fix_num(char *buf, size_t size, const memest_param_info *pi, double x) {
  double r = floor(x * 100.0 + 0.5) / 100.0;
  if (r < pi->min) r = ceil(pi->min * 100.0) / 100.0;
  if (r > pi->max) r = floor(pi->max * 100.0) / 100.0;
  if (r < pi->min || r > pi->max) r = x;
  return plain_num(buf, size, r);
}

/* Number rule: a finite decimal number as strtod reads it, nothing else.
** A refusal gives a value in range: the nearest bound for a number beyond
** it (a fraction given as a percent: the fraction), the example for text
** that is no number (nan, inf, 0x10). */
memest_code memi_parse_num(const memest_param_info *pi, const char *v, double *out,
                           memest_error *err) {
  char *end = NULL, a[48], b[48], c[48];
  double x, fix;
  memest_code code;
  /* Decimal only: strtod would also read hexadecimal (0x10), inf and nan. */
  if (v[strspn(v, "0123456789+-.eE ")] != '\0' || v[0] == '\0') {
    fix = num_example(pi);
    memi_err_set(err, MEMEST_E_VALUE, pi->name,
                 "%s must be a decimal number, got '%.40s'; give e.g. %s %s%s", pi->flag, v,
                 pi->flag, plain_num(c, sizeof c, fix), pi->default_text[0] ? " (the default)" : "");
    if (pi->default_text[0]) memi_err_fix(err, "%s=%s", pi->name, c);
    return MEMEST_E_VALUE;
  }
  errno = 0;
  x = strtod(v, &end);
  while (end != NULL && *end == ' ') end++;
  if (end == v || end == NULL || *end != '\0') {
    fix = num_example(pi);
    memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s must be a number, got '%.40s'; give e.g. %s %s",
                 pi->flag, v, pi->flag, plain_num(c, sizeof c, fix));
    if (pi->default_text[0]) memi_err_fix(err, "%s=%s", pi->name, c);
    return MEMEST_E_VALUE;
  }
  if (isfinite(x) && x >= pi->min && x <= pi->max) {
    *out = x;
    return MEMEST_OK;
  }
  /* Beyond the range, inf from an overflowing exponent (1e400) included. */
  fix = x > pi->max ? pi->max : pi->min;
  code = x > pi->max ? MEMEST_E_LIMIT : MEMEST_E_VALUE;
  if (pi->max <= 1.0 && x > pi->max && x <= 100.0) {
    fix = x / 100.0;
    memi_err_set(err, code, pi->name,
                 "%s is a fraction from %s to %s, got %.40s; for %.40s%% give %s %s", pi->flag,
                 memi_fmt_num(a, sizeof a, pi->min), memi_fmt_num(b, sizeof b, pi->max), v, v,
                 pi->flag, plain_num(c, sizeof c, fix));
  } else {
    memi_err_set(err, code, pi->name,
                 "%s must be at least %s and at most %s, got %.40s; the nearest value in range is %s",
                 pi->flag, memi_fmt_num(a, sizeof a, pi->min), memi_fmt_num(b, sizeof b, pi->max), v,
                 fix_num(c, sizeof c, pi, fix));
  }
  memi_err_fix(err, "%s=%s", pi->name, c);
  return code;
}

static memest_code parse_bool(const memest_param_info *pi, const char *v, int *out,
                              memest_error *err) {
  static const char *const yes[] = {"1", "true", "yes", "on"};
  static const char *const no[] = {"0", "false", "no", "off"};
  size_t i;
  for (i = 0; i < 4; i++) {
    if (strcmp(v, yes[i]) == 0) {
      *out = 1;
      return MEMEST_OK;
    }
    if (strcmp(v, no[i]) == 0) {
      *out = 0;
      return MEMEST_OK;
    }
  }
  return memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s takes true or false, got '%.40s'", pi->flag,
                 v);
}

/* Picks value v out of the '|'-separated choices; index or -1. */
static int enum_index(const char *choices, const char *v) {
  const char *s = choices;
  size_t n = strlen(v);
  int i = 0;
  while (*s) {
    const char *bar = strchr(s, '|');
    size_t len = bar ? (size_t)(bar - s) : strlen(s);
    if (len == n && strncmp(s, v, n) == 0) return i;
    if (!bar) break;
    s = bar + 1;
    i++;
  }
  return -1;
}

/* The choice v names in another spelling (case, '_' or ' ' for '-'):
** its index when exactly one matches, else -1. */
static int enum_respelled(const char *choices, const char *v) {
  const char *s = choices;
  int i = 0, found = -1, n = 0;
  while (*s) {
    const char *bar = strchr(s, '|');
    size_t len = bar ? (size_t)(bar - s) : strlen(s), k;
    for (k = 0; k < len && v[k] != '\0'; k++) {
      char c = v[k] >= 'A' && v[k] <= 'Z' ? (char)(v[k] - 'A' + 'a') : v[k];
      if (c == '_' || c == ' ') c = '-';
      if (c != s[k]) break;
    }
    if (k == len && v[k] == '\0') {
      found = i;
      n++;
    }
    if (!bar) break;
    s = bar + 1;
    i++;
  }
  return n == 1 ? found : -1;
}

/* Choice i of the '|'-separated choices into buf. */
static const char *enum_choice(const char *choices, int i, char *buf, size_t size) {
  const char *s = choices, *bar;
  while (i-- > 0 && (bar = strchr(s, '|')) != NULL) s = bar + 1;
  bar = strchr(s, '|');
  snprintf(buf, size, "%.*s", (int)(bar ? (size_t)(bar - s) : strlen(s)), s);
  return buf;
}

/* An unknown enum value: the choices, the one it spells another way (as the
** fix), and for a GPU of no preset, the flag that takes any capacity. */
static memest_code parse_enum(const memest_param_info *pi, const char *v, int *out,
                              memest_error *err) {
  int i = enum_index(pi->choices, v);
  if (i < 0) {
    char list[160], near[48] = "", hint[240] = "";
    size_t k, j = 0;
    int r = enum_respelled(pi->choices, v);
    for (k = 0; pi->choices[k] && j + 3 < sizeof list; k++) {
      if (pi->choices[k] == '|') {
        list[j++] = ',';
        list[j++] = ' ';
      } else {
        list[j++] = pi->choices[k];
      }
    }
    list[j] = '\0';
    if (r >= 0) enum_choice(pi->choices, r, near, sizeof near);
    if (near[0]) {
      snprintf(hint, sizeof hint, "; did you mean %s?", near);
    } else if (strcmp(pi->name, "gpu") == 0) {
      snprintf(hint, sizeof hint,
               "; for another GPU give its memory in GiB instead: --gpu-memory-gb N, N being the "
               "total_memory PyTorch prints for the device (in MiB) divided by 1024, e.g. "
               "--gpu-memory-gb 79.19 for 81089 MiB");
    }
    memi_err_set(err, MEMEST_E_UNKNOWN, pi->name, "%s '%.40s' is not one of: %s%s", pi->flag, v,
                 list, hint);
    if (near[0]) memi_err_fix(err, "%s=%s", pi->name, near);
    return MEMEST_E_UNKNOWN;
  }
  *out = i;
  return MEMEST_OK;
}

static memest_code set_text(const memest_param_info *pi, const char *v, char *dst, size_t size,
                            memest_error *err) {
  const unsigned char *u;
  if (v[0] == '\0') {
    return memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s needs a value, got an empty one", pi->flag);
  }
  if (strlen(v) >= size) {
    return memi_err_set(err, MEMEST_E_LIMIT, pi->name, "%s is longer than %d characters",
                   pi->flag, (int)size - 1);
  }
  for (u = (const unsigned char *)v; *u; u++) {
    if (*u < 0x20 || *u == 0x7f) {
      return memi_err_set(err, MEMEST_E_VALUE, pi->name, "%s contains a control character", pi->flag);
    }
  }
  memcpy(dst, v, strlen(v) + 1);
  return MEMEST_OK;
}

/* Parses value into row r's field of p, by the row's kind. */
static memest_code row_set(memest_params *p, const param_row *r, const char *value,
                           memest_error *err) {
  void *f = field_of(p, r);
  memest_code rc;
  int e = 0;
  switch (r->kind) {
    case K_TEXT: return set_text(&r->info, value, f, r->size, err);
    case K_INT: return parse_int(&r->info, value, f, err);
    case K_NUM: return memi_parse_num(&r->info, value, f, err);
    case K_BOOL: return parse_bool(&r->info, value, f, err);
    case K_ENUM:
      rc = parse_enum(&r->info, value, &e, err);
      if (rc != MEMEST_OK) return rc;
      if (r->names == NULL) snprintf(f, r->size, "%s", value); /* kept by name (--gpu) */
      else memcpy(f, &e, sizeof e);
      return MEMEST_OK;
  }
  return MEMEST_OK;
}

void memest_params_init(memest_params *p) {
  int i;
  memset(p, 0, sizeof *p);
  for (i = 0; i < MEMEST_P_COUNT; i++) {
    if (param_table[i].info.default_text[0]) {
      row_set(p, &param_table[i], param_table[i].info.default_text, NULL);
    }
  }
}

memest_code memest_params_set(memest_params *p, const char *name, const char *value,
                              memest_error *err) {
  int id;
  memest_code rc;
  if (name == NULL || value == NULL) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "a parameter name and value are required");
  }
  id = param_lookup(name);
  if (id < 0) {
    return memi_err_set(err, MEMEST_E_UNKNOWN, "",
                   "unknown parameter '%.60s'; run memest --help for the list", name);
  }
  rc = row_set(p, &param_table[id], value, err);
  if (rc != MEMEST_OK) return rc;
  p->given |= 1u << id;
  /* A factor makes the mode `factor` unless --routing named another. */
  if (id == MEMEST_P_ROUTING_FACTOR && !((p->given >> MEMEST_P_ROUTING) & 1u)) {
    p->routing = MEMEST_ROUTING_FACTOR;
  }
  return rc;
}

/* Fills err when stored value of row r is one memest_params_set refuses. */
static int row_refused(const memest_params *p, const param_row *r, memest_error *err) {
  const memest_param_info *pi = &r->info;
  const void *f = field_in(p, r);
  memest_code code = MEMEST_OK;
  char what[160] = "", fix[48] = "";
  if (r->kind == K_INT) {
    int64_t v;
    memcpy(&v, f, sizeof v);
    if (v >= (int64_t)pi->min && v <= (int64_t)pi->max) return 0;
    code = v > (int64_t)pi->max ? MEMEST_E_LIMIT : MEMEST_E_VALUE;
    snprintf(what, sizeof what, "is %lld, outside %lld..%lld (%s)", (long long)v,
             (long long)pi->min, (long long)pi->max, pi->limit);
    snprintf(fix, sizeof fix, "%lld", (long long)(v > (int64_t)pi->max ? pi->max : pi->min));
  } else if (r->kind == K_NUM) {
    double v;
    memcpy(&v, f, sizeof v);
    if (v >= pi->min && v <= pi->max) return 0;
    code = v > pi->max ? MEMEST_E_LIMIT : MEMEST_E_VALUE;
    snprintf(what, sizeof what, "is %g, outside %g..%g (%s)", v, pi->min, pi->max, pi->limit);
    /* The nearest bound; for NaN (no side) the default, where there is one. */
    if (!isnan(v)) fix_num(fix, sizeof fix, pi, v > pi->max ? pi->max : pi->min);
    else if (pi->default_text[0]) plain_num(fix, sizeof fix, num_example(pi));
  } else if (r->kind == K_ENUM && r->names != NULL) {
    int v;
    memcpy(&v, f, sizeof v);
    if (v >= 0 && v < names_count(r->names)) return 0;
    code = MEMEST_E_UNKNOWN;
    snprintf(what, sizeof what, "is %d, not one of %s", v, pi->choices);
  } else if (r->kind == K_TEXT || r->kind == K_ENUM) {
    const char *s = f;
    if (memchr(s, '\0', r->size) == NULL) {
      code = MEMEST_E_VALUE;
      snprintf(what, sizeof what, "is not a NUL-terminated string");
    } else if (r->kind == K_ENUM && enum_index(pi->choices, s) < 0) {
      code = MEMEST_E_UNKNOWN;
      snprintf(what, sizeof what, "names none of %s", pi->choices);
    } else {
      return 0;
    }
  } else {
    return 0;
  }
  memi_err_set(err, code, pi->name, "%s %s; set it with memest_params_set", pi->flag, what);
  memi_err_reason(err, MEMEST_R_RANGE);
  if (fix[0]) memi_err_fix(err, "%s=%s", pi->name, fix);
  return 1;
}

int memi_params_refused(const memest_params *p, memest_error *errs, int max) {
  memest_error scratch;
  int i, n = 0;
  for (i = 0; i < MEMEST_P_COUNT; i++) {
    const param_row *r = &param_table[i];
    /* A unset optional text or number (the other of --gpu/--gpu-memory-gb)
    ** holds no value to check. */
    if ((i == MEMEST_P_GPU || i == MEMEST_P_GPU_MEMORY_GB) && !((p->given >> i) & 1u)) continue;
    if (row_refused(p, r, n < max ? &errs[n] : &scratch)) n++;
  }
  return n;
}

/* Shell-quotes s when it holds anything but [A-Za-z0-9._/+-]: in ANSI-C
** quotes when it holds bytes a terminal must not see raw. */
static void put_shell_word(strbuf *sb, const char *s) {
  const char *c;
  int plain = s[0] != '\0';
  if (memi_sb_shell_bytes(sb, s)) return;
  for (c = s; *c; c++) {
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          strchr("._/+-=:,", *c) != NULL)) {
      plain = 0;
    }
  }
  if (plain) {
    memi_sb_put(sb, s);
    return;
  }
  memi_sb_put(sb, "'");
  for (c = s; *c; c++) {
    if (*c == '\'') memi_sb_put(sb, "'\\''");
    else memi_sb_putn(sb, c, 1);
  }
  memi_sb_put(sb, "'");
}

/* Whether row r holds the same value in p and q. */
static int row_same(const memest_params *p, const memest_params *q, const param_row *r) {
  const void *a = field_in(p, r), *b = field_in(q, r);
  switch (r->kind) {
    case K_INT: return *(const int64_t *)a == *(const int64_t *)b;
    case K_NUM: return *(const double *)a == *(const double *)b;
    case K_BOOL: return *(const int *)a == *(const int *)b;
    case K_ENUM:
      if (r->names != NULL) return *(const int *)a == *(const int *)b;
      return strncmp(a, b, r->size) == 0;
    case K_TEXT: return strncmp(a, b, r->size) == 0;
  }
  return 0;
}

/* Whether row r of p holds its default (never for a required row). */
static int row_is_default(const memest_params *p, const param_row *r) {
  memest_params d;
  if (r->info.required) return 0;
  memset(&d, 0, sizeof d);
  if (r->info.default_text[0]) row_set(&d, r, r->info.default_text, NULL);
  return row_same(p, &d, r);
}

/* Row r's value as memest_params_set reads it, into buf; text as it is
** (the command quotes it). */
static const char *value_text(const memest_params *p, const param_row *r, char *buf, size_t size) {
  const void *f = field_in(p, r);
  if (r->kind == K_INT) {
    int64_t v;
    memcpy(&v, f, sizeof v);
    snprintf(buf, size, "%lld", (long long)v);
  } else if (r->kind == K_NUM) {
    double v;
    memcpy(&v, f, sizeof v);
    snprintf(buf, size, "%.15g", v);
  } else if (r->kind == K_ENUM && r->names != NULL) {
    int v;
    memcpy(&v, f, sizeof v);
    snprintf(buf, size, "%s", name_at(r->names, v) ? name_at(r->names, v) : "?");
  } else if (r->kind == K_BOOL) {
    snprintf(buf, size, "%s", *(const int *)f ? "true" : "false");
  } else {
    snprintf(buf, size, "%.*s", (int)r->size, ((const char *)f)[0] ? (const char *)f : "?");
  }
  return buf;
}

/* Writes row r's flag and value, as memest_params_set would read them. */
static void put_row(strbuf *sb, const memest_params *p, const param_row *r) {
  char v[600];
  memi_sb_printf(sb, " %s ", r->info.flag);
  value_text(p, r, v, sizeof v);
  if (r->kind == K_TEXT || (r->kind == K_ENUM && r->names == NULL)) put_shell_word(sb, v);
  else memi_sb_put(sb, v);
}

/* Without the heap: a suggestion's fix may not fail for want of memory. */
void memi_params_fix(const memest_params *from, const memest_params *to, char *buf, size_t size) {
  char v[600];
  size_t used = 0;
  int i;
  if (size == 0) return;
  buf[0] = '\0';
  for (i = 0; i < MEMEST_P_COUNT && used < size; i++) {
    if (row_same(from, to, &param_table[i])) continue;
    snprintf(buf + used, size - used, "%s%s=%s", used ? "," : "", param_table[i].info.name,
             value_text(to, &param_table[i], v, sizeof v));
    used = strlen(buf);
  }
}

/* Writes the equivalent command: the rows in their command order, the
** required ones always (the GPU by name when one is named), each optional
** one when it differs from its default. */
static void params_command(strbuf *sb, const memest_params *p) {
  int place, i;
  memi_sb_put(sb, "memest");
  for (place = 1; place <= MEMEST_P_COUNT; place++) {
    for (i = 0; i < MEMEST_P_COUNT; i++) {
      const param_row *r = &param_table[i];
      if (r->command != place) continue;
      if (i == MEMEST_P_GPU_MEMORY_GB && p->gpu[0]) continue;
      /* --routing-factor F alone says "factor". */
      if (i == MEMEST_P_ROUTING && p->routing == MEMEST_ROUTING_FACTOR &&
          !row_is_default(p, &param_table[MEMEST_P_ROUTING_FACTOR])) {
        continue;
      }
      if (row_is_default(p, r)) continue;
      put_row(sb, p, r);
    }
  }
}

size_t memest_params_command(const memest_params *p, char *buf, size_t size) {
  strbuf sb;
  size_t n;
  memi_sb_init(&sb);
  params_command(&sb, p);
  n = sb.failed ? 0 : sb.n;
  if (buf != NULL && size > 0) {
    size_t k = n < size - 1 ? n : size - 1;
    if (sb.p != NULL && k > 0) memcpy(buf, sb.p, k);
    buf[k] = '\0';
  }
  memi_sb_free(&sb);
  return n;
}
