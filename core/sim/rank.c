/*
** rank.c — one pipeline rank's state: its layers (inventory groups and the
** shared layer programs), the memory it holds by component, the events it
** records (the kept timeline window) and the peak of its step. The replay
** (replay.c) and the step end (stepend.c) change the state only here.
*/
#include <stdlib.h>
#include <string.h>

#include "sim/rank.h"

/* {======================================================================
** Setting up a rank.
** ======================================================================= */
static int grow_layers(sim_rank *sr, int m, int need) {
  rank_layer *np;
  if (need <= sr->cap_layers[m]) return 1;
  np = realloc(sr->layers[m], (size_t)need * sizeof *np);
  if (np == NULL) return 0;
  sr->layers[m] = np;
  sr->cap_layers[m] = need;
  return 1;
}

static int same_groups(const rank_group *a, const rank_group *b) {
  group_sizes x, y;
  if (a == NULL || b == NULL) return a == b;
  x = a->g;
  y = b->g;
  x.first = y.first = 0;
  x.count = y.count = 0;
  return memcmp(&x, &y, sizeof x) == 0;
}

/* Finds each layer's groups and program. */
static memest_code module_layers(sim_rank *sr, int m, memest_error *err) {
  const module_inv *mi = &sr->inv.mod[m];
  int li, g;
  memest_code rc;
  if (!grow_layers(sr, m, mi->n_layers > 0 ? mi->n_layers : 1)) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory building layer programs");
  }
  for (li = 0; li < mi->n_layers; li++) {
    rank_layer *rl = &sr->layers[m][li];
    rl->layer = mi->first_layer + li;
    rl->lg = rl->xg = NULL;
    for (g = mi->first_group; g < mi->first_group + mi->n_groups; g++) {
      const rank_group *rg = &sr->inv.groups[g];
      if (rg->layer != rl->layer) continue;
      if (rg->kind == G_LAYER && rl->lg == NULL) rl->lg = rg;
      if (rg->kind == G_EXPERTS && rl->xg == NULL) rl->xg = rg;
    }
    rl->same_as_prev = li > 0 && !sr->plain &&
                       layer_same_kind(sr->mc, rl->layer, rl[-1].layer) &&
                       same_groups(rl->lg, rl[-1].lg) && same_groups(rl->xg, rl[-1].xg);
    if (rl->same_as_prev) {
      /* Same kind and groups: the program's key is the same (layer.c). */
      rl->prog = rl[-1].prog;
      continue;
    }
    rc = memi_lay_get(sr->cache, sr->mc, sr->lo, &sr->inv, rl->layer, rl->lg, rl->xg, &rl->prog, err);
    if (rc != MEMEST_OK) return rc;
    rl->same_as_prev = li > 0 && !sr->plain && rl->prog == rl[-1].prog &&
                       same_groups(rl->lg, rl[-1].lg) && same_groups(rl->xg, rl[-1].xg);
  }
  return MEMEST_OK;
}

memest_code memi_sim_rank_init(sim_rank *sr, const model_config *mc, const layout *lo,
                          const memest_params *p, int rank, prog_cache *cache,
                          memest_error *err) {
  memest_code rc;
  int m, i;
  sr->mc = mc;
  sr->lo = lo;
  sr->params = p;
  sr->ovf = 0;
  sr->keep_timeline = 0;
  sr->n_tl = 0;
  free(sr->tl);
  sr->tl = NULL;
  for (i = 0; i < MEMO_SLOTS; i++) sr->memo[i].used = 0;
  sr->cache = cache != NULL ? cache : &sr->own;
  memi_lay_cache_bind(sr->cache, mc);
  if ((rc = memi_inv_build(mc, lo, p, rank, &sr->inv, err))) return rc;
  sr->mH = ck_mul4(&sr->ovf, lo->d.m, mc->hidden, 2, 1);
  sr->cossin = mc->arch->posemb_copies ? ck_mul4(&sr->ovf, 2, lo->d.s, mc->arch->rotary_dim(mc), 2)
                                       : 0;
  for (m = 0; m < sr->inv.n_mod; m++) {
    if ((rc = module_layers(sr, m, err))) return rc;
  }
  return MEMEST_OK;
}

