/*
** layer.c — the event program of one decoder layer: for each stage
** function (S1..S5 forward, S5..S1 backward, the record clear) the ordered
** allocations and frees of memory-model.md §5.1-§5.3, built from the architecture's
** layer plan plus what every MoE (EP > 1 or EP = 1) or dense layer shares
** (§4.2-§4.4). ops.c strings these stages together into F, B and F|B.
** FP8 training (§4.8) takes separate branches driven by lo->d.fp8: the
** scatter buffer is not saved, expert_backward_fp8 and dense_layer_fp8.
** A prog_cache keeps each program by what it depends on (prog_key), so a
** shape is built once however many layers, ranks and estimates share it.
*/
#include <stdlib.h>
#include <string.h>

#include "model/attention.h"
#include "sim/rank.h"

#define STAGE_EVENTS_MAX 64

struct prog_builder {
  prog_ev e[ST_COUNT][STAGE_EVENTS_MAX];
  int n[ST_COUNT];
  int ovf;
  layer_prog *lp;
};

static void put(prog_builder *b, int st, int kind, comp c, int64_t d, const char *label) {
  prog_ev *e;
  if (d == 0 && kind == EVK_DELTA) return;
  if (b->n[st] >= STAGE_EVENTS_MAX) {
    b->ovf = 1;
    return;
  }
  e = &b->e[st][b->n[st]++];
  e->d = d;
  e->comp = (unsigned char)c;
  e->kind = (unsigned char)kind;
  e->label = label;
}

static void alloc(prog_builder *b, int st, comp c, int64_t d, const char *label) {
  put(b, st, EVK_DELTA, c, d, label);
}

static void release(prog_builder *b, int st, comp c, int64_t d, const char *label) {
  put(b, st, EVK_DELTA, c, -d, label);
}

/* Records a retained tensor for --detail. */
static void detail(prog_builder *b, const char *name, const char *shape, char tag, int64_t bytes) {
  layer_prog *lp = b->lp;
  tensor_row *r;
  if (bytes == 0 || lp->n_detail >= (int)(sizeof lp->detail / sizeof lp->detail[0])) return;
  r = &lp->detail[lp->n_detail++];
  r->name = name;
  r->shape = shape;
  r->tag = tag;
  r->bytes = bytes;
  r->captured = 0;
}

static void detail_rows(prog_builder *b, const row_list *rl) {
  int i;
  for (i = 0; i < rl->n; i++) detail(b, rl->r[i].name, rl->r[i].shape, rl->r[i].tag, rl->r[i].bytes);
}

/* Bytes of the s3 rows kept by a deferred wgrad closure, or freed by the
** backward (captured = 0). */
static int64_t s3_bytes(const layer_plan *pl, int captured) {
  int64_t t = 0;
  int i;
  for (i = 0; i < pl->s3.n; i++) {
    if (pl->s3.r[i].captured == captured) t += pl->s3.r[i].bytes;
  }
  return t;
}

/* Stage 1 forward up to the routing (shared by every layer kind). */
static void stage1_forward(prog_builder *b, const layer_plan *pl, int64_t s1, int64_t mH) {
  put(b, ST_F1, EVK_UNSHARD_L, C_FSDP_T, 0, "all-gather of the layer's parameters");
  alloc(b, ST_F1, C_LAYER_T, pl->s1_fwd_scratch, "stage-1 compiled forward (norm output, q/k)");
  alloc(b, ST_F1, C_ACT, s1, "stage-1 saved set (attention, norms, router)");
  release(b, ST_F1, C_LAYER_T, pl->s1_fwd_scratch, "stage-1 compiled forward done");
  alloc(b, ST_F1, C_ACT, mH, "residual");
  detail_rows(b, &pl->s1);
  detail(b, "residual", "(m, H)", 'R', mH);
}

/* Stage 1 backward and the layer group's FSDP post-backward. */
static void stage1_backward(prog_builder *b, const layer_plan *pl, int64_t s1, int64_t mH,
                            int64_t pgrad) {
  alloc(b, ST_B1, C_LAYER_T, pl->s1_bwd_scratch,
        "stage-1 backward (recompute, dq/dk/dv, fp32 dq accumulator)");
  put(b, ST_B1, EVK_PGRAD_L, C_LAYER_T, pgrad, "layer parameter grads (bf16)");
  put(b, ST_B1, EVK_FOLD_L, C_ACCUM, 0, "layer group post-backward fold");
  alloc(b, ST_B1, C_LAYER_T, mH, "input grad of the layer");
  release(b, ST_B1, C_LAYER_T, pl->s1_bwd_scratch, "stage-1 backward done");
  release(b, ST_B1, C_ACT, s1, "stage-1 saved set freed");
}

static void record_clear(prog_builder *b, int64_t mH) {
  release(b, ST_BCLR, C_ACT, mH, "residual freed");
  put(b, ST_BCLR, EVK_HOUT_FREE, C_ACT, mH, "layer output freed");
  put(b, ST_BCLR, EVK_DY_FREE, C_LAYER_T, mH, "output grad freed");
}

