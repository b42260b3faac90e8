/*
** report_text.c — the CLI's text report: the equivalent command, a header,
** static memory, peak dynamic memory, the grand total and fit verdict,
** suggestions, a line per rank, and with --detail / --timeline the saved
** tensors at the peak and the event table. Units are GiB (2^30 bytes).
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_source.h"
#include "model/presets.h"
#include "sim/result.h"
#include "report/report_time.h"

static void line_gib(strbuf *sb, const char *what, int64_t bytes) {
  char g[32];
  memi_sb_printf(sb, "  %-40s %10s\n", what, memi_fmt_gib(g, sizeof g, bytes));
}

/* The routing mode and factor, and the margin the layout leaves. */
static void routing_line(strbuf *sb, const memest_result *r) {
  const memest_routing_info *ri = &r->routing;
  static const char *const modes[] = {"measured", "balanced (the trainer's benchmark mode)",
                                      "given"};
  double shown = floor(ri->margin * 1000.0) / 1000.0;   /* never above the margin */
  if (!ri->applies) {
    if (r->mc.experts > 0) {
      memi_sb_put(sb, "Routing      does not apply: ep = 1, every expert is local\n");
    }
    return;
  }
  memi_sb_printf(sb, "Routing      %s factor %.2f; ", modes[r->params.routing], ri->factor);
  if (!ri->has_margin) {
    memi_sb_put(sb, "no margin: out of memory even with balanced routing\n");
  } else if (ri->margin_is_limit) {
    memi_sb_printf(sb, "fits up to factor %.3f (the busiest rank receives %.3fx the uniform tokens), "
                  "the cap\n",
              shown, shown);
  } else {
    memi_sb_printf(sb, "fits up to factor %.3f (the busiest rank receives %.3fx the uniform tokens)\n",
              shown, shown);
  }
}

static void header(strbuf *sb, const memest_result *r) {
  const memest_params *p = &r->params;
  const layout *lo = &r->lo;
  const run_dims *d = &lo->d;
  const preset_gpu *g = p->gpu[0] ? memi_preset_gpu_find(p->gpu) : NULL;
  char a[32], b[32], c[32], e[32], model[4 * sizeof p->model], type[4 * sizeof r->mc.model_type];
  int i;
  memi_sb_printf(sb, "Model        %s: %s (%s), %s parameters (%s active per token, %s without "
                     "the input embedding), %lld layers",
            memi_text_line(model, sizeof model, p->model), r->mc.arch->title,
            r->mc.model_type[0] ? memi_text_line(type, sizeof type, r->mc.model_type) : "no model_type",
            memi_fmt_int(a, sizeof a, r->model_params), memi_fmt_int(b, sizeof b, r->active_params),
            memi_fmt_int(c, sizeof c, r->active_params_no_embedding), (long long)r->mc.layers);
  if (r->mc.experts > 0) {
    memi_sb_printf(sb, ", %lld experts (top-%lld)", (long long)r->mc.experts, (long long)r->mc.top_k);
  }
  if (memi_model_source_shown(p)) {
    memi_sb_put(sb, "\nConfig       ");
    memi_model_source_text(sb, p);
  }
  {
    char shard[8];
    const char *name = memest_sharding_name(p->sharding);
    size_t k;
    for (k = 0; name[k] && k + 1 < sizeof shard; k++) shard[k] = (char)toupper((unsigned char)name[k]);
    shard[k] = '\0';
    memi_sb_printf(sb, "\nParallelism  pp %lld x ep %lld x cp %lld x dp %lld = %lld GPUs (%s), %d stages\n",
              (long long)lo->pp, (long long)lo->ep, (long long)lo->cp, (long long)lo->dp,
              (long long)lo->world, shard, lo->stages);
  }
  memi_sb_printf(sb, "Batch        micro %lld, global %lld, sequence %lld -> %lld micro-batches per step\n",
            (long long)lo->mbs, (long long)lo->gbs, (long long)lo->seq, (long long)lo->chunks);
  memi_sb_printf(sb, "Tokens       m = %s per chunk", memi_fmt_int(a, sizeof a, d->m));
  if (d->top_k > 0) {
    memi_sb_printf(sb, "; top-%lld routes %s rows to this rank's %lld experts (x%.2f), %s GEMM rows, "
                  "%s scatter rows",
              (long long)d->top_k, memi_fmt_int(b, sizeof b, d->n_in), (long long)d->e_loc,
              (double)d->routing_milli / 1000.0, memi_fmt_int(c, sizeof c, d->m_act),
              memi_fmt_int(e, sizeof e, d->r_rows));
  }
  memi_sb_put(sb, "\n");
  routing_line(sb, r);
  memi_sb_printf(sb, "Training     %s, %s\n", p->optimizer == MEMEST_MUON ? "Muon (+AdamW)" : "AdamW",
            p->fp8_training == MEMEST_FP8_DEEP_GEMM ? "FP8 (DeepGEMM)" : "BF16");
  memi_sb_printf(sb, "GPU          %s, %s GiB\n", g != NULL ? g->title : "custom",
            memi_fmt_gib(a, sizeof a, r->capacity));
  for (i = 0; i < r->n_warnings; i++) {
    memi_sb_put(sb, "Warning      ");
    memi_sb_text(sb, r->warnings[i]);
    memi_sb_put(sb, "\n");
  }
  if (r->params.pp_rank < 0) {
    memi_sb_printf(sb, "\nAll figures in GiB (2^30 bytes); pipeline rank %d has the highest total.\n",
              r->ranks[r->worst].rank);
  } else if (r->every != NULL) {
    memi_sb_printf(sb, "\nAll figures in GiB (2^30 bytes), of pipeline rank %d as asked (--pp-rank); "
                       "the verdict is the run's: pipeline rank %d has the highest total.\n",
              r->ranks[r->worst].rank, r->run_worst);
  } else {
    memi_sb_printf(sb, "\nAll figures in GiB (2^30 bytes), of pipeline rank %d alone (--pp-rank): "
                       "replaying every rank for the run's verdict would exceed "
                       "MEMEST_MAX_REPLAY_CHUNKS, so the run's verdict is not known.\n",
              r->ranks[r->worst].rank);
  }
}

