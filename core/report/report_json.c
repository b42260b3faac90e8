/*
** report_json.c — the result as one JSON object (docs/result-json.md): the
** same text for `memest --json` and for the WebAssembly engine. Integers
** are exact byte counts. Also the event labels that the text report
** shares.
*/
#include <stdio.h>
#include <string.h>

#include "sim/result.h"
#include "sim/schedule.h"
#include "model/model_source.h"
#include "sim/model_summary.h"
#include "report/report_time.h"

int memest_tight_percent(void) { return CHOICE_TIGHT_PERCENT; }

const char *memi_tl_describe(const tl_event *e, char *buf, size_t size) {
  switch (e->step) {
    case 9:
      snprintf(buf, size, "step end: FSDP fold and reduce-scatter, module %d", e->pf);
      break;
    case 10:
      snprintf(buf, size, "optimizer step: %s", e->kind == 1 ? "Muon" : "AdamW");
      break;
    default:
      if (e->kind == OP_F) {
        snprintf(buf, size, "step %d i=%d: F%d chunk %lld", e->step, e->iter, e->pf,
                 (long long)e->cf);
      } else if (e->kind == OP_B) {
        snprintf(buf, size, "step %d i=%d: B%d chunk %lld", e->step, e->iter, e->pb,
                 (long long)e->cb);
      } else if (e->kind == OP_FB) {
        snprintf(buf, size, "step %d i=%d: F%d chunk %lld | B%d chunk %lld", e->step, e->iter,
                 e->pf, (long long)e->cf, e->pb, (long long)e->cb);
      } else {
        snprintf(buf, size, "step %d i=%d: W (phase %d batch)", e->step, e->iter, e->pb);
      }
  }
  return buf;
}

/* Without printf: a timeline writes these thousands of times. */
static void put_comps(strbuf *sb, const comp_vec *v, int from, int to) {
  int c;
  memi_sb_put(sb, "{");
  for (c = from; c < to; c++) {
    if (c > from) memi_sb_putn(sb, ",", 1);
    memi_sb_putn(sb, "\"", 1);
    memi_sb_put(sb, memi_comp_key(c));
    memi_sb_putn(sb, "\":", 2);
    memi_sb_put_i64(sb, v->b[c]);
  }
  memi_sb_put(sb, "}");
}

/* [v0,v1,...]: one value per module. */
static void put_ints(strbuf *sb, const int *v, int n) {
  int m;
  memi_sb_putn(sb, "[", 1);
  for (m = 0; m < n; m++) {
    if (m) memi_sb_putn(sb, ",", 1);
    memi_sb_put_i64(sb, v[m]);
  }
  memi_sb_putn(sb, "]", 1);
}

static void put_event(strbuf *sb, const tl_event *e, int64_t index, const double *t,
                      int with_components, int modules) {
  char label[160];
  memi_sb_put(sb, "{\"index\":");
  memi_sb_put_i64(sb, index);
  if (t != NULL) memi_sb_printf(sb, ",\"t_seconds\":%.6f", *t);
  memi_sb_put(sb, ",\"step\":");
  memi_sb_put_i64(sb, e->step);
  memi_sb_put(sb, ",\"label\":");
  memi_sb_json_str(sb, memi_tl_describe(e, label, sizeof label));
  memi_sb_put(sb, ",\"what\":");
  memi_sb_json_str(sb, e->what != NULL ? e->what : "");
  memi_sb_put(sb, ",\"total_bytes\":");
  memi_sb_put_i64(sb, e->total);
  memi_sb_put(sb, ",\"peak_bytes\":");
  memi_sb_put_i64(sb, e->peak);
  memi_sb_put(sb, ",\"live_chunks\":");
  put_ints(sb, e->live, modules);
  if (with_components) {
    memi_sb_put(sb, ",\"components\":");
    put_comps(sb, &e->at_peak, 0, C_COUNT);
  }
  memi_sb_put(sb, "}");
}

