/*
** plan_report.c — a plan as JSON ({rows, answer, invalid, ...}; the same
** text for `memest plan --json` and the WebAssembly engine) and as the
** CLI's text report: the ranked layouts, the tried values of a vary plan,
** or the configurations of a compare side by side with their deltas.
** Reads a finished memest_plan only. Design note: docs/planner.md.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_source.h"
#include "plan/plan.h"
#include "sim/schedule.h"
#include "model/presets.h"

static const char *const mode_names[] = {"layouts", "vary", "compare"};

static const char *row_status(const plan_row *r) {
  return r->reason >= 0 ? "INVALID" : memi_status_name(r->status);
}

/* Whether the answer prefers layouts that keep EP inside a node. */
static int ep_inside_first(const memest_plan *pl) {
  return pl->gpus_per_node > 0 && pl->ep_nodes == MEMEST_EP_NODES_AVOID;
}

static const char *const objective_names[] = {"throughput", "headroom"};

static const char *answer_rule(const memest_plan *pl, char *buf, size_t size) {
  if (pl->mode == MEMEST_PLAN_VARY) {
    snprintf(buf, size, "the %s OK %s", pl->vary_largest ? "largest" : "smallest",
             memi_plan_dim_name(pl->vary));
  } else if (pl->by_throughput) {
    snprintf(buf, size, "the most tokens/s, then the most headroom");
  } else {
    snprintf(buf, size, "the most headroom%s", pl->fallback ? ", tokens/s unknown" : "");
  }
  if (ep_inside_first(pl)) snprintf(buf + strlen(buf), size - strlen(buf), ", ep inside a node first");
  return buf;
}

/* {======================================================================
** The time model's figures of a row
** ======================================================================= */
/* The figures a row shows of the time model (plan_row's). */
enum { T_STEP = 0, T_TOKENS, T_TOKENS_PER_GPU, T_MFU, T_COUNT };

static const char *const time_keys[T_COUNT] = {"step_seconds", "tokens_per_second",
                                               "tokens_per_second_per_gpu", "mfu"};

static double time_figure(const plan_row *r, int t) {
  switch (t) {
    case T_STEP: return r->step_seconds;
    case T_TOKENS: return r->tokens_per_second;
    case T_TOKENS_PER_GPU: return r->tokens_per_second_per_gpu;
    default: return r->mfu;
  }
}

/* A figure as the text shows it: tokens/s as "812", "294.1k", "2.94M"; per
** GPU whole; MFU in percent; "-" without a time. */
static const char *time_text(const plan_row *r, int t, char *buf, size_t size) {
  double v = time_figure(r, t);
  if (r->reason >= 0 || !r->time_known) snprintf(buf, size, "-");
  else if (t == T_STEP) snprintf(buf, size, "%.3g s", v);
  else if (t == T_MFU) snprintf(buf, size, "%.1f%%", 100.0 * v);
  else if (t == T_TOKENS_PER_GPU || v < 1e4) snprintf(buf, size, "%.0f", v);
  else if (v < 1e6) snprintf(buf, size, "%.1fk", v / 1e3);
  else snprintf(buf, size, "%.2fM", v / 1e6);
  return buf;
}

/* Why a throughput plan answers by headroom, or "". */
static const char *fallback_text(const memest_plan *pl) {
  if (!pl->fallback) return "";
  return pl->time_note[0] ? pl->time_note : "a row has no time";
}
/* }====================================================================== */

/* {======================================================================
** JSON
** ======================================================================= */
static void put_time(strbuf *sb, const plan_row *r) {
  int t;
  for (t = 0; t < T_COUNT; t++) {
    if (r->reason >= 0 || !r->time_known) memi_sb_printf(sb, ",\"%s\":null", time_keys[t]);
    else memi_sb_printf(sb, ",\"%s\":%.6g", time_keys[t], time_figure(r, t));
  }
}

static void put_option(strbuf *sb, int id, const memest_params *p, int64_t capacity) {
  switch (id) {
    case MEMEST_P_GPU:
      memi_sb_put(sb, ",\"gpu\":");
      memi_sb_json_str(sb, p->gpu);
      break;
    case MEMEST_P_GPU_MEMORY_GB:
      memi_sb_printf(sb, ",\"gpu_memory_gb\":%.15g", (double)capacity / GIB);
      break;
    case MEMEST_P_FP8_TRAINING:
      memi_sb_printf(sb, ",\"fp8_training\":\"%s\"",
                memest_fp8_name(p->fp8_training));
      break;
    case MEMEST_P_EP_IMBALANCE: memi_sb_printf(sb, ",\"ep_imbalance\":%.15g", p->ep_imbalance); break;
    case MEMEST_P_FRAGMENTATION: memi_sb_printf(sb, ",\"fragmentation\":%.15g", p->fragmentation); break;
    case MEMEST_P_ROUTING:
      memi_sb_printf(sb, ",\"routing\":\"%s\"",
                p->routing == MEMEST_ROUTING_BALANCED ? "balanced"
                : p->routing == MEMEST_ROUTING_FACTOR ? "factor" : "measured");
      break;
    case MEMEST_P_ROUTING_FACTOR:
      memi_sb_printf(sb, ",\"routing_factor\":%.15g", p->routing_factor);
      break;
    case MEMEST_P_OPTIMIZER:
      memi_sb_printf(sb, ",\"optimizer\":\"%s\"", memest_optimizer_name(p->optimizer));
      break;
    case MEMEST_P_SHARDING:
      memi_sb_printf(sb, ",\"sharding\":\"%s\"", memest_sharding_name(p->sharding));
      break;
    case MEMEST_P_NVLINK_GB_PER_S:
      memi_sb_printf(sb, ",\"nvlink_gb_per_s\":%.15g", p->nvlink_gb_per_s);
      break;
    case MEMEST_P_NETWORK_GBIT_PER_S:
      memi_sb_printf(sb, ",\"network_gbit_per_s\":%.15g", p->network_gbit_per_s);
      break;
    case MEMEST_P_EFFICIENCY:
      memi_sb_put(sb, ",\"efficiency\":");
      memi_sb_json_str(sb, p->efficiency);
      break;
    case MEMEST_P_SCHEDULE:
      memi_sb_printf(sb, ",\"schedule\":\"%s\"", memest_schedule_name(p->schedule));
      break;
    case MEMEST_P_VIRTUAL_STAGES:
      if (p->schedule == MEMEST_SCHED_INTERLEAVED)
        memi_sb_printf(sb, ",\"virtual_stages\":%lld", (long long)p->virtual_stages);
      break;
    default: break;
  }
}