static int64_t comp_sum(const comp_vec *v, int from, int to) {
  int64_t t = 0;
  int c;
  for (c = from; c < to; c++) t += v->b[c];
  return t;
}

/* v[0..n) as "a<sep>b<sep>...": one value per module. */
static const char *join_ints(char *buf, size_t size, const int *v, int n, const char *sep) {
  size_t o = 0;
  int m;
  buf[0] = '\0';
  for (m = 0; m < n && o < size; m++) {
    int w = snprintf(buf + o, size - o, "%s%d", m ? sep : "", v[m]);
    if (w < 0) break;
    o += (size_t)w;
  }
  return buf;
}

/* "4 in phase 0<sep>1 in phase 1": the live chunks of each module. */
static void live_text(strbuf *sb, const int *live, int n, const char *sep) {
  int m;
  for (m = 0; m < n; m++) memi_sb_printf(sb, "%s%d in phase %d", m ? sep : "", live[m], m);
}

static void static_section(strbuf *sb, const rank_result *rr) {
  int c;
  memi_sb_printf(sb, "\nStatic memory (pp rank %d, at the peak)\n", rr->rank);
  for (c = 0; c < C_FIRST_DYNAMIC; c++) {
    if (rr->at_peak.b[c] != 0) line_gib(sb, memi_comp_title((comp)c), rr->at_peak.b[c]);
  }
  line_gib(sb, "total static", comp_sum(&rr->at_peak, 0, C_FIRST_DYNAMIC));
}

static void dynamic_section(strbuf *sb, const rank_result *rr, int modules) {
  char label[400];
  int c;
  memi_sb_put(sb, "\nPeak dynamic memory\n");
  memi_sb_printf(sb, "  peak event: %s\n", memi_peak_label(&rr->peak_ev, label, sizeof label));
  memi_sb_put(sb, "  live chunks: ");
  live_text(sb, rr->peak_ev.live, modules, ", ");
  memi_sb_put(sb, "\n");
  for (c = C_FIRST_DYNAMIC; c < C_COUNT; c++) {
    if (rr->at_peak.b[c] != 0) line_gib(sb, memi_comp_title((comp)c), rr->at_peak.b[c]);
  }
  line_gib(sb, "total dynamic", comp_sum(&rr->at_peak, C_FIRST_DYNAMIC, C_COUNT));
}

