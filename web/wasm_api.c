/*
** wasm_api.c — the WebAssembly glue: the functions web/engine.js calls.
** It owns the JSON boundary (parameters in, result/problems/presets out)
** and nothing else; every decision about input is the core's, reached only
** through include/memest.h. Every returned string is malloc'd and freed
** with memest_wasm_free(). Built by scripts/build-wasm.sh; see docs/wasm.md.
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "memest.h"

/*
** Parameters arrive as one JSON object of snake_case names whose values are
** text: engine.js writes a number as JavaScript does (String(n)), so the
** text the user typed or the link held is what memest_params_set() reads,
** as from a CLI flag. Booleans go as "true"/"false"; a list of a plan
** request as the CLI's comma list.
*/

/* Most problems one validate call reports. */
#define WA_MAX_PROBLEMS 64

/* {======================================================================
** Small helpers
** ======================================================================= */

static char *wa_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *z = malloc(n);
  if (z) memcpy(z, s, n);
  return z;
}

/* Fills err with a problem found by the glue itself. */
static void wa_fail(memest_error *err, memest_code code, const char *field,
                    const char *message) {
  memset(err, 0, sizeof *err);
  err->code = code;
  snprintf(err->field, sizeof err->field, "%s", field);
  snprintf(err->message, sizeof err->message, "%s", message);
}

/* Prints a cJSON tree (taking ownership of it); NULL when out of memory. */
static char *wa_print(cJSON *root) {
  char *out = root ? cJSON_PrintUnformatted(root) : NULL;
  cJSON_Delete(root);
  return out;
}

/* The fixed answer when even an error object cannot be allocated. */
static char *wa_nomem(void) {
  return wa_strdup("{\"error\":{\"code\":\"nomem\",\"message\":"
                   "\"the engine ran out of memory\",\"field\":\"\","
                   "\"fix\":\"\",\"reason\":\"none\"}}");
}

/* A string item written by the library's JSON string writer, not by
** cJSON's (which passes bytes that are not UTF-8 through): the answer is
** strict UTF-8 JSON whatever a config or file name held. NULL when out of
** memory. */
static cJSON *wa_string(const char *value) {
  char *text = memest_json_string(value ? value : "");
  cJSON *item = text ? cJSON_CreateRaw(text) : NULL;
  memest_free(text);
  return item;
}

/* Adds a string member; returns 0 when out of memory. */
static int wa_add_str(cJSON *obj, const char *key, const char *value) {
  cJSON *item = wa_string(value);
  if (item == NULL || !cJSON_AddItemToObject(obj, key, item)) {
    cJSON_Delete(item);
    return 0;
  }
  return 1;
}
/* }====================================================================== */

/* {======================================================================
** Problems as JSON: {code, message, field, fix, reason[, line, column]}
** ======================================================================= */

static cJSON *wa_problem(const memest_error *e) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  if (!wa_add_str(o, "code", memest_code_name(e->code)) ||
      !wa_add_str(o, "message", e->message) ||
      !wa_add_str(o, "field", e->field) || !wa_add_str(o, "fix", e->fix) ||
      !wa_add_str(o, "reason", memest_reason_name(e->reason)) ||
      (e->line > 0 &&
       (!cJSON_AddNumberToObject(o, "line", e->line) ||
        !cJSON_AddNumberToObject(o, "column", e->column)))) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

/* {"error": problem} as a malloc'd string. */
static char *wa_error_json(const memest_error *e) {
  cJSON *root = cJSON_CreateObject();
  cJSON *p = wa_problem(e);
  if (!root || !p || !cJSON_AddItemToObject(root, "error", p)) {
    cJSON_Delete(root);
    cJSON_Delete(p);
    return wa_nomem();
  }
  char *out = wa_print(root);
  return out ? out : wa_nomem();
}
/* }====================================================================== */

/* {======================================================================
** Parameters object -> memest_params / memest_plan_request
** ======================================================================= */

/* Sets one input by CLI flag: memest_params_set or memest_plan_request_set. */
typedef memest_code (*wa_setter)(void *target, const char *flag,
                                 const char *value, memest_error *err);

static memest_code wa_set_param(void *target, const char *flag,
                                const char *value, memest_error *err) {
  return memest_params_set(target, flag, value, err);
}

static memest_code wa_set_plan(void *target, const char *flag,
                               const char *value, memest_error *err) {
  return memest_plan_request_set(target, flag, value, err);
}

/* Parses `json` as an object, or fills err. The caller deletes it. */
static cJSON *wa_parse_object(const char *json, const char *what,
                              memest_error *err) {
  char msg[200];
  /* require_null_terminated: text after the object is an error, not ignored */
  cJSON *root = json ? cJSON_ParseWithOpts(json, NULL, 1) : cJSON_CreateObject();
  if (root && cJSON_IsObject(root)) return root;
  cJSON_Delete(root);
  snprintf(msg, sizeof msg,
           "the %s must be one JSON object of name: value pairs, with nothing after it", what);
  wa_fail(err, MEMEST_E_JSON, "", msg);
  return NULL;
}

/* The CLI flag for a member name: "pp_size" -> "--pp-size". The core
** accepts either form, but names the flag in its messages, so passing the
** flag makes the engine's message for an unknown name the CLI's too. */
static char *wa_flag(const char *name) {
  size_t n = strlen(name);
  char *flag = malloc(n + 3);
  if (!flag) return NULL;
  if (strncmp(name, "--", 2) == 0) {
    memcpy(flag, name, n + 1);
    return flag;
  }
  memcpy(flag, "--", 2);
  for (size_t i = 0; i <= n; i++) flag[i + 2] = name[i] == '_' ? '-' : name[i];
  return flag;
}