/* "event_components": {key: [bytes at each kept event], ...}, the events'
** components as one array per component: half the text of an object per
** event, and faster for a page to read; then "event_steps": [the step of
** each kept event], so that the columns alone draw the timeline. */
static void put_event_columns(strbuf *sb, const rank_result *rr, const double *t) {
  int c;
  int64_t i;
  if (t != NULL) {
    memi_sb_put(sb, ",\"t_seconds\":[");
    for (i = 0; i < rr->n_tl; i++) memi_sb_printf(sb, i ? ",%.6f" : "%.6f", t[i]);
    memi_sb_putn(sb, "]", 1);
  }
  memi_sb_put(sb, ",\"event_components\":{");
  for (c = 0; c < C_COUNT; c++) {
    if (c > 0) memi_sb_putn(sb, ",", 1);
    memi_sb_putn(sb, "\"", 1);
    memi_sb_put(sb, memi_comp_key(c));
    memi_sb_putn(sb, "\":[", 3);
    for (i = 0; i < rr->n_tl; i++) {
      if (i > 0) memi_sb_putn(sb, ",", 1);
      memi_sb_put_i64(sb, rr->tl[i].at_peak.b[c]);
    }
    memi_sb_putn(sb, "]", 1);
  }
  memi_sb_putn(sb, "}", 1);
  memi_sb_put(sb, ",\"event_steps\":[");
  for (i = 0; i < rr->n_tl; i++) {
    if (i > 0) memi_sb_putn(sb, ",", 1);
    memi_sb_put_i64(sb, rr->tl[i].step);
  }
  memi_sb_putn(sb, "]", 1);
}

/* "<op>: <what happened inside it>". */
const char *memi_peak_label(const tl_event *e, char *buf, size_t size) {
  char op[160];
  snprintf(buf, size, "%s: %s", memi_tl_describe(e, op, sizeof op), e->what != NULL ? e->what : "");
  return buf;
}

static const char *peak_phase(const tl_event *e) {
  return e->step == 9 ? "step_end" : e->step == 10 ? "optimizer" : "pipeline";
}

/* "events": [...] and, with timeline_columns, "event_components": {...}. */
static void put_events(strbuf *sb, const memest_result *r, const rank_result *rr) {
  int64_t i;
  const double *t = memi_time_events(r, rr);
  memi_sb_put(sb, "\"events\":[");
  for (i = 0; i < rr->n_tl; i++) {
    if (i > 0) memi_sb_put(sb, ",");
    put_event(sb, &rr->tl[i], rr->tl_from + i, t != NULL ? &t[i] : NULL, !r->timeline_columns,
              r->lo.modules);
  }
  memi_sb_put(sb, "]");
  if (r->timeline_columns) put_event_columns(sb, rr, t);
}

static void put_rank(strbuf *sb, const memest_result *r, const rank_result *rr) {
  char label[400];
  int m, n = r->lo.modules;
  memi_sb_printf(sb, "{\"pp_rank\":%d,\"stages\":", rr->rank);
  put_ints(sb, rr->stages, n);
  memi_sb_put(sb, ",\"layers\":");
  put_ints(sb, rr->layers, n);
  memi_sb_put(sb, ",\"parameters\":[");
  for (m = 0; m < n; m++) memi_sb_printf(sb, "%s%lld", m ? "," : "", (long long)rr->params[m]);
  memi_sb_printf(sb,
            "],\"parameters_per_gpu\":%lld,\"peak_bytes\":%lld,\"tensor_peak_bytes\":%lld,\"non_pytorch_bytes\":%lld,"
            "\"fragmentation_bytes\":%lld,\"peak_event\":",
            (long long)rr->shard_params, (long long)rr->total,
            (long long)rr->tensor_peak, (long long)rr->nonpt, (long long)rr->frag);
  memi_sb_json_str(sb, memi_peak_label(&rr->peak_ev, label, sizeof label));
  memi_sb_printf(sb, ",\"peak_event_index\":%lld,\"peak_phase\":\"%s\",\"live_chunks_at_peak\":",
            (long long)rr->peak_index, peak_phase(&rr->peak_ev));
  put_ints(sb, rr->peak_ev.live, n);
  memi_sb_put(sb, ",\"static\":");
  put_comps(sb, &rr->at_peak, 0, C_FIRST_DYNAMIC);
  memi_sb_put(sb, ",\"dynamic\":");
  put_comps(sb, &rr->at_peak, C_FIRST_DYNAMIC, C_COUNT);
  memi_sb_printf(sb, ",\"events_total\":%lld", (long long)rr->n_events);
  if (r->params.timeline || rr->tl != NULL) {
    memi_sb_putn(sb, ",", 1);
    put_events(sb, r, rr);
  }
  memi_sb_put(sb, "}");
}