/* The expert backward (S3_b) in its immediate and deferred forms. */
static void expert_backward(prog_builder *b, const layer_plan *pl, const layout *lo,
                            int64_t H2, int64_t x_bytes, int64_t scatter_grad) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t I = pl->mlp_inter, M = d->m_act;
  int64_t dy = ck_mul(o, round_up(M, 1024), H2);
  int64_t ddown = ck_mul4(o, M, I, 2, 1), gu = ck_mul4(o, 2, M, I, 2), xg = ck_mul(o, M, H2);
  int64_t freed = s3_bytes(pl, 0), kept = s3_bytes(pl, 1);
  int64_t wd = b->lp->n_wgrad > 0 ? b->lp->wgrad[b->lp->n_wgrad - 1] : 0, wgu = 0;
  int v;
  for (v = 0; v + 1 < b->lp->n_wgrad; v++) wgu = ck_add(o, wgu, b->lp->wgrad[v]);
  for (v = 0; v < 2; v++) {
    int st = v == 0 ? ST_B3I : ST_B3D;
    alloc(b, st, C_LAYER_T, dy, "dy of the down projection (zero-padded gather grad)");
    alloc(b, st, C_LAYER_T, ddown, "down-projection input grad");
    if (v == 0) put(b, st, EVK_WGRAD_IMM, C_LAYER_T, wd, "down-projection weight grad");
    alloc(b, st, C_LAYER_T, gu, "silu_mul backward: grad_g, grad_u");
    release(b, st, C_ACT, freed, "g, u freed");
    release(b, st, C_LAYER_T, ddown, "down-projection input grad consumed");
    alloc(b, st, C_LAYER_T, ck_mul(o, 2, xg), "gate and up input grads");
    release(b, st, C_LAYER_T, xg, "input grads summed");
    if (v == 0) put(b, st, EVK_WGRAD_IMM, C_LAYER_T, wgu, "gate/up weight grads");
    put(b, st, EVK_FOLD_X, C_ACCUM, 0, "experts group post-backward fold");
    alloc(b, st, C_LAYER_T, scatter_grad, "scatter backward");
    release(b, st, C_LAYER_T, xg, "expert input grad consumed");
    if (v == 0) {
      release(b, st, C_ACT, ck_add(o, x_bytes, kept), "scatter buffer and act freed");
      release(b, st, C_LAYER_T, ck_add(o, gu, dy), "grad_g, grad_u, dy freed");
    } else {
      release(b, st, C_ACT, ck_add(o, x_bytes, kept), "scatter buffer and act captured");
      release(b, st, C_LAYER_T, ck_add(o, gu, dy), "grad_g, grad_u, dy captured");
      alloc(b, st, C_WGS, ck_add(o, ck_add(o, x_bytes, kept), ck_add(o, gu, dy)),
            "deferred expert wgrad captures");
    }
  }
  b->lp->capture = ck_add(o, ck_add(o, x_bytes, kept), ck_add(o, gu, dy));
}

/* FP8 (memory-model.md §4.8, §5.3): the expert backward of FP8GroupedLinearFunc. Each
** projection quantises its output grad into a rowwise copy (for the dgrad,
** freed with it) and a per-channel copy (for the wgrad). The wgrad runs now
** (a zeroed fp32 buffer, then a bf16 copy) or is deferred: the closure keeps
** the per-channel grad and input copies, not the bf16 dy, grad_g, grad_u. */
static void expert_backward_fp8(prog_builder *b, const layer_plan *pl, const layout *lo,
                                int64_t H2, int64_t scatter_grad) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t H = H2 / 2, I = pl->mlp_inter, M = d->m_act;
  int64_t dy = ck_mul(o, round_up(M, 1024), H2);
  int64_t ddown = ck_mul4(o, M, I, 2, 1), gu = ck_mul4(o, 2, M, I, 2), xg = ck_mul(o, M, H2);
  int64_t q_dy = memi_fp8_rowwise_bytes(M, H, o), c_dy = memi_fp8_channel_bytes(M, H, o);
  int64_t q_gu = memi_fp8_rowwise_bytes(M, 2 * I, o), c_gu = memi_fp8_channel_bytes(M, 2 * I, o);
  int64_t freed = s3_bytes(pl, 0), kept = s3_bytes(pl, 1), ch = ck_add(o, c_dy, c_gu);
  int64_t wd = b->lp->n_wgrad > 0 ? b->lp->wgrad[b->lp->n_wgrad - 1] : 0, wgu = 0;
  int v;
  for (v = 0; v + 1 < b->lp->n_wgrad; v++) wgu = ck_add(o, wgu, b->lp->wgrad[v]);
  for (v = 0; v < 2; v++) {
    int st = v == 0 ? ST_B3I : ST_B3D;
    alloc(b, st, C_LAYER_T, dy, "dy of the down projection (zero-padded gather grad)");
    alloc(b, st, C_LAYER_T, ck_add(o, q_dy, c_dy), "FP8: dy quantised (rowwise, per channel)");
    alloc(b, st, C_LAYER_T, ddown, "down-projection input grad");
    if (v == 0) {
      alloc(b, st, C_LAYER_T, ck_mul(o, 2, wd), "FP8: down-projection wgrad (fp32)");
      put(b, st, EVK_WGRAD_IMM, C_LAYER_T, wd, "FP8: down-projection weight grad (bf16 copy)");
      release(b, st, C_LAYER_T, ck_mul(o, 2, wd), "FP8: fp32 wgrad freed");
    }
    release(b, st, C_LAYER_T, ck_add(o, q_dy, dy), "dy and its rowwise copy freed");
    alloc(b, st, C_LAYER_T, gu, "silu_mul backward: grad_g, grad_u");
    release(b, st, C_ACT, freed, "g, u freed");
    release(b, st, C_LAYER_T, ddown, "down-projection input grad consumed");
    alloc(b, st, C_LAYER_T, ck_add(o, q_gu, c_gu), "FP8: grad_g, grad_u quantised");
    alloc(b, st, C_LAYER_T, ck_mul(o, 2, xg), "gate and up input grads");
    release(b, st, C_LAYER_T, ck_add(o, q_gu, gu), "grad_g, grad_u and their rowwise copies freed");
    release(b, st, C_LAYER_T, xg, "input grads summed");
    if (v == 0) {
      alloc(b, st, C_LAYER_T, ck_mul(o, 2, wgu), "FP8: gate/up wgrads (fp32)");
      put(b, st, EVK_WGRAD_IMM, C_LAYER_T, wgu, "FP8: gate/up weight grads (bf16 copies)");
      release(b, st, C_LAYER_T, ck_mul(o, 2, wgu), "FP8: fp32 wgrads freed");
    }
    put(b, st, EVK_FOLD_X, C_ACCUM, 0, "experts group post-backward fold");
    alloc(b, st, C_LAYER_T, scatter_grad, "scatter backward");
    release(b, st, C_LAYER_T, xg, "expert input grad consumed");
    if (v == 0) {
      release(b, st, C_ACT, kept, "FP8 input copies freed");
      release(b, st, C_LAYER_T, ch, "FP8 per-channel grads freed");
    } else {
      release(b, st, C_ACT, kept, "FP8 input copies captured");
      release(b, st, C_LAYER_T, ch, "FP8 per-channel grads captured");
      alloc(b, st, C_WGS, ck_add(o, kept, ch), "deferred expert wgrad captures (FP8)");
    }
  }
  b->lp->capture = ck_add(o, kept, ch);
}