static void put_comps(strbuf *sb, const comp_vec *v, const comp_vec *minus, int from, int to) {
  int c;
  memi_sb_put(sb, "{");
  for (c = from; c < to; c++) {
    memi_sb_printf(sb, "%s\"%s\":%lld", c > from ? "," : "", memi_comp_key((comp)c),
              (long long)(v->b[c] - (minus != NULL ? minus->b[c] : 0)));
  }
  memi_sb_put(sb, "}");
}

static void put_breakdown(strbuf *sb, const plan_row *r, const plan_row *first) {
  memi_sb_put(sb, ",\"static\":");
  put_comps(sb, &r->comps, NULL, 0, C_FIRST_DYNAMIC);
  memi_sb_put(sb, ",\"dynamic\":");
  put_comps(sb, &r->comps, NULL, C_FIRST_DYNAMIC, C_COUNT);
  memi_sb_printf(sb, ",\"non_pytorch_bytes\":%lld,\"fragmentation_bytes\":%lld", (long long)r->nonpt,
            (long long)r->frag);
  if (first == NULL || first == r) return;
  memi_sb_printf(sb,
            ",\"delta\":{\"peak_bytes\":%lld,\"tensor_peak_bytes\":%lld,"
            "\"headroom_bytes\":%lld,\"static\":",
            (long long)(r->peak - first->peak), (long long)(r->tensor_peak - first->tensor_peak),
            (long long)(r->headroom - first->headroom));
  put_comps(sb, &r->comps, &first->comps, 0, C_FIRST_DYNAMIC);
  memi_sb_put(sb, ",\"dynamic\":");
  put_comps(sb, &r->comps, &first->comps, C_FIRST_DYNAMIC, C_COUNT);
  memi_sb_printf(sb, ",\"non_pytorch_bytes\":%lld,\"fragmentation_bytes\":%lld}",
            (long long)(r->nonpt - first->nonpt), (long long)(r->frag - first->frag));
}

/* The GPU is one input given two ways: when either varies, both go per row. */
static uint32_t row_options(const memest_plan *pl) {
  uint32_t gpu = (1u << MEMEST_P_GPU) | (1u << MEMEST_P_GPU_MEMORY_GB);
  return pl->varied_options & gpu ? pl->varied_options | gpu : pl->varied_options;
}

static void put_row(strbuf *sb, const memest_plan *pl, const plan_row *r) {
  uint32_t opts = row_options(pl);
  int d, id;
  memi_sb_put(sb, "{");
  for (d = 0; d < D_COUNT; d++) {
    if (d == D_NODES && pl->gpus_per_node == 0) continue;
    memi_sb_printf(sb, "%s\"%s\":%lld", d ? "," : "", memi_plan_dim_name(d), (long long)r->in[d]);
  }
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    if ((opts >> id) & 1u) {
      put_option(sb, id, &pl->variants[r->variant], memi_layout_capacity(&pl->variants[r->variant]));
    }
  }
  if (pl->gpus_per_node > 0) {
    memi_sb_printf(sb, ",\"ep_across_nodes\":%s", r->ep_across ? "true" : "false");
  }
  memi_sb_printf(sb, ",\"status\":\"%s\"", row_status(r));
  if (r->reason >= 0) {
    memi_sb_put(sb, ",\"reason\":");
    memi_sb_json_str(sb, pl->reasons[r->reason].key);
    memi_sb_put(sb, ",\"message\":");
    memi_sb_json_str(sb, r->note >= 0 ? pl->notes[r->note] : "");
    memi_sb_put(sb, ",\"num_chunks\":null,\"peak_bytes\":null,\"tensor_peak_bytes\":null,"
               "\"headroom_bytes\":null,\"bubble_fraction\":null");
    put_time(sb, r);
    memi_sb_put(sb, ",\"routing_margin\":null}");
    return;
  }
  memi_sb_printf(sb,
            ",\"num_chunks\":%lld,\"peak_bytes\":%lld,\"tensor_peak_bytes\":%lld,"
            "\"headroom_bytes\":%lld,\"gpu_capacity_bytes\":%lld,\"bubble_fraction\":%.6f,"
            "\"worst_rank\":%d",
            (long long)r->chunks, (long long)r->peak, (long long)r->tensor_peak,
            (long long)r->headroom, (long long)r->capacity, r->bubble, r->worst_rank);
  put_time(sb, r);
  if (r->routing.has_margin) {
    memi_sb_printf(sb, ",\"routing_margin\":%.6g,\"routing_margin_is_limit\":%s", r->routing.margin,
              r->routing.margin_is_limit ? "true" : "false");
  } else {
    memi_sb_put(sb, ",\"routing_margin\":null,\"routing_margin_is_limit\":false");
  }
  if (pl->mode == MEMEST_PLAN_COMPARE) put_breakdown(sb, r, &pl->rows[0]);
  memi_sb_put(sb, "}");
}

