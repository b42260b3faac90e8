/*
** plan_request.c — a plan request: inputs by CLI flag or snake_case name,
** numeric ones as comma lists checked item by item exactly as
** memest_params_set checks one value; what each mode needs (every missing
** input named at once); and the option variants (lists of --gpu,
** --optimizer, ...). Design note: docs/planner.md.
*/
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"
#include "time/time.h"

static memest_plan_list *req_list(memest_plan_request *req, int d) {
  return (memest_plan_list *)((char *)req + memi_plan_dim(d)->offset);
}

void memest_plan_request_init(memest_plan_request *req, memest_plan_mode mode) {
  if (req == NULL) return;
  memset(req, 0, sizeof *req);
  req->mode = mode;
  memest_params_init(&req->base);
  req->top = 20;
}

/* {======================================================================
** Values: names, counts and comma lists.
** ======================================================================= */
/* "--pp-size" -> "pp_size"; snake_case names pass through. */
static void snake(const char *name, char *out, size_t size) {
  size_t i;
  if (strncmp(name, "--", 2) == 0) name += 2;
  for (i = 0; name[i] != '\0' && i + 1 < size; i++) out[i] = name[i] == '-' ? '_' : name[i];
  out[i] = '\0';
}

/* Count rule: optional spaces, decimal digits, optional spaces. */
/* --min-routing-margin F: a factor within 1..MEMEST_MAX_ROUTING_FACTOR,
** read by the rule every number of an estimate follows (decimal only). */
static memest_code set_min_margin(memest_plan_request *req, const char *text, memest_error *err) {
  static const memest_param_info margin = {
      "min_routing_margin", "--min-routing-margin", "number", "the routing margin a row keeps",
      "", "", "", 0, 1.0, MEMEST_MAX_ROUTING_FACTOR, "MEMEST_MAX_ROUTING_FACTOR", 0,
      "Minimum routing margin", "min margin"};
  double f;
  memest_code rc = memi_parse_num(&margin, text, &f, err);
  if (rc == MEMEST_OK) req->min_routing_margin = f;
  return rc;
}

static memest_code parse_count(const char *flag, const char *field, const char *text,
                               int64_t lo, int64_t hi, int64_t *out, memest_error *err) {
  const char *s = text;
  int64_t v = 0;
  int digits = 0;
  while (*s == ' ') s++;
  if (*s == '-' && s[1] >= '0' && s[1] <= '9') {   /* a negative whole number: below the range */
    return memi_err_set(err, MEMEST_E_VALUE, field, "%s must be at least %lld, got %.40s", flag,
                   (long long)lo, text);
  }
  for (; *s >= '0' && *s <= '9' && v <= hi; s++, digits++) v = v * 10 + (*s - '0');
  while (*s == ' ') s++;
  if (digits == 0 || (*s != '\0' && v <= hi)) {
    return memi_err_set(err, MEMEST_E_VALUE, field,
                   "%s must be a whole number, got '%.40s'; give e.g. %s %lld", flag, text, flag,
                   (long long)(lo > 1 ? lo : 1));
  }
  if (v > hi) {
    return memi_err_set(err, MEMEST_E_LIMIT, field, "%s %.40s exceeds the supported maximum %lld",
                   flag, text, (long long)hi);
  }
  if (v < lo) {
    return memi_err_set(err, MEMEST_E_VALUE, field, "%s must be at least %lld, got %lld", flag,
                   (long long)lo, (long long)v);
  }
  *out = v;
  return MEMEST_OK;
}

typedef struct items {
  int n;
  char v[MEMEST_PLAN_VALUES][48];
} items;