/* FP8 (memory-model.md §4.8): the grouped GEMMs save per-channel fp8 copies of their
** inputs, so the bf16 scatter buffer lives only through stage 3. */
static void scatter_buffer(prog_builder *b, const run_dims *d, int64_t x_bytes) {
  if (d->fp8) alloc(b, ST_F3, C_LAYER_T, x_bytes, "scatter buffer (FP8: not saved)");
  else alloc(b, ST_F3, C_ACT, x_bytes, "scatter buffer (grouped GEMM input)");
}

/* Both B3 variants get the same trailing events. */
static void b3_both(prog_builder *b, int kind, comp c, int64_t d, const char *label) {
  put(b, ST_B3I, kind, c, d, label);
  put(b, ST_B3D, kind, c, d, label);
}

/* Sizes every MoE layer's program uses. */
typedef struct moe_sizes {
  int64_t mH, H2;          /* m*H*2, and H*2 bytes per row */
  int64_t mk, s1, s3;      /* m*k; stage-1 and expert saved bytes */
  int64_t x_bytes;         /* the scatter buffer, R rows */
  int64_t n_in8;           /* one int64 per routed row */
  int64_t s3_out, down_out;
  int64_t pgrad;           /* the layer group's bf16 grads */
} moe_sizes;

/* The expert forward's own scratch and saved intermediates. */
static void expert_intermediates(prog_builder *b, const layer_plan *pl, int64_t s3) {
  alloc(b, ST_F3, C_LAYER_T, pl->s3_fwd_scratch, "expert forward scratch");
  alloc(b, ST_F3, C_ACT, s3, "expert intermediates");
  release(b, ST_F3, C_LAYER_T, pl->s3_fwd_scratch, "expert forward scratch freed");
}

/* S3 backward (BF16 or FP8), then the index tensors it frees. */
static void expert_backward_any(prog_builder *b, const layer_plan *pl, const layout *lo,
                                const moe_sizes *z) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t scatter_grad = ck_mul(o, d->n_in, z->H2);
  if (d->fp8) expert_backward_fp8(b, pl, lo, z->H2, scatter_grad);
  else expert_backward(b, pl, lo, z->H2, z->x_bytes, scatter_grad);
  b3_both(b, EVK_DELTA, C_ACT, -ck_add(o, z->n_in8, ck_mul(o, d->e_loc, 4)), "index tensors freed");
}

/* --detail rows of the expert block. */
static void expert_detail(prog_builder *b, const layer_plan *pl, const run_dims *d,
                          const moe_sizes *z) {
  if (!d->fp8) detail(b, "scatter buffer", "(R, H)", 'S', z->x_bytes);
  detail(b, "reverse_shuffle_idxs, offs", "(n_in) + (E_loc)", 'S',
         ck_add(&b->ovf, z->n_in8, ck_mul(&b->ovf, d->e_loc, 4)));
  detail_rows(b, &pl->s3);
}