/* A compare of schedules (--schedule as a list, --schedules all): each
** configuration's schedule in DualPipe's units beside its peak and time. The
** bubble is the replayed step's (the time model's) where the GPU has one,
** else the schedule's formula. */
static void put_schedules(strbuf *sb, const memest_plan *pl) {
  int i;
  if (pl->mode != MEMEST_PLAN_COMPARE || !((pl->varied_options >> MEMEST_P_SCHEDULE) & 1u)) return;
  memi_sb_put(sb, ",\"schedules\":[");
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    const memest_params *v = &pl->variants[r->variant];
    memi_sb_printf(sb, "%s{\"schedule\":\"%s\"", i ? "," : "", memest_schedule_name(v->schedule));
    if (r->reason >= 0 || r->fail != MEMEST_OK) {
      memi_sb_put(sb, ",\"status\":\"invalid\",\"message\":");
      memi_sb_json_str(sb, r->reason >= 0 && r->note >= 0 ? pl->notes[r->note]
                           : r->fail_err != NULL ? r->fail_err->message : "");
      memi_sb_put(sb, "}");
      continue;
    }
    memi_sb_printf(sb,
                   ",\"pp_stages\":%lld,\"devices\":%lld,\"activation_microbatches_per_device\":%.6g,"
                   "\"parameter_copies\":%.6g,\"bubble_fraction\":%.6f,\"bubble_from\":\"%s\","
                   "\"peak_bytes\":%lld,\"worst_rank\":%d,\"status\":\"%s\"",
                   (long long)r->pp_stages, (long long)r->in[D_PP], r->activation_units,
                   r->parameter_copies, r->time_known ? r->time_bubble : r->bubble,
                   r->time_known ? "replay" : "formula", (long long)r->peak, r->worst_rank,
                   row_status(r));
    if (r->time_known)
      memi_sb_printf(sb, ",\"step_seconds\":%.6f,\"tokens_per_second\":%.1f}", r->step_seconds,
                     r->tokens_per_second);
    else
      memi_sb_put(sb, ",\"step_seconds\":null,\"tokens_per_second\":null}");
  }
  memi_sb_put(sb, "]");
}

static void put_inputs(strbuf *sb, const memest_plan *pl) {
  const memest_params *p = &pl->base;
  uint32_t opts = row_options(pl);
  int id;
  memi_sb_put(sb, ",\"inputs\":{\"model\":");
  memi_sb_json_str(sb, p->model);
  memi_sb_put(sb, ",\"architecture\":");
  memi_sb_json_str(sb, pl->model_title);
  memi_sb_printf(sb, ",\"layers\":%lld,\"experts\":%lld", (long long)pl->layers, (long long)pl->experts);
  for (id = 0; id < MEMEST_P_COUNT; id++) {
    if (!((opts >> id) & 1u)) put_option(sb, id, p, memi_layout_capacity(p));
  }
  if (pl->gpus_per_node > 0) {
    memi_sb_printf(sb, ",\"gpus_per_node\":%lld,\"ep_across_nodes\":\"%s\"",
                   (long long)pl->gpus_per_node,
                   pl->ep_nodes == MEMEST_EP_NODES_ALLOW ? "allow" : "avoid");
  }
  memi_sb_put(sb, "}");
}

static void put_swept(strbuf *sb, const memest_plan *pl) {
  int d, i, first = 1;
  memi_sb_put(sb, ",\"swept\":{");
  for (d = 0; d < D_COUNT; d++) {
    if (pl->dims[d].n == 0) continue;
    memi_sb_printf(sb, "%s\"%s\":[", first ? "" : ",", memi_plan_dim_name(d));
    for (i = 0; i < pl->dims[d].n; i++) {
      memi_sb_printf(sb, "%s%lld", i ? "," : "", (long long)pl->dims[d].v[i]);
    }
    memi_sb_put(sb, "]");
    first = 0;
  }
  memi_sb_put(sb, "}");
}

static void reason_order(const memest_plan *pl, int *order);

static void put_invalid(strbuf *sb, const memest_plan *pl) {
  int order[PLAN_REASONS_MAX];
  int i;
  reason_order(pl, order);
  memi_sb_put(sb, ",\"invalid\":{");
  for (i = 0; i < pl->n_reasons; i++) {
    if (i > 0) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, pl->reasons[order[i]].key);
    memi_sb_printf(sb, ":%lld", (long long)pl->reasons[order[i]].count);
  }
  memi_sb_put(sb, "},\"invalid_examples\":{");
  for (i = 0; i < pl->n_reasons; i++) {
    if (i > 0) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, pl->reasons[order[i]].key);
    memi_sb_put(sb, ":");
    memi_sb_json_str(sb, pl->reasons[order[i]].example);
  }
  memi_sb_put(sb, "}");
}

/* What the rows and the invalid counts add up to:
** tried = valid + invalid, rows = valid + invalid_rows. */
static void put_counts(strbuf *sb, const memest_plan *pl) {
  int64_t invalid = 0, st[3] = {0, 0, 0}, across = 0, invalid_rows = 0;
  int i;
  for (i = 0; i < pl->n_reasons; i++) invalid += pl->reasons[i].count;
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    if (r->reason >= 0) {
      invalid_rows++;
      continue;
    }
    st[r->status == MEMEST_FITS_OK ? 0 : r->status == MEMEST_FITS_TIGHT ? 1 : 2]++;
    across += r->ep_across;
  }
  memi_sb_printf(sb,
            ",\"counts\":{\"tried\":%lld,\"valid\":%lld,\"invalid\":%lld,\"rows\":%d,"
            "\"invalid_rows\":%lld,\"ok\":%lld,\"tight\":%lld,\"oom\":%lld,"
            "\"ep_across_nodes\":%lld}",
            (long long)pl->tried, (long long)(st[0] + st[1] + st[2]), (long long)invalid,
            pl->n_rows, (long long)invalid_rows, (long long)st[0], (long long)st[1],
            (long long)st[2], (long long)across);
}

/* A vary-nodes plan's answer beside pp over whole nodes (plan_nodes.c);
** null in other plans. */
static void put_pp_nodes(strbuf *sb, const memest_plan *pl) {
  const plan_pp_nodes *c = &pl->pp_nodes;
  memi_sb_put(sb, ",\"pp_over_nodes\":");
  if (!c->ran) {
    memi_sb_put(sb, "null");
    return;
  }
  memi_sb_printf(sb, "{\"dp\":%lld,\"answer\":", (long long)c->dp);
  if (c->found) put_row(sb, pl, &c->row);
  else memi_sb_put(sb, "null");
  memi_sb_printf(sb, ",\"agrees\":%s,\"why\":", c->agrees ? "true" : "false");
  memi_sb_json_str(sb, c->why);
  memi_sb_put(sb, "}");
}

