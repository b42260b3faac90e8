/*
** stepend.c — the end of the step, which the measured peaks include:
** FP8 caches freed, then each module's FSDP post-backward group by group
** (fold pending grads, reshard, fp32 reduce-scatter; memory-model.md §2.5, §5.7), then
** the optimizer step with its temporaries (Muon's updates and full-size
** fp32 results, AdamW's foreach temporaries; memory-model.md §5.8) and zero_grad.
** Each change goes through rank.c, which tracks the event's and the step's
** peak.
*/
#include <string.h>

#include "sim/rank.h"

enum { STEP_END = 9, STEP_OPT = 10 };
enum { SE_REDUCE = 0, SE_MUON = 1, SE_ADAMW = 2 };

typedef struct se_event {
  sim_rank *sr;
  tl_event ev;
} se_event;

static void se_begin(se_event *e, sim_rank *sr, int step, int kind, int module) {
  memset(&e->ev, 0, sizeof e->ev);
  e->sr = sr;
  e->ev.step = step;
  e->ev.kind = kind;
  e->ev.pf = e->ev.pb = module;
  e->ev.cf = e->ev.cb = -1;
  e->ev.peak = sr->total;
  e->ev.at_peak = sr->cur;
  e->ev.what = "start";
}

static void se_delta(se_event *e, comp c, int64_t d, const char *label) {
  memi_sim_change(e->sr, &e->ev, c, d, label);
}

static void se_end(se_event *e) { memi_sim_event(e->sr, &e->ev); }

/* Whether group g (of layer index li within its module) holds state `any`
** (`first` for layer 0's experts group) as the pipeline ends. */
static int group_flag(const sim_rank *sr, const rank_group *g, int li, unsigned any,
                      unsigned first) {
  return (sr->flags.mod[g->module] & (li == 0 ? first : any)) != 0;
}

static int has_accum(const sim_rank *sr, const rank_group *g, int li) {
  switch (g->kind) {
    case G_LAYER: return (sr->flags.mod[g->module] & SF_ACCUM_L) != 0;
    case G_EXPERTS: return group_flag(sr, g, li, SF_ACCUM_X, SF_ACCUM_X0);
    case G_EMBED: return 0;
    default: return (sr->flags.edge & SF_ACCUM_HEAD) != 0;
  }
}

/* The bytes of bf16 .grad group g holds as the pipeline ends: grads of
** chunks no fold took, and deferred expert grads written after the last. */
static int64_t dot_grad_bytes(sim_rank *sr, const rank_group *g, int li) {
  int *o = &sr->ovf;
  int held;
  switch (g->kind) {
    case G_LAYER: held = (sr->flags.mod[g->module] & SF_GRAD16_L) != 0; break;
    case G_EXPERTS:
      return group_flag(sr, g, li, SF_PENDING, SF_PENDING0) ? ck_mul(o, 2, g->g.full_deferred) : 0;
    case G_EMBED: held = (sr->flags.edge & SF_GRAD16_EMB) != 0; break;
    default: held = (sr->flags.edge & SF_GRAD16_HEAD) != 0; break;
  }
  return held ? ck_mul(o, 2, g->g.full_grad) : 0;
}

static int64_t resident_unsharded(sim_rank *sr, const rank_group *g, comp *where) {
  int *o = &sr->ovf;
  *where = C_UNSHARDED;
  if (g->kind == G_EMBED || g->kind == G_HEAD) {
    unsigned f = g->kind == G_EMBED ? SF_EMBED_RES : SF_HEAD_RES;
    *where = C_EDGE;
    return (sr->flags.edge & f) ? ck_mul(o, 2, g->g.un) : 0;
  }
  return (sr->flags.mod[g->module] & SF_UNSHARDED) ? ck_mul(o, 2, g->g.un) : 0;
}

