/*
** fuzz_plan.c — libFuzzer target: the planner's sweep (memest_plan_run) on
** requests built from fuzzed name/value pairs. A plan that runs must write
** JSON that parses and text, and its first rows' peaks must equal
** memest_estimate() of memest_plan_row_params(). Seeds: corpus/plan/.
*/
#include <stdint.h>

#include "fuzz_common.h"
#include "fuzz_configs.h"

/* The input:
**   byte 0: bits 0-1 the mode (3 is LAYOUTS), bit 2 starts from a valid
**           request, bit 3 plans a preset instead of a small config of
**           fuzz_configs.h; bits 4-6 pick the preset or the config
**   then records, each a selector byte and a value up to the next '\n':
**     selector < 0xF0: an estimate parameter or a plan input ("dp",
**                      "nodes", "gpus_per_node", "vary", "top") by the
**                      selector, as snake_case, or as a flag if bit 7 is set
**     selector >= 0xF0: "name=value" in the value
** Every pair goes through memest_plan_request_set. */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const plan_names[] = {"dp", "nodes", "gpus_per_node", "vary", "top"};
static const char *const plan_flags[] = {"--dp", "--nodes", "--gpus-per-node", "--vary", "--top"};
#define PLAN_NAMES ((int)(sizeof plan_names / sizeof plan_names[0]))

static void req_set(memest_plan_request *req, const char *name, const char *value) {
  memest_error e;
  memest_code rc = memest_plan_request_set(req, name, value, &e);
  if (rc != MEMEST_OK) fuzz_check_error(rc, &e);
}

static void apply(memest_plan_request *req, int selector, char *value) {
  const char *name;
  if (selector >= 0xF0) {
    if (!fuzz_split_pair(value, &name, &value)) return;
  } else {
    int i = (selector & 0x7F) % (MEMEST_P_COUNT + PLAN_NAMES);
    if (i < MEMEST_P_COUNT) {
      const memest_param_info *pi = memest_param_describe((memest_param_id)i);
      name = (selector & 0x80) ? pi->flag : pi->name;
    } else {
      name = (selector & 0x80) ? plan_flags[i - MEMEST_P_COUNT] : plan_names[i - MEMEST_P_COUNT];
    }
  }
  req_set(req, name, value);
}

/* Row i's peak from the plan's JSON (a double, as JSON numbers are), or
** -1 when the row has none. */
static double json_row_peak(const cJSON *root, int i) {
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
  const cJSON *row = cJSON_GetArrayItem(rows, i);
  const cJSON *peak = cJSON_GetObjectItemCaseSensitive(row, "peak_bytes");
  return cJSON_IsNumber(peak) ? peak->valuedouble : -1.0;
}

/* The plan's promise: a row's peak is what one estimate of it gives. */
static void check_rows(const memest_plan *plan, const cJSON *root, const char *config,
                       size_t len) {
  int n = memest_plan_row_count(plan), i, checked = 0;
  FUZZ_REQUIRE(n >= 0);
  FUZZ_REQUIRE(memest_plan_answer(plan) >= -1 && memest_plan_answer(plan) < n);
  for (i = 0; i < n && checked < 2; i++) {
    memest_params p;
    memest_error e;
    memest_result *r = NULL;
    double want = json_row_peak(root, i);
    FUZZ_REQUIRE(memest_plan_row_params(plan, i, &p, &e) == MEMEST_OK);
    if (want < 0) continue;
    FUZZ_REQUIRE(memest_estimate(config, len, &p, &r, &e) == MEMEST_OK);
    FUZZ_REQUIRE((double)memest_result_peak_bytes(r) == want);
    memest_result_free(r);
    checked++;
  }
  {
    memest_params p;
    memest_error e;
    FUZZ_REQUIRE(memest_plan_row_params(plan, n, &p, &e) == MEMEST_E_VALUE);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  memest_plan_request req;
  memest_plan *plan = NULL;
  memest_error e;
  memest_code rc;
  char value[FUZZ_TEXT_MAX];
  const char *config;
  size_t at = 1, len;
  int head, records = 0;
  if (size == 0) return 0;
  head = data[0];
  memest_plan_request_init(&req, (memest_plan_mode)((head & 3) == 3 ? 0 : head & 3));
  config = fuzz_small_configs[((head >> 4) & 7) % FUZZ_SMALL_CONFIGS];
  len = strlen(config);
  if (head & 0x08) {
    int n = memest_model_preset_count();
    config = NULL;
    len = 0;
    req_set(&req, "model", memest_model_preset_name(((head >> 4) & 7) % n));
  } else {
    req_set(&req, "model", "fuzz");
  }
  if (head & 0x04) {
    req_set(&req, "gpu", "h100");
    req_set(&req, "global_batch_size", "64");
    req_set(&req, "sequence_length", "256");
    req_set(&req, "total_gpus", "8");
  }
  while (at < size && records < 48) {
    int selector = data[at++];
    at += fuzz_take_value(data + at, size - at, value);
    apply(&req, selector, value);
    records++;
  }
  rc = memest_plan_run(config, len, &req, &plan, &e);
  if (rc == MEMEST_OK) {
    char *json = memest_plan_json(plan), *text = memest_plan_text(plan);
    cJSON *root;
    FUZZ_REQUIRE(plan != NULL && json != NULL && text != NULL && text[0] != '\0');
    root = cJSON_Parse(json);
    FUZZ_REQUIRE(root != NULL);
    check_rows(plan, root, config, len);
    cJSON_Delete(root);
    memest_free(json);
    memest_free(text);
    memest_plan_free(plan);
  } else {
    FUZZ_REQUIRE(plan == NULL);
    fuzz_check_error(rc, &e);
  }
  return 0;
}