/* A growable text for comma lists; `failed` once an allocation fails. */
typedef struct wa_text {
  char *p;
  size_t n, cap;
  int failed;
} wa_text;

static void wa_text_put(wa_text *t, const char *s, size_t n) {
  if (t->failed) return;
  if (t->n + n + 1 > t->cap) {
    size_t cap = 2 * (t->n + n + 1);
    char *q = realloc(t->p, cap);
    if (!q) {
      t->failed = 1;
      return;
    }
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  t->p[t->n] = '\0';
}

/* The text of a scalar: a string as it is, or true/false. Sets *bad for
** any other kind: a number arrives as the text engine.js wrote for it. */
static void wa_put_scalar(wa_text *t, const cJSON *item, int *bad) {
  if (cJSON_IsString(item)) {
    wa_text_put(t, item->valuestring, strlen(item->valuestring));
  } else if (cJSON_IsBool(item)) {
    wa_text_put(t, cJSON_IsTrue(item) ? "true" : "false", cJSON_IsTrue(item) ? 4 : 5);
  } else {
    *bad = 1;
  }
}

/* A list's items joined by commas, as a CLI flag takes a list ("1,2,4").
** Sets *bad for nested values. */
static void wa_put_list(wa_text *t, const cJSON *list, int *bad) {
  for (const cJSON *it = list->child; it && !*bad; it = it->next) {
    if (it != list->child) wa_text_put(t, ",", 1);
    wa_put_scalar(t, it, bad);
  }
  if (!list->child) wa_text_put(t, "", 0);
}

/* Sets member `item` through `set` under its flag. Lists become comma
** lists when `lists` is set; otherwise they, like objects, are refused. */
static memest_code wa_set_one(wa_setter set, void *target, const cJSON *item,
                              int lists, memest_error *err) {
  const char *name = item->string ? item->string : "";
  char *flag = wa_flag(name);
  wa_text t = {NULL, 0, 0, 0};
  int bad = 0;
  memest_code rc;
  if (cJSON_IsArray(item) && lists) wa_put_list(&t, item, &bad);
  else wa_put_scalar(&t, item, &bad);
  if (bad) {
    char msg[160];
    snprintf(msg, sizeof msg, "%.60s must be text (a number as its text) or true/false%s, got %s",
             flag ? flag : name, lists ? ", or a list of them" : "",
             cJSON_IsArray(item) ? (lists ? "a nested list or a number" : "a list")
             : cJSON_IsNumber(item) ? "a number" : "an object");
    wa_fail(err, MEMEST_E_VALUE, name, msg);
    rc = MEMEST_E_VALUE;
  } else if (!flag || t.failed || !t.p) {
    wa_fail(err, MEMEST_E_NOMEM, "", "the engine ran out of memory");
    rc = MEMEST_E_NOMEM;
  } else {
    rc = set(target, flag, t.p, err);
  }
  free(flag);
  free(t.p);
  return rc;
}

/* Applies every member of `obj` in order, but `skip`. A null member
** counts as not given. Records up to `max` problems in errs and returns
** how many there were; stops at the first when max is 1. */
static int wa_set_all(wa_setter set, void *target, const cJSON *obj,
                      const char *skip, int lists, memest_error *errs, int max) {
  int n = 0;
  for (const cJSON *it = obj->child; it; it = it->next) {
    memest_error e;
    if (cJSON_IsNull(it) || (skip && it->string && strcmp(it->string, skip) == 0))
      continue;
    memset(&e, 0, sizeof e);
    if (wa_set_one(set, target, it, lists, &e) == MEMEST_OK)
      continue;
    if (n < max) errs[n] = e;
    n++;
    if (max == 1) break;
  }
  return n;
}

/* Fills p from params_json; MEMEST_OK or the first problem in err. */
static memest_code wa_params(memest_params *p, const char *params_json,
                             memest_error *err) {
  cJSON *obj = wa_parse_object(params_json, "parameters", err);
  if (!obj) return err->code;
  memest_params_init(p);
  int n = wa_set_all(wa_set_param, p, obj, NULL, 0, err, 1);
  cJSON_Delete(obj);
  return n ? err->code : MEMEST_OK;
}

/* The plan's mode from the request's "mode" member: "plan" (the default:
** rank layouts, or sweep one input given "vary") or "compare", as the
** CLI's subcommands. */
static memest_code wa_plan_mode(const cJSON *obj, memest_plan_mode *mode,
                                memest_error *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, "mode");
  *mode = MEMEST_PLAN_LAYOUTS;
  if (!m || cJSON_IsNull(m)) return MEMEST_OK;
  if (cJSON_IsString(m) && strcmp(m->valuestring, "plan") == 0) return MEMEST_OK;
  if (cJSON_IsString(m) && strcmp(m->valuestring, "compare") == 0) {
    *mode = MEMEST_PLAN_COMPARE;
    return MEMEST_OK;
  }
  wa_fail(err, cJSON_IsString(m) ? MEMEST_E_UNKNOWN : MEMEST_E_VALUE, "mode",
          "mode must be plan or compare");
  return err->code;
}
/* }====================================================================== */

/* {======================================================================
** Exported functions
** ======================================================================= */

/* The library version, e.g. "0.3.0". Static storage: do not free. */
const char *memest_wasm_version(void) { return memest_version(); }

/* Frees any string returned by memest_wasm_*(). */
void memest_wasm_free(void *ptr) { free(ptr); }

/* Bytes currently allocated on the heap, by the allocator's accounting. */
size_t memest_wasm_heap_bytes(void) {
#ifdef __EMSCRIPTEN__
  struct mallinfo mi = mallinfo();
#else
  struct mallinfo2 mi = mallinfo2();
#endif
  return (size_t)mi.uordblks;
}

