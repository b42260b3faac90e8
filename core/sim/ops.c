/*
** ops.c — one pipeline op (F, B, F|B or W) as an ordered walk over layer
** programs (memory-model.md §2.3): prolog and epilog, FSDP all-gathers on first use,
** gradient folds, deferred weight-gradient closures, and the exact stage
** interleaving of an overlapped F|B. An op's effect depends only on its
** kind, phases and the rank's state flags, so each distinct one is
** evaluated once per rank and recalled from a small memo table. Inside an
** op, a run of identical layers (same program, same groups, away from the
** module's ends) has the same effect layer after layer, so it is walked
** once and its effect repeated (repeat_unit): exactly the figures of the
** walk layer by layer, in time that does not grow with the layers.
*/
#include <string.h>

#include "sim/rank.h"

typedef struct op_run {
  sim_rank *sr;
  int *ovf;                 /* sticky overflow flag (the rank's) */
  uint64_t reach;           /* sum of |change| so far, capped at REACH_CAP */
  comp_vec cur, at_peak;
  int64_t total, peak;
  const char *label;
  sim_flags flags0;         /* state at the start of the op */
  sim_flags flags;          /* state as the op leaves it */
  int hooked;               /* the backward's chunk carries FSDP's post-backward hooks */
  int64_t imm_x, pgrad;     /* grads of the current layer awaiting a fold */
} op_run;

typedef struct mod_ctx {
  int m;                    /* module index */
  const module_inv *mi;
  const rank_layer *layers;
  int sent;                 /* the module's output goes to another rank */
} mod_ctx;

#define REACH_CAP ((uint64_t)1 << 61)

static void emit(op_run *r, comp c, int64_t d, const char *label) {
  if (d == 0) return;
  if (r->reach < REACH_CAP) r->reach += d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
  r->cur.b[c] = ck_add(r->ovf, r->cur.b[c], d);
  r->total = ck_add(r->ovf, r->total, d);
  if (r->total > r->peak) {
    r->peak = r->total;
    r->at_peak = r->cur;
    r->label = label;
  }
}

/* The group of layer li of a kind, or the module's embed or head group. */
static const rank_group *group_of(const op_run *r, const mod_ctx *mc, int li, int kind) {
  const rank_inv *ri = &r->sr->inv;
  int i;
  if (kind == G_LAYER) return mc->layers[li].lg;
  if (kind == G_EXPERTS) return mc->layers[li].xg;
  for (i = mc->mi->first_group; i < mc->mi->first_group + mc->mi->n_groups; i++) {
    if (ri->groups[i].kind == kind) return &ri->groups[i];
  }
  return NULL;
}

/* FSDP all-gather (memory-model.md §5.4; docs/model.md, FSDP state): the bf16 cast of
** the shards (the copy-in source; the all-gather input is a view into the
** flat output) dies when foreach_all_gather returns, before the copy-out
** allocates the per-parameter unsharded tensors, which stay in `keep`; the
** flat output dies after the copy-out. */
static void unshard(op_run *r, const group_sizes *g, comp keep, const char *label) {
  int *o = r->ovf;
  int64_t copy_in = ck_mul(o, 2, g->sh), flat = ck_mul(o, ck_mul(o, 2, g->w), g->sh);
  emit(r, C_FSDP_T, copy_in, label);
  emit(r, C_FSDP_T, flat, label);
  emit(r, C_FSDP_T, -copy_in, label);
  emit(r, keep, ck_mul(o, 2, g->un), label);
  emit(r, C_FSDP_T, -flat, label);
}

/* The flags word of module m, or of the edge groups (m < 0). */
static unsigned *flag_word(sim_flags *f, int m) { return m < 0 ? &f->edge : &f->mod[m]; }

