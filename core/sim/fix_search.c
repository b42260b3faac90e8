/*
** fix_search.c — fixes that land on a valid layout in one step. A check in
** layout.c proposes the nearest value of its own input; that value can
** fail another check (a divisor of the experts that no longer divides the
** GPUs). For each problem whose field is a layout input, this keeps the
** check's fix when it passes every check, and otherwise searches that
** input's valid values, repairing the inputs that depend on it (sequence,
** GPUs, global batch, shown rank) only where they then fail: the fix is the
** candidate with the fewest changed inputs, then the nearest value.
** memi_layout_problems (every check, then every fix refined) lives here,
** above layout.c, so that the checks never call back into the search.
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/layout.h"
#include "sim/schedule.h"

typedef struct knob {
  const char *field;
  const char *flag;
  size_t off;
} knob;

static const knob knobs[] = {
  {"pp_size", "--pp-size", offsetof(memest_params, pp_size)},
  {"ep_size", "--ep-size", offsetof(memest_params, ep_size)},
  {"cp_size", "--cp-size", offsetof(memest_params, cp_size)},
  {"total_gpus", "--total-gpus", offsetof(memest_params, total_gpus)},
  {"micro_batch_size", "--micro-batch-size", offsetof(memest_params, micro_batch_size)},
  {"global_batch_size", "--global-batch-size", offsetof(memest_params, global_batch_size)},
  {"sequence_length", "--sequence-length", offsetof(memest_params, sequence_length)},
  {"pp_rank", "--pp-rank", offsetof(memest_params, pp_rank)},
};
enum { K_PP, K_EP, K_CP, K_GPUS, K_MBS, K_GBS, K_SEQ, K_RANK, K_COUNT };

#define CANDIDATES_MAX 1100

static int64_t get(const memest_params *p, int k) {
  int64_t v;
  memcpy(&v, (const char *)p + knobs[k].off, sizeof v);
  return v;
}

static void put(memest_params *p, int k, int64_t v) {
  memcpy((char *)p + knobs[k].off, &v, sizeof v);
}

static int knob_of(const char *field) {
  int k;
  for (k = 0; k < K_COUNT; k++) {
    if (strcmp(knobs[k].field, field) == 0) return k;
  }
  return -1;
}

static int valid(const model_config *mc, const memest_params *p) {
  return memi_layout_count(mc, p, NULL, 0) == 0;
}

/* The multiple of step nearest to v, at least lo (ties go up). */
static int64_t near_multiple(int64_t v, int64_t step, int64_t lo) {
  int64_t down = v / step * step, up = down + step, best;
  best = v - down < up - v ? down : up;
  if (best < lo) best = ceil_div(lo, step) * step;
  return best;
}

static int64_t dp_of(const memest_params *p) {
  int64_t group = p->pp_size * p->cp_size * p->ep_size;
  int64_t dp = group > 0 ? p->total_gpus / group : 1;
  return dp > 0 ? dp : 1;
}

/* Repairs the inputs that depend on the others, where they fail. */
static void complete(const model_config *mc, memest_params *t, int primary) {
  int64_t group, unit, lo;
  if (primary != K_SEQ && t->cp_size > 1 && t->sequence_length % (2 * t->cp_size) != 0) {
    t->sequence_length = near_multiple(t->sequence_length, 2 * t->cp_size, 2 * t->cp_size);
  }
  group = t->pp_size * t->cp_size * t->ep_size;
  if (primary != K_GPUS && group > 0 && t->total_gpus % group != 0) {
    t->total_gpus = near_multiple(t->total_gpus, group, group);
  }
  unit = t->micro_batch_size * dp_of(t) * t->ep_size;
  lo = memi_schedule_of(t->schedule)->min_chunks(t->pp_size, memi_schedule_v(t)) * unit;
  if (primary != K_GBS && unit > 0 &&
      (t->global_batch_size % unit != 0 || t->global_batch_size < lo)) {
    t->global_batch_size = near_multiple(t->global_batch_size, unit, lo);
  }
  if (primary != K_RANK && t->pp_rank >= t->pp_size) t->pp_rank = -1;
  (void)mc;
}

static int changes(const memest_params *a, const memest_params *b) {
  int k, n = 0;
  for (k = 0; k < K_COUNT; k++) n += get(a, k) != get(b, k);
  return n;
}

/* The values of input k worth trying from p. */
static int candidates(const model_config *mc, const memest_params *p, int k, int64_t *c) {
  int n = 0;
  int64_t v, cur = get(p, k), i, step, k0, lo;
  switch (k) {
    case K_PP:
      for (v = 1; memi_schedule_of(p->schedule)->stages(v, memi_schedule_v(p)) <= mc->layers &&
                  v <= MEMEST_MAX_PP &&
                  n < CANDIDATES_MAX;
           v++)
        c[n++] = v;
      break;
    case K_EP:
      for (v = 1; v <= MEMEST_MAX_EP; v++) {
        if (v == 1 || (mc->experts > 0 && mc->experts % v == 0)) c[n++] = v;
      }
      break;
    case K_CP:
      c[n++] = 1;
      for (v = 2; mc->arch->supports_cp && v <= MEMEST_MAX_CP; v *= 2) c[n++] = v;
      break;
    case K_MBS:
      for (v = 1; v <= cur * 2 && v <= MEMEST_MAX_MICRO_BATCH && n < 256; v++) c[n++] = v;
      break;
    case K_RANK:
      for (v = -1; v < p->pp_size && n < CANDIDATES_MAX; v++) c[n++] = v;
      break;
    default:
      if (k == K_GPUS) {
        step = p->pp_size * p->cp_size * p->ep_size;
        lo = step;
      } else if (k == K_GBS) {
        step = p->micro_batch_size * dp_of(p) * p->ep_size;
        lo = memi_schedule_of(p->schedule)->min_chunks(p->pp_size, memi_schedule_v(p)) * step;
      } else {
        step = 2 * p->cp_size;
        lo = step;
      }
      if (step <= 0) break;
      k0 = cur / step;
      for (i = k0 - 64; i <= k0 + 64; i++) {
        v = i * step;
        if (v >= lo && v <= (int64_t)1 << 50) c[n++] = v;
      }
      if (n == 0 || c[0] != lo) c[n++] = lo;
      break;
  }
  return n;
}

