/*
** plan_nodes.c — a vary-nodes plan (pp, ep, cp held, each node adding data
** parallelism) beside the same nodes spent on pipeline stages: --vary pp
** with one pipeline rank a whole number of nodes, run by planner.c on the
** same parsed config, and why the two answers differ when they do.
** (Which layouts put an EP group across nodes is plan_dims.c's.) Design
** note: docs/planner.md ("Nodes").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

/* The row of rows[0..n) with `nodes` nodes, or NULL. */
static const plan_row *at_nodes(const plan_row *rows, int n, int64_t nodes) {
  int i;
  for (i = 0; i < n; i++) {
    if (rows[i].in[D_NODES] == nodes) return &rows[i];
  }
  return NULL;
}

/* The component (or non-PyTorch, or fragmentation) by which row a holds
** the most more than row b, as "<title> A GiB against B GiB". */
static void biggest_gap(const plan_row *a, const plan_row *b, char *buf, size_t size) {
  int64_t va[C_COUNT + 2], vb[C_COUNT + 2];
  char x[32], y[32];
  int c, best = 0;
  for (c = 0; c < C_COUNT; c++) {
    va[c] = a->comps.b[c];
    vb[c] = b->comps.b[c];
  }
  va[C_COUNT] = a->nonpt;
  vb[C_COUNT] = b->nonpt;
  va[C_COUNT + 1] = a->frag;
  vb[C_COUNT + 1] = b->frag;
  for (c = 1; c < C_COUNT + 2; c++) {
    if (va[c] - vb[c] > va[best] - vb[best]) best = c;
  }
  snprintf(buf, size, "%s %s GiB against %s GiB",
           best < C_COUNT ? memi_comp_title((comp)best)
           : best == C_COUNT ? "non-PyTorch memory" : "fragmentation",
           memi_fmt_gib(x, sizeof x, va[best]), memi_fmt_gib(y, sizeof y, vb[best]));
}

/* Row `worse` (what one sweep has where the other one's answer `ok` fits)
** beside `ok`: "pp 4, dp 2 peaks at X GiB (OOM) against Y GiB at pp 7, dp 1
** (7 nodes), most of the difference being <component> A GiB against B GiB". */
static void compare_rows(const plan_row *worse, const plan_row *ok, char *buf, size_t size) {
  char a[32], b[32], gap[160];
  biggest_gap(worse, ok, gap, sizeof gap);
  snprintf(buf, size,
           "pp %lld, dp %lld peaks at %s GiB (%s) against %s GiB at pp %lld, dp %lld (%lld nodes), "
           "most of the difference being %s",
           (long long)worse->in[D_PP], (long long)worse->in[D_DP],
           memi_fmt_gib(a, sizeof a, worse->peak), memi_status_name(worse->status),
           memi_fmt_gib(b, sizeof b, ok->peak), (long long)ok->in[D_PP], (long long)ok->in[D_DP],
           (long long)ok->in[D_NODES], gap);
}

/* Appends to why what sweep `owner` has at `from` nodes, where the other
** sweep's answer `ok` fits: its row there when estimated, else why there is
** none and then its first estimated row above `from` (below `to`, 0: no
** bound). `head` says what there is no row at `from` for, when nothing is. */
static void describe(const memest_plan *owner, int64_t from, int64_t to, const plan_row *ok,
                     const char *head, char *why, size_t size) {
  const plan_row *row = at_nodes(owner->rows, owner->n_rows, from);
  size_t used = strlen(why);
  char part[320];
  int i;
  if (row != NULL && row->reason < 0) {
    compare_rows(row, ok, part, sizeof part);
    snprintf(why + used, size - used, "at %lld nodes %s", (long long)from, part);
    return;
  }
  if (row != NULL) {
    snprintf(why + used, size - used, "at %lld nodes pp %lld is not a valid layout (%s)",
             (long long)from, (long long)row->in[D_PP], owner->reasons[row->reason].key);
  } else {
    snprintf(why + used, size - used, "%s", head);
  }
  for (i = 0; i < owner->n_rows; i++) {
    row = &owner->rows[i];
    if (row->reason >= 0 || row->in[D_NODES] <= from || (to > 0 && row->in[D_NODES] >= to)) {
      continue;
    }
    compare_rows(row, ok, part, sizeof part);
    used = strlen(why);
    snprintf(why + used, size - used, "; at %lld nodes %s", (long long)row->in[D_NODES], part);
    return;
  }
}

