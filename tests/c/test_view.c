/*
** test_view.c — memest_estimate_view: the figures of memest_estimate, the
** suggestions only when asked for, and exactly the shown rank's timeline
** that a timeline estimate of that rank alone gives (whole, or the window),
** its components per event or as one array per component, in the result
** or apart from it.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

static cJSON *as_json(memest_result *r) {
  char *text = memest_result_json(r);
  cJSON *j = text ? cJSON_Parse(text) : NULL;
  memest_free(text);
  memest_result_free(r);
  return j;
}

static const cJSON *member(const cJSON *o, const char *k) {
  return cJSON_GetObjectItemCaseSensitive(o, k);
}

static void test_view(int64_t pp_rank, int64_t window) {
  memest_params p;
  memest_view_options o;
  memest_result *r = NULL;
  memest_error err;
  cJSON *plain, *view, *alone;
  const cJSON *rank, *one;
  int shown = 0;
  char *a, *b;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  p.pp_rank = pp_rank;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  plain = as_json(r);
  o.suggestions = 0;
  o.shown_timeline = 1;
  o.timeline_window = window;
  o.every_rank = 0;
  o.timeline_columns = 0;
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  view = as_json(r);
  CHECK_I64(member(view, "peak_bytes")->valuedouble, member(plain, "peak_bytes")->valuedouble);
  CHECK_I64(cJSON_GetArraySize(member(view, "suggestions")), 0);
  CHECK(cJSON_GetArraySize(member(plain, "suggestions")) > 0);
  /* The shown rank alone, with its timeline. */
  p.pp_rank = pp_rank >= 0 ? pp_rank : (int64_t)member(plain, "worst_rank")->valuedouble;
  p.timeline = 1;
  p.timeline_limit = window;
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  alone = as_json(r);
  one = cJSON_GetArrayItem(member(alone, "ranks"), 0);
  cJSON_ArrayForEach(rank, member(view, "ranks")) {
    int is_shown = member(rank, "pp_rank")->valuedouble == p.pp_rank;
    CHECK(is_shown == (member(rank, "events") != NULL));
    if (!is_shown) continue;
    shown++;
    a = cJSON_PrintUnformatted(member(rank, "events"));
    b = cJSON_PrintUnformatted(member(one, "events"));
    CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
    CHECK_I64(cJSON_GetArraySize(member(rank, "events")),
              window ? window : member(one, "events_total")->valuedouble);
    free(a);
    free(b);
  }
  CHECK_I64(shown, 1);
  /* With suggestions: those of memest_estimate. */
  p.pp_rank = pp_rank;
  p.timeline = 0;
  o.suggestions = 1;
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  cJSON_Delete(view);
  view = as_json(r);
  a = cJSON_PrintUnformatted(member(view, "suggestions"));
  b = cJSON_PrintUnformatted(member(plain, "suggestions"));
  CHECK(a != NULL && b != NULL && strcmp(a, b) == 0);
  free(a);
  free(b);
  cJSON_Delete(plain);
  cJSON_Delete(view);
  cJSON_Delete(alone);
}

/* With one rank chosen, every_rank carries each rank's peak as an estimate
** of every rank gives it; without a chosen rank it is left out. */
static void test_every_rank(void) {
  memest_params p;
  memest_view_options o = {0, 1, 0, 1, 0};
  memest_result *r = NULL;
  memest_error err;
  cJSON *all, *view;
  const cJSON *every, *a, *b;
  int n = 0;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_estimate(NULL, 0, &p, &r, &err), MEMEST_OK);
  all = as_json(r);
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  view = as_json(r);
  CHECK(member(view, "every_rank") == NULL);
  cJSON_Delete(view);
  p.pp_rank = 1;
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  view = as_json(r);
  CHECK_I64(cJSON_GetArraySize(member(view, "ranks")), 1);
  every = member(view, "every_rank");
  CHECK(every != NULL);
  CHECK_I64(member(every, "worst_rank")->valuedouble, member(all, "worst_rank")->valuedouble);
  CHECK_I64(member(every, "peak_bytes")->valuedouble, member(all, "peak_bytes")->valuedouble);
  CHECK_I64(cJSON_GetArraySize(member(every, "ranks")), 4);
  cJSON_ArrayForEach(a, member(every, "ranks")) {
    b = cJSON_GetArrayItem(member(all, "ranks"), n++);
    CHECK_I64(member(a, "pp_rank")->valuedouble, member(b, "pp_rank")->valuedouble);
    CHECK_I64(member(a, "peak_bytes")->valuedouble, member(b, "peak_bytes")->valuedouble);
    CHECK(member(a, "events") == NULL);
  }
  /* The headline is the run's whichever rank is shown; the rank's own
  ** figures are "shown_rank" and its "ranks" entry. */
  CHECK_I64(member(view, "peak_bytes")->valuedouble, member(all, "peak_bytes")->valuedouble);
  CHECK_I64(member(view, "headroom_bytes")->valuedouble, member(all, "headroom_bytes")->valuedouble);
  CHECK(strcmp(member(view, "status")->valuestring, member(all, "status")->valuestring) == 0);
  CHECK_I64(member(view, "worst_rank")->valuedouble, member(all, "worst_rank")->valuedouble);
  CHECK_I64(member(member(view, "shown_rank"), "pp_rank")->valuedouble, 1);
  CHECK_I64(member(member(view, "shown_rank"), "peak_bytes")->valuedouble,
            member(cJSON_GetArrayItem(member(all, "ranks"), 1), "peak_bytes")->valuedouble);
  CHECK(cJSON_IsTrue(member(member(view, "shown_rank"), "run_known")));
  cJSON_Delete(view);
  cJSON_Delete(all);
}