/* EP > 1: dispatch and combine all-to-alls (memory-model.md §4.2, §5.1, §5.2). */
static void moe_layer_ep(prog_builder *b, const layer_plan *pl, const layout *lo,
                         const moe_sizes *z) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t disp = ck_mul(o, round_up(d->d_s, 1024), z->H2);
  int64_t gath = ck_mul(o, round_up(d->d_r, 1024), z->H2);
  int64_t comb = ck_mul(o, d->combine_rows, z->H2);
  int64_t tdi = ck_mul4(o, d->m, d->ep, 8, 1), eidx = ck_mul4(o, z->mk, d->ep, 8, 1);
  alloc(b, ST_F1, C_LAYER_T, z->mH, "x2 (post-attention norm output)");
  alloc(b, ST_F1, C_ACT, tdi, "dispatch_token_idxs");
  alloc(b, ST_F1, C_LAYER_T, tdi, "dedup_local_pos");
  alloc(b, ST_F1, C_ACT, ck_mul(o, z->mk, 8), "moe_local_idxs");
  alloc(b, ST_F1, C_LAYER_T, ck_mul(o, z->mk, 8), "sender expand_idx");
  alloc(b, ST_F1, C_LAYER_T, eidx, "expert_idxs buffer");
  alloc(b, ST_F1, C_LAYER_T, z->n_in8, "received_expand_idx");
  alloc(b, ST_F1, C_ACT, z->n_in8, "expand_idx");
  alloc(b, ST_F1, C_LAYER_T, disp, "dispatch buffer");
  release(b, ST_F1, C_LAYER_T, ck_add(o, ck_add(o, tdi, ck_mul(o, z->mk, 8)), z->n_in8),
          "dispatch preparation scratch freed");
  release(b, ST_F1, C_LAYER_T, z->mH, "x2 freed");
  alloc(b, ST_F2, C_LAYER_T, gath, "dispatch all-to-all output");
  put(b, ST_F3, EVK_UNSHARD_X, C_FSDP_T, 0, "all-gather of the layer's experts");
  release(b, ST_F3, C_LAYER_T, disp, "dispatch buffer freed");
  alloc(b, ST_F3, C_LAYER_T, ck_mul(o, round_up(d->n_in, 1024), z->H2), "expanded tokens");
  scatter_buffer(b, d, z->x_bytes);
  alloc(b, ST_F3, C_ACT, ck_add(o, z->n_in8, ck_mul(o, d->e_loc, 4)), "reverse_shuffle_idxs, offs");
  release(b, ST_F3, C_LAYER_T, ck_mul(o, round_up(d->n_in, 1024), z->H2), "expanded tokens freed");
  expert_intermediates(b, pl, z->s3);
  alloc(b, ST_F3, C_LAYER_T, z->down_out, "down-projection output");
  alloc(b, ST_F3, C_LAYER_T, z->s3_out, "expert output (to combine)");
  release(b, ST_F3, C_LAYER_T, ck_add(o, z->down_out, gath), "down output and dispatch output freed");
  if (d->fp8) release(b, ST_F3, C_LAYER_T, z->x_bytes, "scatter buffer freed (FP8)");
  alloc(b, ST_F4, C_ACT, comb, "combine all-to-all output");
  release(b, ST_F5, C_LAYER_T, z->s3_out, "expert output freed");
  alloc(b, ST_F5, C_ACT, ck_mul(o, z->mk, 2), "bf16 cast of topk_weight");
  alloc(b, ST_F5, C_ACT, z->mH, "layer output");
  release(b, ST_F5, C_LAYER_T, eidx, "expert_idxs buffer freed");
  detail(b, "dispatch_token_idxs", "(m*ep)", 'S', tdi);
  detail(b, "moe_local_idxs", "(m*k)", 'C', ck_mul(o, z->mk, 8));
  detail(b, "expand_idx", "(n_in)", 'S', z->n_in8);
  expert_detail(b, pl, d, z);
  detail(b, "combine buffer", "(A(m*k), H)", 'R', comb);
  detail(b, "bf16 topk_weight cast", "(m, k)", 'C', ck_mul(o, z->mk, 2));
  /* Backward. */
  alloc(b, ST_B5, C_LAYER_T, ck_mul(o, z->mk, z->H2), "combine output grad");
  alloc(b, ST_B5, C_LAYER_T, ck_mul(o, z->mk, 4), "topk_weight grad");
  release(b, ST_B5, C_ACT, ck_mul(o, z->mk, 10), "stage-5 saved freed");
  alloc(b, ST_B4, C_LAYER_T, z->s3_out, "combine all-to-all backward");
  expert_backward_any(b, pl, lo, z);
  b3_both(b, EVK_DELTA, C_LAYER_T, gath, "dispatch gather grad");
  b3_both(b, EVK_DELTA, C_ACT, -z->n_in8, "expand_idx freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -ck_mul(o, d->n_in, z->H2), "scatter backward consumed");
  alloc(b, ST_B2, C_LAYER_T, disp, "dispatch all-to-all backward");
  alloc(b, ST_B1, C_LAYER_T, ck_mul(o, round_up(d->m, 1024), z->H2), "x2 grad");
  stage1_backward(b, pl, z->s1, z->mH, z->pgrad);
  release(b, ST_B1, C_ACT, tdi, "dispatch_token_idxs freed");
  release(b, ST_B1, C_LAYER_T, ck_mul(o, round_up(d->m, 1024), z->H2), "x2 grad freed");
  release(b, ST_B1, C_LAYER_T, ck_add(o, z->s3_out, disp), "all-to-all backward buffers freed");
  release(b, ST_BCLR, C_ACT, ck_add(o, comb, ck_mul(o, z->mk, 4)), "combine buffer, topk_weight freed");
  release(b, ST_BCLR, C_LAYER_T, ck_add(o, ck_mul(o, z->mk, z->H2), ck_add(o, ck_mul(o, z->mk, 4), gath)),
          "record grads freed");
}

