/*
** report_time.h — the time model's answer in the reports (report_time.c).
*/
#ifndef MEMEST_REPORT_TIME_H
#define MEMEST_REPORT_TIME_H

#include "sim/result.h"

/* ,"time":{...} (or null with "time_note") for the result's JSON. */
MEMEST_HIDDEN void memi_time_json(strbuf *sb, const memest_result *r);
/* The Time section of the text report. */
MEMEST_HIDDEN void memi_time_text(strbuf *sb, const memest_result *r);
/* The end time of each kept event of rr (one of r's ranks), or NULL. */
MEMEST_HIDDEN const double *memi_time_events(const memest_result *r, const rank_result *rr);

#endif /* MEMEST_REPORT_TIME_H */