/* Estimates `config` (JSON text, or NULL for the preset named by the
** `model` parameter) with `params_json`. Returns the result object
** (memest_result_json) or {"error": {...}}; NULL only when out of memory. */
char *memest_wasm_estimate(const char *config, const char *params_json) {
  memest_params p;
  memest_error err;
  memest_result *r = NULL;
  memset(&err, 0, sizeof err);
  if (wa_params(&p, params_json, &err) != MEMEST_OK) return wa_error_json(&err);
  if (memest_estimate(config, config ? strlen(config) : 0, &p, &r, &err) !=
      MEMEST_OK) {
    memest_result_free(r);
    return wa_error_json(&err);
  }
  char *out = memest_result_json(r);
  memest_result_free(r);
  return out ? out : wa_nomem();
}

/* Most factors one routing-peaks call takes. */
#define WA_MAX_FACTORS 64

/* The grand-total peak of `params_json` at each routing factor of the
** JSON array `factors_json`, for the page's chart of peak against routing
** factor: {"factors": [...], "peak_bytes": [...]} or {"error": {...}}. */
char *memest_wasm_routing_peaks(const char *config, const char *params_json,
                                const char *factors_json) {
  memest_params p;
  memest_error err;
  double f[WA_MAX_FACTORS];
  uint64_t peaks[WA_MAX_FACTORS];
  cJSON *list, *item, *root, *fs, *ps;
  int n = 0, i;
  memset(&err, 0, sizeof err);
  if (wa_params(&p, params_json, &err) != MEMEST_OK) return wa_error_json(&err);
  list = factors_json ? cJSON_Parse(factors_json) : NULL;
  if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > WA_MAX_FACTORS) {
    cJSON_Delete(list);
    wa_fail(&err, MEMEST_E_VALUE, "routing_factor",
            "routing factors: a list of at most 64 numbers");
    return wa_error_json(&err);
  }
  cJSON_ArrayForEach(item, list) {
    if (!cJSON_IsNumber(item)) {
      cJSON_Delete(list);
      wa_fail(&err, MEMEST_E_VALUE, "routing_factor", "routing factors: a list of at most 64 numbers");
      return wa_error_json(&err);
    }
    f[n++] = item->valuedouble;
  }
  cJSON_Delete(list);
  if (memest_routing_peaks(config, config ? strlen(config) : 0, &p, f, n, peaks, &err) !=
      MEMEST_OK) {
    return wa_error_json(&err);
  }
  root = cJSON_CreateObject();
  fs = cJSON_AddArrayToObject(root, "factors");
  ps = cJSON_AddArrayToObject(root, "peak_bytes");
  if (!root || !fs || !ps) {
    cJSON_Delete(root);
    return wa_nomem();
  }
  for (i = 0; i < n; i++) {
    cJSON_AddItemToArray(fs, cJSON_CreateNumber(f[i]));
    cJSON_AddItemToArray(ps, cJSON_CreateNumber((double)peaks[i]));
  }
  char *out = wa_print(root);
  return out ? out : wa_nomem();
}

/* One page view (memest_estimate_view): `view_json` is {"suggestions":
** bool, "timeline_window": N, "every_rank": bool, "timeline_columns":
** bool}; the shown rank's timeline comes in the result. Returns the result
** object or {"error": {...}}. */
char *memest_wasm_view(const char *config, const char *params_json, const char *view_json) {
  memest_params p;
  memest_error err;
  memest_result *r = NULL;
  memest_view_options o = {0, 1, 0, 0, 0};
  cJSON *view, *v;
  char *out;
  memset(&err, 0, sizeof err);
  if (wa_params(&p, params_json, &err) != MEMEST_OK) return wa_error_json(&err);
  view = wa_parse_object(view_json, "view options", &err);
  if (view == NULL) return wa_error_json(&err);
  o.suggestions = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(view, "suggestions"));
  o.every_rank = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(view, "every_rank"));
  o.timeline_columns = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(view, "timeline_columns"));
  v = cJSON_GetObjectItemCaseSensitive(view, "timeline_window");
  if (cJSON_IsNumber(v)) {
    o.timeline_window = v->valuedouble >= 0 && v->valuedouble <= 1e9 ? (int64_t)v->valuedouble : -1;
  }
  cJSON_Delete(view);
  if (memest_estimate_view(config, config ? strlen(config) : 0, &p, &o, &r, &err) != MEMEST_OK) {
    memest_result_free(r);
    return wa_error_json(&err);
  }
  out = memest_result_json(r);
  memest_result_free(r);
  return out ? out : wa_nomem();
}

/* Every problem with the inputs, as a JSON array of problems ([] when
** valid). A parameter that cannot be set is reported once, by the glue's
** memest_params_set call, and not again by memest_validate. */
char *memest_wasm_validate(const char *config, const char *params_json) {
  memest_params p;
  memest_error *errs = calloc(2 * WA_MAX_PROBLEMS, sizeof *errs);
  memest_error *core = errs ? errs + WA_MAX_PROBLEMS : NULL;
  cJSON *arr = cJSON_CreateArray();
  cJSON *obj = NULL;
  int n = 0, m = 0;
  if (!errs || !arr) goto nomem;
  obj = wa_parse_object(params_json, "parameters", errs);
  if (!obj) {
    n = 1;
  } else {
    memest_params_init(&p);
    n = wa_set_all(wa_set_param, &p, obj, NULL, 0, errs,
                   WA_MAX_PROBLEMS);
    m = memest_validate(config, config ? strlen(config) : 0, &p, core,
                        WA_MAX_PROBLEMS);
  }
  if (n > WA_MAX_PROBLEMS) n = WA_MAX_PROBLEMS;
  if (m > WA_MAX_PROBLEMS) m = WA_MAX_PROBLEMS;
  for (int i = 0; i < n + m; i++) {
    const memest_error *e = i < n ? &errs[i] : &core[i - n];
    int dup = 0;
    for (int j = 0; i >= n && j < n && !dup; j++)
      dup = e->field[0] && strcmp(e->field, errs[j].field) == 0;
    if (dup) continue;
    cJSON *item = wa_problem(e);
    if (!item || !cJSON_AddItemToArray(arr, item)) {
      cJSON_Delete(item);
      goto nomem;
    }
  }
  cJSON_Delete(obj);
  free(errs);
  char *out = wa_print(arr);
  return out ? out : wa_nomem();
nomem:
  cJSON_Delete(obj);
  cJSON_Delete(arr);
  free(errs);
  return wa_nomem();
}