/* Says why the vary-nodes answer (n1 nodes, 0: none) and the pipeline
** sweep's (n2, 0: none) differ. */
static void explain(memest_plan *pl, const memest_plan *pp, int64_t n1, int64_t n2) {
  plan_pp_nodes *c = &pl->pp_nodes;
  int64_t p0 = pl->dims[D_PP].v[0], e = pl->dims[D_EP].v[0], k = pl->dims[D_CP].v[0];
  int64_t group = p0 * e * k, least = group / memi_plan_gcd(group, pl->gpus_per_node);
  char head[160];
  c->why[0] = '\0';
  if (n2 > 0 && (n1 == 0 || n2 < n1)) {
    /* Pipeline stages fit on fewer nodes: what this plan has there. */
    if (n2 < least) {
      snprintf(c->why, sizeof c->why,
               "pp %lld x ep %lld x cp %lld = %lld GPUs take at least %lld nodes", (long long)p0,
               (long long)e, (long long)k, (long long)group, (long long)least);
      return;
    }
    snprintf(head, sizeof head, "%lld nodes were not tried here", (long long)n2);
    describe(pl, n2, n1, &c->row, head, c->why, sizeof c->why);
    return;
  }
  /* This plan fits on fewer nodes: what the pipeline sweep has there. */
  snprintf(head, sizeof head, "no pp makes %lld nodes with ep %lld, cp %lld, dp %lld",
           (long long)n1, (long long)e, (long long)k, (long long)c->dp);
  describe(pp, n1, n2, &pl->rows[pl->answer], head, c->why, sizeof c->why);
}

/* The pipeline sweep's request: --vary pp over the pp whose nodes this
** plan tried (at most MEMEST_PLAN_VALUES), the rest as this plan has it. */
static int pp_request(const memest_plan *pl, int64_t dp, memest_plan_request *req) {
  int64_t e = pl->dims[D_EP].v[0], k = pl->dims[D_CP].v[0], g = pl->gpus_per_node;
  int64_t most = 0, p;
  int i;
  memest_plan_request_init(req, MEMEST_PLAN_VARY);
  req->base = pl->variants[0];
  snprintf(req->vary, sizeof req->vary, "%s", memi_plan_dim_name(D_PP));
  req->gpus_per_node = g;
  req->ep_across_nodes = pl->ep_nodes;
  req->objective = pl->objective;
  req->min_routing_margin = pl->min_margin;
  for (i = 0; i < pl->dims[D_NODES].n; i++) {
    if (pl->dims[D_NODES].v[i] > most) most = pl->dims[D_NODES].v[i];
  }
  for (p = 1; p <= memi_schedule_max_pp(&pl->base, pl->layers) && p <= MEMEST_MAX_PP &&
              req->pp.n < MEMEST_PLAN_VALUES;
       p++) {
    if (p * e * k * dp > most * g) break;
    req->pp.v[req->pp.n++] = p;
  }
  req->ep.n = req->cp.n = req->dp.n = req->mbs.n = req->gbs.n = req->seq.n = 1;
  req->ep.v[0] = e;
  req->cp.v[0] = k;
  req->dp.v[0] = dp;
  req->mbs.v[0] = pl->dims[D_MBS].v[0];
  req->gbs.v[0] = pl->dims[D_GBS].v[0];
  req->seq.v[0] = pl->dims[D_SEQ].v[0];
  return req->pp.n;
}

memest_code memi_plan_pp_nodes(memest_plan *pl, memest_error *err) {
  plan_pp_nodes *c = &pl->pp_nodes;
  memest_plan_request *req;
  memest_plan *pp = NULL;
  memest_error e;
  memest_code rc;
  int64_t ek = pl->dims[D_EP].v[0] * pl->dims[D_CP].v[0], n1, n2;
  memset(c, 0, sizeof *c);
  c->ran = 1;
  c->dp = pl->gpus_per_node / memi_plan_gcd(ek, pl->gpus_per_node);
  n1 = pl->answer >= 0 ? pl->rows[pl->answer].in[D_NODES] : 0;
  req = malloc(sizeof *req);   /* 11 KB: off a WebAssembly stack */
  if (req == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the plan");
  if (pp_request(pl, c->dp, req) == 0) {
    free(req);
    snprintf(c->why, sizeof c->why,
             "no pp fits in the %lld nodes tried with ep %lld, cp %lld, dp %lld",
             (long long)(pl->dims[D_NODES].n > 0 ? pl->dims[D_NODES].v[pl->dims[D_NODES].n - 1] : 0),
             (long long)pl->dims[D_EP].v[0], (long long)pl->dims[D_CP].v[0], (long long)c->dp);
    c->agrees = n1 == 0;
    return MEMEST_OK;
  }
  rc = memi_plan_run_parsed(pl->mc, req, pl->cache, 0, &pp, &e);
  free(req);
  if (rc == MEMEST_E_NOMEM) {
    if (err != NULL) *err = e;
    return rc;
  }
  if (rc != MEMEST_OK) {
    snprintf(c->why, sizeof c->why, "the pipeline-stage sweep could not run: %.300s", e.message);
    return MEMEST_OK;
  }
  if (pp->answer >= 0) {
    c->found = 1;
    c->row = pp->rows[pp->answer];
  }
  n2 = c->found ? c->row.in[D_NODES] : 0;
  c->agrees = n1 == n2;
  if (!c->agrees) explain(pl, pp, n1, n2);
  memest_plan_free(pp);
  return MEMEST_OK;
}