/* The answer rule as fields: which row answers, read from them alone. */
static void put_answer_by(strbuf *sb, const memest_plan *pl) {
  const char *rule = pl->by_throughput ? "fastest_ok" : "most_headroom";
  if (pl->mode == MEMEST_PLAN_VARY) rule = pl->vary_largest ? "largest_ok" : "smallest_ok";
  memi_sb_printf(sb, ",\"answer_by\":{\"rule\":\"%s\",\"objective\":\"%s\",\"input\":", rule,
                 objective_names[pl->objective]);
  if (pl->mode == MEMEST_PLAN_VARY) memi_sb_json_str(sb, memi_plan_dim_name(pl->vary));
  else memi_sb_put(sb, "null");
  memi_sb_put(sb, ",\"fallback\":");
  if (pl->fallback) memi_sb_json_str(sb, fallback_text(pl));
  else memi_sb_put(sb, "null");
  memi_sb_printf(sb, ",\"untimed_rows\":%d,\"untimed_note\":", pl->untimed);
  if (pl->untimed > 0) memi_sb_json_str(sb, pl->time_note);
  else memi_sb_put(sb, "null");
  memi_sb_printf(sb, ",\"ok_min_free_percent\":%d,\"ep_inside_node_first\":%s}",
                 CHOICE_TIGHT_PERCENT, ep_inside_first(pl) ? "true" : "false");
}

char *memest_plan_json(const memest_plan *pl) {
  strbuf sb;
  char rule[96];
  int i;
  if (pl == NULL || !pl->finished) return NULL;
  memi_sb_init(&sb);
  memi_sb_printf(&sb, "{\"memest_version\":\"" MEMEST_VERSION "\",\"mode\":\"%s\"",
            mode_names[pl->mode]);
  put_inputs(&sb, pl);
  memi_model_source_json(&sb, &pl->base);
  if (pl->mode == MEMEST_PLAN_VARY) memi_sb_printf(&sb, ",\"vary\":\"%s\"", memi_plan_dim_name(pl->vary));
  memi_sb_put(&sb, ",\"answer_rule\":");
  memi_sb_json_str(&sb, answer_rule(pl, rule, sizeof rule));
  put_answer_by(&sb, pl);
  memi_sb_printf(&sb,
            ",\"limits\":{\"max_plan_rows\":%lld,\"max_plan_work\":%lld,\"plan_values\":%d,"
            "\"plan_text\":%d}",
            (long long)MEMEST_MAX_PLAN_ROWS, (long long)MEMEST_MAX_PLAN_WORK, MEMEST_PLAN_VALUES,
            MEMEST_PLAN_TEXT);
  put_swept(&sb, pl);
  memi_sb_put(&sb, ",\"bubble_model\":");
  memi_sb_json_str(&sb, memi_schedule_of(pl->base.schedule)->bubble_text);
  memi_sb_printf(&sb, ",\"expert_wgrad_share\":%.6f,\"tried\":%lld,\"work\":%lld,\"rows\":[",
            pl->expert_share, (long long)pl->tried, (long long)pl->work);
  for (i = 0; i < pl->n_rows; i++) {
    if (i > 0) memi_sb_put(&sb, ",");
    put_row(&sb, pl, &pl->rows[i]);
  }
  memi_sb_put(&sb, "],\"answer\":");
  if (pl->answer >= 0) put_row(&sb, pl, &pl->rows[pl->answer]);
  else memi_sb_put(&sb, "null");
  memi_sb_put(&sb, ",\"closest\":");
  if (pl->closest >= 0) put_row(&sb, pl, &pl->rows[pl->closest]);
  else memi_sb_put(&sb, "null");
  put_schedules(&sb, pl);
  put_counts(&sb, pl);
  put_pp_nodes(&sb, pl);
  put_invalid(&sb, pl);
  memi_sb_put(&sb, "}");
  return memi_sb_finish(&sb);
}
/* }====================================================================== */

/* {======================================================================
** Text
** ======================================================================= */
static void label_add(char *buf, size_t size, const char *text) {
  size_t used = strlen(buf);
  snprintf(buf + used, size - used, "%s%s", used ? " " : "", text);
}

/* The varied options of variant v as short text, e.g. "h200 muon". */
static const char *variant_label(const memest_plan *pl, int v, char *buf, size_t size) {
  const memest_params *p = &pl->variants[v];
  uint32_t o = row_options(pl);
  char t[48];
  buf[0] = '\0';
  if ((o >> MEMEST_P_GPU) & 1u) {
    if (p->gpu[0]) snprintf(t, sizeof t, "%s", p->gpu);
    else snprintf(t, sizeof t, "%.6g GiB", p->gpu_memory_gb);
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_FP8_TRAINING) & 1u) label_add(buf, size, p->fp8_training ? "fp8" : "bf16");
  if ((o >> MEMEST_P_OPTIMIZER) & 1u) {
    label_add(buf, size, memest_optimizer_name(p->optimizer));
  }
  if ((o >> MEMEST_P_SHARDING) & 1u) {
    label_add(buf, size, memest_sharding_name(p->sharding));
  }
  if ((o >> MEMEST_P_EP_IMBALANCE) & 1u) {
    snprintf(t, sizeof t, "imbalance %.3g", p->ep_imbalance);
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_FRAGMENTATION) & 1u) {
    snprintf(t, sizeof t, "fragmentation %.3g", p->fragmentation);
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_NVLINK_GB_PER_S) & 1u) {
    snprintf(t, sizeof t, "nvlink %.4g", p->nvlink_gb_per_s);
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_NETWORK_GBIT_PER_S) & 1u) {
    snprintf(t, sizeof t, "network %.4g", p->network_gbit_per_s);
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_ROUTING) & 1u || (o >> MEMEST_P_ROUTING_FACTOR) & 1u) {
    if (p->routing == MEMEST_ROUTING_FACTOR) snprintf(t, sizeof t, "routing %.3g", p->routing_factor);
    else snprintf(t, sizeof t, "%s", p->routing == MEMEST_ROUTING_BALANCED ? "balanced" : "measured");
    label_add(buf, size, t);
  }
  if ((o >> MEMEST_P_SCHEDULE) & 1u || (o >> MEMEST_P_VIRTUAL_STAGES) & 1u) {
    if (p->schedule == MEMEST_SCHED_INTERLEAVED) snprintf(t, sizeof t, "interl. v=%lld", (long long)p->virtual_stages);
    else snprintf(t, sizeof t, "%s", memi_schedule_of(p->schedule)->name);
    label_add(buf, size, t);
  }
  return buf;
}

