/*
** log_lines.h — a training log's lines one at a time (log_lines.c), for
** the readers of the trainer's log: the peak-gpu-memory readings
** (runlog.c) and any other line a reader looks for.
*/
#ifndef MEMEST_LOG_LINES_H
#define MEMEST_LOG_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "base/internal.h"

/* Walks text[0..len) line by line. A line ends at LF, CRLF or a CR alone
** (a progress display's rewrite). ANSI control sequences (CSI: ESC '['
** parameters and a final byte, which include the SGR colour codes
** ESC [ ... m of a coloured terminal) are taken out of a line before it is
** given; any other byte is kept. */
typedef struct log_lines {
  const char *text;
  size_t len, pos;
  int64_t number;          /* the current line's number, from 1 */
  const char *line;        /* the current line, without its end */
  size_t n;
  char *buf;               /* the current line without control sequences */
  size_t cap;
} log_lines;

MEMEST_HIDDEN void memi_log_lines_init(log_lines *it, const char *text, size_t len);
/* The next line into it->line, it->n and it->number: 1, or 0 at the end,
** -1 when out of memory. */
MEMEST_HIDDEN int memi_log_lines_next(log_lines *it);
MEMEST_HIDDEN void memi_log_lines_free(log_lines *it);

#endif /* MEMEST_LOG_LINES_H */
