/*
** inventory.c — the parameters one pipeline rank holds, grouped as FSDP
** groups them (memory-model.md §3.3, §3.4): embed_tokens, then per layer the layer
** group and its experts group, then norm and lm_head, for each module the
** schedule gives the rank. For each group: local shard, all-gather output
** and full sizes by optimizer, and the FP8 weight-cache bytes. Architecture-free: the
** parameters come from the family's layer_params.
*/
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"

/* Sizes of one parameter sharded W ways on dim 0 (memory-model.md §3.4). */
static void group_add(group_sizes *g, const param_desc *p, int64_t w, int fp8, int *o) {
  int64_t rest = ck_mul(o, p->d[1], p->d[2]);
  int64_t rows = ceil_div(p->d[0], w);
  int64_t sh = ck_mul(o, rows, rest);
  int64_t un = ck_mul(o, w, sh);
  int64_t full = ck_mul(o, p->d[0], rest);
  g->w = w;
  g->sh = ck_add(o, g->sh, sh);
  g->un = ck_add(o, g->un, un);
  g->full = ck_add(o, g->full, full);
  if (p->grad) {
    g->rs_in = ck_add(o, g->rs_in, un);
    g->sh_grad = ck_add(o, g->sh_grad, sh);
    g->full_grad = ck_add(o, g->full_grad, full);
    if (p->muon) g->sh_muon = ck_add(o, g->sh_muon, sh);
    else g->sh_adam = ck_add(o, g->sh_adam, sh);
  }
  if (p->deferred) g->full_deferred = ck_add(o, g->full_deferred, full);
  if (fp8 && p->fp8) {
    /* fp8 W and its transpose, plus fp32 scales per 128x128 block of each. */
    int64_t batch = p->ndim == 3 ? p->d[0] : 1;
    int64_t n = p->ndim == 3 ? p->d[1] : p->d[0];
    int64_t k = p->ndim == 3 ? p->d[2] : p->d[1];
    int64_t blocks = ck_mul4(o, batch, ceil_div(n, 128), ceil_div(k, 128), 1);
    g->fp8_cache = ck_add(o, g->fp8_cache, ck_add(o, ck_mul(o, 2, full), ck_mul(o, 8, blocks)));
  }
}

typedef struct inv_builder {
  rank_inv *ri;
  int prev_layer;            /* the module's last layer added, or -1 */
  int prev_group, prev_groups; /* its groups: first index and count */
  int fp8;
  int ovf;
  int nomem;
} inv_builder;

static int grow(void **p, int *cap, int need, size_t size) {
  void *np;
  int ncap;
  if (need <= *cap) return 1;
  ncap = *cap ? *cap * 2 : 16;
  while (ncap < need) ncap *= 2;
  np = realloc(*p, (size_t)ncap * size);
  if (np == NULL) return 0;
  *p = np;
  *cap = ncap;
  return 1;
}

/* Starts a group; params are added with group_param. */
static rank_group *group_open(inv_builder *b, int kind, int module, int layer) {
  rank_inv *ri = b->ri;
  rank_group *g;
  if (!grow((void **)&ri->groups, &ri->cap_groups, ri->n_groups + 1, sizeof *ri->groups)) {
    b->nomem = 1;
    return NULL;
  }
  g = &ri->groups[ri->n_groups++];
  memset(g, 0, sizeof *g);
  g->kind = kind;
  g->module = module;
  g->layer = layer;
  g->g.first = ri->n_params;
  return g;
}

static void group_param(inv_builder *b, const param_desc *p, int64_t w) {
  rank_inv *ri = b->ri;
  rank_group *g = &ri->groups[ri->n_groups - 1];
  rank_param *rp;
  if (!grow((void **)&ri->params, &ri->cap_params, ri->n_params + 1, sizeof *ri->params)) {
    b->nomem = 1;
    return;
  }
  rp = &ri->params[ri->n_params++];
  rp->p = *p;
  rp->w = w;
  rp->group = ri->n_groups - 1;
  group_add(&g->g, p, w, b->fp8, &b->ovf);
  g->g.count++;
}