/* Builds the plan request of `request_json` (the CLI's plan inputs by
** snake_case name, numeric ones as numbers or lists: "pp_size": [1, 2, 4]
** is --pp-size 1,2,4; plus "mode": "plan" or "compare") and begins the
** plan on `config` (as for memest_wasm_estimate). NULL with err on failure. */
static memest_plan *wa_plan_begin(const char *config, const char *request_json,
                                  memest_error *err) {
  memest_plan_request *req = malloc(sizeof *req);
  memest_plan *plan = NULL;
  memest_plan_mode mode;
  cJSON *obj = NULL;
  memset(err, 0, sizeof *err);
  if (!req) {
    wa_fail(err, MEMEST_E_NOMEM, "", "the engine ran out of memory");
    return NULL;
  }
  obj = wa_parse_object(request_json, "plan request", err);
  if (obj && wa_plan_mode(obj, &mode, err) == MEMEST_OK) {
    memest_plan_request_init(req, mode);
    if (!wa_set_all(wa_set_plan, req, obj, "mode", 1, err, 1))
      memest_plan_begin(config, config ? strlen(config) : 0, req, &plan, err);
  }
  cJSON_Delete(obj);
  free(req);
  return plan;
}

/* Finishes a begun plan: memest_plan_json() or {"error": {...}}; frees it. */
static char *wa_plan_finish(memest_plan *plan) {
  memest_error err;
  char *out = NULL;
  memset(&err, 0, sizeof err);
  if (memest_plan_finish(plan, &err) != MEMEST_OK) {
    memest_plan_free(plan);
    return wa_error_json(&err);
  }
  out = memest_plan_json(plan);
  memest_plan_free(plan);
  return out ? out : wa_nomem();
}

/* Runs a whole plan (see wa_plan_begin for the arguments). Returns
** memest_plan_json() or {"error": {...}}. */
char *memest_wasm_plan(const char *config, const char *request_json) {
  memest_error err;
  memest_plan *plan = wa_plan_begin(config, request_json, &err);
  return plan ? wa_plan_finish(plan) : wa_error_json(&err);
}

/*
** A plan in pieces (memest_plan_begin/_estimate_rows/_finish), so that the
** worker can report progress and stop between them. The plan lives in the
** wasm heap between the calls; JS holds its address as a number.
*/

/* Begins a plan (arguments as memest_wasm_plan). Returns {"plan": address,
** "rows": rows to go through} or {"error": {...}}; the plan is then the
** caller's, for memest_wasm_plan_finish or memest_wasm_plan_free. */
char *memest_wasm_plan_begin(const char *config, const char *request_json) {
  memest_error err;
  memest_plan *plan = wa_plan_begin(config, request_json, &err);
  char text[64];
  if (!plan) return wa_error_json(&err);
  snprintf(text, sizeof text, "{\"plan\":%llu,\"rows\":%d}",
           (unsigned long long)(uintptr_t)plan, memest_plan_row_count(plan));
  char *out = wa_strdup(text);
  if (!out) memest_plan_free(plan);
  return out ? out : wa_nomem();
}

/* Estimates rows [from, to) of a begun plan. NULL when done, else
** {"error": {...}} (the plan stays the caller's). */
char *memest_wasm_plan_estimate(memest_plan *plan, int from, int to) {
  memest_error err;
  memset(&err, 0, sizeof err);
  if (memest_plan_estimate_rows(plan, from, to, &err) == MEMEST_OK) return NULL;
  return wa_error_json(&err);
}

/* Finishes and frees a begun plan: memest_plan_json() or {"error": {...}}. */
char *memest_wasm_plan_finish(memest_plan *plan) { return wa_plan_finish(plan); }

/* Frees a begun plan that will not be finished (a sweep stopped). */
void memest_wasm_plan_free(memest_plan *plan) { memest_plan_free(plan); }

/* {"models": [{name, title}], "gpus": [{name, title, bytes}]}; NULL when
** out of memory. */
char *memest_wasm_presets(void) {
  return memest_presets_json(MEMEST_PRESETS_MODELS | MEMEST_PRESETS_GPUS);
}

/* A new object appended to arr, or NULL when out of memory. */
static cJSON *wa_append_object(cJSON *arr) {
  cJSON *o = cJSON_CreateObject();
  if (o && !cJSON_AddItemToArray(arr, o)) {
    cJSON_Delete(o);
    o = NULL;
  }
  return o;
}

/* A copy of the preset's config.json text, or NULL if `name` is unknown. */
char *memest_wasm_model_config(const char *name) {
  const char *text = name ? memest_model_preset_config(name) : NULL;
  return text ? wa_strdup(text) : NULL;
}

/* Adds the '|'-separated `choices` to obj as the array `key`; 0 when out of memory. */
static int wa_add_choices(cJSON *obj, const char *key, const char *choices) {
  cJSON *arr = cJSON_AddArrayToObject(obj, key);
  if (!arr) return 0;
  while (choices && *choices) {
    size_t n = strcspn(choices, "|");
    char *one = malloc(n + 1);
    cJSON *s = NULL;
    if (one) {
      memcpy(one, choices, n);
      one[n] = '\0';
      s = wa_string(one);
      free(one);
    }
    if (!s || !cJSON_AddItemToArray(arr, s)) return cJSON_Delete(s), 0;
    choices += n + (choices[n] == '|');
  }
  return 1;
}