void memi_inputs_json(strbuf *sb, const memest_params *p, int64_t capacity) {
  memi_sb_put(sb, "\"inputs\":{\"model\":");
  memi_sb_json_str(sb, p->model);
  memi_sb_printf(sb,
            ",\"pp_size\":%lld,\"ep_size\":%lld,\"cp_size\":%lld,\"total_gpus\":%lld,"
            "\"micro_batch_size\":%lld,\"global_batch_size\":%lld,\"sequence_length\":%lld,"
            "\"gpu\":",
            (long long)p->pp_size, (long long)p->ep_size, (long long)p->cp_size,
            (long long)p->total_gpus, (long long)p->micro_batch_size,
            (long long)p->global_batch_size, (long long)p->sequence_length);
  memi_sb_json_str(sb, p->gpu);
  memi_sb_printf(sb,
            ",\"gpu_memory_gb\":%.15g,\"optimizer\":\"%s\",\"sharding\":\"%s\","
            "\"fp8_training\":\"%s\",\"pp_rank\":%lld,\"ep_imbalance\":%.15g,"
            "\"fragmentation\":%.15g,\"routing\":\"%s\",\"routing_factor\":%.15g",
            (double)capacity / GIB, memest_optimizer_name(p->optimizer),
            memest_sharding_name(p->sharding), memest_fp8_name(p->fp8_training),
            (long long)p->pp_rank, p->ep_imbalance, p->fragmentation,
            memest_routing_name(p->routing), p->routing_factor);
  /* The schedule, and its v where it reads one. */
  memi_sb_printf(sb, ",\"schedule\":\"%s\"", memest_schedule_name(p->schedule));
  if (p->schedule == MEMEST_SCHED_INTERLEAVED)
    memi_sb_printf(sb, ",\"virtual_stages\":%lld", (long long)p->virtual_stages);
  memi_sb_put(sb, "}");
}

/* The schedule in DualPipe's units: its stages, the GPUs, parameters per
** GPU in stages and the most in-flight stage activations any GPU holds. */
static void put_schedule(strbuf *sb, const memest_result *r) {
  const layout *lo = &r->lo;
  memi_sb_printf(sb,
                 ",\"schedule\":{\"name\":\"%s\",\"title\":\"%s\",\"pp_stages\":%lld,"
                 "\"devices\":%lld,\"parameter_copies\":%.6g,"
                 "\"activation_microbatches_per_device\":%.6g,\"trainer_runs\":%s}",
                 memest_schedule_name(r->params.schedule), lo->sched->name,
                 (long long)memi_schedule_pp_stages(lo), (long long)lo->pp,
                 memi_schedule_parameter_copies(lo), memi_schedule_activation_units(lo, memi_result_max_live(r)),
                 r->params.schedule == MEMEST_SCHED_DUALPIPEV ? "true" : "false");
}