static double distance(int k, int64_t from, int64_t to) {
  if (k == K_RANK || from <= 0) return fabs((double)(to - from));
  return fabs((double)(to - from)) / (double)from;
}

/* Applies "name=value[,...]" to t; 0 if a name is not a layout input. */
static int apply_fix(memest_params *t, const char *fix) {
  const char *s = fix;
  while (*s) {
    size_t len = strcspn(s, ","), nlen = strcspn(s, "=");
    char name[48];
    int k;
    if (nlen >= len || nlen >= sizeof name) return 0;
    memcpy(name, s, nlen);
    name[nlen] = '\0';
    if ((k = knob_of(name)) < 0) return 0;
    put(t, k, strtoll(s + nlen + 1, NULL, 10));
    s += len;
    if (*s == ',') s++;
  }
  return 1;
}

/* The nearest valid inputs changing input k first; 0 if there are none. */
static int search(const model_config *mc, const memest_params *p, int k, memest_params *best) {
  int64_t *c = malloc(CANDIDATES_MAX * sizeof *c);
  int n, i, found = 0, best_changes = 0;
  double best_dist = 0.0;
  if (c == NULL) return 0;
  n = candidates(mc, p, k, c);
  for (i = 0; i < n; i++) {
    memest_params t = *p;
    int ch;
    double d;
    put(&t, k, c[i]);
    complete(mc, &t, k);
    if (!valid(mc, &t)) continue;
    ch = changes(p, &t);
    d = distance(k, get(p, k), c[i]);
    if (!found || ch < best_changes ||
        (ch == best_changes && (d < best_dist - 1e-12 ||
                                (fabs(d - best_dist) <= 1e-12 && c[i] < get(best, k))))) {
      *best = t;
      best_changes = ch;
      best_dist = d;
      found = 1;
    }
  }
  free(c);
  return found;
}

/* Writes the inputs that differ, input k first, as a fix and as flags;
** *named is set when the message already says each "--flag value". */
static void describe(const memest_params *p, const memest_params *t, int k, const char *message,
                     char *fix, size_t fix_size, char *flags, size_t flags_size, int *named) {
  int order[K_COUNT], n = 0, i;
  size_t f = 0, g = 0;
  order[n++] = k;
  for (i = 0; i < K_COUNT; i++) {
    if (i != k) order[n++] = i;
  }
  fix[0] = flags[0] = '\0';
  *named = 1;
  for (i = 0; i < n; i++) {
    int j = order[i];
    char one[64];
    if (get(p, j) == get(t, j)) continue;
    snprintf(one, sizeof one, "%s %lld", knobs[j].flag, (long long)get(t, j));
    if (strstr(message, one) == NULL) *named = 0;
    if (f < fix_size) {
      f += (size_t)snprintf(fix + f, fix_size - f, "%s%s=%lld", f ? "," : "", knobs[j].field,
                            (long long)get(t, j));
    }
    if (g < flags_size) g += (size_t)snprintf(flags + g, flags_size - g, "%s%s", g ? " " : "", one);
  }
}

void memi_fix_refine(const model_config *mc, const memest_params *p, memest_error *errs, int n) {
  int i;
  for (i = 0; i < n; i++) {
    memest_error *e = &errs[i];
    memest_params t = *p;
    char fix[sizeof e->fix], flags[160];
    int k = knob_of(e->field), named;
    if (k < 0) continue;
    if (!(e->fix[0] && apply_fix(&t, e->fix) && valid(mc, &t)) && !search(mc, p, k, &t)) {
      e->fix[0] = '\0';   /* no single change makes it valid: offer none */
      continue;
    }
    describe(p, &t, k, e->message, fix, sizeof fix, flags, sizeof flags, &named);
    snprintf(e->fix, sizeof e->fix, "%s", fix);
    if (!named) {
      size_t used = strlen(e->message);
      snprintf(e->message + used, sizeof e->message - used,
               "; the nearest layout that passes every check: %s", flags);
    }
  }
}

int memi_layout_problems(const model_config *mc, const memest_params *p, memest_error *errs,
                    int max) {
  int n = memi_layout_count(mc, p, errs, max);
  /* Each fix becomes the nearest layout that passes every check at once. */
  if (n > 0 && mc != NULL) memi_fix_refine(mc, p, errs, n < max ? n : max);
  return n;
}