/* The status line: "OOM (short by x GiB)" or the status's name. */
static void status_line(strbuf *sb, const char *what, memest_status st, int64_t headroom) {
  char g[32];
  if (st == MEMEST_FITS_OOM) {
    memi_sb_printf(sb, "  %-40s %10s (short by %s GiB)\n", what, "OOM",
              memi_fmt_gib(g, sizeof g, -headroom));
  } else {
    memi_sb_printf(sb, "  %-40s %10s\n", what, memi_status_name(st));
  }
}

/* One rank asked for: its own headroom and status, then the run's verdict,
** naming its worst rank, that rank's total and its headroom. */
static void shown_rank_totals(strbuf *sb, const memest_result *r) {
  char what[64], g[32];
  snprintf(what, sizeof what, "headroom of pipeline rank %d", r->ranks[r->worst].rank);
  memi_sb_printf(sb, "  %-40s %10s (%.1f%%)\n", what, memi_fmt_gib(g, sizeof g, r->shown_headroom),
            100.0 * (double)r->shown_headroom / (double)r->capacity);
  snprintf(what, sizeof what, "status of pipeline rank %d", r->ranks[r->worst].rank);
  status_line(sb, what, r->shown_status, r->shown_headroom);
  if (r->every == NULL) {
    memi_sb_printf(sb, "  %-40s %10s\n", "status of the run", "not known");
    return;
  }
  snprintf(what, sizeof what, "run's worst: pipeline rank %d, total", r->run_worst);
  line_gib(sb, what, r->peak);
  memi_sb_printf(sb, "  %-40s %10s (%.1f%%)\n", "run's headroom", memi_fmt_gib(g, sizeof g, r->headroom),
            100.0 * (double)r->headroom / (double)r->capacity);
  status_line(sb, "status (the run's)", r->status, r->headroom);
}

static void total_section(strbuf *sb, const memest_result *r) {
  const rank_result *rr = &r->ranks[r->worst];
  char what[64], g[32];
  if (r->params.pp_rank >= 0) memi_sb_printf(sb, "\nGrand total (pipeline rank %d)\n", rr->rank);
  else memi_sb_put(sb, "\nGrand total\n");
  line_gib(sb, "model tensors (PyTorch peak)", rr->tensor_peak);
  line_gib(sb, "non-PyTorch (CUDA, NCCL, compile, FSDP)", rr->nonpt);
  snprintf(what, sizeof what, "fragmentation (%.0f%% of tensors)", r->params.fragmentation * 100.0);
  line_gib(sb, what, rr->frag);
  line_gib(sb, "total", rr->total);
  line_gib(sb, "GPU capacity", r->capacity);
  if (r->params.pp_rank >= 0) {
    shown_rank_totals(sb, r);
    return;
  }
  memi_sb_printf(sb, "  %-40s %10s (%.1f%%)\n", "headroom", memi_fmt_gib(g, sizeof g, r->headroom),
            100.0 * (double)r->headroom / (double)r->capacity);
  status_line(sb, "status", r->status, r->headroom);
}

