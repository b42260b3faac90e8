/*
** params.c — the estimate's inputs: their table (names, flags, meanings,
** defaults), parsing one value from text with its range checks, and the
** equivalent CLI command line. Cross-parameter checks (divisibility, the
** layout) live in layout.c; this file judges each value on its own.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "presets.h"

static const memest_param_info param_table[MEMEST_P_COUNT] = {
  {"model", "--model", "text",
   "the model: a HuggingFace config.json path or a preset name",
   "a preset from --list-models, or the config.json of the model you train", "", "", 1},
  {"pp_size", "--pp-size", "int",
   "pipeline-parallel degree; DualPipeV runs 2*pp stages, two per GPU",
   "the model must have at least 2*pp layers; more pp lowers parameter and activation memory per GPU",
   "", "", 1},
  {"ep_size", "--ep-size", "int",
   "expert-parallel degree: GPUs that split each MoE layer's experts",
   "a divisor of the expert count, at most 32; usually the GPUs per node (8)", "", "", 1},
  {"cp_size", "--cp-size", "int",
   "context-parallel degree: GPUs that split each sequence",
   "1 if you do not use context parallelism", "", "", 1},
  {"total_gpus", "--total-gpus", "int",
   "total GPUs in the run",
   "nodes x GPUs per node, a multiple of pp*ep*cp; the data-parallel degree is total/(pp*ep*cp)",
   "", "", 1},
  {"micro_batch_size", "--micro-batch-size", "int",
   "sequences per micro-batch on one GPU",
   "usually 1; activation memory grows with it", "", "", 1},
  {"global_batch_size", "--global-batch-size", "int",
   "sequences per optimizer step across all GPUs",
   "a multiple of micro_batch_size*dp*ep that gives at least 2*pp micro-batches", "", "", 1},
  {"sequence_length", "--sequence-length", "int",
   "tokens per training sequence",
   "your context length; a multiple of 2*cp when cp > 1", "", "", 1},
  {"gpu_memory_gb", "--gpu-memory-gb", "number",
   "GPU memory capacity in GiB (N * 2^30 bytes); or name the GPU with --gpu",
   "give --gpu h100|h200|b200|a100-80|a100-40 for the capacity the driver reports, or the GiB your GPU has",
   "", "", 1},
  {"gpu", "--gpu", "enum",
   "GPU model, for the memory capacity its driver reports",
   "the GPU you run on; use --gpu-memory-gb for any other", "h100|h200|b200|a100-80|a100-40", "", 0},
  {"fp8_training", "--fp8-training", "enum",
   "FP8 training through DeepGEMM", "deep-gemm if the run trains in FP8",
   "disabled|deep-gemm", "disabled", 0},
  {"pp_rank", "--pp-rank", "int",
   "pipeline rank to report; -1 simulates every rank and reports the worst",
   "-1 unless you look at one rank", "", "-1", 0},
  {"ep_imbalance", "--ep-imbalance", "number",
   "extra routing skew on top of the measured worst-layer factor (1.18)",
   "1.0; raise it for models with badly balanced routing", "", "1.0", 0},
  {"fragmentation", "--fragmentation", "number",
   "caching-allocator overhead as a fraction of PyTorch tensor bytes",
   "0.10 unless you measured your allocator", "", "0.10", 0},
  {"optimizer", "--optimizer", "enum",
   "optimizer", "the optimizer your run uses", "adamw|muon", "adamw", 0},
  {"sharding", "--sharding", "enum",
   "FSDP shards over all data-parallel ranks; HSDP shards inside a replica",
   "the trainer's sharding_strategy", "fsdp|hsdp", "fsdp", 0},
  {"detail", "--detail", "bool",
   "add per-tensor tables at the peak", "", "", "false", 0},
  {"timeline", "--timeline", "bool",
   "add the event timeline of the schedule", "", "", "false", 0},
  {"timeline_limit", "--timeline-limit", "int",
   "events shown in the timeline, centred on the peak (0 = all)", "", "", "100", 0},
  {"routing", "--routing", "enum",
   "how tokens spread over the expert-parallel ranks: measured (the busiest rank gets 1.18x "
   "the uniform rows), balanced (the trainer's benchmark mode), or factor (--routing-factor)",
   "measured for a real run; balanced for a run with training.benchmark=True",
   "measured|balanced|factor", "measured", 0},
  {"routing_factor", "--routing-factor", "number",
   "the busiest expert-parallel rank's routed rows over the uniform m*k (sets --routing factor)",
   "at least 1 and at most min(ep, experts/top_k); the report's margin says how far a layout "
   "goes", "", "", 0},
};

const memest_param_info *memest_param_describe(memest_param_id id) {
  if ((int)id < 0 || id >= MEMEST_P_COUNT) return NULL;
  return &param_table[id];
}

void memest_params_init(memest_params *p) {
  memset(p, 0, sizeof *p);
  p->fp8_training = MEMEST_FP8_DISABLED;
  p->pp_rank = -1;
  p->ep_imbalance = 1.0;
  p->fragmentation = 0.10;
  p->optimizer = MEMEST_ADAMW;
  p->sharding = MEMEST_FSDP;
  p->timeline_limit = 100;
  p->routing = MEMEST_ROUTING_MEASURED;
  p->routing_factor = 1.0;
}

/* Finds a parameter by snake_case name or CLI flag; -1 if unknown. */
static int param_lookup(const char *name) {
  int i;
  for (i = 0; i < MEMEST_P_COUNT; i++) {
    if (strcmp(name, param_table[i].name) == 0) return i;
    if (strcmp(name, param_table[i].flag) == 0) return i;
  }
  return -1;
}