/* List rule: items separated by single commas; none empty, each under 48
** characters, at most MEMEST_PLAN_VALUES of them. */
static memest_code split(const char *flag, const char *field, const char *value, items *it,
                         memest_error *err) {
  const char *s = value;
  it->n = 0;
  for (;;) {
    const char *comma = strchr(s, ',');
    size_t len = comma != NULL ? (size_t)(comma - s) : strlen(s);
    size_t b = 0, e = len;
    while (b < e && s[b] == ' ') b++;
    while (e > b && s[e - 1] == ' ') e--;
    if (b == e) {
      return memi_err_set(err, MEMEST_E_VALUE, field,
                     "%s has an empty item in '%.60s'; separate values with single commas, "
                     "e.g. %s 1,2,4",
                     flag, value, flag);
    }
    if (it->n == MEMEST_PLAN_VALUES) {
      return memi_err_set(err, MEMEST_E_LIMIT, field,
                     "%s lists more than MEMEST_PLAN_VALUES = %d values; give at most %d", flag,
                     MEMEST_PLAN_VALUES, MEMEST_PLAN_VALUES);
    }
    if (e - b >= sizeof it->v[0]) {
      return memi_err_set(err, MEMEST_E_VALUE, field, "%s has an item longer than %d characters",
                     flag, (int)sizeof it->v[0] - 1);
    }
    memcpy(it->v[it->n], s + b, e - b);
    it->v[it->n++][e - b] = '\0';
    if (comma == NULL) return MEMEST_OK;
    s = comma + 1;
  }
}

static int64_t param_int(const memest_params *p, int id) {
  switch (id) {
    case MEMEST_P_PP_SIZE: return p->pp_size;
    case MEMEST_P_EP_SIZE: return p->ep_size;
    case MEMEST_P_CP_SIZE: return p->cp_size;
    case MEMEST_P_TOTAL_GPUS: return p->total_gpus;
    case MEMEST_P_MICRO_BATCH_SIZE: return p->micro_batch_size;
    case MEMEST_P_GLOBAL_BATCH_SIZE: return p->global_batch_size;
    default: return p->sequence_length;
  }
}

/* One item of list d, checked as a single estimate checks it. */
static memest_code dim_item(int d, const char *item, int64_t *v, memest_error *err) {
  memest_params scratch;
  memest_code rc;
  if (memi_plan_dim(d)->param < 0) {
    return parse_count(memi_plan_dim(d)->flag, memi_plan_dim_name(d), item, 1, MEMEST_MAX_GPUS, v, err);
  }
  memest_params_init(&scratch);
  rc = memest_params_set(&scratch, memi_plan_dim_name(d), item, err);
  if (rc == MEMEST_OK) *v = param_int(&scratch, memi_plan_dim(d)->param);
  return rc;
}

static memest_code set_dim(memest_plan_request *req, int d, const char *value, memest_error *err) {
  items it;
  memest_plan_list l;
  memest_code rc;
  int i, j;
  if ((rc = split(memi_plan_dim(d)->flag, memi_plan_dim_name(d), value, &it, err))) return rc;
  l.n = it.n;
  for (i = 0; i < it.n; i++) {
    if ((rc = dim_item(d, it.v[i], &l.v[i], err))) return rc;
    for (j = 0; j < i; j++) {
      if (l.v[j] == l.v[i]) {
        return memi_err_set(err, MEMEST_E_VALUE, memi_plan_dim_name(d),
                       "%s lists %lld twice; give each value once", memi_plan_dim(d)->flag,
                       (long long)l.v[i]);
      }
    }
  }
  *req_list(req, d) = l;
  return MEMEST_OK;
}

/* --efficiency: one value, commas and all ("gemm=0.6,experts=0.5"), each
** override checked against the efficiency table now, as a single estimate
** checks it, rather than failing every row. */
static memest_code set_efficiency(memest_plan_request *req, const char *name, const char *value,
                                  memest_error *err) {
  double e[EFF_COUNT];
  memest_code rc = memest_params_set(&req->base, name, value, err);
  return rc == MEMEST_OK ? memi_eff_resolve(&req->base, e, err) : rc;
}