static void text_header(strbuf *sb, const memest_plan *pl) {
  const memest_params *p = &pl->base;
  const preset_gpu *g = p->gpu[0] ? memi_preset_gpu_find(p->gpu) : NULL;
  char a[32];
  int d, i, first = 1;
  memi_sb_put(sb, "Model      ");
  memi_sb_text(sb, p->model);
  memi_sb_printf(sb, ": %s, %lld layers", pl->model_title, (long long)pl->layers);
  if (pl->experts > 0) memi_sb_printf(sb, ", %lld experts", (long long)pl->experts);
  if (memi_model_source_shown(p)) {
    memi_sb_put(sb, "\nConfig     ");
    memi_model_source_text(sb, p);
  }
  if ((row_options(pl) >> MEMEST_P_GPU) & 1u) {
    memi_sb_put(sb, "\nGPU        varies (the options column)");
  } else {
    memi_sb_printf(sb, "\nGPU        %s, %s GiB", g != NULL ? g->title : "custom",
              memi_fmt_gib(a, sizeof a, memi_layout_capacity(p)));
  }
  if (pl->gpus_per_node > 0) memi_sb_printf(sb, "; %lld GPUs per node", (long long)pl->gpus_per_node);
  memi_sb_put(sb, "\n");
  for (d = 0; d < D_COUNT; d++) {
    const dim_list *l = &pl->dims[d];
    if (l->n == 0) continue;
    memi_sb_printf(sb, "%-10s %s ", first ? "Inputs" : "", memi_plan_dim_name(d));
    first = 0;
    if (l->n > 6 && l->v[l->n - 1] - l->v[0] == l->n - 1) {
      memi_sb_printf(sb, "%lld..%lld", (long long)l->v[0], (long long)l->v[l->n - 1]);
    } else {
      for (i = 0; i < l->n; i++) memi_sb_printf(sb, "%s%lld", i ? "," : "", (long long)l->v[i]);
    }
    memi_sb_printf(sb, "%s\n", pl->given[d] ? "" : " (every valid value)");
  }
}

/* The reasons' indices, most frequent first (ties: first seen first). */
static void reason_order(const memest_plan *pl, int *order) {
  int i, j;
  for (i = 0; i < pl->n_reasons; i++) {
    int r = i;
    for (j = i; j > 0 && pl->reasons[order[j - 1]].count < pl->reasons[r].count; j--) {
      order[j] = order[j - 1];
    }
    order[j] = r;
  }
}

static void text_reasons(strbuf *sb, const memest_plan *pl) {
  int order[PLAN_REASONS_MAX];
  int64_t n = 0;
  int i;
  for (i = 0; i < pl->n_reasons; i++) n += pl->reasons[i].count;
  if (n == 0) return;
  reason_order(pl, order);
  memi_sb_printf(sb, "\nDropped %lld invalid combination%s, by reason (e.g.):\n", (long long)n,
            n == 1 ? "" : "s");
  for (i = 0; i < pl->n_reasons; i++) {
    const plan_reason *r = &pl->reasons[order[i]];
    memi_sb_printf(sb, "  %6lld  %-38s %.160s\n", (long long)r->count, r->key, r->example);
  }
}

/* A row's routing margin for the text tables (to a hundredth, as rows
** find it): "2.37", "8.00+" at the cap, "none" when no factor fits, "-"
** where routing does not apply. */
static const char *margin_text(const memest_routing_info *ri, char *buf, size_t size) {
  if (!ri->applies) snprintf(buf, size, "-");
  else if (!ri->has_margin) snprintf(buf, size, "none");
  else snprintf(buf, size, "%.2f%s", floor(ri->margin * 100.0 + 1e-9) / 100.0, ri->margin_is_limit ? "+" : "");
  return buf;
}

/* A row's inputs up to its nodes; with GPUs per node, ep is marked '*'
** when its group spans nodes. */
static void row_inputs(strbuf *sb, const memest_plan *pl, int k, const plan_row *r) {
  memi_sb_printf(sb, "  %4d %4lld %3lld%s %3lld %4lld %5lld", k, (long long)r->in[D_PP],
            (long long)r->in[D_EP], pl->gpus_per_node > 0 ? (r->ep_across ? "*" : " ") : "",
            (long long)r->in[D_CP], (long long)r->in[D_DP], (long long)r->in[D_TOTAL]);
  if (pl->gpus_per_node > 0) memi_sb_printf(sb, " %5lld", (long long)r->in[D_NODES]);
}

static void layout_line(strbuf *sb, const memest_plan *pl, int k, const plan_row *r) {
  char a[32], b[32], l[160];
  row_inputs(sb, pl, k, r);
  memi_sb_printf(sb, " %4lld %6lld %8lld %9s %9s  %-6s %6.2f%%", (long long)r->in[D_MBS],
            (long long)r->in[D_SEQ], (long long)r->chunks, memi_fmt_gib(a, sizeof a, r->peak),
            memi_fmt_gib(b, sizeof b, r->headroom), row_status(r), 100.0 * r->bubble);
  memi_sb_printf(sb, " %7s", margin_text(&r->routing, a, sizeof a));
  memi_sb_printf(sb, " %8s", time_text(r, T_TOKENS, a, sizeof a));
  memi_sb_printf(sb, " %9s", time_text(r, T_TOKENS_PER_GPU, a, sizeof a));
  memi_sb_printf(sb, " %6s", time_text(r, T_MFU, a, sizeof a));
  if (pl->varied_options) memi_sb_printf(sb, "  %s", variant_label(pl, r->variant, l, sizeof l));
  memi_sb_put(sb, "\n");
}

