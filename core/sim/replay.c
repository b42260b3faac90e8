/*
** replay.c — the driver: one pipeline rank through a step of its schedule
** (schedule.h; memory-model.md §2.2, §2.4). The schedule emits ops and transfers; the
** driver keeps the memory: P2P receive buffers from posting to their
** chunk's backward, sent tensors freed at the next commit, the W queue,
** chunk ids and live chunks per module, the peak and a window of the
** timeline, and it skips a loop's iterations that repeat exactly. Memory
** use is O(layers + kept timeline events), whatever the number of chunks.
*/
#include <stdlib.h>
#include <string.h>

#include "sim/schedule.h"

/* The transfers around an op; which exist is the module's link (inventory.c).
** A backward's output grad comes from where its forward output went. */
void memi_drv_recv_forward(sim_rank *sr, int m) {
  if (sr->trace != NULL) return;
  if (sr->inv.mod[m].link & LINK_RECV_F) memi_sim_apply(sr, C_P2P, sr->mH);
}
void memi_drv_send_forward(sim_rank *sr, int m) {
  if (sr->trace != NULL) return;
  if (sr->inv.mod[m].link & LINK_SEND_F) sr->commit_act += sr->mH;
}
void memi_drv_recv_backward(sim_rank *sr, int m) {
  if (sr->trace != NULL) return;
  if (sr->inv.mod[m].link & LINK_SEND_F) memi_sim_apply(sr, C_P2P, sr->mH);
}
void memi_drv_send_backward(sim_rank *sr, int m) {
  if (sr->trace != NULL) return;
  if (sr->inv.mod[m].link & LINK_RECV_F) sr->commit_p2p += sr->mH;
}

void memi_drv_forward(sim_rank *sr, int step, int iter, int m) {
  memi_drv_recv_forward(sr, m);
  memi_drv_op(sr, step, iter, OP_F, m, m, 0);
  memi_drv_send_forward(sr, m);
}

void memi_drv_backward(sim_rank *sr, int step, int iter, int m, int zb) {
  memi_drv_recv_backward(sr, m);
  memi_drv_op(sr, step, iter, OP_B, m, m, zb);
  memi_drv_send_backward(sr, m);
}

/* One op: commit (free what was sent), evaluate, bookkeeping. */
void memi_drv_op(sim_rank *sr, int step, int iter, int kind, int pf, int pb, int zb) {
  tl_event ev;
  const op_result *res;
  int m, flight, fwd = kind == OP_F || kind == OP_FB, bwd = kind == OP_B || kind == OP_FB;
  if (sr->trace != NULL) {
    memi_trace_op(sr, step, iter, kind, pf, pb, zb);
    return;
  }
  memset(&ev, 0, sizeof ev);
  ev.step = step;
  ev.iter = iter;
  ev.kind = kind;
  ev.pf = pf;
  ev.pb = pb;
  /* A module's first backward fixes how many of its chunks were forwarded
  ** before it: only their backwards fold (docs/model.md). */
  if (bwd && sr->next_b[pb] == 0) sr->hooked[pb] = sr->next_f[pb];
  ev.cf = fwd ? sr->next_f[pf]++ : -1;
  ev.cb = bwd ? sr->next_b[pb]++ : -1;
  if (kind == OP_W) ev.pb = sr->wgs_queue[sr->wgs_head % WGS_QUEUE_CAP];
  if (fwd) sr->live[pf]++;
  for (m = 0, flight = 0; m < MEMEST_MAX_MODULES; m++) flight += ev.live[m] = sr->live[m];
  if (flight > sr->max_live) sr->max_live = flight;
  if (sr->commit_act > 0 || sr->commit_p2p > 0) {
    ev.what = "pipeline receives posted";
    memi_sim_note_peak(sr, sr->total, &sr->cur, &ev);
    memi_sim_apply(sr, C_ACT, -sr->commit_act);
    memi_sim_apply(sr, C_P2P, -sr->commit_p2p);
    sr->commit_act = sr->commit_p2p = 0;
  }
  res = memi_op_eval(sr, kind, pf, kind == OP_W ? ev.pb : pb, zb,
                     ev.cb >= 0 && ev.cb < sr->hooked[pb], &sr->flags);
  memi_sim_apply_op(sr, &ev, res);
  if (bwd) {
    /* The received output grad (or the hand-off grad) and the chunk's
    ** received input die with the backward. */
    if (sr->inv.mod[pb].link & LINK_DY) memi_sim_apply(sr, C_P2P, -sr->mH);
    if (sr->inv.mod[pb].link & LINK_RECV_F) memi_sim_apply(sr, C_P2P, -sr->mH);
    sr->live[pb]--;
    if (zb && kind == OP_B) sr->wgs_queue[sr->wgs_tail++ % WGS_QUEUE_CAP] = pb;
  }
  if (kind == OP_W) sr->wgs_head++;
  memi_sim_event(sr, &ev);
}

static void state_save(const sim_rank *sr, sim_state *s) {
  memset(s, 0, sizeof *s);
  s->cur = sr->cur;
  s->total = sr->total;
  s->commit_act = sr->commit_act;
  s->commit_p2p = sr->commit_p2p;
  s->flags = sr->flags;
  memcpy(s->live, sr->live, sizeof s->live);
  s->wgs_head = sr->wgs_head;
  s->wgs_tail = sr->wgs_tail;
}