/* The nearest OK layout in one line, as the flags that change. */
static void nearest_line(strbuf *sb, const memest_result *r) {
  const nearest_layout *n = &r->nearest;
  const memest_params *b = &r->params;
  const int64_t now[5] = {b->pp_size, b->ep_size, b->cp_size, b->total_gpus, b->micro_batch_size};
  const int64_t to[5] = {n->pp, n->ep, n->cp, n->total, n->mbs};
  static const memest_param_id ids[5] = {MEMEST_P_PP_SIZE, MEMEST_P_EP_SIZE, MEMEST_P_CP_SIZE,
                                         MEMEST_P_TOTAL_GPUS, MEMEST_P_MICRO_BATCH_SIZE};
  char g[32], h[32];
  int i;
  if (!n->searched) return;
  if (!n->found) {
    memi_sb_printf(sb, "  no layout over pp, ep, cp and micro batch is OK on up to %lld GPUs\n",
              (long long)n->gpus_max);
    return;
  }
  memi_sb_put(sb, "  nearest OK layout:");
  for (i = 0; i < 5; i++) {
    if (to[i] != now[i]) {
      memi_sb_printf(sb, " %s %lld", memest_param_describe(ids[i])->flag, (long long)to[i]);
    }
  }
  memi_sb_printf(sb, " (dp %lld): peak %s GiB, headroom %s GiB (OK); ", (long long)n->dp,
            memi_fmt_gib(g, sizeof g, n->peak), memi_fmt_gib(h, sizeof h, n->headroom));
  if (n->total > b->total_gpus) {
    memi_sb_printf(sb, "%lld GPUs more, ", (long long)(n->total - b->total_gpus));
  } else {
    memi_sb_put(sb, "the same GPUs, ");
  }
  memi_sb_printf(sb, "%d input%s changed\n", n->changed, n->changed == 1 ? "" : "s");
}

static void suggestions_section(strbuf *sb, const memest_result *r) {
  const comp_vec *v = &r->ranks[r->worst].at_peak;
  int used[C_COUNT] = {0}, k, c, i;
  char g[32], h[32];
  memi_sb_put(sb, "\nSuggestions\n  largest components at the peak:");
  for (k = 0; k < 4; k++) {
    int best = -1;
    for (c = 0; c < C_COUNT; c++) {
      if (!used[c] && v->b[c] > 0 && (best < 0 || v->b[c] > v->b[best])) best = c;
    }
    if (best < 0) break;
    used[best] = 1;
    memi_sb_printf(sb, "%s %s %s", k ? "," : "", memi_comp_title((comp)best),
              memi_fmt_gib(g, sizeof g, v->b[best]));
  }
  memi_sb_put(sb, "\n");
  if (r->n_sugg == 0) memi_sb_put(sb, "  no single knob change lowers the peak\n");
  for (i = 0; i < r->n_sugg; i++) {
    const suggestion *s = &r->sugg[i];
    const memest_param_info *pi = NULL;
    int id;
    for (id = 0; id < MEMEST_P_COUNT; id++) {
      if (strcmp(memest_param_describe((memest_param_id)id)->name, s->knob) == 0)
        pi = memest_param_describe((memest_param_id)id);
    }
    memi_sb_printf(sb, "  %s %s -> %s: peak %s GiB, saves %s GiB (%s); %s\n",
              pi != NULL ? pi->flag : s->knob, s->from, s->to, memi_fmt_gib(g, sizeof g, s->peak),
              memi_fmt_gib(h, sizeof h, s->saves), memi_status_name(s->status), s->advice);
  }
  nearest_line(sb, r);
}

/* Every rank (with --pp-rank, every rank's replay too when it ran): the
** worst and the rank asked for marked. */
static void ranks_section(strbuf *sb, const memest_result *r) {
  char a[32], b[32], label[400];
  const memest_result *all = r->every != NULL ? r->every : r;
  int i, shown = r->params.pp_rank >= 0 ? r->ranks[r->worst].rank : -1;
  int worst = r->every != NULL || shown < 0 ? all->worst : -1;   /* -1: not known */
  memi_sb_put(sb, "\nPer rank\n  rank  stages   layers   tensors     total  peak event\n");
  for (i = 0; i < all->n_ranks; i++) {
    const rank_result *rr = &all->ranks[i];
    char st[24], ly[24];
    join_ints(st, sizeof st, rr->stages, all->lo.modules, ",");
    join_ints(ly, sizeof ly, rr->layers, all->lo.modules, "+");
    memi_sb_printf(sb, "  %-5d %-8s %-8s %7s %9s  %s%s\n", rr->rank, st, ly,
              memi_fmt_gib(a, sizeof a, rr->tensor_peak), memi_fmt_gib(b, sizeof b, rr->total),
              memi_peak_label(&rr->peak_ev, label, sizeof label),
              i == worst && rr->rank == shown ? "  <- worst, shown"
              : i == worst                     ? "  <- worst"
              : rr->rank == shown              ? "  <- shown" : "");
  }
}