static void put_derived(strbuf *sb, const memest_result *r) {
  const layout *lo = &r->lo;
  const run_dims *d = &lo->d;
  int i;
  memi_sb_printf(sb,
            ",\"derived\":{\"dp\":%lld,\"num_chunks\":%lld,\"stages\":%d,\"layers_per_stage\":[",
            (long long)lo->dp, (long long)lo->chunks, lo->stages);
  for (i = 0; i < lo->stages; i++) {
    memi_sb_printf(sb, "%s%d", i ? "," : "", lo->stage_first[i + 1] - lo->stage_first[i]);
  }
  memi_sb_printf(sb,
            "],\"expert_shard_degree\":%lld,\"other_shard_degree\":%lld,\"experts_per_rank\":%lld,"
            "\"local_sequence_length\":%lld}",
            (long long)lo->w_x, (long long)lo->w_o, (long long)d->e_loc, (long long)d->s);
  memi_sb_printf(sb,
            ",\"tokens\":{\"m\":%lld,\"top_k\":%lld,\"routing_factor\":%.3f,\"routed_rows\":%lld,"
            "\"expert_rows\":%lld,\"scatter_rows\":%lld,\"dispatch_rows\":%lld,"
            "\"receive_rows\":%lld,\"combine_rows\":%lld}",
            (long long)d->m, (long long)d->top_k, (double)d->routing_milli / 1000.0,
            (long long)d->n_in, (long long)d->m_act, (long long)d->r_rows, (long long)d->d_s,
            (long long)d->d_r, (long long)d->combine_rows);
}

static void put_routing(strbuf *sb, const memest_result *r) {
  const memest_routing_info *ri = &r->routing;
  memi_sb_printf(sb, ",\"routing\":{\"mode\":\"%s\",\"applies\":%s,\"factor\":%.6g,\"cap\":%.6g,",
            memest_routing_name(r->params.routing), ri->applies ? "true" : "false", ri->factor,
            ri->cap);
  if (ri->has_margin) memi_sb_printf(sb, "\"margin\":%.6g", ri->margin);
  else memi_sb_put(sb, "\"margin\":null");
  memi_sb_printf(sb, ",\"margin_is_limit\":%s}", ri->margin_is_limit ? "true" : "false");
}

static void put_model(strbuf *sb, const memest_result *r) {
  const model_config *mc = &r->mc;
  memi_sb_put(sb, ",\"model\":{\"name\":");
  memi_sb_json_str(sb, r->params.model);
  memi_sb_put(sb, ",\"model_type\":");
  memi_sb_json_str(sb, mc->model_type);
  memi_sb_put(sb, ",\"architecture\":");
  memi_sb_json_str(sb, mc->arch->title);
  memi_sb_printf(sb,
            ",\"total_parameters\":%lld,\"layers\":%lld,\"hidden_size\":%lld,\"experts\":%lld,"
            "\"experts_per_token\":%lld,\"vocab_size\":%lld",
            (long long)r->model_params, (long long)mc->layers, (long long)mc->hidden,
            (long long)mc->experts, (long long)mc->top_k, (long long)mc->vocab);
  memi_msum_json(sb, r);
  memi_sb_put(sb, "}");
}

static void put_ranked(strbuf *sb, const memest_result *r) {
  const memest_result *run = r->every != NULL ? r->every : r;
  const comp_vec *v = &run->ranks[run->worst].at_peak;
  int used[C_COUNT] = {0}, k, c, first = 1;
  memi_sb_put(sb, ",\"components_ranked\":[");
  for (k = 0; k < C_COUNT; k++) {
    int best = -1;
    for (c = 0; c < C_COUNT; c++) {
      if (!used[c] && v->b[c] > 0 && (best < 0 || v->b[c] > v->b[best])) best = c;
    }
    if (best < 0) break;
    used[best] = 1;
    memi_sb_printf(sb, "%s{\"component\":\"%s\",\"bytes\":%lld}", first ? "" : ",", memi_comp_key((comp)best),
              (long long)v->b[best]);
    first = 0;
  }
  memi_sb_put(sb, "]");
}