/* Folds bf16 grads into the fp32 accumulator; the first fold of a step
** creates it with .to(fp32) while the bf16 copy is alive (memory-model.md §5.4). */
static void fold(op_run *r, int64_t accum_bytes, int has_accum, comp src, int64_t src_bytes,
                 const char *label) {
  if (!has_accum) emit(r, C_ACCUM, accum_bytes, label);
  emit(r, src, -src_bytes, label);
}

/* A grad of `bytes` just written (in C_LAYER_T) where no fold follows: it
** becomes the parameters' bf16 .grad, or is added into the .grad they hold
** and freed. Sets `flag` of module m (the edge groups' for m < 0) in the
** op's state. */
static void to_dot_grad(op_run *r, int m, int64_t bytes, unsigned flag, const char *label) {
  emit(r, C_LAYER_T, -bytes, label);
  if (!(*flag_word(&r->flags0, m) & flag)) emit(r, C_PENDING, bytes, label);
  *flag_word(&r->flags, m) |= flag;
}

static void fold_experts(op_run *r, const mod_ctx *mc, int li) {
  const rank_group *xg = group_of(r, mc, li, G_EXPERTS);
  unsigned pend = li == 0 ? SF_PENDING0 : SF_PENDING;
  unsigned acc = li == 0 ? SF_ACCUM_X0 : SF_ACCUM_X;
  unsigned had = r->flags0.mod[mc->m];
  int64_t pending = 0;
  if (xg == NULL) return;
  if (!r->hooked) {
    /* No post-backward hook: immediate wgrads go to .grad. */
    if (r->imm_x != 0) to_dot_grad(r, mc->m, r->imm_x, pend, "expert weight grads into bf16 .grad (no fold)");
    r->imm_x = 0;
    return;
  }
  if (had & pend) pending = ck_mul(r->ovf, 2, xg->g.full_deferred);
  if (r->imm_x == 0 && pending == 0) return;
  if (!(had & acc)) emit(r, C_ACCUM, ck_mul(r->ovf, 4, xg->g.full_grad),
                                "experts group post-backward: fp32 accumulators created");
  emit(r, C_LAYER_T, -r->imm_x, "experts group post-backward fold");
  emit(r, C_PENDING, -pending, "experts group post-backward fold");
  r->imm_x = 0;
  r->flags.mod[mc->m] |= acc;
  r->flags.mod[mc->m] &= ~pend;
}