/* An estimate option: one value into base, or a comma list kept as text
** once every item passes memest_params_set. */
static memest_code set_option(memest_plan_request *req, int id, const char *name,
                              const char *value, memest_error *err) {
  const memest_param_info *pi = memest_param_describe((memest_param_id)id);
  memest_params scratch;
  items it;
  memest_code rc;
  int i;
  if (id == MEMEST_P_PP_RANK || id == MEMEST_P_DETAIL || id == MEMEST_P_TIMELINE ||
      id == MEMEST_P_TIMELINE_LIMIT) {
    return memi_err_set(err, MEMEST_E_VALUE, pi->name,
                   "%s is for a single estimate: a plan simulates every pipeline rank and keeps "
                   "no timeline; drop %s (run memest with it on the row you pick)",
                   pi->flag, pi->flag);
  }
  req->option_lists[id][0] = '\0';
  if (id == MEMEST_P_EFFICIENCY) return set_efficiency(req, name, value, err);
  if (id == MEMEST_P_MODEL || strchr(value, ',') == NULL) {
    return memest_params_set(&req->base, name, value, err);
  }
  if (strlen(value) >= MEMEST_PLAN_TEXT) {
    return memi_err_set(err, MEMEST_E_LIMIT, pi->name,
                   "the list given to %s is longer than %d characters", pi->flag,
                   MEMEST_PLAN_TEXT - 1);
  }
  if ((rc = split(pi->flag, pi->name, value, &it, err))) return rc;
  for (i = 0; i < it.n; i++) {
    memest_params_init(&scratch);
    if ((rc = memest_params_set(&scratch, name, it.v[i], err))) return rc;
  }
  if ((rc = memest_params_set(&req->base, name, it.v[0], err))) return rc;
  snprintf(req->option_lists[id], MEMEST_PLAN_TEXT, "%s", value);
  return MEMEST_OK;
}

/* --ep-across-nodes avoid|allow (memest_ep_nodes). */
static memest_code set_ep_nodes(memest_plan_request *req, const char *value, memest_error *err) {
  if (strcmp(value, "avoid") == 0) req->ep_across_nodes = MEMEST_EP_NODES_AVOID;
  else if (strcmp(value, "allow") == 0) req->ep_across_nodes = MEMEST_EP_NODES_ALLOW;
  else {
    return memi_err_set(err, MEMEST_E_UNKNOWN, "ep_across_nodes",
                   "--ep-across-nodes '%.40s' is not one of: avoid, allow; avoid (the default) "
                   "ranks a layout whose expert parallelism spans nodes after the others, allow "
                   "ranks it by its figures alone",
                   value);
  }
  req->ep_across_nodes_given = 1;
  return MEMEST_OK;
}

/* --objective throughput|headroom (memest_plan_objective). */
static memest_code set_objective(memest_plan_request *req, const char *value, memest_error *err) {
  if (strcmp(value, "throughput") == 0) req->objective = MEMEST_OBJECTIVE_THROUGHPUT;
  else if (strcmp(value, "headroom") == 0) req->objective = MEMEST_OBJECTIVE_HEADROOM;
  else {
    return memi_err_set(err, MEMEST_E_UNKNOWN, "objective",
                        "--objective '%.40s' is not one of: throughput, headroom; throughput "
                        "(the default) answers with the layout of the most tokens/s, headroom "
                        "with the one of the most free memory",
                        value);
  }
  return MEMEST_OK;
}