/* With timeline_columns the shown rank's events lose their components and
** event_components holds the same bytes, one array per component, and
** event_steps each event's step; every other field of every event is
** unchanged. */
static void test_timeline_columns(void) {
  memest_params p;
  memest_view_options o = {0, 1, 0, 0, 0};
  memest_result *r = NULL;
  memest_error err;
  cJSON *rows, *cols;
  const cJSON *rank_r, *rank_c, *ev, *col, *comp;
  int i = 0, n_comps = 0;
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  rows = as_json(r);
  o.timeline_columns = 1;
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_OK);
  cols = as_json(r);
  rank_r = cJSON_GetArrayItem(member(rows, "ranks"), (int)member(rows, "worst_rank")->valuedouble);
  rank_c = cJSON_GetArrayItem(member(cols, "ranks"), (int)member(cols, "worst_rank")->valuedouble);
  CHECK(member(rank_r, "event_components") == NULL);
  col = member(rank_c, "event_components");
  CHECK(col != NULL);
  CHECK_I64(cJSON_GetArraySize(member(rank_c, "events")), cJSON_GetArraySize(member(rank_r, "events")));
  CHECK(cJSON_GetArraySize(member(rank_r, "events")) > 100);
  cJSON_ArrayForEach(ev, member(rank_r, "events")) {
    const cJSON *other = cJSON_GetArrayItem(member(rank_c, "events"), i);
    cJSON *bare = cJSON_Duplicate(ev, 1);
    char *a, *b;
    CHECK(member(other, "components") == NULL);
    cJSON_DeleteItemFromObjectCaseSensitive(bare, "components");
    a = cJSON_PrintUnformatted(bare);
    b = cJSON_PrintUnformatted(other);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
    cJSON_Delete(bare);
    n_comps = 0;
    cJSON_ArrayForEach(comp, member(ev, "components")) {
      const cJSON *values = member(col, comp->string);
      CHECK(values != NULL);
      CHECK_I64(cJSON_GetArraySize(values), cJSON_GetArraySize(member(rank_r, "events")));
      CHECK_I64(cJSON_GetArrayItem(values, i)->valuedouble, comp->valuedouble);
      n_comps++;
    }
    i++;
  }
  CHECK_I64(cJSON_GetArraySize(col), n_comps);
  CHECK(n_comps >= 17);
  /* And each event's step, in the same order. */
  CHECK(member(rank_r, "event_steps") == NULL);
  CHECK_I64(cJSON_GetArraySize(member(rank_c, "event_steps")), cJSON_GetArraySize(member(rank_c, "events")));
  i = 0;
  cJSON_ArrayForEach(ev, member(rank_c, "events")) {
    CHECK_I64(cJSON_GetArrayItem(member(rank_c, "event_steps"), i)->valuedouble, member(ev, "step")->valuedouble);
    i++;
  }
  cJSON_Delete(rows);
  cJSON_Delete(cols);
}

int main(void) {
  memest_params p;
  memest_view_options o = {0, 1, -1, 0, 0};
  memest_result *r = NULL;
  memest_error err;
  test_view(-1, 0);
  test_view(2, 0);
  test_view(-1, 100);
  test_every_rank();
  test_timeline_columns();
  check_params(&p, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_estimate_view(NULL, 0, &p, &o, &r, &err), MEMEST_E_LIMIT);
  CHECK(r == NULL);
  return check_done("test_view");
}