static void fold_layer(op_run *r, const mod_ctx *mc, int li) {
  const rank_group *lg = group_of(r, mc, li, G_LAYER);
  if (lg == NULL || r->pgrad == 0) return;
  if (!r->hooked) {
    to_dot_grad(r, mc->m, r->pgrad, SF_GRAD16_L, "layer grads into bf16 .grad (no fold)");
    r->pgrad = 0;
    return;
  }
  fold(r, ck_mul(r->ovf, 4, lg->g.full_grad), (r->flags0.mod[mc->m] & SF_ACCUM_L) != 0,
       C_LAYER_T, r->pgrad, "layer group post-backward fold");
  r->pgrad = 0;
  r->flags.mod[mc->m] |= SF_ACCUM_L;
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* A run of delta events (layer.c) at once: the same sums, peak and label
** as emitting them one by one, which it does where a figure nears 2^61. */
static void run_deltas(op_run *r, const prog_ev *events, const prog_run *u) {
  const uint64_t lim = (uint64_t)1 << 61;
  int k;
  int safe = u->reach < lim && magnitude(r->total) < lim;
  for (k = 0; k < u->n && safe; k++) safe = magnitude(r->cur.b[u->comp[k]]) < lim;
  if (!safe) {
    for (k = u->first; k < u->first + u->count; k++) {
      emit(r, (comp)events[k].comp, events[k].d, events[k].label);
    }
    return;
  }
  if (r->total + u->peak > r->peak) {
    r->peak = r->total + u->peak;
    r->at_peak = r->cur;
    for (k = 0; k < u->n; k++) r->at_peak.b[u->comp[k]] += u->at[k];
    r->label = u->label;
  }
  for (k = 0; k < u->n; k++) r->cur.b[u->comp[k]] += u->net[k];
  r->total += u->net_total;
  if (r->reach < REACH_CAP) r->reach += u->reach;
}

/* Runs stage st of layer li of module mc. */
static void stage(op_run *r, const mod_ctx *mc, int li, int st) {
  const layer_prog *lp = mc->layers[li].prog;
  int top = li == mc->mi->n_layers - 1, plain = r->sr->plain, i;
  if (st == ST_B3D && r->sr->immediate_wgrad) st = ST_B3I;
  const prog_ev *events = plain ? lp->st[st] : lp->fast[st];
  int n = plain ? lp->n[st] : lp->n_fast[st];
  for (i = 0; i < n; i++) {
    const prog_ev *e = &events[i];
    switch (e->kind) {
      case EVK_DELTA: emit(r, (comp)e->comp, e->d, e->label); break;
      case EVK_RUN: run_deltas(r, lp->st[st], &lp->runs[e->d]); break;
      case EVK_UNSHARD_L:
      case EVK_UNSHARD_X:
        if (!(r->flags0.mod[mc->m] & SF_UNSHARDED)) {
          const rank_group *g = group_of(r, mc, li, e->kind == EVK_UNSHARD_L ? G_LAYER : G_EXPERTS);
          if (g != NULL) {
            unshard(r, &g->g, C_UNSHARDED, e->label);
            emit(r, C_FP8_CACHE, g->g.fp8_cache, "FP8 weight cache");
          }
        }
        break;
      case EVK_WGRAD_IMM:
        emit(r, C_LAYER_T, e->d, e->label);
        r->imm_x += e->d;
        break;
      case EVK_PGRAD_L:
        emit(r, C_LAYER_T, e->d, e->label);
        r->pgrad += e->d;
        break;
      case EVK_FOLD_X: fold_experts(r, mc, li); break;
      case EVK_FOLD_L: fold_layer(r, mc, li); break;
      case EVK_HOUT_FREE:
        if (!(top && mc->sent)) emit(r, C_ACT, -e->d, e->label);
        break;
      case EVK_DY_FREE:
        if (!top || mc->mi->last_stage) emit(r, C_LAYER_T, -e->d, e->label);
        break;
      default: break;
    }
  }
}

static void forward_layer(op_run *r, const mod_ctx *mc, int li) {
  int st;
  for (st = ST_F1; st <= ST_F5; st++) stage(r, mc, li, st);
}

static void backward_layer(op_run *r, const mod_ctx *mc, int li, int deferred) {
  stage(r, mc, li, ST_B5);
  stage(r, mc, li, ST_B4);
  stage(r, mc, li, deferred ? ST_B3D : ST_B3I);
  stage(r, mc, li, ST_B2);
  stage(r, mc, li, ST_B1);
  stage(r, mc, li, ST_BCLR);
}

/* Deferred expert wgrad closures of one layer (memory-model.md §5.3): each grad becomes
** the pending bf16 .grad, or is added into an existing one. */
static void wgrad_closures(op_run *r, const mod_ctx *mc, int li, int has_pending) {
  const layer_prog *lp = mc->layers[li].prog;
  int j;
  for (j = 0; j < lp->n_wgrad; j++) {
    if (r->sr->lo->d.fp8) {
      /* FP8 closure (memory-model.md §5.3): a zeroed fp32 (E_loc, N, K) buffer for the
      ** k-grouped GEMM, then its bf16 copy, assigned or added; the fp32
      ** buffer dies when the closure returns. */
      int64_t f32 = ck_mul(r->ovf, 2, lp->wgrad[j]);
      emit(r, C_LAYER_T, f32, "FP8 deferred expert wgrad (fp32 buffer)");
      if (has_pending) {
        emit(r, C_LAYER_T, lp->wgrad[j], "FP8 deferred expert wgrad (bf16 copy, added)");
        emit(r, C_LAYER_T, -lp->wgrad[j], "FP8 deferred expert wgrad added");
      } else {
        emit(r, C_PENDING, lp->wgrad[j], "FP8 deferred expert wgrad (pending bf16 grad)");
      }
      emit(r, C_LAYER_T, -f32, "FP8 fp32 wgrad buffer freed");
    } else if (has_pending) {
      emit(r, C_LAYER_T, lp->wgrad[j], "deferred expert wgrad (added into the pending grad)");
      emit(r, C_LAYER_T, -lp->wgrad[j], "deferred expert wgrad added");
    } else {
      emit(r, C_PENDING, lp->wgrad[j], "deferred expert wgrad (pending bf16 grad)");
    }
  }
}

/* Whether module mc's forwards still run FSDP's hooks: not once the
** module has run its first backward of the step. */
static int forward_hooked(const op_run *r, const mod_ctx *mc) {
  return !(r->flags0.mod[mc->m] & SF_BWD);
}

static void prolog_forward(op_run *r, const mod_ctx *mc) {
  const rank_group *g = group_of(r, mc, 0, G_EMBED);
  int64_t un = g != NULL ? ck_mul(r->ovf, 2, g->g.un) : 0;
  if (!(r->flags.edge & SF_EMBED_RES) && g != NULL) unshard(r, &g->g, C_EDGE, "embed_tokens all-gather");
  emit(r, C_ACT, r->sr->mH, "embedding output");
  if (forward_hooked(r, mc)) {
    emit(r, C_EDGE, -un, "embed_tokens resharded after forward");
    r->flags.edge &= ~SF_EMBED_RES;
  } else {
    r->flags.edge |= SF_EMBED_RES;
  }
}

static void prolog_backward(op_run *r, const mod_ctx *mc) {
  const rank_group *g = group_of(r, mc, 0, G_EMBED);
  int64_t gb;
  if (g == NULL) return;
  if (!(r->flags.edge & SF_EMBED_RES)) unshard(r, &g->g, C_EDGE, "embed_tokens all-gather (backward)");
  r->flags.edge |= SF_EMBED_RES;
  gb = ck_mul(r->ovf, 2, g->g.full_grad);
  /* Its input, token ids, needs no grad: FSDP registers no post-backward
  ** fold on it, so the grad stays in .grad until the step end. */
  emit(r, C_LAYER_T, gb, "embedding weight grad (dense bf16)");
  to_dot_grad(r, -1, gb, SF_GRAD16_EMB, "embedding weight grad into bf16 .grad (never folded)");
  emit(r, C_ACT, -r->sr->mH, "embedding output freed");
  emit(r, C_LAYER_T, -r->sr->mH, "input grad consumed by the embedding backward");
}

static int64_t epilog_saved(const op_run *r) {
  const sim_rank *sr = r->sr;
  int64_t rstd = sr->lo->d.m * 4;
  if (CHOICE_EPILOG_NORM_FP32_COPY) rstd += sr->lo->d.m * sr->mc->hidden * 4;
  return rstd + sr->mH;
}

static void epilog_forward(op_run *r, const mod_ctx *mc) {
  const rank_group *g = group_of(r, mc, 0, G_HEAD);
  int64_t un = g != NULL ? ck_mul(r->ovf, 2, g->g.un) : 0;
  int64_t logits = ck_mul4(r->ovf, r->sr->lo->d.m, r->sr->mc->vocab, 2, 1);
  if (!(r->flags.edge & SF_HEAD_RES) && g != NULL) unshard(r, &g->g, C_EDGE, "lm_head all-gather");
  emit(r, C_ACT, epilog_saved(r), "final norm and lm_head input");
  emit(r, C_LOGITS, logits, "logits");
  emit(r, C_LAYER_T, r->sr->lo->d.m * 4, "cross-entropy scratch");
  emit(r, C_LAYER_T, -r->sr->lo->d.m * 4, "cross-entropy done");
  if (forward_hooked(r, mc)) {
    emit(r, C_EDGE, -un, "lm_head resharded after forward");
    r->flags.edge &= ~SF_HEAD_RES;
  } else {
    r->flags.edge |= SF_HEAD_RES;
  }
}

static void epilog_backward(op_run *r, const mod_ctx *mc) {
  const rank_group *g = group_of(r, mc, 0, G_HEAD);
  int64_t logits = ck_mul4(r->ovf, r->sr->lo->d.m, r->sr->mc->vocab, 2, 1), gb;
  if (g == NULL) return;
  if (!(r->flags.edge & SF_HEAD_RES)) unshard(r, &g->g, C_EDGE, "lm_head all-gather (loss backward)");
  r->flags.edge |= SF_HEAD_RES;
  gb = ck_mul(r->ovf, 2, g->g.full_grad);
  emit(r, C_LAYER_T, gb, "lm_head weight grad (bf16)");
  emit(r, C_LAYER_T, r->sr->mH, "lm_head input grad");
  if (r->hooked) {
    fold(r, ck_mul(r->ovf, 4, g->g.full_grad), (r->flags.edge & SF_ACCUM_HEAD) != 0, C_LAYER_T, gb,
         "lm_head post-backward fold");
    r->flags.edge |= SF_ACCUM_HEAD;
  } else {
    to_dot_grad(r, -1, gb, SF_GRAD16_HEAD, "lm_head weight grad into bf16 .grad (no fold)");
  }
  emit(r, C_LOGITS, -logits, "logits freed after the loss backward");
  emit(r, C_ACT, -epilog_saved(r), "final norm saved tensors freed");
  emit(r, C_LAYER_T, r->sr->mH, "last layer output grad");
  emit(r, C_LAYER_T, -r->sr->mH, "lm_head input grad consumed");
}

/* The per-chunk cos/sin gather (memory-model.md §3.5), freed after layer 0's backward. */
static void posemb(op_run *r, int sign) {
  emit(r, C_ACT, sign * r->sr->cossin, sign > 0 ? "rotary cos/sin gather" : "rotary cos/sin freed");
}

/* The end of a module's backward: the input grad goes to the pipeline. */
static void backward_end(op_run *r, const mod_ctx *mc) {
  if (mc->mi->stage0) {
    prolog_backward(r, mc);
  } else {
    emit(r, C_LAYER_T, -r->sr->mH, "input grad handed to the pipeline");
    emit(r, C_P2P, r->sr->mH, "input grad handed to the pipeline");
  }
}

/* {======================================================================
** Repeating identical units: a layer's forward, a layer's backward, or one
** iteration of the overlapped F|B.
** ======================================================================= */
enum { U_FORWARD = 0, U_BACKWARD = 1, U_OVERLAPPED = 2 };

typedef struct unit {
  int kind;                 /* U_* */
  const mod_ctx *f, *b;     /* the module (U_FORWARD, U_BACKWARD: f), or both */
  int li;                   /* the layer, or the iteration */
  int zb;                   /* backward: deferred expert wgrad */
} unit;

static void overlapped_weight(op_run *r, const mod_ctx *b, int li);

/* Iteration l of overlapped_forward_backward (memory-model.md §2.3): backward layer
** nb-l finishes, forward layer l-1 finishes, forward layer l and backward
** layer nb-l-1 run side by side. */
static void overlapped_iteration(op_run *r, const mod_ctx *f, const mod_ctx *b, int l) {
  int nb = b->mi->n_layers;
  if (l > 0) {
    stage(r, b, nb - l, ST_B1);
    stage(r, b, nb - l - 1, ST_B5);
    stage(r, b, nb - l, ST_BCLR);
    stage(r, f, l - 1, ST_F4);
    stage(r, b, nb - l - 1, ST_B4);
    stage(r, f, l - 1, ST_F5);
    stage(r, f, l, ST_F1);
  }
  stage(r, b, nb - l - 1, ST_B3D);
  stage(r, f, l, ST_F2);
  stage(r, b, nb - l - 1, ST_B2);
  overlapped_weight(r, b, nb - l - 1);
  stage(r, f, l, ST_F3);
}

/* Whether iteration l has the effect of iteration l-1: the four layers
** each touches equal the previous ones, and neither touches the backward
** module's top layer (l-1 >= 2) or its layer 0 (l <= nb-2). */
static int same_iteration(const mod_ctx *f, const mod_ctx *b, int l) {
  int nb = b->mi->n_layers;
  return l >= 3 && l <= nb - 2 && f->layers[l].same_as_prev && f->layers[l - 1].same_as_prev &&
         b->layers[nb - l + 1].same_as_prev && b->layers[nb - l].same_as_prev;
}

static void run_unit(op_run *r, const unit *u) {
  switch (u->kind) {
    case U_FORWARD: forward_layer(r, u->f, u->li); break;
    case U_BACKWARD: backward_layer(r, u->f, u->li, u->zb); break;
    default: overlapped_iteration(r, u->f, u->b, u->li); break;
  }
}

/* Whether k copies of a unit reaching `reach` bytes keep every running
** figure of r far from 64-bit overflow, so that plain sums are exact. */
static int repeat_is_safe(const op_run *r, uint64_t reach, int k) {
  const uint64_t lim = (uint64_t)1 << 61;
  int c;
  if (reach >= lim / (uint64_t)k || magnitude(r->total) >= lim) return 0;
  for (c = 0; c < C_COUNT; c++) {
    if (magnitude(r->cur.b[c]) >= lim) return 0;
  }
  return 1;
}

/* Runs unit u k times, where each run has the same effect (the same
** events from the same flags): the unit is walked once from zero and its
** net change and inner peak repeated. The last copy holds the peak when
** the unit grows memory, else the first; equal peaks keep the first, as
** the walk does. Falls back to k walks when that would not be exact. */
static void repeat_unit(op_run *r, const unit *u, int k) {
  op_run s;
  int sovf = 0, c, j;
  int64_t n, later;
  if (k > 1 && r->imm_x == 0 && r->pgrad == 0) {
    s = *r;
    memset(&s.cur, 0, sizeof s.cur);
    memset(&s.at_peak, 0, sizeof s.at_peak);
    s.total = s.peak = 0;
    s.reach = 0;
    s.ovf = &sovf;
    run_unit(&s, u);
    if (!sovf && s.imm_x == 0 && s.pgrad == 0 && repeat_is_safe(r, s.reach, k)) {
      n = s.total;
      later = n > 0 ? k - 1 : 0;   /* copies before the one that peaks */
      if (s.peak > 0 && r->total + later * n + s.peak > r->peak) {
        r->peak = r->total + later * n + s.peak;
        for (c = 0; c < C_COUNT; c++) {
          r->at_peak.b[c] = r->cur.b[c] + later * s.cur.b[c] + s.at_peak.b[c];
        }
        r->label = s.label;
      }
      for (c = 0; c < C_COUNT; c++) r->cur.b[c] += k * s.cur.b[c];
      r->total += k * n;
      r->flags = s.flags;
      r->reach = r->reach + (uint64_t)k * s.reach < REACH_CAP ? r->reach + (uint64_t)k * s.reach
                                                              : REACH_CAP;
      return;
    }
  }
  for (j = 0; j < k; j++) run_unit(r, u);
}
/* }====================================================================== */

static void run_forward(op_run *r, const mod_ctx *mc) {
  int li, k;
  if (mc->mi->stage0) prolog_forward(r, mc);
  posemb(r, 1);
  for (li = 0; li < mc->mi->n_layers; li += k) {
    /* Forward stages do not depend on the layer's place in the module. */
    unit u = {U_FORWARD, mc, NULL, li, 0};
    for (k = 1; li + k < mc->mi->n_layers && mc->layers[li + k].same_as_prev; k++) {}
    repeat_unit(r, &u, k);
  }
  if (mc->mi->last_stage) epilog_forward(r, mc);
  r->flags.mod[mc->m] |= SF_UNSHARDED;
}

static void run_backward(op_run *r, const mod_ctx *mc, int zb) {
  int n = mc->mi->n_layers, li, k;
  if (mc->mi->last_stage) epilog_backward(r, mc);
  for (li = n - 1; li >= 0; li -= k) {
    /* The top layer and layer 0 are walked alone: their frees and folds
    ** differ from the layers between. */
    unit u = {U_BACKWARD, mc, NULL, li, zb};
    k = 1;
    if (li < n - 1 && li > 0) {
      while (li - k > 0 && mc->layers[li - k + 1].same_as_prev) k++;
    }
    repeat_unit(r, &u, k);
  }
  posemb(r, -1);
  backward_end(r, mc);
  /* A fold consumed the experts' .grad; without one it stays. */
  if (r->hooked) r->flags.mod[mc->m] &= ~(SF_PENDING | SF_PENDING0);
  r->flags.mod[mc->m] |= SF_BWD;
}

static void run_weight(op_run *r, const mod_ctx *mc) {
  int li;
  if (r->sr->immediate_wgrad) return;
  for (li = 0; li < mc->mi->n_layers; li++) {
    unsigned pend = li == 0 ? SF_PENDING0 : SF_PENDING;
    wgrad_closures(r, mc, li, (r->flags0.mod[mc->m] & pend) != 0);
  }
  for (li = 0; li < mc->mi->n_layers; li++) {
    emit(r, C_WGS, -mc->layers[li].prog->capture, "deferred wgrad batch released");
  }
  r->flags.mod[mc->m] |= SF_PENDING | SF_PENDING0;
}

/* stage3_w inside an F|B: this layer's closures run right after its fold,
** which consumed any .grad they would add into; with no fold (a chunk
** without hooks) they add into the .grad the layer held. */
static void overlapped_weight(op_run *r, const mod_ctx *b, int li) {
  unsigned pend = li == 0 ? SF_PENDING0 : SF_PENDING;
  if (b->layers[li].prog->n_wgrad == 0 || r->sr->immediate_wgrad) return;
  wgrad_closures(r, b, li, !r->hooked && (r->flags0.mod[b->m] & pend) != 0);
  emit(r, C_WGS, -b->layers[li].prog->capture, "layer's deferred wgrad released");
  r->flags.mod[b->m] |= pend;
}

/* Spec §2.3, overlapped_forward_backward, step for step. */
static void run_overlapped(op_run *r, const mod_ctx *f, const mod_ctx *b) {
  int nf = f->mi->n_layers, nb = b->mi->n_layers, n = nf < nb ? nf : nb, l, k;
  if (b->mi->last_stage) epilog_backward(r, b);
  stage(r, b, nb - 1, ST_B5);
  stage(r, b, nb - 1, ST_B4);
  if (f->mi->stage0) prolog_forward(r, f);
  posemb(r, 1);
  stage(r, f, 0, ST_F1);
  if (n > 0) overlapped_iteration(r, f, b, 0);
  for (l = 1; l < n; l += k) {
    unit u = {U_OVERLAPPED, f, b, l, 0};
    for (k = 1; l + k < n && same_iteration(f, b, l + k); k++) {}
    repeat_unit(r, &u, k);
  }
  stage(r, f, n - 1, ST_F4);
  stage(r, b, nb - n, ST_B1);
  stage(r, b, nb - n, ST_BCLR);
  stage(r, f, n - 1, ST_F5);
  if (nf == nb + 1) forward_layer(r, f, nf - 1);
  if (nb == nf + 1) {
    backward_layer(r, b, 0, !CHOICE_TRAILING_LAYER_IMMEDIATE_WGRAD);
    if (!CHOICE_TRAILING_LAYER_IMMEDIATE_WGRAD) overlapped_weight(r, b, 0);
    else if (r->hooked) r->flags.mod[b->m] &= ~SF_PENDING0;
  }
  posemb(r, -1);
  backward_end(r, b);
  if (f->mi->last_stage) epilog_forward(r, f);
  r->flags.mod[f->m] |= SF_UNSHARDED;
  r->flags.mod[b->m] |= SF_BWD;
}

static void mod_init(sim_rank *sr, int m, mod_ctx *mc) {
  mc->m = m;
  mc->mi = &sr->inv.mod[m];
  mc->layers = sr->layers[m];
  mc->sent = (mc->mi->link & LINK_SEND_F) != 0;
}

/* The op's key: kind (2 bits), modules (3 each), zb, hooked, the edge
** flags, then each module's flags. */
#define MODULE_BITS 3
_Static_assert(MEMEST_MAX_MODULES <= (1 << MODULE_BITS), "a module index fits the memo key");
_Static_assert(2 + 2 * MODULE_BITS + 2 + SF_EDGE_BITS + SF_MOD_BITS * MEMEST_MAX_MODULES <= 64,
               "every state flag fits the memo key");

static uint64_t memo_key(int kind, int pf, int pb, int zb, int hooked, const sim_flags *flags) {
  uint64_t key = (uint64_t)kind | (uint64_t)pf << 2 | (uint64_t)pb << (2 + MODULE_BITS) |
                 (uint64_t)zb << (2 + 2 * MODULE_BITS) | (uint64_t)hooked << (3 + 2 * MODULE_BITS) |
                 (uint64_t)flags->edge << (4 + 2 * MODULE_BITS);
  int shift = 4 + 2 * MODULE_BITS + SF_EDGE_BITS, m;
  for (m = 0; m < MEMEST_MAX_MODULES; m++, shift += SF_MOD_BITS) {
    key |= (uint64_t)flags->mod[m] << shift;
  }
  return key;
}

const op_result *memi_op_eval(sim_rank *sr, int kind, int pf, int pb, int zb, int hooked,
                              const sim_flags *flags) {
  uint64_t key = memo_key(kind, pf, pb, zb, hooked, flags);
  uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 48);
  memo_slot *slot;
  op_run r;
  mod_ctx f, b;
  int i, c;
  for (i = 0; i < MEMO_SLOTS; i++) {
    slot = &sr->memo[(h + (uint32_t)i) % MEMO_SLOTS];
    if (!slot->used) break;
    if (slot->key == key) return &slot->r;
  }
  if (i == MEMO_SLOTS) slot = &sr->memo[h % MEMO_SLOTS]; /* full: evict */
  memset(&r, 0, sizeof r);
  r.sr = sr;
  r.ovf = &sr->ovf;
  r.flags0 = r.flags = *flags;
  r.hooked = hooked;
  r.label = "start of the op";
  mod_init(sr, pf, &f);
  mod_init(sr, pb, &b);
  switch (kind) {
    case OP_F: run_forward(&r, &f); break;
    case OP_B: run_backward(&r, &b, zb); break;
    case OP_W: run_weight(&r, &b); break;
    default: run_overlapped(&r, &f, &b); break;
  }
  slot->used = 1;
  slot->key = key;
  slot->r.net = r.cur;
  slot->r.at_peak = r.at_peak;
  slot->r.peak = r.peak;
  slot->r.label = r.label;
  slot->r.flags_after = r.flags;
  slot->r.net_total = 0;
  for (c = 0; c < C_COUNT; c++) {
    slot->r.net_total = ck_add(&sr->ovf, slot->r.net_total, r.cur.b[c]);
  }
  return &slot->r;
}