/* One group of run_post_backward (memory-model.md §5.7; docs/model.md, Step end): the
** bf16 .grad added into the fp32 accumulator, or made one by .to(fp32);
** then FSDP's post_backward reshards the group, frees the previous group's
** reduce-scatter input, copies the accumulator into this one's and frees
** it, and keeps the sharded fp32 grad. Returns this group's input. */
static int64_t post_backward_group(se_event *e, const rank_group *g, int li, int64_t prev_rs) {
  sim_rank *sr = e->sr;
  int *o = &sr->ovf;
  int accum = has_accum(sr, g, li);
  int64_t dot = dot_grad_bytes(sr, g, li), rs;
  comp where;
  int64_t un = resident_unsharded(sr, g, &where);
  if (dot > 0) {
    if (!accum) se_delta(e, C_ACCUM, ck_mul(o, 4, g->g.full_grad), "bf16 .grad to fp32");
    se_delta(e, C_PENDING, -dot, accum ? "bf16 .grad added into the accumulator" : "bf16 .grad freed");
    accum = 1;
  }
  se_delta(e, where, -un, "parameters resharded");
  se_delta(e, C_FSDP_T, -prev_rs, "previous reduce-scatter input freed");
  if (!accum) return 0;
  rs = ck_mul(o, 4, g->g.rs_in);
  se_delta(e, C_FSDP_T, rs, "reduce-scatter input (fp32)");
  se_delta(e, C_ACCUM, -ck_mul(o, 4, g->g.full_grad), "accumulators copied out");
  se_delta(e, C_SHARDED_GRAD, ck_mul(o, 4, g->g.sh_grad), "sharded grads (fp32)");
  return rs;
}

/* run_post_backward for one module, its groups in the module tree's
** pre-order, as FSDP lists its states: embed_tokens, norm and lm_head
** first, then each layer's group before its experts group. */
static void post_backward(sim_rank *sr, int m) {
  const module_inv *mi = &sr->inv.mod[m];
  int64_t prev_rs = 0;
  se_event e;
  int pass, i;
  se_begin(&e, sr, STEP_END, SE_REDUCE, m);
  for (pass = 0; pass < 2; pass++) {
    for (i = mi->first_group; i < mi->first_group + mi->n_groups; i++) {
      const rank_group *g = &sr->inv.groups[i];
      int edge = g->kind == G_EMBED || g->kind == G_HEAD;
      if (edge != (pass == 0)) continue;
      prev_rs = post_backward_group(&e, g, g->layer >= 0 ? g->layer - mi->first_layer : -1,
                                    prev_rs);
    }
  }
  se_delta(&e, C_FSDP_T, -prev_rs, "last reduce-scatter input freed");
  se_end(&e);
}

/* Newton-Schulz temporaries of one parameter: a bf16 copy of the update,
** the next iterate, and the (r x r) Gram matrix and polynomial per batch. */
static int64_t ns_bytes(const rank_param *rp, int *o) {
  int64_t batch = rp->p.ndim == 3 ? rp->p.d[0] : 1;
  int64_t rows = rp->p.ndim == 3 ? rp->p.d[1] : rp->p.d[0];
  int64_t cols = rp->p.ndim == 3 ? rp->p.d[2] : rp->p.d[1];
  int64_t r = rows < cols ? rows : cols;
  int64_t full = ck_mul4(o, rp->p.d[0], rp->p.d[1], rp->p.d[2], 1);
  return ck_add(o, ck_mul(o, 4, full), ck_mul4(o, 4, batch, r, r));
}

static int64_t full_elems(const rank_param *rp, int *o) {
  return ck_mul4(o, rp->p.d[0], rp->p.d[1], rp->p.d[2], 1);
}

/* The orthogonalisation path of a Muon parameter: bucketed per 1-D mesh of
** size > 1, else local (memory-model.md §5.8). Returns the mesh size, 1 for local. */
static int64_t muon_mesh(const sim_rank *sr, const rank_param *rp) {
  if (sr->params->sharding == MEMEST_HSDP) return 1;
  return rp->w;
}

static void muon_local(se_event *e, const rank_param *rp) {
  int *o = &e->sr->ovf;
  int64_t full = full_elems(rp, o), ns = ns_bytes(rp, o);
  int64_t gathered = rp->w > 1 ? ck_mul(o, 4, full) : 0;
  se_delta(e, C_OPT_T, gathered, "Muon full_tensor (fp32)");
  se_delta(e, C_OPT_T, ns, "Muon Newton-Schulz (bf16)");
  se_delta(e, C_OPT_T, ck_mul(o, 4, full), "Muon orthogonalised update (fp32, kept)");
  se_delta(e, C_OPT_T, -ns, "Newton-Schulz temporaries freed");
  se_delta(e, C_OPT_T, -gathered, "full_tensor freed");
}