/* EP = 1: no all-to-all; the dispatch tensor and expert output are kept
** (memory-model.md §4.3). */
static void moe_layer_ep1(prog_builder *b, const layer_plan *pl, const layout *lo,
                          const moe_sizes *z) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t disp = ck_mul(o, z->mk, z->H2);
  int64_t out = ck_mul(o, d->combine_rows, z->H2);
  alloc(b, ST_F1, C_LAYER_T, z->mH, "x2 (post-attention norm output)");
  alloc(b, ST_F1, C_ACT, disp, "dispatch tokens (x2 repeated k times, kept when EP = 1)");
  release(b, ST_F1, C_LAYER_T, z->mH, "x2 freed");
  put(b, ST_F3, EVK_UNSHARD_X, C_FSDP_T, 0, "all-gather of the layer's experts");
  scatter_buffer(b, d, z->x_bytes);
  alloc(b, ST_F3, C_ACT, ck_add(o, z->n_in8, ck_mul(o, d->e_loc, 4)), "reverse_shuffle_idxs, offs");
  expert_intermediates(b, pl, z->s3);
  alloc(b, ST_F3, C_LAYER_T, z->down_out, "down-projection output");
  alloc(b, ST_F3, C_ACT, out, "expert output (kept when EP = 1)");
  release(b, ST_F3, C_LAYER_T, z->down_out, "down output freed");
  if (d->fp8) release(b, ST_F3, C_LAYER_T, z->x_bytes, "scatter buffer freed (FP8)");
  alloc(b, ST_F5, C_ACT, ck_mul(o, z->mk, 2), "bf16 cast of topk_weight");
  alloc(b, ST_F5, C_ACT, z->mH, "layer output");
  detail(b, "dispatch tokens (x2 repeated k times)", "(m*k, H)", 'R', disp);
  expert_detail(b, pl, d, z);
  detail(b, "expert output", "(A(m*k), H)", 'R', out);
  detail(b, "bf16 topk_weight cast", "(m, k)", 'C', ck_mul(o, z->mk, 2));
  alloc(b, ST_B5, C_LAYER_T, ck_mul(o, z->mk, z->H2), "expert output grad");
  alloc(b, ST_B5, C_LAYER_T, ck_mul(o, z->mk, 4), "topk_weight grad");
  release(b, ST_B5, C_ACT, ck_mul(o, z->mk, 2), "stage-5 saved freed");
  expert_backward_any(b, pl, lo, z);
  alloc(b, ST_B1, C_LAYER_T, z->mH, "x2 grad");
  stage1_backward(b, pl, z->s1, z->mH, z->pgrad);
  release(b, ST_B1, C_LAYER_T, z->mH, "x2 grad freed");
  release(b, ST_BCLR, C_ACT, ck_add(o, ck_add(o, disp, out), ck_mul(o, z->mk, 4)),
          "dispatch tokens, expert output, topk_weight freed");
  release(b, ST_BCLR, C_LAYER_T,
          ck_add(o, ck_mul(o, z->mk, z->H2), ck_add(o, ck_mul(o, z->mk, 4), ck_mul(o, d->n_in, z->H2))),
          "record grads freed");
}

static void moe_layer(prog_builder *b, const layer_plan *pl, const layout *lo, int64_t mH,
                      int64_t pgrad) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  moe_sizes z;
  z.mH = mH;
  z.H2 = mH / d->m;
  z.mk = ck_mul(o, d->m, d->top_k);
  z.s1 = memi_rows_total(&pl->s1);
  z.s3 = memi_rows_total(&pl->s3);
  z.x_bytes = ck_mul(o, d->r_rows, z.H2);
  z.n_in8 = ck_mul(o, d->n_in, 8);
  z.s3_out = ck_mul(o, round_up(d->n_in, 1024), z.H2);
  z.down_out = ck_mul(o, d->m_act, z.H2);
  z.pgrad = pgrad;
  stage1_forward(b, pl, z.s1, mH);
  alloc(b, ST_F1, C_ACT, ck_mul(o, z.mk, 4), "topk_weight (fp32)");
  detail(b, "topk_weight (fp32)", "(m, k)", 'R', ck_mul(o, z.mk, 4));
  if (d->ep > 1) moe_layer_ep(b, pl, lo, &z);
  else moe_layer_ep1(b, pl, lo, &z);
  record_clear(b, mH);
}

/* Both dense MLPs end alike: the attention half's backward, then x2, the
** MLP output and their grads freed. */
static void dense_layer_backward_end(prog_builder *b, const layer_plan *pl, int64_t s1,
                                     int64_t mH, int64_t pgrad) {
  stage1_backward(b, pl, s1, mH, pgrad);
  release(b, ST_B1, C_ACT, mH, "x2 freed");
  release(b, ST_B1, C_LAYER_T, mH, "x2 grad freed");
  release(b, ST_BCLR, C_ACT, mH, "MLP output freed");
  release(b, ST_BCLR, C_LAYER_T, mH, "MLP output grad freed");
  record_clear(b, mH);
}