static void put_suggestions(strbuf *sb, const memest_result *r) {
  int i;
  memi_sb_put(sb, ",\"suggestions\":[");
  for (i = 0; i < r->n_sugg; i++) {
    const suggestion *s = &r->sugg[i];
    memi_sb_put(sb, i ? ",{\"knob\":" : "{\"knob\":");
    memi_sb_json_str(sb, s->knob);
    memi_sb_put(sb, ",\"from\":");
    memi_sb_json_str(sb, s->from);
    memi_sb_put(sb, ",\"to\":");
    memi_sb_json_str(sb, s->to);
    memi_sb_printf(sb, ",\"peak_bytes\":%lld,\"saves_bytes\":%lld,\"status\":\"%s\",\"advice\":",
              (long long)s->peak, (long long)s->saves, memi_status_name(s->status));
    memi_sb_json_str(sb, s->advice);
    memi_sb_put(sb, ",\"fix\":");
    memi_sb_json_str(sb, s->fix);
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "]");
}

/* The nearest OK layout (nearest.c): null when it was not searched for. */
static void put_nearest(strbuf *sb, const memest_result *r) {
  const nearest_layout *n = &r->nearest;
  memi_sb_put(sb, ",\"nearest_layout\":");
  if (!n->searched) {
    memi_sb_put(sb, "null");
    return;
  }
  memi_sb_printf(sb, "{\"found\":%s,\"gpus_searched\":%lld,\"plans\":%d", n->found ? "true" : "false",
            (long long)n->gpus_max, n->plans);
  if (n->found) {
    memi_sb_printf(sb,
              ",\"pp_size\":%lld,\"ep_size\":%lld,\"cp_size\":%lld,\"dp\":%lld,"
              "\"total_gpus\":%lld,\"micro_batch_size\":%lld,\"peak_bytes\":%lld,"
              "\"headroom_bytes\":%lld,\"status\":\"%s\",\"gpus_added\":%lld,\"changed\":%d,"
              "\"fix\":",
              (long long)n->pp, (long long)n->ep, (long long)n->cp, (long long)n->dp,
              (long long)n->total, (long long)n->mbs, (long long)n->peak, (long long)n->headroom,
              memi_status_name(n->status), (long long)(n->total - r->params.total_gpus), n->changed);
    memi_sb_json_str(sb, n->fix);
  }
  memi_sb_put(sb, "}");
}

static void put_detail(strbuf *sb, const memest_result *r) {
  const rank_result *rr = &r->ranks[r->worst];
  int i;
  memi_sb_printf(sb, ",\"detail\":{\"pp_rank\":%d,\"layer\":%d,\"layer_kind\":", rr->rank,
            rr->detail_layer);
  memi_sb_json_str(sb, rr->detail_kind != NULL ? rr->detail_kind : "");
  memi_sb_printf(sb, ",\"retained_bytes_per_chunk\":%lld,\"live_chunks_at_peak\":",
            (long long)rr->detail_retained);
  put_ints(sb, rr->peak_ev.live, r->lo.modules);
  memi_sb_put(sb, ",\"tensors\":[");
  for (i = 0; i < rr->n_detail; i++) {
    const tensor_row *t = &rr->detail[i];
    memi_sb_put(sb, i ? ",{\"name\":" : "{\"name\":");
    memi_sb_json_str(sb, t->name);
    memi_sb_put(sb, ",\"shape\":");
    memi_sb_json_str(sb, t->shape);
    memi_sb_printf(sb, ",\"tag\":\"%c\",\"bytes\":%lld}", t->tag, (long long)t->bytes);
  }
  memi_sb_put(sb, "]}");
}

/* One rank asked for: its own figures beside the run's headline
** ("run_known": false when every rank could not be replayed, and the
** headline is then this rank's alone). */
static void put_shown_rank(strbuf *sb, const memest_result *r) {
  const rank_result *rr = &r->ranks[r->worst];
  memi_sb_printf(sb,
                 ",\"shown_rank\":{\"pp_rank\":%d,\"peak_bytes\":%lld,\"tensor_peak_bytes\":%lld,"
                 "\"headroom_bytes\":%lld,\"headroom_fraction\":%.6f,\"status\":\"%s\","
                 "\"run_known\":%s}",
                 rr->rank, (long long)r->shown_peak, (long long)rr->tensor_peak,
                 (long long)r->shown_headroom,
                 r->capacity > 0 ? (double)r->shown_headroom / (double)r->capacity : 0.0,
                 memi_status_name(r->shown_status), r->every != NULL ? "true" : "false");
}