static void layout_head(strbuf *sb, const memest_plan *pl) {
  memi_sb_printf(sb, "  %4s %4s %3s%s %3s %4s %5s", "#", "pp", "ep", pl->gpus_per_node > 0 ? " " : "",
            "cp", "dp", "GPUs");
  if (pl->gpus_per_node > 0) memi_sb_printf(sb, " %5s", "nodes");
  memi_sb_printf(sb, " %4s %6s %8s %9s %9s  %-6s %7s %7s %8s %9s %6s%s\n", "mbs", "seq", "chunks",
                 "peak", "headroom", "status", "bubble", "margin", "tok/s", "tok/s/GPU", "MFU",
                 pl->varied_options ? "  options" : "");
}

static void text_layouts(strbuf *sb, const memest_plan *pl) {
  int i, shown = pl->top > 0 && pl->top < pl->n_rows ? (int)pl->top : pl->n_rows;
  memi_sb_printf(sb, "\n%d valid layout%s of %lld tried, %s first (GiB):\n", pl->n_rows,
                 pl->n_rows == 1 ? "" : "s", (long long)pl->tried,
                 pl->by_throughput ? "most tokens/s" : "most headroom");
  if (pl->n_rows > 0) layout_head(sb, pl);
  for (i = 0; i < shown; i++) layout_line(sb, pl, i + 1, &pl->rows[i]);
  if (shown < pl->n_rows) {
    memi_sb_printf(sb, "  ... %d more (--top 0 shows all, --json gives every row)\n",
              pl->n_rows - shown);
  }
}

static void text_vary(strbuf *sb, const memest_plan *pl) {
  int i;
  memi_sb_printf(sb, "\nEach %s tried (GiB):\n", memi_plan_dim_name(pl->vary));
  layout_head(sb, pl);
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    if (r->reason >= 0) {
      row_inputs(sb, pl, i + 1, r);
      memi_sb_printf(sb, " %4lld %6lld  INVALID: %s\n", (long long)r->in[D_MBS], (long long)r->in[D_SEQ],
                pl->reasons[r->reason].key);
    } else {
      layout_line(sb, pl, i + 1, r);
    }
  }
}

/* One compare line: a label, each configuration's GiB, then each one's
** delta against the first. */
static void cmp_line(strbuf *sb, const memest_plan *pl, const char *label, const int64_t *v) {
  char a[40], b[32];
  int i;
  memi_sb_printf(sb, "  %-34s", label);
  for (i = 0; i < pl->n_rows; i++)
    memi_sb_printf(sb, " %12s", pl->rows[i].reason >= 0 ? "-" : memi_fmt_gib(a, sizeof a, v[i]));
  for (i = 1; i < pl->n_rows; i++) {
    memi_fmt_gib(b, sizeof b, v[i] - v[0]);
    snprintf(a, sizeof a, "%s%s", v[i] - v[0] >= 0 ? "+" : "", b);
    memi_sb_printf(sb, " %12s", pl->rows[i].reason >= 0 || pl->rows[0].reason >= 0 ? "-" : a);
  }
  memi_sb_put(sb, "\n");
}

static void cmp_text_line(strbuf *sb, const memest_plan *pl, const char *label, int d) {
  char a[48];
  int i;
  memi_sb_printf(sb, "  %-34s", label);
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    if (r->reason >= 0 && d != D_PP && d != D_MBS && d != D_TOTAL && d != -1 && d != -2) {
      memi_sb_printf(sb, " %12s", "-");   /* a configuration its schedule cannot take */
      continue;
    }
    if (d == D_PP) {
      snprintf(a, sizeof a, "%lld/%lld%s/%lld/%lld", (long long)r->in[D_PP], (long long)r->in[D_EP],
               r->ep_across ? "*" : "", (long long)r->in[D_CP], (long long)r->in[D_DP]);
    } else if (d == D_MBS) {
      snprintf(a, sizeof a, "%lld/%lld/%lld", (long long)r->in[D_MBS], (long long)r->in[D_GBS],
               (long long)r->in[D_SEQ]);
    } else if (d == D_TOTAL) {
      snprintf(a, sizeof a, "%lld", (long long)r->in[D_TOTAL]);
    } else if (d == -1) {
      snprintf(a, sizeof a, "%s", row_status(r));
    } else if (d == -2) {
      variant_label(pl, r->variant, a, sizeof a);
    } else if (d == -3) {
      margin_text(&r->routing, a, sizeof a);
    } else if (d == -4) {
      snprintf(a, sizeof a, "%lld", (long long)r->pp_stages);
    } else if (d == -5) {
      snprintf(a, sizeof a, "%.3gx", r->parameter_copies);
    } else if (d == -6) {
      snprintf(a, sizeof a, "%.3g", r->activation_units);
    } else if (d == -7) {
      if (r->time_known) snprintf(a, sizeof a, "%.2f%%", 100.0 * r->time_bubble);
      else snprintf(a, sizeof a, "-");
    } else {
      snprintf(a, sizeof a, "%.2f%%", 100.0 * r->bubble);
    }
    memi_sb_printf(sb, " %12s", a);
  }
  memi_sb_put(sb, "\n");
}

/* One compare line of the time model's figure t (T_*) of each configuration. */
static void cmp_time_line(strbuf *sb, const memest_plan *pl, const char *label, int t) {
  char a[32];
  int i;
  memi_sb_printf(sb, "  %-34s", label);
  for (i = 0; i < pl->n_rows; i++) memi_sb_printf(sb, " %12s", time_text(&pl->rows[i], t, a, sizeof a));
  memi_sb_put(sb, "\n");
}

/* The sum of components [from, to) of each configuration into v. */
static void cmp_sum(const memest_plan *pl, int from, int to, int64_t *v) {
  int i, c;
  for (i = 0; i < pl->n_rows; i++) {
    v[i] = 0;
    for (c = from; c < to; c++) v[i] += pl->rows[i].comps.b[c];
  }
}

