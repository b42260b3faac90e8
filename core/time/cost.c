/*
** cost.c — the seconds of each op of one module (docs/time-model.md):
** the FLOPs of its layers from their parameter shapes (projections,
** router, routed experts at the busiest EP rank's rows, shared experts and
** dense MLPs), the attention product per layer kind after CP, the edges
** (embedding, lm_head and the loss), memory-bound work over HBM, the EP
** all-to-all, CP's ring and the P2P and FSDP transfers over the links of
** the trainer's mesh, and the step end (reduce-scatters, HSDP's
** all-reduce, DualPipe's all-reduce between its copies, AdamW or Muon).
*/
#include <math.h>
#include <string.h>

#include "time/time.h"

/* {======================================================================
** Links. The trainer's mesh is (pp, dp, cp, ep) with ep innermost, so a
** group of `group` ranks spaced `stride` apart stays inside a node when
** group * stride fits in one.
** ======================================================================= */
/* Bytes per second of a link inside a node (NVLink) or between nodes. */
static double link_bw(const time_env *env, int inside) {
  if (inside) return env->hw.nvlink_gb_per_s * 1e9 * env->eff[EFF_NVLINK];
  return env->hw.network_gbit_per_s * 1e9 / 8.0 * env->eff[EFF_NETWORK];
}

double memi_time_link(const time_env *env, double bytes, int64_t group, int64_t stride) {
  double bw;
  if (group <= 1 || bytes <= 0.0) return 0.0;
  bw = link_bw(env, (double)group * (double)stride <= (double)env->hw.gpus_per_node);
  return bw > 0.0 ? bytes / bw : 0.0;
}

/* Seconds of `flops` at share `eff` of peak. */
static double at_peak(double flops, double peak, double eff) {
  return flops > 0.0 ? flops / (peak * eff) : 0.0;
}

/* Seconds of `bytes` at share `eff` of the HBM bandwidth. */
static double at_hbm(const time_env *env, double bytes, double eff) {
  return bytes > 0.0 ? bytes / (env->hw.hbm_gb_per_s * 1e9 * eff) : 0.0;
}
/* }====================================================================== */

/* {======================================================================
** One decoder layer, per micro-batch on one GPU.
** ======================================================================= */
typedef struct layer_work {
  double gemm_flops;         /* forward FLOPs of dense GEMMs (one of F, B or W) */
  double router_flops;
  double expert_flops;       /* forward FLOPs of routed experts at the busiest rank */
  double model_expert_flops; /* the same at m * top_k rows (the model's own count) */
  double expert_rows;        /* grouped-GEMM rows per local expert */
  double attn_flops;         /* the attention product, forward */
  double elem_bytes;         /* memory-bound bytes, forward */
  double a2a_bytes;          /* dispatch + combine bytes leaving the busiest rank, forward */
  double ring_bytes;         /* CP ring bytes of the forward */
} layer_work;

static double attention_keys(const model_config *mc, int layer, int64_t seq) {
  double keys = (double)seq / 2.0;
  if (mc->layer_attn[layer] == ATTN_SLIDING && mc->sliding_window > 0 &&
      (double)mc->sliding_window < keys) {
    keys = (double)mc->sliding_window;
  }
  return keys;
}