static void detail_section(strbuf *sb, const memest_result *r) {
  const rank_result *rr = &r->ranks[r->worst];
  char a[32];
  int i;
  memi_sb_printf(sb, "\nSaved tensors per chunk of layer %d (%s) on rank %d\n", rr->detail_layer,
            rr->detail_kind != NULL ? rr->detail_kind : "", rr->rank);
  memi_sb_put(sb, "  tensor                                        shape                 tag         MiB\n");
  for (i = 0; i < rr->n_detail; i++) {
    const tensor_row *t = &rr->detail[i];
    memi_sb_printf(sb, "  %-45s %-21s [%c] %11.2f\n", t->name, t->shape, t->tag,
              (double)t->bytes / (1024.0 * 1024.0));
  }
  memi_sb_printf(sb, "  %-45s %-21s     %11.2f\n", "total per layer per chunk", "",
            (double)rr->detail_retained / (1024.0 * 1024.0));
  memi_sb_printf(sb, "  [R] chunk record, [S] eager autograd op, [C] compiled region; %s\n",
            "live chunks at the peak:");
  memi_sb_put(sb, "  ");
  live_text(sb, rr->peak_ev.live, r->lo.modules, " and ");
  memi_sb_printf(sb, "; saved activations at the peak %s GiB\n",
                 memi_fmt_gib(a, sizeof a, rr->at_peak.b[C_ACT]));
}

static void timeline_section(strbuf *sb, const memest_result *r) {
  int i;
  int64_t k;
  for (i = 0; i < r->n_ranks; i++) {
    const rank_result *rr = &r->ranks[i];
    const double *t = memi_time_events(r, rr);
    int64_t prev = 0;
    char label[160], a[32], b[32], c[32], at[32], live[48];
    memi_sb_printf(sb, "\nTimeline of rank %d: events %lld-%lld of %lld (peak at %lld)\n", rr->rank,
              (long long)rr->tl_from, (long long)(rr->tl_from + rr->n_tl - 1),
              (long long)rr->n_events, (long long)rr->peak_index);
    memi_sb_printf(sb, "  #      %s event                                          total    delta  in-op peak  live\n",
                   t != NULL ? "  time (s)" : "");
    for (k = 0; k < rr->n_tl; k++) {
      const tl_event *e = &rr->tl[k];
      int64_t idx = rr->tl_from + k;
      at[0] = '\0';
      if (t != NULL) snprintf(at, sizeof at, "%10.3f ", t[k]);
      memi_sb_printf(sb, "  %-6lld %s%-46s %7s %8s %9s  %s%s\n", (long long)idx, at,
                memi_tl_describe(e, label, sizeof label), memi_fmt_gib(a, sizeof a, e->total),
                k == 0 ? "" : memi_fmt_gib(b, sizeof b, e->total - prev), memi_fmt_gib(c, sizeof c, e->peak),
                join_ints(live, sizeof live, e->live, r->lo.modules, ","),
                idx == rr->peak_index ? "  <- peak" : "");
      prev = e->total;
    }
  }
}

char *memest_result_text(const memest_result *r) {
  strbuf sb;
  char cmd[4096];   /* the longest command: a 511-quote label is 2,046 bytes */
  const rank_result *rr;
  if (r == NULL) return NULL;
  rr = &r->ranks[r->worst];
  memi_sb_init(&sb);
  if (memest_params_command(&r->params, cmd, sizeof cmd) == 0) sb.failed = 1;
  memi_sb_printf(&sb, "%s\n\n", cmd);
  if (r->source_text != NULL) memi_sb_printf(&sb, "%s\n", r->source_text);
  header(&sb, r);
  static_section(&sb, rr);
  dynamic_section(&sb, rr, r->lo.modules);
  total_section(&sb, r);
  memi_time_text(&sb, r);
  suggestions_section(&sb, r);
  ranks_section(&sb, r);
  if (r->params.detail) detail_section(&sb, r);
  if (r->params.timeline) timeline_section(&sb, r);
  return memi_sb_finish_text(&sb);
}