/* Integer rule: optional '-', then decimal digits, nothing else. */
static memest_code parse_int(const char *field, const char *flag, const char *v,
                             int64_t lo, int64_t hi, const char *hi_name,
                             int64_t *out, memest_error *err) {
  const char *s = v;
  int64_t x = 0;
  int neg = 0, digits = 0, ovf = 0;
  while (*s == ' ') s++;
  if (*s == '-' || *s == '+') neg = (*s++ == '-');
  for (; *s >= '0' && *s <= '9'; s++, digits++) {
    x = ck_add(&ovf, ck_mul(&ovf, x, 10), *s - '0');
  }
  while (*s == ' ') s++;
  if (digits == 0 || *s != '\0') {
    return err_set(err, MEMEST_E_VALUE, field,
                   "%s must be a whole number, got '%.40s'; give e.g. %s %lld",
                   flag, v, flag, (long long)(lo > 1 ? lo : 1));
  }
  if (ovf) {
    return err_set(err, MEMEST_E_LIMIT, field,
                   "%s %.40s is far beyond the supported maximum %s = %lld; give a value up to %lld",
                   flag, v, hi_name, (long long)hi, (long long)hi);
  }
  if (neg) x = -x;
  if (x < lo) {
    if (lo == 1) {
      return err_set(err, MEMEST_E_VALUE, field,
                     "%s must be at least 1, got %lld; give a positive whole number",
                     flag, (long long)x);
    }
    return err_set(err, MEMEST_E_VALUE, field, "%s must be at least %lld, got %lld",
                   flag, (long long)lo, (long long)x);
  }
  if (x > hi) {
    return err_set(err, MEMEST_E_LIMIT, field,
                   "%s %lld exceeds the supported maximum %s = %lld; give a value up to %lld",
                   flag, (long long)x, hi_name, (long long)hi, (long long)hi);
  }
  *out = x;
  return MEMEST_OK;
}

/* Number rule: a finite decimal number as strtod reads it, nothing else. */
static memest_code parse_num(const char *field, const char *flag, const char *v,
                             double lo, double hi, int lo_open, double *out,
                             memest_error *err) {
  char *end = NULL;
  double x;
  errno = 0;
  x = strtod(v, &end);
  while (end != NULL && *end == ' ') end++;
  if (end == v || end == NULL || *end != '\0' || !isfinite(x) || v[0] == '\0') {
    return err_set(err, MEMEST_E_VALUE, field, "%s must be a number, got '%.40s'", flag, v);
  }
  if (x < lo || (lo_open && x <= lo) || x > hi) {
    return err_set(err, x > hi ? MEMEST_E_LIMIT : MEMEST_E_VALUE, field,
                   "%s must be %s %g and at most %g, got %.40s", flag,
                   lo_open ? "above" : "at least", lo, hi, v);
  }
  *out = x;
  return MEMEST_OK;
}