void memi_sim_rank_free(sim_rank *sr) {
  int m;
  for (m = 0; m < MEMEST_MAX_MODULES; m++) {
    free(sr->layers[m]);
    sr->layers[m] = NULL;
    sr->cap_layers[m] = 0;
  }
  memi_inv_free(&sr->inv);
  memi_lay_cache_free(&sr->own);
  free(sr->tl);
  sr->tl = NULL;
}
/* }====================================================================== */

/* {======================================================================
** State, events and the peak.
** ======================================================================= */
void memi_sim_reset(sim_rank *sr) {
  memset(&sr->cur, 0, sizeof sr->cur);
  sr->total = 0;
  memset(&sr->flags, 0, sizeof sr->flags);
  memset(sr->live, 0, sizeof sr->live);
  sr->max_live = 0;
  sr->commit_act = sr->commit_p2p = 0;
  sr->wgs_head = sr->wgs_tail = 0;
  sr->peak = -1;
  sr->n_events = 0;
  sr->n_tl = 0;
}

void memi_sim_apply(sim_rank *sr, comp c, int64_t delta) {
  sr->cur.b[c] = ck_add(&sr->ovf, sr->cur.b[c], delta);
  sr->total = ck_add(&sr->ovf, sr->total, delta);
}

void memi_sim_change(sim_rank *sr, tl_event *ev, comp c, int64_t delta, const char *label) {
  if (delta == 0) return;
  memi_sim_apply(sr, c, delta);
  if (sr->total > ev->peak) {
    ev->peak = sr->total;
    ev->at_peak = sr->cur;
    ev->what = label;
  }
  if (sr->total > sr->peak) {
    sr->peak = sr->total;
    sr->at_peak = sr->cur;
    sr->peak_ev = *ev;
    memcpy(sr->peak_ev.live, sr->live, sizeof sr->live);
    sr->peak_index = sr->n_events;
  }
}

void memi_sim_note_peak(sim_rank *sr, int64_t value, const comp_vec *at, const tl_event *ev) {
  if (value <= sr->peak) return;
  sr->peak = value;
  sr->at_peak = *at;
  sr->peak_ev = *ev;
  sr->peak_ev.peak = value;
  sr->peak_index = sr->n_events;
}

int memi_sim_keeps_event(const sim_rank *sr) {
  return sr->keep_timeline && sr->n_events >= sr->tl_from && sr->n_events < sr->tl_to;
}

void memi_sim_apply_op(sim_rank *sr, tl_event *ev, const op_result *res) {
  int64_t start = sr->total;
  int c;
  ev->what = res->label;
  ev->peak = ck_add(&sr->ovf, start, res->peak);
  if (ev->peak > sr->peak || memi_sim_keeps_event(sr)) {
    comp_vec at;
    for (c = 0; c < C_COUNT; c++) at.b[c] = ck_add(&sr->ovf, sr->cur.b[c], res->at_peak.b[c]);
    ev->at_peak = at;
    memi_sim_note_peak(sr, ev->peak, &at, ev);
  }
  for (c = 0; c < C_COUNT; c++) sr->cur.b[c] = ck_add(&sr->ovf, sr->cur.b[c], res->net.b[c]);
  sr->total = ck_add(&sr->ovf, sr->total, res->net_total);
  sr->flags = res->flags_after;
}

void memi_sim_event(sim_rank *sr, tl_event *ev) {
  ev->total = sr->total;
  memcpy(ev->live, sr->live, sizeof sr->live);
  if (memi_sim_keeps_event(sr)) sr->tl[sr->n_tl++] = *ev;
  sr->n_events++;
}
/* }====================================================================== */