static memest_code set_vary(memest_plan_request *req, const char *value, memest_error *err) {
  char s[32];
  int d;
  if (req->mode == MEMEST_PLAN_COMPARE) {
    return memi_err_set(err, MEMEST_E_VALUE, "vary",
                   "--vary belongs to memest plan; memest compare takes comma lists instead");
  }
  snake(value, s, sizeof s);
  if ((d = memi_plan_dim_find(s, 1)) < 0) {
    size_t i;
    for (i = 0; s[i]; i++) s[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
    d = memi_plan_dim_find(s, 1);
    memi_err_set(err, MEMEST_E_UNKNOWN, "vary",
                 "--vary '%.40s' is not one of: pp, ep, cp, dp, gpus, nodes, mbs, gbs, seq%s%s%s",
                 value, d >= 0 ? "; did you mean " : "", d >= 0 ? memi_plan_dim(d)->short_name : "",
                 d >= 0 ? "?" : "");
    if (d >= 0) memi_err_fix(err, "vary=%s", memi_plan_dim(d)->short_name);
    return MEMEST_E_UNKNOWN;
  }
  snprintf(req->vary, sizeof req->vary, "%s", memi_plan_dim_name(d));
  req->mode = MEMEST_PLAN_VARY;
  return MEMEST_OK;
}

memest_code memest_plan_request_set(memest_plan_request *req, const char *name,
                                    const char *value, memest_error *err) {
  char s[64];
  int d, id;
  memi_err_clear(err);
  if (req == NULL || name == NULL || value == NULL) {
    return memi_err_set(err, MEMEST_E_VALUE, "", "a plan request, a name and a value are required");
  }
  snake(name, s, sizeof s);
  if (strcmp(s, "vary") == 0) return set_vary(req, value, err);
  if (strcmp(s, "gpus_per_node") == 0) {
    return parse_count("--gpus-per-node", s, value, 1, MEMEST_MAX_GPUS, &req->gpus_per_node, err);
  }
  if (strcmp(s, "top") == 0) return parse_count("--top", s, value, 0, 1000000, &req->top, err);
  if (strcmp(s, "min_routing_margin") == 0) return set_min_margin(req, value, err);
  if (strcmp(s, "ep_across_nodes") == 0) return set_ep_nodes(req, value, err);
  if (strcmp(s, "objective") == 0) return set_objective(req, value, err);
  if (strcmp(s, "schedules") == 0) {   /* every schedule side by side, or a list of them */
    if (strcmp(value, "all") != 0) return set_option(req, MEMEST_P_SCHEDULE, "schedule", value, err);
    return set_option(req, MEMEST_P_SCHEDULE, "schedule",
                      "dualpipev,1f1b,interleaved-1f1b,zb-h1,dualpipe", err);
  }
  if ((d = memi_plan_dim_find(s, 0)) >= 0) return set_dim(req, d, value, err);
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    if (strcmp(s, memest_param_describe((memest_param_id)id)->name) == 0) {
      return set_option(req, id, s, value, err);
    }
  }
  return memi_err_set(err, MEMEST_E_UNKNOWN, "",
                 "unknown parameter '%.60s'; see memest plan --help for the inputs", name);
}
/* }====================================================================== */

/* {======================================================================
** What each mode needs.
** ======================================================================= */
static int given(const memest_params *p, memest_param_id id) { return (p->given >> id) & 1u; }

static void need(char *buf, size_t size, const char *what) {
  size_t used = strlen(buf);
  snprintf(buf + used, size - used, "%s%s", used ? "; " : "", what);
}