static memest_code parse_bool(const char *field, const char *flag, const char *v, int *out,
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
  return err_set(err, MEMEST_E_VALUE, field, "%s takes true or false, got '%.40s'", flag, v);
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

static memest_code parse_enum(const memest_param_info *pi, const char *v, int *out,
                              memest_error *err) {
  int i = enum_index(pi->choices, v);
  if (i < 0) {
    char list[160];
    size_t k, j = 0;
    for (k = 0; pi->choices[k] && j + 3 < sizeof list; k++) {
      if (pi->choices[k] == '|') {
        list[j++] = ',';
        list[j++] = ' ';
      } else {
        list[j++] = pi->choices[k];
      }
    }
    list[j] = '\0';
    return err_set(err, MEMEST_E_UNKNOWN, pi->name, "%s '%.40s' is not one of: %s", pi->flag, v,
                   list);
  }
  *out = i;
  return MEMEST_OK;
}

static memest_code set_text(const memest_param_info *pi, const char *v, char *dst, size_t size,
                            memest_error *err) {
  const unsigned char *u;
  if (v[0] == '\0') {
    return err_set(err, MEMEST_E_VALUE, pi->name, "%s needs a value, got an empty one", pi->flag);
  }
  if (strlen(v) >= size) {
    return err_set(err, MEMEST_E_LIMIT, pi->name, "%s is longer than %d characters",
                   pi->flag, (int)size - 1);
  }
  for (u = (const unsigned char *)v; *u; u++) {
    if (*u < 0x20 || *u == 0x7f) {
      return err_set(err, MEMEST_E_VALUE, pi->name, "%s contains a control character", pi->flag);
    }
  }
  memcpy(dst, v, strlen(v) + 1);
  return MEMEST_OK;
}

memest_code memest_params_set(memest_params *p, const char *name, const char *value,
                              memest_error *err) {
  int id, e = 0;
  const memest_param_info *pi;
  memest_code rc = MEMEST_OK;
  if (name == NULL || value == NULL) {
    return err_set(err, MEMEST_E_VALUE, "", "a parameter name and value are required");
  }
  id = param_lookup(name);
  if (id < 0) {
    return err_set(err, MEMEST_E_UNKNOWN, "",
                   "unknown parameter '%.60s'; run memest --help for the list", name);
  }
  pi = &param_table[id];
  switch ((memest_param_id)id) {
    case MEMEST_P_MODEL: rc = set_text(pi, value, p->model, sizeof p->model, err); break;
    case MEMEST_P_PP_SIZE:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_PP, "MEMEST_MAX_PP", &p->pp_size, err);
      break;
    case MEMEST_P_EP_SIZE:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_GPUS, "MEMEST_MAX_GPUS", &p->ep_size, err);
      break;
    case MEMEST_P_CP_SIZE:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_CP, "MEMEST_MAX_CP", &p->cp_size, err);
      break;
    case MEMEST_P_TOTAL_GPUS:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_GPUS, "MEMEST_MAX_GPUS",
                     &p->total_gpus, err);
      break;
    case MEMEST_P_MICRO_BATCH_SIZE:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_MICRO_BATCH, "MEMEST_MAX_MICRO_BATCH",
                     &p->micro_batch_size, err);
      break;
    case MEMEST_P_GLOBAL_BATCH_SIZE:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_GLOBAL_BATCH,
                     "MEMEST_MAX_GLOBAL_BATCH", &p->global_batch_size, err);
      break;
    case MEMEST_P_SEQUENCE_LENGTH:
      rc = parse_int(pi->name, pi->flag, value, 1, MEMEST_MAX_SEQUENCE, "MEMEST_MAX_SEQUENCE",
                     &p->sequence_length, err);
      break;
    case MEMEST_P_GPU_MEMORY_GB:
      rc = parse_num(pi->name, pi->flag, value, MEMEST_MIN_GPU_GIB, MEMEST_MAX_GPU_GIB, 0,
                     &p->gpu_memory_gb, err);
      break;
    case MEMEST_P_GPU:
      rc = parse_enum(pi, value, &e, err);
      if (rc == MEMEST_OK) snprintf(p->gpu, sizeof p->gpu, "%s", value);
      break;
    case MEMEST_P_FP8_TRAINING:
      rc = parse_enum(pi, value, &e, err);
      p->fp8_training = (memest_fp8)e;
      break;
    case MEMEST_P_PP_RANK:
      rc = parse_int(pi->name, pi->flag, value, -1, MEMEST_MAX_PP - 1, "MEMEST_MAX_PP - 1",
                     &p->pp_rank, err);
      break;
    case MEMEST_P_EP_IMBALANCE:
      rc = parse_num(pi->name, pi->flag, value, 1.0, MEMEST_MAX_EP_IMBALANCE, 0, &p->ep_imbalance,
                     err);
      break;
    case MEMEST_P_FRAGMENTATION:
      rc = parse_num(pi->name, pi->flag, value, 0.0, MEMEST_MAX_FRAGMENTATION, 0, &p->fragmentation,
                     err);
      break;
    case MEMEST_P_OPTIMIZER:
      rc = parse_enum(pi, value, &e, err);
      p->optimizer = (memest_optimizer)e;
      break;
    case MEMEST_P_SHARDING:
      rc = parse_enum(pi, value, &e, err);
      p->sharding = (memest_sharding)e;
      break;
    case MEMEST_P_DETAIL: rc = parse_bool(pi->name, pi->flag, value, &p->detail, err); break;
    case MEMEST_P_TIMELINE: rc = parse_bool(pi->name, pi->flag, value, &p->timeline, err); break;
    case MEMEST_P_TIMELINE_LIMIT:
      rc = parse_int(pi->name, pi->flag, value, 0, MEMEST_MAX_TIMELINE_EVENTS,
                     "MEMEST_MAX_TIMELINE_EVENTS", &p->timeline_limit, err);
      break;
    case MEMEST_P_ROUTING:
      rc = parse_enum(pi, value, &e, err);
      p->routing = (memest_routing)e;
      break;
    case MEMEST_P_ROUTING_FACTOR:
      rc = parse_num(pi->name, pi->flag, value, 1.0, MEMEST_MAX_ROUTING_FACTOR, 0,
                     &p->routing_factor, err);
      /* A factor makes the mode `factor` unless --routing named another. */
      if (rc == MEMEST_OK && !((p->given >> MEMEST_P_ROUTING) & 1u)) {
        p->routing = MEMEST_ROUTING_FACTOR;
      }
      break;
    case MEMEST_P_COUNT: break;
  }
  if (rc == MEMEST_OK) p->given |= 1u << id;
  return rc;
}