/* Adds min, max and limit to an "int" or "number" parameter. */
static int wa_add_bounds(cJSON *o, const memest_param_info *d) {
  if (strcmp(d->kind, "int") != 0 && strcmp(d->kind, "number") != 0) return 1;
  return cJSON_AddNumberToObject(o, "min", d->min) && cJSON_AddNumberToObject(o, "max", d->max) &&
         wa_add_str(o, "limit", d->limit);
}

/* Adds the example's value, the choices' titles and, for an input with
** one, its slider {min, max, step, log2} (memest_param_form_describe). */
static int wa_add_form(cJSON *o, const memest_param_form *f) {
  cJSON *s;
  if (!wa_add_str(o, "example", f->example) ||
      !wa_add_choices(o, "choice_titles", f->choice_titles))
    return 0;
  if (f->slider_max <= f->slider_min) return 1;
  s = cJSON_AddObjectToObject(o, "slider");
  return s && cJSON_AddNumberToObject(s, "min", f->slider_min) &&
         cJSON_AddNumberToObject(s, "max", f->slider_max) &&
         cJSON_AddNumberToObject(s, "step", f->slider_step) &&
         cJSON_AddBoolToObject(s, "log2", f->slider_log2 != 0);
}

/* Every parameter's description, as memest_param_describe() and
** memest_param_form_describe() give it: [{name, flag, kind, meaning,
** choose, choices[], default, required, label, short_name[, min, max,
** limit], example, choice_titles[][, slider]}]; NULL when out of memory. */
char *memest_wasm_parameters(void) {
  cJSON *arr = cJSON_CreateArray();
  for (int id = 0; arr && id < MEMEST_P_COUNT; id++) {
    const memest_param_info *d = memest_param_describe((memest_param_id)id);
    cJSON *o = d ? wa_append_object(arr) : NULL;
    if (!d) continue;
    if (!o || !wa_add_str(o, "name", d->name) ||
        !wa_add_str(o, "flag", d->flag) || !wa_add_str(o, "kind", d->kind) ||
        !wa_add_str(o, "meaning", d->meaning) ||
        !wa_add_str(o, "choose", d->choose) || !wa_add_choices(o, "choices", d->choices) ||
        !wa_add_str(o, "default", d->default_text) ||
        !cJSON_AddBoolToObject(o, "required", d->required != 0) ||
        !wa_add_str(o, "label", d->label) || !wa_add_str(o, "short_name", d->short_name) ||
        !wa_add_bounds(o, d) ||
        !wa_add_form(o, memest_param_form_describe((memest_param_id)id))) {
      cJSON_Delete(arr);
      return NULL;
    }
  }
  return wa_print(arr);
}
/* }====================================================================== */

/* {======================================================================
** Names the page shows, written once in the C core
** ======================================================================= */

/* Adds key: [name(0), name(1), ...] up to the first NULL. */
static int wa_add_names(cJSON *root, const char *key, const char *(*name)(int)) {
  cJSON *arr = cJSON_AddArrayToObject(root, key);
  for (int i = 0; arr && name(i) != NULL; i++) {
    cJSON *s = wa_string(name(i));
    if (!s || !cJSON_AddItemToArray(arr, s)) return cJSON_Delete(s), 0;
  }
  return arr != NULL;
}

static const char *wa_optimizer(int i) { return memest_optimizer_name((memest_optimizer)i); }
static const char *wa_sharding(int i) { return memest_sharding_name((memest_sharding)i); }
static const char *wa_fp8(int i) { return memest_fp8_name((memest_fp8)i); }
static const char *wa_routing(int i) { return memest_routing_name((memest_routing)i); }
static const char *wa_status(int i) { return memest_status_name((memest_status)i); }
static const char *wa_reason(int i) {
  return i < MEMEST_R_COUNT ? memest_reason_name((memest_reason)i) : NULL;
}

/* [{key, title, group}] of every memory component, in the result's order. */
static int wa_add_components(cJSON *root) {
  cJSON *arr = cJSON_AddArrayToObject(root, "components");
  for (int i = 0; arr && i < memest_component_count(); i++) {
    cJSON *o = wa_append_object(arr);
    if (!o || !wa_add_str(o, "key", memest_component_key(i)) ||
        !wa_add_str(o, "title", memest_component_title(i)) ||
        !wa_add_str(o, "group", memest_component_group(i)))
      return 0;
  }
  return arr != NULL;
}

/* {key: {noun, max_bytes, limit_name, typical, give}} of every kind of file
** memest reads (core/base/input_files.c), by the page's key for it. */
static int wa_add_input_files(cJSON *root) {
  static const char *const keys[MEMEST_INPUT_COUNT] = {"config", "snapshot", "log", "script",
                                                        "wandb_config", "wandb_json"};
  cJSON *o = cJSON_AddObjectToObject(root, "input_files");
  for (int i = 0; o && i < MEMEST_INPUT_COUNT; i++) {
    const memest_input_file_info *k = memest_input_file_describe((memest_input_file)i);
    cJSON *row = cJSON_AddObjectToObject(o, keys[i]);
    if (!row || !wa_add_str(row, "noun", k->noun) ||
        !cJSON_AddNumberToObject(row, "max_bytes", (double)k->max_bytes) ||
        !wa_add_str(row, "limit_name", k->limit_name) || !wa_add_str(row, "typical", k->typical) ||
        !wa_add_str(row, "give", k->give))
      return 0;
  }
  return o != NULL;
}