/* One window of a bucket: gathers, owners' Newton-Schulz, broadcasts. */
static void muon_window(se_event *e, const rank_param *const *win, int n) {
  int *o = &e->sr->ovf;
  int64_t gathers = 0, ns = 0;
  int i;
  for (i = 0; i < n; i++) {
    int64_t t = ns_bytes(win[i], o);
    gathers = ck_add(o, gathers, ck_mul(o, 4, full_elems(win[i], o)));
    if (t > ns) ns = t;
  }
  se_delta(e, C_OPT_T, gathers, "Muon window gathers (fp32 full)");
  se_delta(e, C_OPT_T, ns, "Muon Newton-Schulz (bf16)");
  se_delta(e, C_OPT_T, -ns, "Newton-Schulz temporaries freed");
  se_delta(e, C_OPT_T, gathers, "Muon broadcast results (fp32 full, kept)");
  se_delta(e, C_OPT_T, -gathers, "Muon window gathers freed");
}

static void muon_step(sim_rank *sr) {
  const rank_inv *ri = &sr->inv;
  int *o = &sr->ovf;
  const rank_param *win[4096];
  int64_t results = 0, mesh;
  int i, pass;
  se_event e;
  se_begin(&e, sr, STEP_OPT, SE_MUON, 0);
  se_delta(&e, C_OPT_T, ck_mul(o, 4, ri->sh_muon), "Muon updates (fp32, sharded)");
  /* Local parameters first, then one bucket per mesh size. */
  for (i = 0; i < ri->n_params; i++) {
    const rank_param *rp = &ri->params[i];
    if (!rp->p.muon || !rp->p.grad || muon_mesh(sr, rp) > 1) continue;
    muon_local(&e, rp);
    results = ck_add(o, results, ck_mul(o, 4, full_elems(rp, o)));
  }
  for (pass = 0; pass < 2; pass++) {
    int n = 0;
    int64_t size = pass == 0 ? sr->lo->w_x : sr->lo->w_o, cap;
    if (pass == 1 && sr->lo->w_o == sr->lo->w_x) break;
    cap = 4 * size > 8 ? 4 * size : 8;
    if (cap > (int64_t)(sizeof win / sizeof win[0])) cap = (int64_t)(sizeof win / sizeof win[0]);
    for (i = 0; i < ri->n_params; i++) {
      const rank_param *rp = &ri->params[i];
      mesh = muon_mesh(sr, rp);
      if (!rp->p.muon || !rp->p.grad || mesh <= 1 || rp->w != size) continue;
      win[n++] = rp;
      results = ck_add(o, results, ck_mul(o, 4, full_elems(rp, o)));
      if (n == cap) {
        muon_window(&e, win, n);
        n = 0;
      }
    }
    if (n > 0) muon_window(&e, win, n);
  }
  se_delta(&e, C_OPT_T, -results, "Muon results applied and freed");
  se_delta(&e, C_OPT_T, -ck_mul(o, 4, ri->sh_muon), "Muon updates freed");
  se_delta(&e, C_SHARDED_GRAD, -ck_mul(o, 4, ri->sh_muon), "zero_grad (Muon parameters)");
  se_end(&e);
}

static void adamw_step(sim_rank *sr, int64_t sh) {
  int *o = &sr->ovf;
  se_event e;
  se_begin(&e, sr, STEP_OPT, SE_ADAMW, 0);
  se_delta(&e, C_OPT_T, ck_mul(o, 4, sh), "AdamW foreach sqrt(exp_avg_sq) (fp32)");
  se_delta(&e, C_OPT_T, -ck_mul(o, 4, sh), "AdamW temporaries freed");
  se_delta(&e, C_SHARDED_GRAD, -ck_mul(o, 4, sh), "zero_grad (AdamW parameters)");
  se_end(&e);
}

void memi_stepend_run(sim_rank *sr) {
  se_event e;
  int m;
  se_begin(&e, sr, STEP_END, SE_REDUCE, 0);
  se_delta(&e, C_FP8_CACHE, -sr->cur.b[C_FP8_CACHE], "FP8 weight caches freed");
  for (m = 0; m < sr->inv.n_mod; m++) post_backward(sr, m);
  if (sr->params->optimizer == MEMEST_MUON) {
    muon_step(sr);
    adamw_step(sr, sr->inv.sh_adam);
  } else {
    adamw_step(sr, ck_add(&sr->ovf, sr->inv.sh_muon, sr->inv.sh_adam));
  }
}