static void layer_work_of(const time_env *env, int layer, layer_work *w) {
  const model_config *mc = env->mc;
  const run_dims *d = &env->lo->d;
  double m = (double)d->m, H = (double)mc->hidden, inter = 0.0, shared = 0.0, qk, v;
  param_list pl;
  int i, moe = mc->experts > 0 && !mc->layer_dense[layer];
  memset(w, 0, sizeof *w);
  pl.n = 0;
  mc->arch->layer_params(mc, layer, 1, &pl);
  for (i = 0; i < pl.n; i++) {
    const param_desc *p = &pl.p[i];
    double n = (double)p->d[0] * (double)p->d[1] * (double)p->d[2];
    if (p->ndim < 2) continue;
    if (p->expert) {
      w->expert_flops += 2.0 * n;            /* per routed row (e_loc = 1) */
      inter += (double)(p->d[1] < p->d[2] ? p->d[1] : p->d[2]);
    } else if (moe && p->d[0] == mc->experts) {
      w->router_flops += 2.0 * n * m;
    } else {
      w->gemm_flops += 2.0 * n * m;
    }
  }
  if (moe) {
    double rows = (double)(d->ep > 1 ? d->n_in : m * (double)d->top_k);
    w->model_expert_flops = w->expert_flops * m * (double)d->top_k;
    w->expert_flops *= rows;
    w->expert_rows = d->e_loc > 0 ? rows / (double)d->e_loc : rows;
    inter /= 3.0;                            /* gate, up, down: the width once */
    w->elem_bytes += rows * 2.0 * (4.0 * H + 3.0 * inter) + m * 12.0 * (double)mc->experts;
    if (d->ep > 1) {
      double out = (double)d->d_s * (double)(d->ep - 1) / (double)d->ep;
      double in = (double)d->d_r * (double)(d->ep - 1) / (double)d->ep;
      w->a2a_bytes = 2.0 * (out > in ? out : in) * H * 2.0;
    }
  } else {
    w->expert_flops = 0.0;
  }
  shared = (double)(moe ? mc->shared_inter : mc->dense_inter);
  if (shared > 0.0) w->elem_bytes += m * 2.0 * 3.0 * shared;
  /* The attention product: each of the rank's m queries meets, on average,
  ** the keys its causal mask (or window) lets it see of the whole sequence. */
  qk = (double)(mc->kv_lora_rank > 0 ? mc->qk_nope + mc->qk_rope : mc->head_dim);
  v = (double)(mc->kv_lora_rank > 0 ? mc->v_head : mc->head_dim);
  if (mc->layer_attn[layer] == ATTN_LINEAR) {
    double hk = (double)mc->lin_v_heads, dk = (double)mc->lin_k_dim, dv = (double)mc->lin_v_dim;
    w->attn_flops = m * hk * (4.0 * dk * dv + 2.0 * 64.0 * (dk + dv));
  } else {
    w->attn_flops = 2.0 * m * attention_keys(mc, layer, env->lo->seq) * (double)mc->heads * (qk + v);
    if (d->cp > 1) {
      double kv = mc->kv_lora_rank > 0 ? (double)(mc->kv_lora_rank + mc->qk_rope)
                                       : 2.0 * (double)mc->kv_heads * (double)mc->head_dim;
      w->ring_bytes = (double)(d->cp - 1) * m * kv * 2.0;
    }
  }
  w->elem_bytes += m * 2.0 * (16.0 * H + 4.0 * (double)mc->heads * qk);
}

/* Adds layer w's forward (part 0), backward (part 1: input grads, weight
** grads of everything but routed experts) and expert weight grads (part 2)
** to c. */
static void layer_add(const time_env *env, const layer_work *w, op_cost *f, op_cost *b,
                      op_cost *wg, double *flops) {
  const double *e = env->eff;
  double peak = env->hw.bf16_tflops * 1e12, gp = env->flops_peak;
  double ge = env->p->fp8_training == MEMEST_FP8_DEEP_GEMM ? e[EFF_FP8] : e[EFF_GEMM];
  double xe = env->p->fp8_training == MEMEST_FP8_DEEP_GEMM
                  ? e[EFF_FP8]
                  : e[EFF_EXPERTS] * w->expert_rows / (w->expert_rows + e[EFF_EXPERT_ROWS]);
  double seq = (double)env->lo->seq;
  double ae = e[EFF_ATTENTION] * seq / (seq + e[EFF_ATTN_SEQ]);
  double gemm = at_peak(w->gemm_flops, gp, ge), router = at_peak(w->router_flops, peak, e[EFF_ROUTER]);
  double experts = w->expert_rows > 0.0 ? at_peak(w->expert_flops, gp, xe) : 0.0;
  double attn = at_peak(w->attn_flops, peak, ae);
  double elem = at_hbm(env, w->elem_bytes, e[EFF_ELEMENTWISE]);
  double host = e[EFF_LAYER_US] * 1e-6;
  const run_dims *d = &env->lo->d;
  double a2a = memi_time_link(env, w->a2a_bytes, d->ep, 1);
  double ring = memi_time_link(env, w->ring_bytes, d->cp, d->ep);
  f->compute += gemm + router + experts + attn + elem + host;
  f->comm += a2a + (ring > attn ? ring - attn : 0.0);
  /* Backward: input and weight grads of dense GEMMs and the router, the
  ** experts' input grads, the attention backward (2.5 forward products),
  ** twice the memory-bound traffic; its all-to-all mirrors the forward's
  ** and the ring carries key and value grads too. */
  b->compute += 2.0 * gemm + 2.0 * router + experts + 2.5 * attn + 2.0 * elem + 2.0 * host;
  b->comm += a2a + (2.0 * ring > 2.5 * attn ? 2.0 * ring - 2.5 * attn : 0.0);
  wg->compute += experts;
  *flops += 3.0 * (w->gemm_flops + w->router_flops + w->model_expert_flops + w->attn_flops);
}
/* }====================================================================== */

