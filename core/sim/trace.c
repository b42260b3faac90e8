/*
** trace.c — a rank's op trace: the schedule's run (schedule.h) emitting
** into a list instead of the memory replay. Chunk ids advance first in,
** first out within each module as in the replay, and a W takes the module
** of the oldest deferred backward. The time model (core/time/) reads it.
*/
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"

void memi_trace_op(sim_rank *sr, int step, int iter, int kind, int pf, int pb, int zb) {
  sched_trace *t = sr->trace;
  sched_op *op;
  int fwd = kind == OP_F || kind == OP_FB, bwd = kind == OP_B || kind == OP_FB;
  if (sr->trace_nomem) return;
  if (t->n == t->cap) {
    int64_t cap = t->cap > 0 ? 2 * t->cap : 256;
    sched_op *grown = realloc(t->ops, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
      sr->trace_nomem = 1;
      return;
    }
    t->ops = grown;
    t->cap = cap;
  }
  op = &t->ops[t->n++];
  memset(op, 0, sizeof *op);
  op->kind = (unsigned char)kind;
  op->pf = (unsigned char)pf;
  op->pb = (unsigned char)pb;
  op->zb = (unsigned char)(zb && kind == OP_B);
  op->step = (unsigned char)step;
  op->iter = (int32_t)iter;
  op->cf = fwd ? (int32_t)sr->next_f[pf]++ : -1;
  op->cb = bwd ? (int32_t)sr->next_b[pb]++ : -1;
  if (kind == OP_W) {
    op->pb = (unsigned char)sr->wgs_queue[sr->wgs_head % WGS_QUEUE_CAP];
    sr->wgs_head++;
  }
  if (op->zb) sr->wgs_queue[sr->wgs_tail++ % WGS_QUEUE_CAP] = pb;
}

memest_code memi_sched_trace(sched_tracer *tc, const model_config *mc, const layout *lo, int rank,
                             sched_trace *t, memest_error *err) {
  int64_t need = lo->sched->max_events(lo->pp, lo->v, lo->chunks);
  sim_rank *sr = tc->sr;
  if (sr == NULL && (sr = tc->sr = calloc(1, sizeof *sr)) == NULL) {
    return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the op trace");
  }
  if (t->cap < need) {
    /* The schedule's bound on a rank's events: one allocation, no growth. */
    sched_op *ops = realloc(t->ops, (size_t)need * sizeof *ops);
    if (ops == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the op trace");
    t->ops = ops;
    t->cap = need;
  }
  memset(sr->next_f, 0, sizeof sr->next_f);
  memset(sr->next_b, 0, sizeof sr->next_b);
  sr->wgs_head = sr->wgs_tail = 0;
  sr->trace_nomem = 0;
  sr->mc = mc;
  sr->lo = lo;
  sr->inv.rank = rank;
  sr->trace = t;
  t->n = 0;
  lo->sched->run(sr);
  if (sr->trace_nomem) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the op trace");
  return MEMEST_OK;
}

void memi_sched_trace_free(sched_trace *t) {
  free(t->ops);
  t->ops = NULL;
  t->n = t->cap = 0;
}

void memi_sched_tracer_free(sched_tracer *tc) {
  free(tc->sr);
  tc->sr = NULL;
}