/* Lists every missing input into buf; returns how many. */
static int missing(const memest_plan_request *req, int vary, char *buf, size_t size) {
  const memest_params *b = &req->base;
  int n = 0, d;
  buf[0] = '\0';
#define NEED(cond, what) ((cond) ? (need(buf, size, what), n++) : 0)
  NEED(!given(b, MEMEST_P_MODEL), "--model PRESET|PATH (the model)");
  NEED(!given(b, MEMEST_P_GPU) && !given(b, MEMEST_P_GPU_MEMORY_GB),
       "--gpu NAME or --gpu-memory-gb N (the GPU)");
  NEED(req->gbs.n == 0, "--global-batch-size N (sequences per step)");
  NEED(req->seq.n == 0 && vary != D_SEQ, "--sequence-length N (tokens per sequence)");
  NEED(req->mode == MEMEST_PLAN_LAYOUTS && req->total_gpus.n == 0 && req->nodes.n == 0,
       "--total-gpus N or --nodes N with --gpus-per-node G (the GPUs to lay out)");
  NEED(req->mode != MEMEST_PLAN_LAYOUTS && req->total_gpus.n == 0 && req->nodes.n == 0 &&
           req->dp.n == 0 && vary != D_TOTAL && vary != D_NODES && vary != D_DP,
       "--total-gpus N, --nodes N with --gpus-per-node G, or --dp N (the GPUs)");
  NEED((req->nodes.n > 0 || vary == D_NODES) && req->gpus_per_node == 0,
       "--gpus-per-node G (to count nodes)");
  NEED(req->ep_across_nodes_given && req->nodes.n == 0 && vary != D_NODES &&
           req->gpus_per_node == 0,
       "--gpus-per-node G (--ep-across-nodes is about expert parallelism across nodes)");
  for (d = D_PP; d <= D_MBS && req->mode != MEMEST_PLAN_LAYOUTS; d++) {
    char what[64];
    if (d == D_DP || d == D_TOTAL || d == D_NODES || d == vary) continue;
    if (memi_plan_dim_list(req, d)->n > 0) continue;
    snprintf(what, sizeof what, "%s N", memi_plan_dim(d)->flag);
    NEED(1, what);
  }
#undef NEED
  return n;
}

/* The one list a vary plan may have is the varied input's. */
static memest_code check_vary_lists(const memest_plan_request *req, int vary, memest_error *err) {
  int d, id;
  for (d = 0; d < D_COUNT; d++) {
    if (d != vary && memi_plan_dim_list(req, d)->n > 1) {
      return memi_err_set(err, MEMEST_E_VALUE, memi_plan_dim_name(d),
                     "with --vary %s only %s takes a list; give %s one value (or leave --vary "
                     "out to rank every combination)",
                     memi_plan_dim(vary)->short_name, memi_plan_dim(vary)->flag, memi_plan_dim(d)->flag);
    }
  }
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    if (req->option_lists[id][0]) {
      const memest_param_info *pi = memest_param_describe((memest_param_id)id);
      return memi_err_set(err, MEMEST_E_VALUE, pi->name,
                     "with --vary %s only %s takes a list; give %s one value, or use memest "
                     "compare",
                     memi_plan_dim(vary)->short_name, memi_plan_dim(vary)->flag, pi->flag);
    }
  }
  return MEMEST_OK;
}

static int option_items(const char *text) {
  int n = 1;
  for (; *text; text++) n += *text == ',';
  return n;
}

/* Compare: every list holds one value or the same number as the longest. */
static memest_code compare_columns(const memest_plan_request *req, int *cols, memest_error *err) {
  int d, id, n, want = 1;
  for (d = 0; d < D_COUNT; d++) {
    n = memi_plan_dim_list(req, d)->n;
    want = n > want ? n : want;
  }
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    n = req->option_lists[id][0] ? option_items(req->option_lists[id]) : 1;
    want = n > want ? n : want;
  }
  if (want < 2) {
    return memi_err_set(err, MEMEST_E_VALUE, "",
                   "memest compare needs two or more configurations: give at least one input a "
                   "comma list, e.g. --sequence-length 4096,8192");
  }
  for (d = 0; d < D_COUNT; d++) {
    n = memi_plan_dim_list(req, d)->n;
    if (n > 1 && n != want) {
      return memi_err_set(err, MEMEST_E_VALUE, memi_plan_dim_name(d),
                     "%s has %d values but another input has %d; give each list %d values (one "
                     "per configuration) or a single value",
                     memi_plan_dim(d)->flag, n, want, want);
    }
  }
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    n = req->option_lists[id][0] ? option_items(req->option_lists[id]) : 1;
    if (n > 1 && n != want) {
      const memest_param_info *pi = memest_param_describe((memest_param_id)id);
      return memi_err_set(err, MEMEST_E_VALUE, pi->name,
                     "%s has %d values but another input has %d; give each list %d values (one "
                     "per configuration) or a single value",
                     pi->flag, n, want, want);
    }
  }
  *cols = want;
  return MEMEST_OK;
}