/* {optimizer[], sharding[], fp8_training[], routing[], status[], reasons[],
** components[{key, title, group}], tight_percent, input_files}: the enum names in
** enum order, the component labels, the TIGHT threshold and each kind of
** file's limit; NULL when out of memory. */
char *memest_wasm_names(void) {
  cJSON *root = cJSON_CreateObject();
  if (!root || !wa_add_names(root, "optimizer", wa_optimizer) ||
      !wa_add_names(root, "sharding", wa_sharding) ||
      !wa_add_names(root, "fp8_training", wa_fp8) ||
      !wa_add_names(root, "routing", wa_routing) ||
      !wa_add_names(root, "status", wa_status) ||
      !wa_add_names(root, "reasons", wa_reason) || !wa_add_components(root) ||
      !cJSON_AddNumberToObject(root, "tight_percent", memest_tight_percent()) ||
      !wa_add_input_files(root)) {
    cJSON_Delete(root);
    return NULL;
  }
  return wa_print(root);
}
/* }====================================================================== */

/* {======================================================================
** Measured runs: a snapshot's bytes and a log's text (docs/measured-runs.md)
** ======================================================================= */

/* Reads a memory snapshot pickle of `len` bytes at `data`; returns the
** snapshot's JSON (memest_snapshot_json, a curve of at most `points`
** points) or {"error": {...}}. */
char *memest_wasm_snapshot(const unsigned char *data, size_t len, int points) {
  memest_snapshot *s = NULL;
  memest_error err;
  char *out;
  memset(&err, 0, sizeof err);
  if (memest_snapshot_read(data, len, &s, &err) != MEMEST_OK) return wa_error_json(&err);
  out = memest_snapshot_json(s, points);
  memest_snapshot_free(s);
  return out ? out : wa_nomem();
}

/* Reads the trainer's log text of `len` bytes; returns memest_runlog_json
** or {"error": {...}}. */
char *memest_wasm_runlog(const char *text, size_t len) {
  memest_runlog *log = NULL;
  memest_error err;
  char *out;
  memset(&err, 0, sizeof err);
  if (memest_runlog_read(text, len, &log, &err) != MEMEST_OK) return wa_error_json(&err);
  out = memest_runlog_json(log);
  memest_runlog_free(log);
  return out ? out : wa_nomem();
}

/* The global rank in a snapshot's file name, or -1. */
int memest_wasm_rank_of_name(const char *name) {
  return (int)memest_snapshot_rank_of_name(name);
}

/* The pipeline rank of a global rank on the trainer's mesh, or -1. */
int memest_wasm_pp_rank_of(double rank, double pp_size, double total_gpus) {
  return (int)memest_pp_rank_of((int64_t)rank, (int64_t)pp_size, (int64_t)total_gpus);
}

/* Why `config` (NUL-terminated JSON text) is not a config memest reads
** (memest_config_check, as the CLI checks a downloaded one), or "" when it
** is one; NULL when out of memory. */
char *memest_wasm_config_check(const char *config) {
  memest_error err;
  char *out;
  memset(&err, 0, sizeof err);
  if (memest_config_check(config, strlen(config), &err) == MEMEST_OK) err.message[0] = '\0';
  out = malloc(strlen(err.message) + 1);
  if (out) memcpy(out, err.message, strlen(err.message) + 1);
  return out;
}

/* Why `id` is not a hub model id as the hub allows them (the CLI's rule,
** memest_hub_id_check), or "" when it is one; NULL when out of memory. */
char *memest_wasm_hub_id_check(const char *id) {
  char why[200] = "";
  char *out;
  if (memest_hub_id_check(id, why, sizeof why)) why[0] = '\0';
  out = malloc(strlen(why) + 1);
  if (out) memcpy(out, why, strlen(why) + 1);
  return out;
}

/* The hub id `text` names, an id or a model page's address, as the CLI's
** --model reads it (memest_hub_id_read): {"id": ...} or {"problem": why};
** NULL when out of memory. */
char *memest_wasm_hub_id_read(const char *text) {
  char id[MEMEST_HUB_ID_MAX + 1], why[300] = "";
  cJSON *o = cJSON_CreateObject();
  char *out;
  int ok = memest_hub_id_read(text, id, sizeof id, why, sizeof why);
  if (o == NULL || cJSON_AddStringToObject(o, ok ? "id" : "problem", ok ? id : why) == NULL) {
    cJSON_Delete(o);
    return NULL;
  }
  out = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return out;
}
/* }====================================================================== */

/* {======================================================================
** The trainer's own files: a launch script, a log's launch line, a W&B
** run (docs/trainer-files.md). The page holds the files; the core reads
** them and finds a script's imports among them.
** ======================================================================= */

/* The dropped files a script's imports are found among: {name: text}. */
typedef struct wa_files {
  const cJSON *files;
  const char *script;   /* the script's name among them */
} wa_files;

/* Whether path names module rel ("setup.py", "pkg/mod.py"): the whole
** name, or its end after a '/'. */
static int wa_names_module(const char *path, const char *rel) {
  size_t n = strlen(path), m = strlen(rel);
  return n >= m && strcmp(path + n - m, rel) == 0 && (n == m || path[n - m - 1] == '/');
}