static void dense_layer(prog_builder *b, const layer_plan *pl, const layout *lo, int64_t mH,
                        int64_t pgrad) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t s1 = memi_rows_total(&pl->s1);
  int64_t gu = ck_mul4(o, 2, d->m, pl->mlp_inter, 2), act = ck_mul4(o, d->m, pl->mlp_inter, 2, 1);
  stage1_forward(b, pl, s1, mH);
  alloc(b, ST_F1, C_ACT, mH, "x2 (dense MLP input, kept)");
  alloc(b, ST_F3, C_ACT, ck_add(o, gu, act), "g, u, act (dense MLP)");
  alloc(b, ST_F3, C_ACT, mH, "MLP output (kept)");
  alloc(b, ST_F5, C_ACT, mH, "layer output");
  detail(b, "x2 (dense MLP input)", "(m, H)", 'R', mH);
  detail(b, "g, u (silu_mul inputs)", "2 x (m, I)", 'S', gu);
  detail(b, "act (down-proj input)", "(m, I)", 'S', act);
  detail(b, "MLP output", "(m, H)", 'R', mH);
  alloc(b, ST_B5, C_LAYER_T, mH, "MLP output grad");
  b3_both(b, EVK_DELTA, C_LAYER_T, act, "down-projection input grad");
  b3_both(b, EVK_DELTA, C_LAYER_T, gu, "silu_mul backward: grad_g, grad_u");
  b3_both(b, EVK_DELTA, C_ACT, -gu, "g, u freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -act, "down-projection input grad consumed");
  b3_both(b, EVK_DELTA, C_LAYER_T, ck_mul(o, 2, mH), "gate and up input grads");
  b3_both(b, EVK_DELTA, C_LAYER_T, -mH, "input grads summed");
  b3_both(b, EVK_DELTA, C_ACT, -act, "act freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -gu, "grad_g, grad_u freed");
  dense_layer_backward_end(b, pl, s1, mH, pgrad);
}

/* FP8 (memory-model.md §4.4, §4.8): the dense MLP's eager FP8Linears use the cached
** weights and save their inputs only as transposed fp8 copies (x2 for gate
** and again for up, act for down); silu_mul still saves bf16 g and u. The
** backward quantises each output grad (rowwise and transposed). */
static void dense_layer_fp8(prog_builder *b, const layer_plan *pl, const layout *lo, int64_t mH,
                            int64_t pgrad) {
  const run_dims *d = &lo->d;
  int *o = &b->ovf;
  int64_t m = d->m, H = mH / d->m / 2, I = pl->mlp_inter;
  int64_t s1 = memi_rows_total(&pl->s1);
  int64_t gu = ck_mul4(o, 2, m, I, 2), act = ck_mul4(o, m, I, 2, 1);
  int64_t xt = ck_mul(o, 2, memi_fp8_block_t_bytes(H, m, o)), at = memi_fp8_block_t_bytes(I, m, o);
  int64_t qx = memi_fp8_rowwise_bytes(m, H, o), qa = memi_fp8_rowwise_bytes(m, I, o);
  int64_t gh = ck_add(o, memi_fp8_rowwise_bytes(m, H, o), memi_fp8_block_t_bytes(H, m, o));
  int64_t gi = ck_mul(o, 2, ck_add(o, memi_fp8_rowwise_bytes(m, I, o), memi_fp8_block_t_bytes(I, m, o)));
  stage1_forward(b, pl, s1, mH);
  alloc(b, ST_F1, C_ACT, mH, "x2 (dense MLP input, kept)");
  alloc(b, ST_F3, C_ACT, xt, "FP8: transposed fp8 x2 (gate, up)");
  alloc(b, ST_F3, C_LAYER_T, qx, "FP8: rowwise x2 for the forward GEMM");
  release(b, ST_F3, C_LAYER_T, qx, "FP8: rowwise x2 freed");
  alloc(b, ST_F3, C_ACT, gu, "g, u (dense MLP)");
  alloc(b, ST_F3, C_LAYER_T, act, "act (bf16; FP8 saves its fp8 copy)");
  alloc(b, ST_F3, C_ACT, at, "FP8: transposed fp8 act (down)");
  alloc(b, ST_F3, C_LAYER_T, qa, "FP8: rowwise act for the forward GEMM");
  release(b, ST_F3, C_LAYER_T, qa, "FP8: rowwise act freed");
  alloc(b, ST_F3, C_ACT, mH, "MLP output (kept)");
  release(b, ST_F3, C_LAYER_T, act, "act freed");
  alloc(b, ST_F5, C_ACT, mH, "layer output");
  detail(b, "x2 (dense MLP input)", "(m, H)", 'R', mH);
  detail(b, "fp8 transposed x2 (gate, up)", "2 x (H, m) fp8", 'S', xt);
  detail(b, "g, u (silu_mul inputs)", "2 x (m, I)", 'S', gu);
  detail(b, "fp8 transposed act (down input)", "(I, m) fp8", 'S', at);
  detail(b, "MLP output", "(m, H)", 'R', mH);
  alloc(b, ST_B5, C_LAYER_T, mH, "MLP output grad");
  b3_both(b, EVK_DELTA, C_LAYER_T, gh, "FP8: down output grad quantised");
  b3_both(b, EVK_DELTA, C_LAYER_T, act, "down-projection input grad");
  b3_both(b, EVK_DELTA, C_LAYER_T, -gh, "FP8: quantised grad freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, gu, "silu_mul backward: grad_g, grad_u");
  b3_both(b, EVK_DELTA, C_ACT, -gu, "g, u freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -act, "down-projection input grad consumed");
  b3_both(b, EVK_DELTA, C_LAYER_T, gi, "FP8: gate/up output grads quantised");
  b3_both(b, EVK_DELTA, C_LAYER_T, ck_mul(o, 2, mH), "gate and up input grads");
  b3_both(b, EVK_DELTA, C_LAYER_T, -gi, "FP8: quantised grads freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -mH, "input grads summed");
  b3_both(b, EVK_DELTA, C_ACT, -ck_add(o, xt, at), "FP8 input copies freed");
  b3_both(b, EVK_DELTA, C_LAYER_T, -gu, "grad_g, grad_u freed");
  dense_layer_backward_end(b, pl, s1, mH, pgrad);
}

/* Sums events [from, to) of a stage into u; 0 when a running sum would
** overflow (they are then left as events). */
static int sum_run(const prog_ev *e, int from, int to, prog_run *u) {
  int64_t total = 0;
  int ovf = 0, i, k;
  memset(u, 0, sizeof *u);
  u->first = from;
  u->count = to - from;
  for (i = from; i < to; i++) {
    for (k = 0; k < u->n && u->comp[k] != e[i].comp; k++) {}
    if (k == u->n) u->comp[u->n++] = e[i].comp;
    u->net[k] = ck_add(&ovf, u->net[k], e[i].d);
    total = ck_add(&ovf, total, e[i].d);
    u->reach += e[i].d < 0 ? 0 - (uint64_t)e[i].d : (uint64_t)e[i].d;
    if (u->reach >= (uint64_t)1 << 62) ovf = 1;
    if (i == from || total > u->peak) {
      u->peak = total;
      u->label = e[i].label;
      memcpy(u->at, u->net, sizeof u->at);
    }
  }
  u->net_total = total;
  return !ovf;
}

/* Whether event e can join a run touching the components in u so far. */
static int joins_run(const prog_ev *e, const unsigned char *comps, int n) {
  int k;
  if (e->kind != EVK_DELTA) return 0;
  for (k = 0; k < n; k++) {
    if (comps[k] == e->comp) return 1;
  }
  return n < RUN_COMPS;
}

/* Builds lp->fast: each stretch of two or more EVK_DELTA events (on at
** most RUN_COMPS components) becomes one EVK_RUN. Returns 0 when out of
** memory. */
static int prog_runs(layer_prog *lp, int total) {
  prog_ev *fast = malloc((size_t)(total > 0 ? total : 1) * sizeof *fast);
  prog_run *runs = malloc((size_t)(total / 2 + 1) * sizeof *runs);
  int st, off = 0, n_runs = 0;
  if (fast == NULL || runs == NULL) {
    free(fast);
    free(runs);
    return 0;
  }
  for (st = 0; st < ST_COUNT; st++) {
    const prog_ev *e = lp->st[st];
    int i = 0, n = 0;
    lp->fast[st] = fast + off;
    while (i < lp->n[st]) {
      unsigned char comps[RUN_COMPS];
      int j = i, nc = 0, k;
      while (j < lp->n[st] && joins_run(&e[j], comps, nc)) {
        for (k = 0; k < nc && comps[k] != e[j].comp; k++) {}
        if (k == nc) comps[nc++] = e[j].comp;
        j++;
      }
      if (j - i >= 2 && sum_run(e, i, j, &runs[n_runs])) {
        lp->fast[st][n].kind = EVK_RUN;
        lp->fast[st][n].comp = 0;
        lp->fast[st][n].d = n_runs++;
        lp->fast[st][n].label = runs[n_runs - 1].label;
        n++;
        i = j;
      } else {
        lp->fast[st][n++] = e[i++];
      }
    }
    lp->n_fast[st] = n;
    off += n;
  }
  lp->runs = runs;
  return 1;
}

/* Copies the builder's stage arrays into one allocation owned by lp, then
** sums its delta runs. */
static int prog_finish(prog_builder *b, layer_prog *lp) {
  int total = 0, st, off = 0;
  prog_ev *all;
  for (st = 0; st < ST_COUNT; st++) total += b->n[st];
  all = malloc((size_t)(total > 0 ? total : 1) * sizeof *all);
  if (all == NULL) return 0;
  for (st = 0; st < ST_COUNT; st++) {
    lp->st[st] = all + off;
    lp->n[st] = b->n[st];
    memcpy(all + off, b->e[st], (size_t)b->n[st] * sizeof *all);
    off += b->n[st];
  }
  if (!prog_runs(lp, total)) {
    memi_lay_free(lp);
    return 0;
  }
  return 1;
}

/* The bf16 wgrad of each deferred projection of the experts group, in
** inventory order (the down projection last). */
static int deferred_wgrads(const rank_inv *ri, const rank_group *xg, int64_t wgrad[3], int *ovf) {
  int i, n = 0;
  if (xg == NULL) return 0;
  for (i = xg->g.first; i < xg->g.first + xg->g.count && n < 3; i++) {
    const param_desc *p = &ri->params[i].p;
    if (!p->deferred) continue;
    wgrad[n++] = ck_mul4(ovf, 2, p->d[0], p->d[1], p->d[2]);
  }
  return n;
}

static memest_code build(prog_builder *b, const model_config *mc, const layout *lo,
                         const rank_inv *ri, int layer, const rank_group *lg,
                         const rank_group *xg, layer_prog *lp, memest_error *err) {
  layer_plan pl;
  int64_t mH, pgrad;
  int st, i;
  memset(lp, 0, sizeof *lp);
  memset(&pl, 0, sizeof pl);
  memset(b->n, 0, sizeof b->n);
  b->ovf = 0;
  b->lp = lp;
  mc->arch->layer_plan(mc, &lo->d, layer, &pl);
  lp->kind = pl.kind;
  lp->moe = pl.moe;
  mH = ck_mul4(&b->ovf, lo->d.m, mc->hidden, 2, 1);
  lp->h_out = mH;
  pgrad = ck_mul(&b->ovf, 2, lg->g.full_grad);
  lp->n_wgrad = deferred_wgrads(ri, xg, lp->wgrad, &b->ovf);
  if (pl.moe) moe_layer(b, &pl, lo, mH, pgrad);
  else if (lo->d.fp8) dense_layer_fp8(b, &pl, lo, mH, pgrad);
  else dense_layer(b, &pl, lo, mH, pgrad);
  detail(b, "layer output", "(m, H)", 'R', mH);
  for (st = ST_F1; st <= ST_F5; st++) {
    for (i = 0; i < b->n[st]; i++) {
      if (b->e[st][i].comp == C_ACT && b->e[st][i].kind == EVK_DELTA) {
        lp->retained = ck_add(&b->ovf, lp->retained, b->e[st][i].d);
      }
    }
  }
  if (b->ovf || pl.ovf) {
    return memi_err_set(err, MEMEST_E_OVERFLOW, "sequence_length",
                   "the activation sizes of this run overflow 64-bit byte counts; use a smaller "
                   "--sequence-length or --micro-batch-size");
  }
  if (!prog_finish(b, lp)) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory building layer programs");
  }
  return MEMEST_OK;
}

memest_code memi_lay_build(const model_config *mc, const layout *lo, const rank_inv *ri, int layer,
                      const rank_group *lg, const rank_group *xg, layer_prog *lp,
                      memest_error *err) {
  prog_builder *b = malloc(sizeof *b);
  memest_code rc;
  if (b == NULL) {
    memset(lp, 0, sizeof *lp);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory building layer programs");
  }
  rc = build(b, mc, lo, ri, layer, lg, xg, lp, err);
  free(b);
  return rc;
}

void memi_lay_free(layer_prog *lp) {
  free(lp->st[0]);
  free(lp->fast[0]);
  free(lp->runs);
  memset(lp->st, 0, sizeof lp->st);
  memset(lp->fast, 0, sizeof lp->fast);
  lp->runs = NULL;
}

/* {======================================================================
** Sharing programs (prog_cache).
** ======================================================================= */
#define PROG_CACHE_MAX 1024    /* programs kept before the cache starts over */

/* Everything a program depends on besides the model; every field is 64
** bits wide, so the key has no padding and compares with memcmp. */
typedef struct prog_key {
  run_dims d;                /* dp, pp and ovf zeroed: no layer plan reads them */
  int64_t pgrad;             /* the layer group's full gradient elements */
  int64_t wgrad[3];
  int64_t n_wgrad;
  int64_t attn, dense;       /* the layer's kind (model.h's layer_same_kind) */
} prog_key;

struct prog_entry {
  prog_key key;
  uint32_t hash;
  layer_prog *prog;          /* NULL: a free slot */
};

/* Fills key; 0 when a size overflows (the build then reports it). */
static int key_of(const model_config *mc, const layout *lo, const rank_inv *ri, int layer,
                  const rank_group *lg, const rank_group *xg, prog_key *key) {
  int ovf = 0;
  memset(key, 0, sizeof *key);
  key->d = lo->d;
  key->d.dp = key->d.pp = 0;
  key->d.ovf = 0;
  key->pgrad = lg != NULL ? lg->g.full_grad : -1;
  key->n_wgrad = deferred_wgrads(ri, xg, key->wgrad, &ovf);
  key->attn = mc->layer_attn[layer];
  key->dense = mc->layer_dense[layer];
  return lg != NULL && !ovf;
}

static uint32_t key_hash(const prog_key *key) {
  const unsigned char *p = (const unsigned char *)key;
  uint32_t h = 2166136261u;
  size_t i;
  for (i = 0; i < sizeof *key; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

static void drop_all(prog_cache *c) {
  int i;
  for (i = 0; i < c->cap; i++) {
    if (c->slots[i].prog == NULL) continue;
    memi_lay_free(c->slots[i].prog);
    free(c->slots[i].prog);
    c->slots[i].prog = NULL;
  }
  c->n = 0;
}

void memi_lay_cache_bind(prog_cache *c, const model_config *mc) {
  if (!c->bound || memcmp(&c->mc, mc, sizeof *mc) != 0) {
    drop_all(c);
    memcpy(&c->mc, mc, sizeof *mc);
    c->bound = 1;
  } else if (c->n >= PROG_CACHE_MAX) {
    drop_all(c);
  }
}

void memi_lay_cache_free(prog_cache *c) {
  drop_all(c);
  free(c->slots);
  free(c->builder);
  c->slots = NULL;
  c->builder = NULL;
  c->cap = 0;
  c->bound = 0;
}

/* The slot of key: its entry, or the free slot where it belongs. */
static prog_entry *slot_of(prog_cache *c, const prog_key *key, uint32_t hash) {
  uint32_t i = hash & (uint32_t)(c->cap - 1);
  for (;;) {
    prog_entry *e = &c->slots[i];
    if (e->prog == NULL || (e->hash == hash && memcmp(&e->key, key, sizeof *key) == 0)) return e;
    i = (i + 1) & (uint32_t)(c->cap - 1);
  }
}

/* Keeps the table under half full; 0 when out of memory. */
static int make_room(prog_cache *c) {
  prog_entry *old = c->slots, *ns;
  int old_cap = c->cap, ncap = c->cap ? c->cap * 2 : 64, i;
  if (2 * (c->n + 1) <= c->cap) return 1;
  ns = calloc((size_t)ncap, sizeof *ns);
  if (ns == NULL) return 0;
  c->slots = ns;
  c->cap = ncap;
  for (i = 0; i < old_cap; i++) {
    if (old[i].prog != NULL) *slot_of(c, &old[i].key, old[i].hash) = old[i];
  }
  free(old);
  return 1;
}

memest_code memi_lay_get(prog_cache *c, const model_config *mc, const layout *lo, const rank_inv *ri,
                    int layer, const rank_group *lg, const rank_group *xg,
                    const layer_prog **out, memest_error *err) {
  prog_key key;
  uint32_t hash;
  prog_entry *e;
  layer_prog *lp;
  memest_code rc;
  *out = NULL;
  if (c->builder == NULL && (c->builder = malloc(sizeof *c->builder)) == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory building layer programs");
  }
  if (!key_of(mc, lo, ri, layer, lg, xg, &key)) {
    /* A size overflows: the build says which; nothing is kept. */
    layer_prog tmp;
    rc = build(c->builder, mc, lo, ri, layer, lg, xg, &tmp, err);
    memi_lay_free(&tmp);
    if (rc != MEMEST_OK) return rc;
    return memi_err_set(err, MEMEST_E_OVERFLOW, "", "layer sizes overflow 64 bits");
  }
  hash = key_hash(&key);
  if (c->cap > 0) {
    e = slot_of(c, &key, hash);
    if (e->prog != NULL) {
      *out = e->prog;
      return MEMEST_OK;
    }
  }
  if (!make_room(c) || (lp = malloc(sizeof *lp)) == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory building layer programs");
  }
  rc = build(c->builder, mc, lo, ri, layer, lg, xg, lp, err);
  if (rc != MEMEST_OK) {
    free(lp);
    return rc;
  }
  e = slot_of(c, &key, hash);
  e->key = key;
  e->hash = hash;
  e->prog = lp;
  c->n++;
  *out = lp;
  return MEMEST_OK;
}
/* }====================================================================== */