memest_code memi_plan_prepare(memest_plan *pl, const memest_plan_request *req, int *cols,
                         memest_error *err) {
  char list[600];
  int vary = -1;
  pl->mode = req->mode;
  pl->base = req->base;
  pl->gpus_per_node = req->gpus_per_node;
  pl->top = req->top;
  pl->min_margin = req->min_routing_margin;
  pl->ep_nodes = req->ep_across_nodes;
  pl->objective = req->objective;
  pl->answer = -1;
  pl->closest = -1;
  if (req->mode == MEMEST_PLAN_VARY && (vary = memi_plan_dim_find(req->vary, 0)) < 0) {
    return memi_err_set(err, MEMEST_E_VALUE, "vary", "--vary names no input; give e.g. --vary pp");
  }
  pl->vary = vary;
  pl->vary_largest = vary >= 0 && memi_plan_dim(vary)->workload;
  if (missing(req, vary, list, sizeof list) > 0) {
    return memi_err_set(err, MEMEST_E_MISSING, "", "memest %s needs: %s",
                   req->mode == MEMEST_PLAN_COMPARE ? "compare" : "plan", list);
  }
  if (given(&req->base, MEMEST_P_GPU) && given(&req->base, MEMEST_P_GPU_MEMORY_GB)) {
    return memi_err_set(err, MEMEST_E_VALUE, "gpu", "give either --gpu or --gpu-memory-gb, not both");
  }
  if (req->mode == MEMEST_PLAN_VARY) return check_vary_lists(req, vary, err);
  if (req->mode == MEMEST_PLAN_COMPARE) return compare_columns(req, cols, err);
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Option variants.
** ======================================================================= */
/* Sets option id of v to item k of its list. */
static memest_code variant_set(memest_params *v, int id, const char *text, int k,
                               memest_error *err) {
  const memest_param_info *pi = memest_param_describe((memest_param_id)id);
  items it;
  memest_code rc = split(pi->flag, pi->name, text, &it, err);
  if (rc == MEMEST_OK) rc = memest_params_set(v, pi->name, it.v[k % it.n], err);
  return rc;
}

memest_code memi_plan_variants(memest_plan *pl, const memest_plan_request *req, int cols,
                          memest_error *err) {
  int id, k, n = 1, stride;
  memest_code rc = MEMEST_OK;
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    if (!req->option_lists[id][0]) continue;
    pl->varied_options |= 1u << id;
    n = req->mode == MEMEST_PLAN_COMPARE ? cols : n * option_items(req->option_lists[id]);
    if (n > MEMEST_PLAN_VALUES) {
      return memi_err_set(err, MEMEST_E_LIMIT, "",
                     "the option lists make more than MEMEST_PLAN_VALUES = %d variants; shorten "
                     "them",
                     MEMEST_PLAN_VALUES);
    }
  }
  pl->variants = malloc((size_t)n * sizeof *pl->variants);
  if (pl->variants == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for variants");
  pl->n_variants = n;
  for (k = 0; k < n && rc == MEMEST_OK; k++) {
    pl->variants[k] = req->base;
    stride = 1;
    for (id = 0; id < MEMEST_P_COUNT && rc == MEMEST_OK; id++) {
      if (!req->option_lists[id][0]) continue;
      rc = variant_set(&pl->variants[k], id, req->option_lists[id],
                       req->mode == MEMEST_PLAN_COMPARE ? k : k / stride, err);
      stride *= option_items(req->option_lists[id]);
    }
    /* Schedules side by side: --virtual-stages is interleaved 1F1B's alone. */
    if (req->option_lists[MEMEST_P_SCHEDULE][0] && pl->variants[k].schedule != MEMEST_SCHED_INTERLEAVED)
      pl->variants[k].given &= ~(1u << MEMEST_P_VIRTUAL_STAGES);
  }
  return rc;
}
/* }====================================================================== */