/* Finds module `name` among the dropped files: the file in the script's
** own folder first, else any whose name ends in the module's path. */
static int wa_find_module(void *ctx, const char *name, const char **text, size_t *len,
                          const char **label, memest_error *err) {
  const wa_files *f = ctx;
  char rel[300], dir[300];
  const char *slash = strrchr(f->script, '/');
  const cJSON *it, *found = NULL;
  size_t k;
  int forms;
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - f->script) : 0, f->script);
  for (forms = 0; forms < 2 && found == NULL; forms++) {
    snprintf(rel, sizeof rel, forms == 0 ? "%.280s.py" : "%.280s/__init__.py", name + strspn(name, "."));
    for (k = 0; k + 3 < strlen(rel); k++)   /* pkg.mod.py -> pkg/mod.py */
      if (rel[k] == '.' && strcmp(rel + k, ".py") != 0) rel[k] = '/';
    cJSON_ArrayForEach(it, f->files) {
      if (!cJSON_IsString(it) || it->string == NULL || !wa_names_module(it->string, rel)) continue;
      if (found == NULL || (dir[0] && strncmp(it->string, dir, strlen(dir)) == 0)) found = it;
    }
  }
  if (found == NULL) {
    snprintf(err->message, sizeof err->message,
             "no module %.100s among the files given: drop %.100s.py with the script", name,
             name + strspn(name, "."));
    return 0;
  }
  *text = found->valuestring;
  *len = strlen(found->valuestring);
  *label = found->string;
  return 1;
}

/* The text of the one file whose name ends in `suffix`, or NULL. */
static const char *wa_file_named(const cJSON *files, const char *suffix, size_t *len) {
  const cJSON *it;
  cJSON_ArrayForEach(it, files) {
    if (cJSON_IsString(it) && it->string != NULL && wa_names_module(it->string, suffix)) {
      *len = strlen(it->valuestring);
      return it->valuestring;
    }
  }
  *len = 0;
  return NULL;
}

/* Reads the run the request names. */
static memest_code wa_read_run(const cJSON *req, memest_trainer_run **run, memest_error *err) {
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(req, "files");
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(req, "kind");
  const char *k = cJSON_IsString(kind) ? kind->valuestring : "";
  if (!cJSON_IsObject(files)) {
    wa_fail(err, MEMEST_E_VALUE, "files", "the request needs \"files\": {name: text, ...}");
    return err->code;
  }
  if (strcmp(k, "script") == 0) {
    const cJSON *script = cJSON_GetObjectItemCaseSensitive(req, "script");
    const cJSON *text = cJSON_IsString(script) ? cJSON_GetObjectItemCaseSensitive(files, script->valuestring) : NULL;
    wa_files f;
    if (!cJSON_IsString(text)) {
      wa_fail(err, MEMEST_E_VALUE, "script", "\"script\" must name one of the files: the launch script");
      return err->code;
    }
    f.files = files;
    f.script = script->valuestring;
    return memest_script_read(text->valuestring, strlen(text->valuestring), script->valuestring,
                              wa_find_module, &f, run, err);
  }
  if (strcmp(k, "log") == 0) {
    const cJSON *first = files->child;
    if (!cJSON_IsString(first) || first->string == NULL) {
      wa_fail(err, MEMEST_E_VALUE, "log", "\"files\" must hold the log's text");
      return err->code;
    }
    return memest_launch_log_read(first->valuestring, strlen(first->valuestring), first->string, run, err);
  }
  if (strcmp(k, "wandb") == 0) {
    memest_wandb_files w;
    memset(&w, 0, sizeof w);
    w.dir = "files";
    w.config_yaml = wa_file_named(files, "config.yaml", &w.config_len);
    w.metadata_json = wa_file_named(files, "wandb-metadata.json", &w.metadata_len);
    w.summary_json = wa_file_named(files, "wandb-summary.json", &w.summary_len);
    return memest_wandb_read(&w, run, err);
  }
  wa_fail(err, MEMEST_E_UNKNOWN, "kind", "\"kind\" must be script, log or wandb");
  return err->code;
}

/* The preset whose hub id is `id`, or NULL. */
static const char *wa_preset_of_id(const char *id) {
  for (int i = 0; i < memest_model_preset_count(); i++)
    if (strcmp(memest_model_preset_id(i), id) == 0) return memest_model_preset_name(i);
  return NULL;
}

/* The config among the files that training.model `path` names: a .json
** file (not W&B's own) whose name ends the path, or whose name the path
** ends (a dropped folder's), or NULL. */
static const char *wa_config_file(const cJSON *files, const char *path) {
  const cJSON *it;
  cJSON_ArrayForEach(it, files) {
    const char *name = it->string;
    size_t n = name ? strlen(name) : 0;
    if (!cJSON_IsString(it) || n < 6 || strcmp(name + n - 5, ".json") != 0 ||
        wa_names_module(name, "wandb-metadata.json") || wa_names_module(name, "wandb-summary.json"))
      continue;
    if (wa_names_module(path, name) || wa_names_module(name, path)) return name;
  }
  return NULL;
}