/* {======================================================================
** A module: its layers and edges.
** ======================================================================= */
void memi_time_module_cost(const time_env *env, const rank_inv *ri, int m, module_cost *out) {
  const module_inv *mi = &ri->mod[m];
  const model_config *mc = env->mc;
  const layout *lo = env->lo;
  double tokens = (double)lo->d.m, H = (double)mc->hidden, V = (double)mc->vocab;
  double peak = env->hw.bf16_tflops * 1e12;
  op_cost wg = {0.0, 0.0};
  layer_work w;
  int l, g, have = 0;
  memset(out, 0, sizeof *out);
  for (l = mi->first_layer; l < mi->first_layer + mi->n_layers; l++) {
    /* Layers of one kind cost the same: work out each kind once. */
    if (!have || !layer_same_kind(mc, l, l - 1)) layer_work_of(env, l, &w);
    have = 1;
    layer_add(env, &w, &out->f, &out->b, &wg, &out->model_flops);
  }
  if (mi->stage0) {
    /* The embedding's backward writes a dense (V, H) bf16 gradient and adds it in. */
    out->b.compute += at_hbm(env, 3.0 * V * H * 2.0, env->eff[EFF_ELEMENTWISE]);
  }
  if (mi->last_stage) {
    double head = 2.0 * tokens * H * V;
    double loss = at_hbm(env, tokens * V * 2.0, env->eff[EFF_LOSS]);
    out->f.compute += at_peak(head, peak, env->eff[EFF_LM_HEAD]) + loss;
    out->b.compute += 2.0 * at_peak(head, peak, env->eff[EFF_LM_HEAD]) + loss;
    out->model_flops += 3.0 * head;
  }
  out->b_zb = out->b;
  out->b_zb.compute -= wg.compute;
  out->w = wg;
  out->p2p = memi_time_link(env, tokens * H * 2.0, 2, lo->world / lo->pp);
  for (g = mi->first_group; g < mi->first_group + mi->n_groups; g++) {
    const rank_group *rg = &ri->groups[g];
    double bytes = (double)rg->g.un * 2.0 * (double)(rg->g.w - 1) / (double)(rg->g.w > 0 ? rg->g.w : 1);
    int64_t stride = rg->kind == G_EXPERTS ? lo->ep : 1;
    out->gather += memi_time_link(env, bytes, rg->g.w, stride);
  }
}

double memi_time_overlap_exposed(const module_cost *f, const module_cost *b) {
  /* One chunk's all-to-all runs under the other chunk's compute. */
  double compute = f->f.compute + b->b.compute, comm = f->f.comm + b->b.comm;
  return comm > compute ? comm - compute : 0.0;
}
/* }====================================================================== */