/* One rank asked for: every rank's peak too, for the per-rank chart. */
static void put_every_rank(strbuf *sb, const memest_result *every) {
  int i;
  memi_sb_printf(sb, ",\"every_rank\":{\"worst_rank\":%d,\"peak_bytes\":%lld,\"ranks\":[",
                 every->ranks[every->worst].rank, (long long)every->peak);
  for (i = 0; i < every->n_ranks; i++) {
    if (i > 0) memi_sb_put(sb, ",");
    put_rank(sb, every, &every->ranks[i]);
  }
  memi_sb_put(sb, "]}");
}

char *memest_result_json(const memest_result *r) {
  strbuf sb;
  char cmd[4096];   /* the longest command: a 511-quote label is 2,046 bytes */
  int i;
  if (r == NULL) return NULL;
  memi_sb_init(&sb);
  if (memest_params_command(&r->params, cmd, sizeof cmd) == 0) sb.failed = 1;
  memi_sb_put(&sb, "{\"memest_version\":\"" MEMEST_VERSION "\",\"command\":");
  memi_sb_json_str(&sb, cmd);
  memi_sb_printf(&sb,
            ",\"status\":\"%s\",\"peak_bytes\":%lld,\"tensor_peak_bytes\":%lld,"
            "\"gpu_capacity_bytes\":%lld,\"headroom_bytes\":%lld,\"headroom_fraction\":%.6f,"
            "\"worst_rank\":%d",
            memi_status_name(r->status), (long long)r->peak, (long long)r->tensor_peak,
            (long long)r->capacity, (long long)r->headroom,
            r->capacity > 0 ? (double)r->headroom / (double)r->capacity : 0.0,
            memest_result_worst_rank(r));
  if (r->params.pp_rank >= 0) put_shown_rank(&sb, r);
  memi_sb_put(&sb, ",\"warnings\":[");
  for (i = 0; i < r->n_warnings; i++) {
    if (i > 0) memi_sb_put(&sb, ",");
    memi_sb_json_str(&sb, r->warnings[i]);
  }
  memi_sb_put(&sb, "],");
  memi_inputs_json(&sb, &r->params, r->capacity);
  memi_model_source_json(&sb, &r->params);
  memi_source_put_json(&sb, r->source_json);
  put_derived(&sb, r);
  put_schedule(&sb, r);
  put_routing(&sb, r);
  memi_time_json(&sb, r);
  put_model(&sb, r);
  memi_sb_printf(&sb,
            ",\"non_pytorch\":{\"total_bytes\":%lld,\"cuda_context\":%lld,\"nccl_world\":%lld,"
            "\"nccl_mesh\":%lld,\"fsdp_state\":%lld,\"first_forward\":%lld}",
            (long long)r->nonpt, (long long)r->nonpt_parts[0], (long long)r->nonpt_parts[1],
            (long long)r->nonpt_parts[2], (long long)r->nonpt_parts[3],
            (long long)r->nonpt_parts[4]);
  memi_sb_put(&sb, ",\"ranks\":[");
  for (i = 0; i < r->n_ranks; i++) {
    if (i > 0) memi_sb_put(&sb, ",");
    put_rank(&sb, r, &r->ranks[i]);
  }
  memi_sb_put(&sb, "]");
  if (r->every != NULL) put_every_rank(&sb, r->every);
  put_ranked(&sb, r);
  put_suggestions(&sb, r);
  put_nearest(&sb, r);
  if (r->params.detail) put_detail(&sb, r);
  memi_sb_put(&sb, "}");
  return memi_sb_finish(&sb);
}