static int state_same(const sim_rank *sr, const sim_state *s) {
  sim_state now;
  state_save(sr, &now);
  return memcmp(&now, s, sizeof now) == 0;
}

/* Skips up to `left` iterations like the last (which ran `events` events
** and took df and db chunk ids of each module) that hold no kept timeline
** event; returns how many were skipped. Their inner peaks equal the last
** iteration's, which the peak already holds. */
static int64_t steady_skip(sim_rank *sr, const int64_t *df, const int64_t *db, int64_t events,
                           int64_t left) {
  int64_t k = left;
  int m, n = sr->lo->modules;
  if (events <= 0) return 0;
  if (sr->keep_timeline && sr->n_events < sr->tl_to) {
    k = sr->tl_from > sr->n_events ? (sr->tl_from - sr->n_events) / events : 0;
    if (k > left) k = left;
  }
  /* Iterations whose backwards still carry hooks differ from the later
  ** ones: skip only those of the kind the last iteration was. */
  for (m = 0; m < n; m++) {
    if (db[m] > 0 && sr->next_b[m] < sr->hooked[m] && sr->next_b[m] + k * db[m] > sr->hooked[m]) {
      k = (sr->hooked[m] - sr->next_b[m]) / db[m];
    }
  }
  for (m = 0; m < n; m++) {
    sr->next_f[m] += k * df[m];
    sr->next_b[m] += k * db[m];
  }
  sr->n_events += events * k;
  return k;
}

int64_t memi_drv_steady(sim_rank *sr, sched_loop *lp, int64_t i, int64_t n) {
  int m;
  if (sr->trace != NULL) return i;   /* the trace runs every iteration */
  if (i > 0) lp->steady = state_same(sr, &lp->before);
  if (i >= 2 && lp->steady) {
    /* The last iteration left the state exactly as it found it, so the
    ** remaining ones repeat it: skip those no kept event falls in. */
    int64_t df[MEMEST_MAX_MODULES], db[MEMEST_MAX_MODULES];
    for (m = 0; m < MEMEST_MAX_MODULES; m++) {
      df[m] = sr->next_f[m] - lp->f[m];
      db[m] = sr->next_b[m] - lp->b[m];
    }
    i += steady_skip(sr, df, db, sr->n_events - lp->events, n - i);
    if (i >= n) return i;
  }
  state_save(sr, &lp->before);
  memcpy(lp->f, sr->next_f, sizeof lp->f);
  memcpy(lp->b, sr->next_b, sizeof lp->b);
  lp->events = sr->n_events;
  return i;
}

/* One step of the schedule, then the last commit. */
static void schedule_run(sim_rank *sr) {
  int m;
  for (m = 0; m < MEMEST_MAX_MODULES; m++) {
    sr->next_f[m] = sr->next_b[m] = 0;
    sr->hooked[m] = INT64_MAX;
  }
  sr->lo->sched->run(sr);
  if (sr->commit_act > 0 || sr->commit_p2p > 0) {
    memi_sim_apply(sr, C_ACT, -sr->commit_act);
    memi_sim_apply(sr, C_P2P, -sr->commit_p2p);
    sr->commit_act = sr->commit_p2p = 0;
  }
}

/* Static memory present from the start of the step (memory-model.md §3.4-§3.6). */
static void step_start(sim_rank *sr) {
  const layout *lo = sr->lo;
  int *o = &sr->ovf;
  memi_sim_reset(sr);
  memi_sim_apply(sr, C_MASTER, sr->inv.master_bytes);
  memi_sim_apply(sr, C_OPT_STATE, sr->inv.opt_state_bytes);
  memi_sim_apply(sr, C_ROTARY, ck_mul4(o, 2, lo->seq, sr->mc->arch->rotary_dim(sr->mc), 2));
  if (sr->inv.rank == 0) {
    memi_sim_apply(sr, C_DATA, ck_mul4(o, 2, lo->gbs / (lo->dp * lo->ep), lo->d.s, 8));
  }
}

memest_code memi_sim_rank_run(sim_rank *sr, memest_error *err) {
  int64_t limit = sr->params->timeline_limit;
  int want = sr->params->timeline;
  sr->keep_timeline = 0;
  step_start(sr);
  schedule_run(sr);
  memi_stepend_run(sr);
  if (want && sr->ovf == 0) {
    int64_t n = sr->n_events, from = 0, to = n;
    if (limit > 0 && n > limit) {
      from = sr->peak_index - limit / 2;
      if (from < 0) from = 0;
      if (from + limit > n) from = n - limit;
      to = from + limit;
    }
    sr->tl = malloc((size_t)(to - from > 0 ? to - from : 1) * sizeof *sr->tl);
    if (sr->tl == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "", "out of memory for the timeline");
    sr->keep_timeline = 1;
    sr->tl_from = from;
    sr->tl_to = to;
    step_start(sr);
    schedule_run(sr);
    memi_stepend_run(sr);
  }
  if (sr->ovf) {
    return memi_err_set(err, MEMEST_E_OVERFLOW, "",
                   "byte counts of this run overflow 64 bits (a micro-batch of --micro-batch-size "
                   "%lld x --sequence-length %lld tokens through hidden_size %lld); use a smaller "
                   "--micro-batch-size or --sequence-length, or a larger --cp-size",
                   (long long)sr->lo->mbs, (long long)sr->lo->seq, (long long)sr->mc->hidden);
  }
  return MEMEST_OK;
}