/* Shell-quotes s when it holds anything but [A-Za-z0-9._/+-]. */
static void put_shell_word(strbuf *sb, const char *s) {
  const char *c;
  int plain = s[0] != '\0';
  for (c = s; *c; c++) {
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
          strchr("._/+-=:,", *c) != NULL)) {
      plain = 0;
    }
  }
  if (plain) {
    sb_put(sb, s);
    return;
  }
  sb_put(sb, "'");
  for (c = s; *c; c++) {
    if (*c == '\'') sb_put(sb, "'\\''");
    else sb_putn(sb, c, 1);
  }
  sb_put(sb, "'");
}

static void put_flag_int(strbuf *sb, memest_param_id id, int64_t v) {
  sb_printf(sb, " %s %lld", param_table[id].flag, (long long)v);
}

/* Writes the equivalent command, required inputs first, then each optional
** one that differs from its default. */
static void params_command(strbuf *sb, const memest_params *p) {
  char num[64];
  sb_put(sb, "memest --model ");
  put_shell_word(sb, p->model[0] ? p->model : "?");
  put_flag_int(sb, MEMEST_P_PP_SIZE, p->pp_size);
  put_flag_int(sb, MEMEST_P_EP_SIZE, p->ep_size);
  put_flag_int(sb, MEMEST_P_CP_SIZE, p->cp_size);
  put_flag_int(sb, MEMEST_P_TOTAL_GPUS, p->total_gpus);
  put_flag_int(sb, MEMEST_P_MICRO_BATCH_SIZE, p->micro_batch_size);
  put_flag_int(sb, MEMEST_P_GLOBAL_BATCH_SIZE, p->global_batch_size);
  put_flag_int(sb, MEMEST_P_SEQUENCE_LENGTH, p->sequence_length);
  if (p->gpu[0]) {
    sb_printf(sb, " --gpu %s", p->gpu);
  } else {
    snprintf(num, sizeof num, "%.15g", p->gpu_memory_gb);
    sb_printf(sb, " --gpu-memory-gb %s", num);
  }
  if (p->fp8_training != MEMEST_FP8_DISABLED) sb_put(sb, " --fp8-training deep-gemm");
  if (p->optimizer != MEMEST_ADAMW) sb_put(sb, " --optimizer muon");
  if (p->sharding != MEMEST_FSDP) sb_put(sb, " --sharding hsdp");
  if (p->pp_rank != -1) put_flag_int(sb, MEMEST_P_PP_RANK, p->pp_rank);
  if (p->ep_imbalance != 1.0) sb_printf(sb, " --ep-imbalance %.15g", p->ep_imbalance);
  if (p->fragmentation != 0.10) sb_printf(sb, " --fragmentation %.15g", p->fragmentation);
  if (p->routing == MEMEST_ROUTING_BALANCED) sb_put(sb, " --routing balanced");
  if (p->routing == MEMEST_ROUTING_FACTOR) sb_printf(sb, " --routing-factor %.15g", p->routing_factor);
}

size_t memest_params_command(const memest_params *p, char *buf, size_t size) {
  strbuf sb;
  size_t n;
  sb_init(&sb);
  params_command(&sb, p);
  n = sb.n;
  if (buf != NULL && size > 0) {
    size_t k = n < size - 1 ? n : size - 1;
    if (sb.p != NULL) memcpy(buf, sb.p, k);
    buf[k] = '\0';
  }
  sb_free(&sb);
  return n;
}