/* {======================================================================
** The step end.
** ======================================================================= */
double memi_time_copy_reduce(const time_env *env, const rank_inv *ri, int64_t peer) {
  /* Each rank's fp32 gradient shards, all-reduced between two ranks: a
  ** ring of two moves each rank's bytes once. Pipeline rank r's GPUs
  ** start at r * world/pp in the trainer's mesh; the two GPUs share a
  ** node when those starts fall in one. */
  int64_t span = env->lo->world / env->lo->pp, gpn = env->hw.gpus_per_node;
  double bytes = 0.0, bw;
  int i;
  if (peer < 0 || peer == ri->rank) return 0.0;
  for (i = 0; i < ri->n_groups; i++) bytes += (double)ri->groups[i].g.sh_grad * 4.0;
  bw = link_bw(env, gpn > 0 && ri->rank * span / gpn == peer * span / gpn);
  return bw > 0.0 && bytes > 0.0 ? bytes / bw : 0.0;
}

/* Newton-Schulz FLOPs of one (r, c) matrix: 5 iterations of X Xt, A A, B X. */
static double ns_flops(double r, double c) {
  double a = r < c ? r : c, b = r < c ? c : r;
  return 5.0 * (4.0 * a * a * b + 2.0 * a * a * a);
}

void memi_time_step_end(const time_env *env, const rank_inv *ri, double *reduce,
                        double *optimizer) {
  const layout *lo = env->lo;
  int hsdp = env->p->sharding == MEMEST_HSDP, muon = env->p->optimizer == MEMEST_MUON;
  double peak = env->hw.bf16_tflops * 1e12, ns = 0.0, gather = 0.0, adam;
  int i;
  *reduce = 0.0;
  for (i = 0; i < ri->n_groups; i++) {
    const rank_group *rg = &ri->groups[i];
    double w = (double)rg->g.w;
    int64_t stride = rg->kind == G_EXPERTS ? lo->ep : 1;
    *reduce += memi_time_link(env, (double)rg->g.rs_in * 4.0 * (w - 1.0) / w, rg->g.w, stride);
    if (hsdp && lo->dp > 1) {
      /* HSDP all-reduces each shard over the dp replicas, cp*ep ranks apart
      ** for experts and the rest alike. */
      double bytes = (double)rg->g.sh_grad * 4.0 * 2.0 * (double)(lo->dp - 1) / (double)lo->dp;
      *reduce += memi_time_link(env, bytes, lo->dp, lo->ep * lo->cp);
    }
  }
  /* Gradient scaling and clipping read and write every sharded gradient;
  ** AdamW (foreach) moves 28 bytes a parameter. */
  adam = (double)ri->sh_adam + (muon ? 0.0 : (double)ri->sh_muon);
  *optimizer = at_hbm(env, (double)ri->sh_total * 12.0, env->eff[EFF_OPTIMIZER]) +
               at_hbm(env, adam * 28.0, env->eff[EFF_OPTIMIZER]);
  if (muon && ri->sh_muon > 0) {
    /* Muon: the momentum update, then Newton-Schulz on every matrix; a
    ** matrix sharded over a 1-D mesh larger than one is one rank's in W
    ** after an fp32 gather, and its result is broadcast back. */
    *optimizer += at_hbm(env, (double)ri->sh_muon * 16.0, env->eff[EFF_OPTIMIZER]);
    for (i = 0; i < ri->n_params; i++) {
      const rank_param *rp = &ri->params[i];
      const param_desc *p = &rp->p;
      double mats, r, c, share, full;
      if (!p->muon || !p->grad || p->ndim < 2) continue;
      mats = p->ndim == 3 ? (double)p->d[0] : 1.0;
      r = p->ndim == 3 ? (double)p->d[1] : (double)p->d[0];
      c = p->ndim == 3 ? (double)p->d[2] : (double)p->d[1] * (double)p->d[2];
      full = mats * r * c;
      share = (!hsdp && rp->w > 1) ? 1.0 / (double)rp->w : 1.0;
      ns += share * mats * ns_flops(r, c);
      if (!hsdp && rp->w > 1) {
        int64_t stride = p->expert ? lo->ep : 1;
        gather += memi_time_link(env, 2.0 * full * 4.0 * (double)(rp->w - 1) / (double)rp->w, rp->w, stride);
      }
    }
    *optimizer += at_peak(ns, peak, env->eff[EFF_GEMM]) + gather;
  }
}
/* }====================================================================== */