static void cmp_section(strbuf *sb, const memest_plan *pl, int from, int to, const char *total) {
  int64_t v[MEMEST_PLAN_VALUES];
  int i, c, any;
  for (c = from; c < to; c++) {
    for (i = 0, any = 0; i < pl->n_rows; i++) {
      v[i] = pl->rows[i].comps.b[c];
      any |= v[i] != 0;
    }
    if (any) cmp_line(sb, pl, memi_comp_title((comp)c), v);
  }
  cmp_sum(pl, from, to, v);
  cmp_line(sb, pl, total, v);
}

static void text_compare(strbuf *sb, const memest_plan *pl) {
  int64_t v[MEMEST_PLAN_VALUES];
  char h[16];
  int i;
  memi_sb_printf(sb, "\nConfigurations side by side (GiB; each one's worst rank at its peak):\n");
  memi_sb_printf(sb, "  %-34s", "");
  for (i = 0; i < pl->n_rows; i++) {
    snprintf(h, sizeof h, "#%d", i + 1);
    memi_sb_printf(sb, " %12s", h);
  }
  for (i = 1; i < pl->n_rows; i++) {
    snprintf(h, sizeof h, "#%d-#1", i + 1);
    memi_sb_printf(sb, " %12s", h);
  }
  memi_sb_put(sb, "\n");
  cmp_text_line(sb, pl, "pp / ep / cp / dp", D_PP);
  cmp_text_line(sb, pl, "GPUs", D_TOTAL);
  cmp_text_line(sb, pl, "micro / global batch / sequence", D_MBS);
  if (pl->varied_options) cmp_text_line(sb, pl, "options", -2);
  cmp_section(sb, pl, 0, C_FIRST_DYNAMIC, "total static");
  cmp_section(sb, pl, C_FIRST_DYNAMIC, C_COUNT, "total dynamic");
  for (i = 0; i < pl->n_rows; i++) v[i] = pl->rows[i].tensor_peak;
  cmp_line(sb, pl, "model tensors (PyTorch peak)", v);
  for (i = 0; i < pl->n_rows; i++) v[i] = pl->rows[i].nonpt;
  cmp_line(sb, pl, "non-PyTorch", v);
  for (i = 0; i < pl->n_rows; i++) v[i] = pl->rows[i].frag;
  cmp_line(sb, pl, "fragmentation", v);
  for (i = 0; i < pl->n_rows; i++) v[i] = pl->rows[i].peak;
  cmp_line(sb, pl, "total", v);
  for (i = 0; i < pl->n_rows; i++) v[i] = pl->rows[i].headroom;
  cmp_line(sb, pl, "headroom", v);
  cmp_text_line(sb, pl, "status", -1);
  cmp_text_line(sb, pl, "pipeline bubble", D_COUNT);
  if ((pl->varied_options >> MEMEST_P_SCHEDULE) & 1u) {
    cmp_text_line(sb, pl, "stages (DualPipe's PP)", -4);
    cmp_text_line(sb, pl, "parameters per GPU, stages", -5);
    cmp_text_line(sb, pl, "activations per GPU, stages", -6);
    cmp_text_line(sb, pl, "replayed bubble", -7);
  }
  cmp_text_line(sb, pl, "routing margin", -3);
  cmp_time_line(sb, pl, "tokens/s", T_TOKENS);
  cmp_time_line(sb, pl, "tokens/s per GPU", T_TOKENS_PER_GPU);
  cmp_time_line(sb, pl, "MFU", T_MFU);
  for (i = 0; i < pl->n_rows; i++) {
    const plan_row *r = &pl->rows[i];
    if (r->reason >= 0 && r->note >= 0) memi_sb_printf(sb, "  #%d: %s\n", i + 1, pl->notes[r->note]);
  }
}

/* A row in words: "pp 2, ep 8, cp 1, dp 1 = 16 GPUs (2 nodes), mbs 1: peak
** ..., headroom ... (...%), OK, bubble ...%". */
static void row_words(strbuf *sb, const memest_plan *pl, const plan_row *r) {
  char a[32], b[32];
  memi_sb_printf(sb, "pp %lld, ep %lld, cp %lld, dp %lld = %lld GPUs", (long long)r->in[D_PP],
            (long long)r->in[D_EP], (long long)r->in[D_CP], (long long)r->in[D_DP],
            (long long)r->in[D_TOTAL]);
  if (pl->gpus_per_node > 0) memi_sb_printf(sb, " (%lld nodes)", (long long)r->in[D_NODES]);
  memi_sb_printf(sb, ", mbs %lld: peak %s GiB, headroom %s GiB (%.1f%%), %s, bubble %.2f%%",
            (long long)r->in[D_MBS], memi_fmt_gib(a, sizeof a, r->peak),
            memi_fmt_gib(b, sizeof b, r->headroom),
            r->capacity > 0 ? 100.0 * (double)r->headroom / (double)r->capacity : 0.0,
            row_status(r), 100.0 * r->bubble);
  if (r->time_known) {
    memi_sb_printf(sb, ", %s tokens/s", time_text(r, T_TOKENS, a, sizeof a));
    memi_sb_printf(sb, " (%s per GPU", time_text(r, T_TOKENS_PER_GPU, a, sizeof a));
    memi_sb_printf(sb, ", MFU %s)", time_text(r, T_MFU, a, sizeof a));
  }
}

