/*
** replay.c — one pipeline rank through DualPipeV.step (spec §2.2, §2.4):
** the 8-step schedule op by op, P2P receive buffers from posting to their
** chunk's backward, sent tensors freed at the next commit, the last rank's
** phase-0 to phase-1 hand-off, the zero-bubble weight-gradient queue, the
** live chunk counts, the peak and a window of the timeline. Memory use is
** O(layers + kept timeline events), whatever the number of chunks.
*/
#include <stdlib.h>
#include <string.h>

#include "sim/rank.h"

static int is_last(const sim_rank *sr) { return sr->inv.rank == sr->lo->pp - 1; }
static int is_first(const sim_rank *sr) { return sr->inv.rank == 0; }

/* Which P2P transfers exist at the pipeline's ends (spec §2.4). */
static int recv_f(const sim_rank *sr, int ph) {
  return !((is_first(sr) && ph == 0) || (is_last(sr) && ph == 1));
}
static int send_f(const sim_rank *sr, int ph) {
  return !((is_first(sr) && ph == 1) || (is_last(sr) && ph == 0));
}
static int recv_b(const sim_rank *sr, int ph) {
  return !((is_first(sr) && ph == 1) || (is_last(sr) && ph == 0));
}
static int send_b(const sim_rank *sr, int ph) {
  return !((is_first(sr) && ph == 0) || (is_last(sr) && ph == 1));
}

static void recv_forward(sim_rank *sr, int ph) {
  if (recv_f(sr, ph)) memi_sim_apply(sr, C_P2P, sr->mH);
}
static void send_forward(sim_rank *sr, int ph) {
  if (send_f(sr, ph)) sr->commit_act += sr->mH;
}
static void recv_backward(sim_rank *sr, int ph) {
  if (recv_b(sr, ph)) memi_sim_apply(sr, C_P2P, sr->mH);
}
static void send_backward(sim_rank *sr, int ph) {
  if (send_b(sr, ph)) sr->commit_p2p += sr->mH;
}

typedef struct chunk_ids {
  int64_t f[2], b[2];
} chunk_ids;

/* One op: commit (free what was sent), evaluate, bookkeeping. */
static void do_op(sim_rank *sr, chunk_ids *ids, int step, int iter, int kind, int pf, int pb,
                  int zb) {
  tl_event ev;
  const op_result *res;
  memset(&ev, 0, sizeof ev);
  ev.step = step;
  ev.iter = iter;
  ev.kind = kind;
  ev.pf = pf;
  ev.pb = pb;
  ev.cf = (kind == OP_F || kind == OP_FB) ? ids->f[pf]++ : -1;
  ev.cb = (kind == OP_B || kind == OP_FB) ? ids->b[pb]++ : -1;
  if (kind == OP_W) ev.pb = sr->wgs_queue[sr->wgs_head % (int)(sizeof sr->wgs_queue / sizeof sr->wgs_queue[0])];
  if (kind == OP_F || kind == OP_FB) sr->live[pf]++;
  ev.live[0] = sr->live[0];
  ev.live[1] = sr->live[1];
  if (sr->commit_act > 0 || sr->commit_p2p > 0) {
    ev.what = "pipeline receives posted";
    memi_sim_note_peak(sr, sr->total, &sr->cur, &ev);
    memi_sim_apply(sr, C_ACT, -sr->commit_act);
    memi_sim_apply(sr, C_P2P, -sr->commit_p2p);
    sr->commit_act = sr->commit_p2p = 0;
  }
  /* The first hooked[pb] chunks of a phase were forwarded before its
  ** module's first backward, so only their backwards fold (docs/model.md). */
  res = memi_op_eval(sr, kind, pf, kind == OP_W ? ev.pb : pb, zb,
                     ev.cb >= 0 && ev.cb < sr->hooked[pb], sr->flags);
  memi_sim_apply_op(sr, &ev, res);
  if (kind == OP_B || kind == OP_FB) {
    /* The received output grad (or the hand-off grad) and the chunk's
    ** received input die with the backward. */
    if (!(is_first(sr) && pb == 1)) memi_sim_apply(sr, C_P2P, -sr->mH);
    if (recv_f(sr, pb)) memi_sim_apply(sr, C_P2P, -sr->mH);
    sr->live[pb]--;
    if (zb && kind == OP_B) {
      int cap = (int)(sizeof sr->wgs_queue / sizeof sr->wgs_queue[0]);
      sr->wgs_queue[sr->wgs_tail++ % cap] = pb;
    }
  }
  if (kind == OP_W) sr->wgs_head++;
  memi_sim_event(sr, &ev);
}

static void forward_chunk(sim_rank *sr, chunk_ids *ids, int step, int i, int ph, int recv,
                          int send) {
  if (recv) recv_forward(sr, ph);
  do_op(sr, ids, step, i, OP_F, ph, ph, 0);
  if (send) send_forward(sr, ph);
}

static void backward_chunk(sim_rank *sr, chunk_ids *ids, int step, int i, int ph, int zb,
                           int send) {
  recv_backward(sr, ph);
  do_op(sr, ids, step, i, OP_B, ph, ph, zb);
  if (send) send_backward(sr, ph);
}

static void fb_chunk(sim_rank *sr, chunk_ids *ids, int step, int i, int pf, int pb, int recv0) {
  if (recv0) recv_forward(sr, pf);
  recv_backward(sr, pb);
  do_op(sr, ids, step, i, OP_FB, pf, pb, 0);
  send_forward(sr, pf);
  send_backward(sr, pb);
}

