/*
** test_accuracy.c — the estimates against real runs: every case of
** tests/data/measured.json and tests/data/further-runs.json, and any case
** of ../shared/ground-truth/measured.json (when present) that the first
** does not hold.
** A max_memory_allocated figure is compared with the tensor peak, a
** device_total figure (per rank) with the grand total; each must be within
** 10%. A documented fit verdict must match ours (TIGHT counts as fitting).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

#define TOLERANCE 0.10

static const char *text_of(const cJSON *c, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void set_from(memest_params *p, const cJSON *c, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, key);
  memest_error err;
  char buf[64];
  if (v == NULL) return;
  if (cJSON_IsNumber(v)) snprintf(buf, sizeof buf, "%.0f", v->valuedouble);
  else if (cJSON_IsString(v)) snprintf(buf, sizeof buf, "%s", v->valuestring);
  else return;
  if (memest_params_set(p, key, buf, &err) != MEMEST_OK) {
    fprintf(stderr, "%s: %s\n", key, err.message);
    check_failures++;
  }
}

static double rel(double ours, double measured) { return (ours - measured) / measured; }

static void check_case(const cJSON *c, int *compared) {
  static const char *const keys[] = {"pp_size", "ep_size", "cp_size", "total_gpus",
                                     "micro_batch_size", "global_batch_size", "sequence_length",
                                     "optimizer", "sharding", "fp8_training", "gpu"};
  const char *id = text_of(c, "id"), *model = text_of(c, "model"), *verdict = text_of(c, "verdict");
  const cJSON *meas = cJSON_GetObjectItemCaseSensitive(c, "measured");
  char path[256], *config;
  size_t len, k;
  memest_params p;
  memest_result *r = NULL;
  memest_error err;
  snprintf(path, sizeof path, CHECK_MODELS "%s", model ? model : "");
  config = check_read_file(path, &len);
  CHECK(config != NULL);
  if (config == NULL) return;
  memest_params_init(&p);
  memest_params_set(&p, "model", model, &err);
  for (k = 0; k < sizeof keys / sizeof keys[0]; k++) set_from(&p, c, keys[k]);
  if (memest_estimate(config, len, &p, &r, &err) != MEMEST_OK) {
    fprintf(stderr, "%s: %s\n", id, err.message);
    check_failures++;
    free(config);
    return;
  }
  if (verdict != NULL) {
    int fits = memest_result_status(r) != MEMEST_FITS_OOM;
    printf("%-36s verdict %-12s ours %s\n", id, verdict, fits ? "fits" : "does-not-fit");
    CHECK(fits == (strcmp(verdict, "fits") == 0));
    (*compared)++;
  }
  if (meas != NULL) {
    const cJSON *alloc = cJSON_GetObjectItemCaseSensitive(meas, "max_memory_allocated_gib");
    const cJSON *by_rank = cJSON_GetObjectItemCaseSensitive(meas, "by_rank");
    if (cJSON_IsNumber(alloc)) {
      double ours = (double)memest_result_tensor_peak_bytes(r) / (1024.0 * 1024.0 * 1024.0);
      double e = rel(ours, alloc->valuedouble);
      printf("%-36s measured %6.2f GiB  ours %6.2f GiB  %+5.1f%%\n", id, alloc->valuedouble, ours,
             100 * e);
      CHECK(fabs(e) <= TOLERANCE);
      (*compared)++;
    }
    if (cJSON_IsObject(by_rank)) {
      char *json = memest_result_json(r);
      cJSON *res = cJSON_Parse(json), *rank;
      const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(res, "ranks");
      cJSON_ArrayForEach(rank, by_rank) {
        int want = atoi(rank->string);
        const cJSON *row;
        cJSON_ArrayForEach(row, ranks) {
          if ((int)cJSON_GetObjectItemCaseSensitive(row, "pp_rank")->valuedouble != want) continue;
          {
            double ours = cJSON_GetObjectItemCaseSensitive(row, "peak_bytes")->valuedouble /
                          (1024.0 * 1024.0 * 1024.0);
            double e = rel(ours, rank->valuedouble);
            printf("%-36s rank %d device %6.2f GiB  ours %6.2f GiB  %+5.1f%%\n", id, want,
                   rank->valuedouble, ours, 100 * e);
            CHECK(fabs(e) <= TOLERANCE);
            (*compared)++;
          }
        }
      }
      cJSON_Delete(res);
      memest_free(json);
    }
  }
  memest_result_free(r);
  free(config);
}

/* Whether root (a cases file) holds a case with this id. */
static int has_case(const cJSON *root, const char *id) {
  const cJSON *c;
  if (root == NULL || id == NULL) return 0;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
    const char *other = text_of(c, "id");
    if (other != NULL && strcmp(other, id) == 0) return 1;
  }
  return 0;
}

static cJSON *load_cases(const char *path) {
  size_t len;
  char *text = check_read_file(path, &len);
  cJSON *root;
  if (text == NULL) return NULL;
  root = cJSON_Parse(text);
  free(text);
  return root;
}

/* Checks every case of path but those known already holds; at least
** min_compared comparisons. */
static void check_file(const char *path, const cJSON *known, int min_compared) {
  cJSON *root = load_cases(path), *c;
  int compared = 0;
  CHECK(root != NULL);
  if (root == NULL) return;
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
    if (!has_case(known, text_of(c, "id"))) check_case(c, &compared);
  }
  if (min_compared > 0) CHECK(compared >= min_compared);
  cJSON_Delete(root);
}

int main(void) {
  cJSON *own = load_cases("tests/data/measured.json");
  FILE *shared = fopen("../shared/ground-truth/measured.json", "rb");
  check_file("tests/data/measured.json", NULL, 6);
  check_file("tests/data/further-runs.json", NULL, 5);
  if (shared != NULL) {
    fclose(shared);
    check_file("../shared/ground-truth/measured.json", own, 0);
  }
  cJSON_Delete(own);
  return check_done("test_accuracy");
}