/* Resolves training.model as the page can, and says how in the run's
** source: a config dropped with the files, the preset of a path of the
** trainer's own configs or of a preset's hub id. Returns {"file": name},
** {"preset": name}, {"hub_id": id} (for the page to fetch when asked),
** {"missing": path} (a path not among the files), or {} when the run names
** no model; NULL when out of memory. */
static cJSON *wa_resolve_model(memest_trainer_run *run, const cJSON *files) {
  int is_path = 0;
  const char *model = memest_trainer_run_model(run, &is_path), *found = NULL, *key = "missing";
  char why[200], how[300] = "";
  memest_error e;
  cJSON *o = cJSON_CreateObject();
  if (o == NULL || model == NULL) return o;
  if (is_path != 0 && (found = wa_config_file(files, model)) != NULL) {
    key = "file";
    snprintf(how, sizeof how, "dropped with the files");
  } else if (is_path != 0 && (found = memest_trainer_model_preset(model)) != NULL) {
    key = "preset";
    snprintf(how, sizeof how, "not among the files: the trainer's own config of %s, which memest "
             "ships as the preset", found);
  } else if (is_path <= 0 && memest_hub_id_check(model, why, sizeof why)) {
    found = wa_preset_of_id(model);
    key = found ? "preset" : "hub_id";
    if (found) snprintf(how, sizeof how, "the hub id of the preset %s", found);
  }
  if (how[0] && memest_trainer_run_resolve_model(run, found, how, &e) != MEMEST_OK) key = "missing";
  if (!wa_add_str(o, key, how[0] && strcmp(key, "missing") != 0 ? found : model)) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

/* d as decimal text that reads back as d: 15 significant digits, else 17. */
static void wa_double_text(double d, char *buf, size_t size) {
  snprintf(buf, size, "%.15g", d);
  if (strtod(buf, NULL) != d) snprintf(buf, size, "%.17g", d);
}

/* The inputs the run set in p, by snake_case name, as memest_params_set takes them. */
static cJSON *wa_run_params(const memest_params *before, const memest_params *p) {
  cJSON *o = cJSON_CreateObject();
  for (int id = 0; o && id < MEMEST_P_COUNT; id++) {
    const memest_param_info *d = memest_param_describe((memest_param_id)id);
    char text[600];
    const void *f = (const char *)p + d->offset;
    if (!((p->given >> id) & 1u) || ((before->given >> id) & 1u)) continue;
    if (strcmp(d->kind, "int") == 0) snprintf(text, sizeof text, "%lld", (long long)*(const int64_t *)f);
    else if (strcmp(d->kind, "number") == 0) wa_double_text(*(const double *)f, text, sizeof text);
    else if (strcmp(d->kind, "text") == 0 || (strcmp(d->kind, "enum") == 0 && id == MEMEST_P_GPU))
      snprintf(text, sizeof text, "%s", (const char *)f);
    else if (id == MEMEST_P_OPTIMIZER) snprintf(text, sizeof text, "%s", memest_optimizer_name(p->optimizer));
    else if (id == MEMEST_P_SHARDING) snprintf(text, sizeof text, "%s", memest_sharding_name(p->sharding));
    else if (id == MEMEST_P_FP8_TRAINING) snprintf(text, sizeof text, "%s", memest_fp8_name(p->fp8_training));
    else if (id == MEMEST_P_ROUTING) snprintf(text, sizeof text, "%s", memest_routing_name(p->routing));
    else continue;
    if (!wa_add_str(o, d->name, text)) {
      cJSON_Delete(o);
      return NULL;
    }
  }
  return o;
}

/* Reads the trainer's files of `request_json`: {"kind": "script" | "log" |
** "wandb", "files": {name: text}, "script": the launch script's name among
** them (kind script), "folder": a benchmark folder's name such as
** "h100-4n8g" (optional), "trainer_commit": a hash (optional), "params":
** the inputs the page already has (optional; they win, as flags do)}.
** Returns {"source": the run's source object (memest_trainer_run_json),
** "params": {name: value} the run gives, "model": how training.model was
** resolved (wa_resolve_model), "problems": [problem]} (a problem: an input
** the run sets in a way memest cannot read, or refuses), or {"error":
** {...}} when the files cannot be read. */
char *memest_wasm_trainer_read(const char *request_json) {
  memest_error err;
  memest_trainer_run *run = NULL;
  memest_params p, before;
  cJSON *req, *root = NULL, *problems, *params, *item, *model;
  const cJSON *folder, *commit, *given;
  char *source = NULL, *out;
  memset(&err, 0, sizeof err);
  req = wa_parse_object(request_json, "trainer files request", &err);
  if (req == NULL) return wa_error_json(&err);
  memest_params_init(&p);
  given = cJSON_GetObjectItemCaseSensitive(req, "params");
  if (cJSON_IsObject(given) && wa_set_all(wa_set_param, &p, given, NULL, 0, &err, 1)) {
    cJSON_Delete(req);
    return wa_error_json(&err);
  }
  before = p;
  if (wa_read_run(req, &run, &err) != MEMEST_OK) {
    cJSON_Delete(req);
    return wa_error_json(&err);
  }
  folder = cJSON_GetObjectItemCaseSensitive(req, "folder");
  if (cJSON_IsString(folder)) memest_trainer_run_folder(run, folder->valuestring, folder->valuestring);
  commit = cJSON_GetObjectItemCaseSensitive(req, "trainer_commit");
  if (cJSON_IsString(commit) && memest_trainer_run_set_commit(run, commit->valuestring, "the page", &err) != MEMEST_OK) {
    memest_trainer_run_free(run);
    cJSON_Delete(req);
    return wa_error_json(&err);
  }
  root = cJSON_CreateObject();
  model = root ? wa_resolve_model(run, cJSON_GetObjectItemCaseSensitive(req, "files")) : NULL;
  cJSON_Delete(req);
  if (model == NULL || !cJSON_AddItemToObject(root, "model", model)) {
    cJSON_Delete(model);
    goto nomem;
  }
  problems = cJSON_AddArrayToObject(root, "problems");
  if (problems == NULL) goto nomem;
  if (memest_trainer_run_apply(run, &p, &err) != MEMEST_OK) {
    item = wa_problem(&err);
    if (item == NULL || !cJSON_AddItemToArray(problems, item)) {
      cJSON_Delete(item);
      goto nomem;
    }
  }
  params = wa_run_params(&before, &p);
  if (params == NULL || !cJSON_AddItemToObject(root, "params", params)) {
    cJSON_Delete(params);
    goto nomem;
  }
  source = memest_trainer_run_json(run);
  if (source == NULL || !cJSON_AddRawToObject(root, "source", source)) goto nomem;
  memest_free(source);
  memest_trainer_run_free(run);
  out = wa_print(root);
  return out ? out : wa_nomem();
nomem:
  memest_free(source);
  memest_trainer_run_free(run);
  cJSON_Delete(root);
  return wa_nomem();
}
/* }====================================================================== */
