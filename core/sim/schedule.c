/*
** schedule.c — the table of pipeline schedules and the one a layout uses.
** A schedule's facts and op sequence live in its own file (sched_*.c).
*/
#include "sim/schedule.h"

static const schedule *const schedules[] = {&memi_sched_dualpipev};

const schedule *memi_schedule_default(void) { return schedules[0]; }
