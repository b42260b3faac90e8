/*
** schedule.c — the table of pipeline schedules, in memest_schedule's order,
** and the one an input names. A schedule's facts and op sequence live in
** its own file (sched_*.c).
*/
#include "sim/schedule.h"

static const schedule *const schedules[MEMEST_SCHED_COUNT] = {
  &memi_sched_dualpipev, &memi_sched_1f1b, &memi_sched_interleaved, &memi_sched_zbh1,
  &memi_sched_dualpipe,
};

int memi_sched_one_module(int v) {
  (void)v;
  return 1;
}

int memi_sched_two_modules(int v) {
  (void)v;
  return 2;
}

int64_t memi_sched_pp(int64_t pp, int v) {
  (void)v;
  return pp;
}

int64_t memi_sched_twice_pp(int64_t pp, int v) {
  (void)v;
  return 2 * pp;
}

int64_t memi_sched_any_chunks(int64_t pp, int v) {
  (void)pp;
  (void)v;
  return 1;
}

int memi_sched_rank_stage(int64_t pp, int v, int64_t rank, int m) {
  (void)pp;
  (void)v;
  (void)m;
  return (int)rank;
}

const schedule *memi_schedule_of(memest_schedule id) {
  return (int)id >= 0 && id < MEMEST_SCHED_COUNT ? schedules[id] : schedules[0];
}

int64_t memi_schedule_pp_stages(const layout *lo) { return lo->stages / lo->v; }

double memi_schedule_parameter_copies(const layout *lo) { return (double)lo->modules / lo->v; }

double memi_schedule_activation_units(const layout *lo, int max_live) {
  return (double)max_live / lo->v;
}

int64_t memi_schedule_max_pp(const memest_params *p, int64_t layers) {
  const schedule *sc = memi_schedule_of(p->schedule);
  int v = memi_schedule_v(p);
  int64_t pp = sc->stages(1, v) > 0 ? layers / sc->stages(1, v) : layers;   /* stages grow as pp */
  return pp > 1 ? pp : 1;
}

int memi_schedule_v(const memest_params *p) {
  return p->schedule == MEMEST_SCHED_INTERLEAVED ? (int)p->virtual_stages : 1;
}