static void add_edge(inv_builder *b, int kind, int module, const char *name, int64_t d0,
                     int64_t d1, int ndim, int64_t w) {
  param_desc p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.d[0] = d0;
  p.d[1] = ndim > 1 ? d1 : 1;
  p.d[2] = 1;
  p.ndim = (unsigned char)ndim;
  p.grad = 1;
  if (group_open(b, kind, module, -1) == NULL) return;
  group_param(b, &p, w);
}

static void list_layer(inv_builder *b, const model_config *mc, const layout *lo, int module,
                      int layer) {
  param_list pl;
  int i, has_x = 0;
  pl.n = pl.dropped = 0;
  mc->arch->layer_params(mc, layer, lo->d.e_loc, &pl);
  if (group_open(b, G_LAYER, module, layer) == NULL) return;
  for (i = 0; i < pl.n; i++) {
    if (!pl.p[i].expert) group_param(b, &pl.p[i], lo->w_o);
    else has_x = 1;
  }
  if (!has_x) return;
  if (group_open(b, G_EXPERTS, module, layer) == NULL) return;
  for (i = 0; i < pl.n; i++) {
    if (pl.p[i].expert) group_param(b, &pl.p[i], lo->w_x);
  }
}

/* A layer of the previous layer's kind has its parameters (model.h):
** copies its groups rather than listing them again. */
static void copy_layer(inv_builder *b, int module, int layer) {
  rank_inv *ri = b->ri;
  int gi, pi;
  for (gi = b->prev_group; gi < b->prev_group + b->prev_groups; gi++) {
    rank_group *g = group_open(b, ri->groups[gi].kind, module, layer);
    int from = ri->groups[gi].g.first, count = ri->groups[gi].g.count;
    if (g == NULL) return;
    if (!grow((void **)&ri->params, &ri->cap_params, ri->n_params + count, sizeof *ri->params)) {
      b->nomem = 1;
      return;
    }
    g->g = ri->groups[gi].g;
    g->g.first = ri->n_params;
    for (pi = from; pi < from + count; pi++) {
      ri->params[ri->n_params] = ri->params[pi];
      ri->params[ri->n_params].group = ri->n_groups - 1;
      ri->n_params++;
    }
  }
}

static void add_layer(inv_builder *b, const model_config *mc, const layout *lo, int module,
                      int layer) {
  int first = b->ri->n_groups;
  if (b->prev_layer >= 0 && layer_same_kind(mc, layer, b->prev_layer)) {
    copy_layer(b, module, layer);
  } else {
    list_layer(b, mc, lo, module, layer);
  }
  b->prev_layer = layer;
  b->prev_group = first;
  b->prev_groups = b->ri->n_groups - first;
}

/* Each module's transfers: a neighbouring stage of its chain this rank
** does not hold is another rank's. */
static void module_links(rank_inv *ri, int stages) {
  int m, k, prev, next;
  for (m = 0; m < ri->n_mod; m++) {
    int s = ri->mod[m].stage, c = ri->mod[m].chain;
    prev = s > 0;
    next = s < stages - 1;
    for (k = 0; k < ri->n_mod; k++) {
      if (ri->mod[k].chain != c) continue;
      if (ri->mod[k].stage == s - 1) prev = 0;
      if (ri->mod[k].stage == s + 1) next = 0;
    }
    if (prev) ri->mod[m].link |= LINK_RECV_F;
    if (next) ri->mod[m].link |= LINK_SEND_F;
  }
}