/* No answer: that nothing qualifies, and the closest row. */
static void text_no_answer(strbuf *sb, const memest_plan *pl) {
  if (pl->mode == MEMEST_PLAN_VARY) {
    memi_sb_printf(sb, "\nAnswer: none; no tried %s is OK (OK: at least %d%% of the GPU left free)\n",
              memi_plan_dim_name(pl->vary), CHOICE_TIGHT_PERCENT);
  } else if (pl->closest < 0) {
    memi_sb_put(sb, "\nAnswer: none; every combination was dropped (the reasons below)\n");
  } else {
    memi_sb_printf(sb, "\nAnswer: none; no %s fits: every one is out of memory\n",
              pl->mode == MEMEST_PLAN_COMPARE ? "configuration" : "layout");
  }
  if (pl->closest < 0) return;
  memi_sb_printf(sb, "Closest    #%d, ", pl->closest + 1);
  if (pl->mode == MEMEST_PLAN_VARY) {
    memi_sb_printf(sb, "%s %lld; ", memi_plan_dim_name(pl->vary),
              (long long)pl->rows[pl->closest].in[pl->vary]);
  }
  row_words(sb, pl, &pl->rows[pl->closest]);
  memi_sb_put(sb, "\n");
}

/* A throughput objective that fell back to headroom, and why; or the rows
** it ranks after the others for want of a time. */
static void text_fallback(strbuf *sb, const memest_plan *pl) {
  if (pl->by_throughput && pl->untimed > 0) {
    memi_sb_printf(sb, "\nTime       %d row%s no time, so rank%s after those that do: ", pl->untimed,
                   pl->untimed == 1 ? " has" : "s have", pl->untimed == 1 ? "s" : "");
    memi_sb_text(sb, pl->time_note);
    memi_sb_put(sb, "\n");
  }
  if (!pl->fallback) return;
  memi_sb_put(sb, "\nObjective  throughput asked, but no tokens/s: ");
  memi_sb_text(sb, fallback_text(pl));
  memi_sb_put(sb, "\n           so the most headroom answers (--objective headroom says so "
                  "outright)\n");
}

/* A vary-nodes answer beside the same nodes spent on pipeline stages. */
static void text_pp_nodes(strbuf *sb, const memest_plan *pl) {
  const plan_pp_nodes *c = &pl->pp_nodes;
  if (!c->ran) return;
  memi_sb_printf(sb, "Pipeline   pp over whole nodes (--vary pp with dp %lld): ", (long long)c->dp);
  if (c->found) {
    memi_sb_printf(sb, "pp %lld = %lld nodes", (long long)c->row.in[D_PP],
              (long long)c->row.in[D_NODES]);
  } else {
    memi_sb_put(sb, "no pp is OK");
  }
  if (c->agrees) memi_sb_put(sb, c->found ? ", the same answer\n" : " either\n");
  else memi_sb_printf(sb, "; this plan holds pp %lld and adds data parallelism with each node: %s\n",
                 (long long)pl->dims[D_PP].v[0], c->why);
}

static void text_answer(strbuf *sb, const memest_plan *pl) {
  const plan_row *r = pl->answer >= 0 ? &pl->rows[pl->answer] : NULL;
  char a[32], rule[96];
  if (r == NULL) {
    text_no_answer(sb, pl);
    text_pp_nodes(sb, pl);
    return;
  }
  memi_sb_printf(sb, "\nAnswer (%s): ", answer_rule(pl, rule, sizeof rule));
  if (pl->mode == MEMEST_PLAN_VARY) {
    memi_sb_printf(sb, "%s %lld; ", memi_plan_dim_name(pl->vary), (long long)r->in[pl->vary]);
  } else if (pl->mode == MEMEST_PLAN_COMPARE) {
    memi_sb_printf(sb, "#%d; ", pl->answer + 1);
  }
  row_words(sb, pl, r);
  memi_sb_put(sb, "\n");
  if (r->ep_across) {
    memi_sb_printf(sb, "Nodes      its expert parallelism spans nodes (ep %lld, %lld GPUs per node)%s\n",
              (long long)r->in[D_EP], (long long)pl->gpus_per_node,
              pl->ep_nodes == MEMEST_EP_NODES_AVOID
                  ? ": no layout that keeps it inside a node qualifies"
                  : "; --ep-across-nodes allow ranks such layouts by their figures alone");
  }
  memi_sb_printf(sb, "Routing    the answer fits up to routing factor %s\n", margin_text(&r->routing, a, sizeof a));
  text_pp_nodes(sb, pl);
}

/* Under a table with GPUs per node: what the '*' after ep means. */
static void text_ep_note(strbuf *sb, const memest_plan *pl) {
  int i, any = 0;
  for (i = 0; i < pl->n_rows; i++) any |= pl->rows[i].ep_across;
  if (!any) return;
  memi_sb_printf(sb, "\n* ep spans nodes: each expert-parallel group takes ep consecutive ranks of "
            "the (pp, dp, cp, ep) mesh, so its all-to-all crosses the network; %s\n",
            pl->ep_nodes == MEMEST_EP_NODES_ALLOW
                ? "ranked by its figures alone (--ep-across-nodes allow)"
                : pl->mode == MEMEST_PLAN_VARY
                ? "the answer is one only when no value that keeps ep inside a node is OK "
                  "(--ep-across-nodes allow lifts that)"
                : pl->mode == MEMEST_PLAN_COMPARE
                ? "the answer is one only when no configuration that keeps ep inside a node "
                  "fits as well (--ep-across-nodes allow lifts that)"
                : "ranked after the layouts of its status that keep ep inside a node "
                  "(--ep-across-nodes allow ranks them by their figures alone)");
}

char *memest_plan_text(const memest_plan *pl) {
  strbuf sb;
  if (pl == NULL || !pl->finished) return NULL;
  memi_sb_init(&sb);
  text_header(&sb, pl);
  if (pl->mode == MEMEST_PLAN_LAYOUTS) text_layouts(&sb, pl);
  if (pl->mode == MEMEST_PLAN_VARY) text_vary(&sb, pl);
  if (pl->mode == MEMEST_PLAN_COMPARE) text_compare(&sb, pl);
  text_ep_note(&sb, pl);
  text_fallback(&sb, pl);
  text_answer(&sb, pl);
  text_reasons(&sb, pl);
  memi_sb_printf(&sb, "\nBubble: %s (W/F = %.3f at the first row's sequence length).\n",
                 memi_schedule_of(pl->base.schedule)->bubble_text,
            pl->expert_share);
  return memi_sb_finish_text(&sb);
}
/* }====================================================================== */