static void weight_chunk(sim_rank *sr, chunk_ids *ids, int step, int i) {
  do_op(sr, ids, step, i, OP_W, 0, 0, 0);
}

/* What an op can change; equal before and after a step-4 iteration means
** every later iteration repeats it. */
typedef struct replay_state {
  comp_vec cur;
  int64_t total, commit_act, commit_p2p;
  unsigned flags;
  int live[2];
} replay_state;

static void state_save(const sim_rank *sr, replay_state *s) {
  memset(s, 0, sizeof *s);
  s->cur = sr->cur;
  s->total = sr->total;
  s->commit_act = sr->commit_act;
  s->commit_p2p = sr->commit_p2p;
  s->flags = sr->flags;
  s->live[0] = sr->live[0];
  s->live[1] = sr->live[1];
}

static int state_same(const sim_rank *sr, const replay_state *s) {
  replay_state now;
  state_save(sr, &now);
  return memcmp(&now, s, sizeof now) == 0;
}

/* Skips up to `left` repeated step-4 iterations (two ops each) that hold no
** kept timeline event; returns how many were skipped. Their inner peaks
** equal the last iteration's, which the peak already holds. */
static int64_t steady_skip(sim_rank *sr, chunk_ids *ids, int64_t left) {
  int64_t k = left;
  int ph;
  if (sr->keep_timeline && sr->n_events < sr->tl_to) {
    k = sr->tl_from > sr->n_events ? (sr->tl_from - sr->n_events) / 2 : 0;
    if (k > left) k = left;
  }
  /* Iterations whose backwards still carry hooks differ from the later
  ** ones: skip only those of the kind the last iteration was. */
  for (ph = 0; ph < 2; ph++) {
    if (ids->b[ph] < sr->hooked[ph] && ids->b[ph] + k > sr->hooked[ph]) {
      k = sr->hooked[ph] - ids->b[ph];
    }
  }
  ids->f[0] += k;
  ids->f[1] += k;
  ids->b[0] += k;
  ids->b[1] += k;
  sr->n_events += 2 * k;
  return k;
}

/* DualPipeV.step for rank r (spec §2.2). */
static void schedule(sim_rank *sr) {
  int64_t P = sr->lo->pp, N = sr->lo->chunks, r = sr->inv.rank, i;
  int last = is_last(sr), zb, steady;
  chunk_ids ids;
  memset(&ids, 0, sizeof ids);
  sr->hooked[0] = 2 * P - r;
  sr->hooked[1] = r + 1;
  for (i = 0; i < 2 * (P - r - 1); i++) forward_chunk(sr, &ids, 1, (int)i, 0, 1, 1);
  recv_forward(sr, 0);
  for (i = 0; i < r + 1; i++) {
    forward_chunk(sr, &ids, 2, (int)i, 0, 0, 0);
    recv_forward(sr, 0);
    forward_chunk(sr, &ids, 2, (int)i, 1, 1, !last || i < r);
    send_forward(sr, 0);
  }
  for (i = 0; i < P - r - 1; i++) {
    backward_chunk(sr, &ids, 3, (int)i, 1, 1, 1);
    recv_forward(sr, 1);
    weight_chunk(sr, &ids, 3, (int)i);
    forward_chunk(sr, &ids, 3, (int)i, 1, 0, 1);
  }
  for (i = 0, steady = 0; i < N - 2 * P + r + 1; i++) {
    replay_state before;
    if (i >= 2 && steady) {
      /* The last iteration left the state exactly as it found it, so the
      ** remaining ones repeat it: skip those no kept event falls in. */
      i += steady_skip(sr, &ids, N - 2 * P + r + 1 - i);
      if (i >= N - 2 * P + r + 1) break;
    }
    state_save(sr, &before);
    if (i == 0 && last) {
      forward_chunk(sr, &ids, 4, 0, 0, 0, 0);
      send_forward(sr, 1);
      backward_chunk(sr, &ids, 4, 0, 1, 0, 0);
      send_forward(sr, 0);
      send_backward(sr, 1);
    } else {
      fb_chunk(sr, &ids, 4, (int)i, 0, 1, i != 0);
    }
    fb_chunk(sr, &ids, 4, (int)i, 1, 0, 1);
    steady = state_same(sr, &before);
  }
  for (i = 0; i < P - r - 1; i++) {
    backward_chunk(sr, &ids, 5, (int)i, 1, 0, 1);
    fb_chunk(sr, &ids, 5, (int)i, 1, 0, 1);
  }
  zb = 0;
  for (i = 0; i < r + 1; i++) {
    if (i == (r + 1) / 2 && r % 2 == 1) zb = 1;
    backward_chunk(sr, &ids, 6, (int)i, 1, zb, 1);
    if (i == (r + 1) / 2 && r % 2 == 0) zb = 1;
    backward_chunk(sr, &ids, 6, (int)i, 0, zb, 1);
  }
  for (i = 0; i < P - r - 1; i++) {
    weight_chunk(sr, &ids, 7, (int)i);
    backward_chunk(sr, &ids, 7, (int)i, 0, 1, 1);
  }
  for (i = 0; i < r + 1; i++) weight_chunk(sr, &ids, 8, (int)i);
  if (sr->commit_act > 0 || sr->commit_p2p > 0) {
    memi_sim_apply(sr, C_ACT, -sr->commit_act);
    memi_sim_apply(sr, C_P2P, -sr->commit_p2p);
    sr->commit_act = sr->commit_p2p = 0;
  }
}

/* Static memory present from the start of the step (spec §3.4-§3.6). */
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
  schedule(sr);
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
    schedule(sr);
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