memest_code memi_inv_build(const model_config *mc, const layout *lo, const memest_params *p,
                      int rank, rank_inv *ri, memest_error *err) {
  inv_builder b;
  rank_inv kept = *ri;
  int m, i, l;
  /* Start empty, in the arrays of the last build. */
  memset(ri, 0, sizeof *ri);
  ri->groups = kept.groups;
  ri->params = kept.params;
  ri->cap_groups = kept.cap_groups;
  ri->cap_params = kept.cap_params;
  memset(&b, 0, sizeof b);
  b.ri = ri;
  b.fp8 = p->fp8_training == MEMEST_FP8_DEEP_GEMM;
  ri->rank = rank;
  ri->n_mod = lo->modules;
  for (m = 0; m < ri->n_mod; m++) {
    module_inv *mi = &ri->mod[m];
    int pos = lo->sched->stage_of(lo->pp, lo->v, rank, m), stage = pos % lo->stages;
    mi->position = pos;
    mi->chain = pos / lo->stages;
    mi->stage = stage;
    mi->first_layer = lo->stage_first[stage];
    mi->n_layers = lo->stage_first[stage + 1] - lo->stage_first[stage];
    mi->stage0 = stage == 0;
    mi->last_stage = stage == lo->stages - 1;
    mi->link = stage < lo->stages - 1 ? LINK_DY : 0;
    mi->first_group = ri->n_groups;
    b.prev_layer = -1;
    if (mi->stage0) add_edge(&b, G_EMBED, m, "embed_tokens.weight", mc->vocab, mc->hidden, 2, lo->w_o);
    for (l = 0; l < mi->n_layers; l++) add_layer(&b, mc, lo, m, mi->first_layer + l);
    if (mi->last_stage) {
      if (group_open(&b, G_HEAD, m, -1) != NULL) {
        param_desc pn, ph;
        memset(&pn, 0, sizeof pn);
        pn.name = "norm.weight";
        pn.d[0] = mc->hidden;
        pn.d[1] = pn.d[2] = 1;
        pn.ndim = 1;
        pn.grad = 1;
        ph = pn;
        ph.name = "lm_head.weight";
        ph.d[0] = mc->vocab;
        ph.d[1] = mc->hidden;
        ph.ndim = 2;
        group_param(&b, &pn, lo->w_o);
        group_param(&b, &ph, lo->w_o);
      }
    }
    mi->n_groups = ri->n_groups - mi->first_group;
    if (b.nomem) break;
  }
  if (b.nomem) {
    memi_inv_free(ri);
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory while listing the parameters");
  }
  for (i = 0; i < ri->n_groups; i++) {
    const group_sizes *g = &ri->groups[i].g;
    ri->sh_total = ck_add(&b.ovf, ri->sh_total, g->sh);
    ri->sh_muon = ck_add(&b.ovf, ri->sh_muon, g->sh_muon);
    ri->sh_adam = ck_add(&b.ovf, ri->sh_adam, g->sh_adam);
    ri->fp8_cache_bytes = ck_add(&b.ovf, ri->fp8_cache_bytes, g->fp8_cache);
    ri->mod[ri->groups[i].module].params =
        ck_add(&b.ovf, ri->mod[ri->groups[i].module].params, g->full);
  }
  module_links(ri, lo->stages);
  ri->master_bytes = ck_mul(&b.ovf, 4, ri->sh_total);
  if (p->optimizer == MEMEST_MUON) {
    /* Muon momentum for matrices, AdamW's two moments for the rest. */
    ri->opt_state_bytes = ck_add(&b.ovf, ck_mul(&b.ovf, 4, ri->sh_muon),
                                 ck_mul(&b.ovf, 8, ri->sh_adam));
  } else {
    ri->opt_state_bytes = ck_mul(&b.ovf, 8, ck_add(&b.ovf, ri->sh_muon, ri->sh_adam));
  }
  if (b.ovf) {
    memi_inv_free(ri);
    return memi_err_set(err, MEMEST_E_OVERFLOW, "config",
                   "the parameter sizes of this model overflow 64-bit byte counts; check "
                   "hidden_size, vocab_size and the expert sizes");
  }
  return MEMEST_OK;
}

void memi_inv_free(rank_inv *ri) {
  free(ri->groups);
  free(ri->params);
  ri->groups = NULL;
  ri->params = NULL;
  ri->n_groups = ri->n_params = 0;
  ri->cap_groups = ri->cap_params = 0;
}

int64_t memi_inv_model_parameters(const model_config *mc, int *ovf) {
  int64_t total = ck_add(ovf, ck_mul(ovf, 2, ck_mul(ovf, mc->vocab, mc->hidden)), mc->hidden);
  int l, i;
  for (l = 0; l < mc->layers; l++) {
    param_list pl;
    pl.n = pl.dropped = 0;
    mc->arch->layer_params(mc, l, mc->experts, &pl);
    for (i = 0; i < pl.n; i++) {
      total = ck_add(ovf, total, ck_mul4(ovf, pl.p[i].d[0], pl.p[i].d[1], pl.p[i].d[2], 1));
    }
  }
  return total;
}
