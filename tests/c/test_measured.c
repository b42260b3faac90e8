/*
** test_measured.c — measured runs: snapshot pickles built byte by byte
** (a small snapshot with exact figures, then hostile pickles, each refused
** with its message: other opcodes, globals, deep nesting, truncation, huge
** lengths, recursion), the trainer's log lines, and the rank mapping. The
** generated snapshots with CPython's pickle are tests/cli/check.sh's.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measured/check.h"

/* {======================================================================
** A pickle builder: protocol 4, as pickle.dump writes it
** ======================================================================= */
typedef struct pk_buf {
  unsigned char b[8192];
  size_t n;
  unsigned memo;
} pk_buf;

static void op(pk_buf *p, int c) { p->b[p->n++] = (unsigned char)c; }
static void le(pk_buf *p, unsigned long long v, int n) {
  int i;
  for (i = 0; i < n; i++) op(p, (int)((v >> (8 * i)) & 0xff));
}
static void memoize(pk_buf *p) {
  op(p, 0x94);
  p->memo++;
}
static void str(pk_buf *p, const char *s) {
  size_t n = strlen(s);
  op(p, 0x8c);
  op(p, (int)n);
  memcpy(p->b + p->n, s, n);
  p->n += n;
  memoize(p);
}
static void integer(pk_buf *p, long long v) {
  if (v >= 0 && v < 256) {
    op(p, 'K');
    op(p, (int)v);
  } else if (v >= -2147483647LL - 1 && v <= 2147483647LL) {
    op(p, 'J');
    le(p, (unsigned long long)v, 4);
  } else {
    op(p, 0x8a);
    op(p, 8);
    le(p, (unsigned long long)v, 8);
  }
}
static void begin(pk_buf *p) {
  p->n = 0;
  p->memo = 0;
  op(p, 0x80);
  op(p, 4);
}
static void dict_open(pk_buf *p) {
  op(p, '}');
  memoize(p);
  op(p, '(');
}
static void list_open(pk_buf *p) {
  op(p, ']');
  memoize(p);
  op(p, '(');
}

/* {'frames': [...], ...}: a frame list of one shared frame dict at memo
** index `frame_memo` (or a new one when 0). */
static void block(pk_buf *p, long long addr, long long size, long long req, const char *state) {
  dict_open(p);
  str(p, "address"); integer(p, addr);
  str(p, "size"); integer(p, size);
  str(p, "requested_size"); integer(p, req);
  str(p, "state"); str(p, state);
  str(p, "frames"); op(p, ']'); memoize(p);
  op(p, 'u');
}

static void entry(pk_buf *p, const char *action, long long addr, long long size, long long t) {
  dict_open(p);
  str(p, "action"); str(p, action);
  str(p, "addr"); integer(p, addr);
  str(p, "size"); integer(p, size);
  str(p, "stream"); integer(p, 0);
  str(p, "time_us"); integer(p, t);
  str(p, "frames");
  list_open(p);
  dict_open(p);
  str(p, "filename"); str(p, "/work/model/layer.py");
  str(p, "line"); integer(p, 42);
  str(p, "name"); str(p, action);
  op(p, 'u');
  op(p, 'e');
  op(p, 'u');
}

#define A0 0x7f0000000000LL

/* The top-level dict opened, and in its segments one of 8 KiB at A0,
** whose dict is open. */
static void segment_open(pk_buf *p) {
  begin(p);
  dict_open(p);
  str(p, "segments");
  list_open(p);
  dict_open(p);
  str(p, "device"); integer(p, 0);
  str(p, "address"); integer(p, A0);
  str(p, "total_size"); integer(p, 8192);
}

/* One segment of 8 KiB: a 1 KiB block live before and after the window,
** then a trace: alloc 600 B (1 KiB), alloc 3000 B (3 KiB), free the first,
** free a 2000 B block allocated before the window (2 KiB), alloc 100 B
** (512 B) that stays live at the end in a 1536 B block. */
static void small_snapshot(pk_buf *p) {
  segment_open(p);
  str(p, "stream"); integer(p, 0);
  str(p, "segment_pool_id"); integer(p, 0); integer(p, 0); op(p, 0x86); memoize(p);
  str(p, "is_expandable"); op(p, 0x89);
  str(p, "blocks");
  list_open(p);
  block(p, A0, 1024, 1000, "active_allocated");
  block(p, A0 + 1024, 1536, 100, "active_allocated");
  block(p, A0 + 2560, 5632, 0, "inactive");
  op(p, 'e');
  op(p, 'u');
  op(p, 'e');
  str(p, "device_traces");
  list_open(p);
  list_open(p);
  entry(p, "alloc", A0 + 4096, 600, 100);
  entry(p, "alloc", A0 + 5120, 3000, 110);
  entry(p, "free_requested", A0 + 4096, 600, 120);
  entry(p, "free_completed", A0 + 4096, 600, 121);
  entry(p, "free_requested", A0 + 6144, 2000, 130);
  entry(p, "alloc", A0 + 1024, 100, 140);
  entry(p, "free_requested", A0 + 5120, 3000, 150);
  op(p, 'e');
  op(p, ']');  /* a second device with an empty trace */
  memoize(p);
  op(p, 'e');
  str(p, "allocator_settings");
  dict_open(p);
  str(p, "garbage_collection_threshold"); op(p, 'G'); le(p, 0, 8);
  str(p, "PYTORCH_CUDA_ALLOC_CONF"); op(p, 'N');
  str(p, "expandable_segments"); op(p, 0x88);
  op(p, 'u');
  op(p, 'u');
  op(p, '.');
}
/* }====================================================================== */

static void test_small_snapshot(void) {
  pk_buf p;
  memest_snapshot *s = NULL;
  memest_error err;
  const memest_snapshot_summary *m;
  int64_t t[16];
  uint64_t b[16];
  int n;
  char *json;
  small_snapshot(&p);
  CHECK_I64(memest_snapshot_read(p.b, p.n, &s, &err), MEMEST_OK);
  if (s == NULL) {
    printf("  %s\n", err.message);
    return;
  }
  m = memest_snapshot_summary_of(s);
  /* Before the window: 1024 live + 2048 (freed in the window) = 3072.
  ** +1024 (600 B) = 4096, +3072 = 7168, -1024 = 6144, -2048 = 4096,
  ** +1536 (the final block's size) = 5632, -3072 = 2560 at the end. */
  CHECK_I64(m->start_allocated_bytes, 3072);
  CHECK_I64(m->peak_allocated_bytes, 7168);
  CHECK_I64(m->peak_event, 1);
  CHECK_I64(m->peak_time_us, 110);
  CHECK_I64(m->end_allocated_bytes, 2560);
  CHECK_I64(m->end_reserved_bytes, 8192);
  CHECK_I64(m->events, 7);
  CHECK_I64(m->segments, 1);
  CHECK_I64(m->blocks, 3);
  CHECK_I64(m->device, 0);
  CHECK_I64(m->inconsistent, 0);
  /* Live at the peak: 3072 (3000 B), 2048 (before the window), 1024, 1024. */
  CHECK_I64(memest_snapshot_top_count(s), 4);
  CHECK_I64(memest_snapshot_top(s, 0)->bytes, 3072);
  CHECK_I64(memest_snapshot_top(s, 0)->requested_bytes, 3000);
  CHECK_I64(memest_snapshot_top(s, 0)->before_recording, 0);
  CHECK_I64(memest_snapshot_top(s, 0)->time_us, 110);
  CHECK_STR(memest_snapshot_top(s, 0)->site[0], "layer.py:42:alloc");
  CHECK_I64(memest_snapshot_top(s, 1)->bytes, 2048);
  CHECK_I64(memest_snapshot_top(s, 1)->before_recording, 1);
  CHECK_I64(memest_snapshot_site_count(s), 3);
  CHECK_I64(memest_snapshot_site_at(s, 0)->bytes, 4096);  /* two allocs from "alloc" */
  n = memest_snapshot_curve(s, 16, t, b);
  CHECK_I64(n, 8);
  CHECK_I64(b[0], 3072);
  CHECK_I64(b[2], 7168);
  CHECK_I64(b[7], 2560);
  n = memest_snapshot_curve(s, 3, t, b);
  CHECK_I64(n, 3);
  CHECK(b[0] == 7168 || b[1] == 7168 || b[2] == 7168);
  /* Fragmentation: 8192 reserved against 7168 at the peak. */
  CHECK(m->fragmentation > 0.1428 && m->fragmentation < 0.1429);
  json = memest_snapshot_json(s, 64);
  CHECK(json != NULL);
  if (json) {
    CHECK_HAS(json, "\"peak_allocated_bytes\":7168");
    CHECK_HAS(json, "\"curve\":{\"t_us\":[100,100,110,120,121,130,140,150]");
  }
  memest_free(json);
  memest_snapshot_free(s);
}

static void expect_refused(const unsigned char *b, size_t n, memest_code code, const char *msg) {
  memest_snapshot *s = NULL;
  memest_error err;
  memest_code rc = memest_snapshot_read(b, n, &s, &err);
  CHECK_I64(rc, code);
  CHECK(s == NULL);
  if (rc != MEMEST_OK) CHECK_HAS(err.message, msg);
  memest_snapshot_free(s);
}

static void test_hostile(void) {
  static const unsigned char global_os[] = "\x80\x04" "cos\nsystem\n" "X\x02\x00\x00\x00ls" "\x85R.";
  static const unsigned char stack_global[] = "\x80\x04\x8c\x02os\x94\x8c\x06system\x94\x93.";
  static const unsigned char reduce[] = "\x80\x04N)R.";
  static const unsigned char build[] = "\x80\x04}N" "b.";
  static const unsigned char bytes[] = "\x80\x04" "C\x03" "abc.";
  static const unsigned char set[] = "\x80\x04\x8f.";
  static const unsigned char newobj[] = "\x80\x04N)\x81.";
  static const unsigned char persid[] = "\x80\x04N" "Q.";
  static const unsigned char proto0[] = "(dp0\n.";
  static const unsigned char proto1[] = "\x80\x01}.";
  static const unsigned char unknown[] = "\x80\x04\xff.";
  static const unsigned char huge_str[] = "\x80\x04\x8d\x00\x00\x00\x00\x00\x00\x00\x40.";
  static const unsigned char huge_unicode[] = "\x80\x04X\xff\xff\xff\x7f" "abc.";
  static const unsigned char huge_long[] = "\x80\x04\x8b\x00\x00\x00\x10.";
  static const unsigned char long9[] = "\x80\x04\x8a\x09\x01\x02\x03\x04\x05\x06\x07\x08\x09.";
  static const unsigned char huge_frame[] = "\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7f}.";
  static const unsigned char memo_miss[] = "\x80\x04j\x05\x00\x00\x00.";
  static const unsigned char memo_jump[] = "\x80\x04}r\x07\x00\x00\x00.";
  static const unsigned char self_list[] = "\x80\x04]\x94h\x00" "a.";
  static const unsigned char self_dict[] = "\x80\x04}\x94K\x01h\x00s.";
  static const unsigned char two_left[] = "\x80\x04NN.";
  static const unsigned char appends_dict[] = "\x80\x04}(K\x01" "e.";
  static const unsigned char list_key[] = "\x80\x04}]K\x01s.";
  static const unsigned char no_stop[] = "\x80\x04}";
  static const unsigned char not_dict[] = "\x80\x04]\x94.";
  /* Found by fuzz_snapshot: a tuple of nothing before anything was pushed
  ** offset a null stack (UB), now an empty tuple. */
  static const unsigned char empty_tuple[] = "\x80\x04(t.";
  static const unsigned char no_segments[] = "\x80\x04}\x94\x8c\x01" "a\x94K\x01s.";
  unsigned char deep[256];
  size_t n = 0;
  int i;
  expect_refused(global_os, sizeof global_os - 1, MEMEST_E_UNSUPPORTED, "GLOBAL (imports a Python name)");
  expect_refused(global_os, sizeof global_os - 1, MEMEST_E_UNSUPPORTED, "never imports or calls");
  expect_refused(stack_global, sizeof stack_global - 1, MEMEST_E_UNSUPPORTED, "STACK_GLOBAL");
  expect_refused(reduce, sizeof reduce - 1, MEMEST_E_UNSUPPORTED, "REDUCE (calls a Python object)");
  expect_refused(build, sizeof build - 1, MEMEST_E_UNSUPPORTED, "BUILD");
  expect_refused(bytes, sizeof bytes - 1, MEMEST_E_UNSUPPORTED, "SHORT_BINBYTES (bytes)");
  expect_refused(set, sizeof set - 1, MEMEST_E_UNSUPPORTED, "EMPTY_SET (a set)");
  expect_refused(newobj, sizeof newobj - 1, MEMEST_E_UNSUPPORTED, "NEWOBJ");
  expect_refused(persid, sizeof persid - 1, MEMEST_E_UNSUPPORTED, "BINPERSID");
  expect_refused(proto0, sizeof proto0 - 1, MEMEST_E_VALUE, "does not start like a pickle of protocol 2");
  expect_refused(proto1, sizeof proto1 - 1, MEMEST_E_UNSUPPORTED, "protocol 1; memest reads protocols 2 to 5");
  expect_refused(unknown, sizeof unknown - 1, MEMEST_E_VALUE, "0xff, which is no pickle opcode");
  expect_refused(huge_str, sizeof huge_str - 1, MEMEST_E_VALUE, "declares a string of 4611686018427387904 bytes");
  expect_refused(huge_unicode, sizeof huge_unicode - 1, MEMEST_E_VALUE, "only 4 bytes follow");
  expect_refused(huge_long, sizeof huge_long - 1, MEMEST_E_LIMIT, "integers of up to 64 bits");
  expect_refused(long9, sizeof long9 - 1, MEMEST_E_LIMIT, "an integer of 9 bytes");
  expect_refused(huge_frame, sizeof huge_frame - 1, MEMEST_E_VALUE, "declares a frame");
  expect_refused(memo_miss, sizeof memo_miss - 1, MEMEST_E_VALUE, "memo entry 5");
  expect_refused(memo_jump, sizeof memo_jump - 1, MEMEST_E_VALUE, "stores memo entry 7 at byte 3 after only 0");
  expect_refused(self_list, sizeof self_list - 1, MEMEST_E_UNSUPPORTED, "changes a container after using it");
  expect_refused(self_dict, sizeof self_dict - 1, MEMEST_E_UNSUPPORTED, "recursive");
  expect_refused(two_left, sizeof two_left - 1, MEMEST_E_VALUE, "STOP with other than one value");
  expect_refused(appends_dict, sizeof appends_dict - 1, MEMEST_E_VALUE, "APPENDS on something that is not a list");
  expect_refused(list_key, sizeof list_key - 1, MEMEST_E_VALUE, "unhashable");
  expect_refused(no_stop, sizeof no_stop - 1, MEMEST_E_VALUE, "without its STOP opcode");
  expect_refused(not_dict, sizeof not_dict - 1, MEMEST_E_VALUE, "top level is not a dict");
  expect_refused(no_segments, sizeof no_segments - 1, MEMEST_E_VALUE, "no 'segments' list");
  expect_refused(NULL, 0, MEMEST_E_VALUE, "empty");
  expect_refused(empty_tuple, sizeof empty_tuple - 1, MEMEST_E_VALUE, "top level is not a dict");
  /* Deep nesting: 40 open marks, then 40 nested one-tuples. */
  deep[n++] = 0x80;
  deep[n++] = 4;
  for (i = 0; i < 40; i++) deep[n++] = '(';
  deep[n++] = '.';
  expect_refused(deep, n, MEMEST_E_LIMIT, "MEMEST_MAX_PICKLE_DEPTH (32)");
  n = 2;
  deep[n++] = 'N';
  for (i = 0; i < 40; i++) deep[n++] = 0x85;
  deep[n++] = '.';
  expect_refused(deep, n, MEMEST_E_LIMIT, "nests containers deeper than MEMEST_MAX_PICKLE_DEPTH");
}

/* A segment dict listed twice (a memo reference) is refused, not read
** twice: PyTorch writes a dict for each segment, block and trace entry. */
static void test_shared_segment(void) {
  pk_buf p;
  unsigned seg;
  segment_open(&p);
  seg = p.memo - 4;  /* the segment dict, before its three keys' memo entries */
  str(&p, "blocks");
  list_open(&p);
  block(&p, A0, 8192, 0, "inactive");
  op(&p, 'e');
  op(&p, 'u');
  op(&p, 'h');
  op(&p, (int)seg);
  op(&p, 'e');
  str(&p, "device_traces");
  list_open(&p);
  op(&p, ']');
  memoize(&p);
  op(&p, 'e');
  op(&p, 'u');
  op(&p, '.');
  expect_refused(p.b, p.n, MEMEST_E_VALUE, "one segment dict appears more than once (a memo reference)");
}

static void test_truncated(void) {
  pk_buf p;
  size_t cut;
  int refused = 0;
  small_snapshot(&p);
  /* Every prefix of a valid snapshot is refused with a message; none
  ** crashes or reads past its end (the sanitizer build checks that). */
  for (cut = 0; cut < p.n; cut++) {
    memest_snapshot *s = NULL;
    memest_error err;
    unsigned char *copy = malloc(cut ? cut : 1);
    memest_code rc;
    memcpy(copy, p.b, cut);
    rc = memest_snapshot_read(copy, cut, &s, &err);
    free(copy);
    if (rc != MEMEST_OK && err.message[0] != '\0') refused++;
    memest_snapshot_free(s);
  }
  CHECK_I64(refused, (int64_t)p.n);
  {
    memest_snapshot *s = NULL;
    memest_error err;
    CHECK_I64(memest_snapshot_read(p.b, p.n - 1, &s, &err), MEMEST_E_VALUE);
    CHECK_HAS(err.message, "truncated");
  }
}

static void test_runlog(void) {
  static const char text[] =
      "2026-04-13 10:00:01 INFO starting\n"
      "[rank0] step 00000001/00000100 | step-time 9.100 sec | cross-entropy-loss 11.2 | "
      "peak-gpu-memory 70.25 GB\n"
      "step 00000002/00000100 | step-time 1.234 sec | tokens-per-second 1,234,567 | "
      "peak-gpu-memory 62.34 GB\n"
      "noise peak-gpu-memory without a number\n"
      "step 00000003/00000100 | step-time 1.230 sec | peak-gpu-memory 62.50 GB\r\n"
      "step 00000004/00000100 | step-time 1.231 sec | peak-gpu-memory 62.41 GB";
  memest_runlog *log = NULL;
  memest_error err;
  const memest_runlog_summary *s;
  double gib;
  char *json;
  CHECK_I64(memest_runlog_read(text, sizeof text - 1, &log, &err), MEMEST_OK);
  if (log == NULL) return;
  s = memest_runlog_summary_of(log);
  CHECK_I64(s->steps, 4);
  CHECK_I64(s->first_step, 1);
  CHECK_I64(s->last_step, 4);
  CHECK(s->max_gib == 70.25);
  CHECK_I64(s->max_step, 1);
  CHECK(s->steady_gib == 62.50);
  CHECK_I64(s->steady_from, 2);
  CHECK_I64(s->compared_bytes, 67108864000LL);  /* 62.5 * 2^30 */
  CHECK_I64(memest_runlog_step(log, 1, &gib), 2);
  CHECK(gib == 62.34);
  CHECK_I64(memest_runlog_step(log, 9, &gib), -1);
  json = memest_runlog_json(log);
  CHECK(json != NULL);
  if (json) {
    CHECK_HAS(json, "{\"step\":3,\"gib\":62.5}");
    CHECK_HAS(json, "\"compared\":\"the largest after the first step\"");
  }
  memest_free(json);
  memest_runlog_free(log);

  /* One step: it is the figure compared. Steps without a number count on. */
  CHECK_I64(memest_runlog_read("peak-gpu-memory 1.5 GB\n", 23, &log, &err), MEMEST_OK);
  if (log) {
    s = memest_runlog_summary_of(log);
    CHECK_I64(s->steps, 1);
    CHECK(s->steady_gib == 1.5);
    CHECK_I64(s->first_step, 1);
    memest_runlog_free(log);
  }
  CHECK_I64(memest_runlog_read("a\nb\n", 4, &log, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "no line of the log has \"peak-gpu-memory X GB\"");
  CHECK_I64(memest_runlog_read("peak-gpu-memory 1e300 GB", 24, &log, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "no peak-gpu-memory reading of the log is a measurement: line 1: "
                         "peak-gpu-memory 1e300 is not a number");
  CHECK_I64(memest_runlog_read("", 0, &log, &err), MEMEST_E_VALUE);
}

/* Reads text that must be read, with its summary. */
static memest_runlog *log_of(const char *text) {
  memest_runlog *log = NULL;
  memest_error err;
  CHECK_I64(memest_runlog_read(text, strlen(text), &log, &err), MEMEST_OK);
  if (log == NULL) printf("  %s\n", err.message);
  return log;
}

/* A log read with every reading a measurement: its steps, largest and
** compared figures. */
static void expect_log(const char *text, int64_t steps, double max_gib, double steady_gib) {
  memest_runlog *log = log_of(text);
  if (log == NULL) return;
  CHECK_I64(memest_runlog_summary_of(log)->steps, steps);
  CHECK_I64(memest_runlog_summary_of(log)->refused, 0);
  CHECK(memest_runlog_summary_of(log)->max_gib == max_gib);
  CHECK(memest_runlog_summary_of(log)->steady_gib == steady_gib);
  memest_runlog_free(log);
}

/* The text of note i. */
static const char *note_text(const memest_runlog *log, int i) {
  static char buf[200];
  const memest_runlog_note *n = memest_runlog_note_at(log, i);
  buf[0] = '\0';
  if (n) memest_runlog_note_text(n, buf, sizeof buf);
  return buf;
}

/* LF, CRLF and a lone CR each end a line: the right step is compared, and
** notes name the right line. */
static void test_runlog_line_ends(void) {
  static const char *const ends[] = {"\n", "\r\n", "\r"};
  int k;
  for (k = 0; k < 3; k++) {
    char text[512];
    memest_runlog *log;
    snprintf(text, sizeof text,
             "step 00000001/00000010 | peak-gpu-memory 60.10 GB%s"
             "step 00000002/00000010 | peak-gpu-memory 51.25 GB%s"
             "step 00000003/00000010 | peak-gpu-memory 0.00 GB%s"
             "step 00000004/00000010 | peak-gpu-memory 51.50 GB%s",
             ends[k], ends[k], ends[k], ends[k]);
    log = log_of(text);
    if (log == NULL) continue;
    CHECK_I64(memest_runlog_summary_of(log)->steps, 3);
    CHECK_I64(memest_runlog_summary_of(log)->last_step, 4);
    CHECK(memest_runlog_summary_of(log)->steady_gib == 51.50);
    CHECK_I64(memest_runlog_summary_of(log)->refused, 1);
    CHECK_STR(note_text(log, 0), "line 3: peak-gpu-memory 0.00 GB is zero, which is no measurement");
    memest_runlog_free(log);
  }
}

/* A reading is a measurement only as the trainer prints it: a positive
** decimal number in GB on its step line. Every other one is named by its
** line and left out; colour codes around it are taken away. */
static void test_runlog_readings(void) {
  static const struct {
    const char *reading, *note;
  } refused[] = {
      {"0.00 GB", "peak-gpu-memory 0.00 GB is zero, which is no measurement"},
      {"0x10 GB", "peak-gpu-memory 0x10 is not a number as the trainer prints it"},
      {"1e-400 GB", "peak-gpu-memory 1e-400 is not a number"},
      {"-5 GB", "peak-gpu-memory -5 is not a number"},
      {"+5.00 GB", "peak-gpu-memory +5.00 is not a number"},
      {"1e400 GB", "peak-gpu-memory 1e400 is not a number"},
      {"50,10 GB", "peak-gpu-memory 50,10 is not a number"},
      {"1,024.00 GB", "peak-gpu-memory 1,024.00 is not a number"},
      {"nan GB", "peak-gpu-memory nan is not a number"},
      {"inf GB", "peak-gpu-memory inf is not a number"},
      {".50 GB", "peak-gpu-memory .50 is not a number"},
      {"5. GB", "peak-gpu-memory 5. is not a number"},
      {"512 MB", "peak-gpu-memory 512 MB is not in GB, the unit the trainer prints (GiB)"},
      {"0.50 MiB", "peak-gpu-memory 0.50 MiB is not in GB"},
      {"50.00 GiB", "peak-gpu-memory 50.00 GiB is not in GB"},
      {"50.00 TB", "peak-gpu-memory 50.00 TB is not in GB"},
      {"50.00 GBs", "peak-gpu-memory 50.00 GBs is not in GB"},
      {"50.00", "peak-gpu-memory 50.00 is not in GB"},
      {"", "peak-gpu-memory (nothing) is not a number"},
      {"2000000.00 GB", "peak-gpu-memory 2000000.00 GB is over 1 PiB"},
      {"5\033]0;t\007.00 GB", "peak-gpu-memory 5?]0;t?.00 is not a number"},
      {"50.00 GB | peak-gpu-memory 51.00 GB", "peak-gpu-memory 50.00 GB is a second reading on one line"},
  };
  size_t i;
  for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    char text[512], want[160];
    memest_runlog *log;
    snprintf(text, sizeof text,
             "step 00000001/00000010 | peak-gpu-memory 60.10 GB\n"
             "step 00000002/00000010 | peak-gpu-memory %s\n"
             "step 00000003/00000010 | peak-gpu-memory 51.50 GB\n",
             refused[i].reading);
    log = log_of(text);
    if (log == NULL) continue;
    CHECK_I64(memest_runlog_summary_of(log)->steps, 2);
    CHECK_I64(memest_runlog_summary_of(log)->refused, 1);
    CHECK(memest_runlog_summary_of(log)->steady_gib == 51.50);
    snprintf(want, sizeof want, "line 2: %s", refused[i].note);
    CHECK_HAS(note_text(log, 0), want);
    memest_runlog_free(log);
  }
  /* Colours and other terminal control sequences are taken out. */
  expect_log("\033[32m2026-04-13 10:00:09\033[0m | INFO | step 00000001/00000010 | "
             "\033[1;33mpeak-gpu-memory 60.10 GB\033[0m\n"
             "\033[2Kstep 00000002/00000010 | peak-gpu-memory \033[31m5\033[1m2.25\033[0m GB\n",
             2, 60.10, 52.25);
  /* Not readings: the key inside a longer name (W&B's summary), a launch
  ** line; a unit written on to the number is its unit. */
  expect_log("2026-04-13 10:00:01 | INFO | launch(cfg=PretrainLMCfg(training=TrainingCfg("
             "max_steps=10, memory_profile_start=3)))\n"
             "step 00000001/00000010 | peak-gpu-memory 60.10GB\n"
             "step 00000002/00000010 | peak-gpu-memory 51.25 GB\n"
             "wandb:  infra/peak-gpu-memory 99.00\n"
             "wandb: max-peak-gpu-memory-limit 98.00 GB\n",
             2, 60.10, 51.25);
}

/* Steps: a figure off its step line is refused when the others have one; a
** log of figures only is counted 1, 2, ...; steps that do not go on are a
** new run, whose first step is left out of the steady state. */
static void test_runlog_steps(void) {
  memest_runlog *log = log_of(
      "step 00000001/00000010 | peak-gpu-memory 60.10 GB | tokens-per-second 1,234,567 |\n"
      "peak-gpu-memory 70.00 GB\n"
      "step 00000002/00000010 | peak-gpu-memory 51.25 GB\n");
  char *json;
  if (log) {
    CHECK_I64(memest_runlog_summary_of(log)->steps, 2);
    CHECK_STR(note_text(log, 0), "line 2: peak-gpu-memory 70.00 GB is on a line without a step, "
                                 "where the log's readings have one");
    memest_runlog_free(log);
  }
  log = log_of("peak-gpu-memory 61.00 GB\npeak-gpu-memory 62.00 GB\npeak-gpu-memory 60.00 GB\n");
  if (log) {
    CHECK_I64(memest_runlog_summary_of(log)->numbered, 1);
    CHECK_I64(memest_runlog_summary_of(log)->last_step, 3);
    CHECK(memest_runlog_summary_of(log)->steady_gib == 62.00);
    memest_runlog_free(log);
  }
  log = log_of(
      "step 00000001/00000100 | peak-gpu-memory 70.00 GB\n"
      "step 00000002/00000100 | peak-gpu-memory 60.00 GB\n"
      "step 00000003/00000100 | peak-gpu-memory 61.00 GB\n"
      "step 00000002/00000100 | peak-gpu-memory 75.00 GB\n"
      "step 00000003/00000100 | peak-gpu-memory 62.00 GB\n"
      "step 00000003/00000100 | peak-gpu-memory 80.00 GB\n");
  if (log) {
    const memest_runlog_summary *s = memest_runlog_summary_of(log);
    CHECK_I64(s->steps, 6);
    CHECK_I64(s->restarts, 2);
    CHECK(s->steady_gib == 62.00);  /* 70, 75 and 80 start their runs */
    CHECK(s->max_gib == 80.00);
    CHECK_STR(note_text(log, 0), "line 4: step 2 after step 3, a new run (a restart, or another run's log)");
    CHECK_STR(note_text(log, 1), "line 6: step 3 again, a new run (a restart, or another run's log)");
    json = memest_runlog_json(log);
    CHECK(json != NULL);
    if (json) {
      CHECK_HAS(json, "\"restart_count\":2,\"restarts\":[{\"line\":4,\"step\":2,\"after\":3},"
                      "{\"line\":6,\"step\":3,\"after\":3}]");
      CHECK_HAS(json, "\"compared\":\"the largest after each run's first step\"");
    }
    memest_free(json);
    memest_runlog_free(log);
  }
  log = log_of("step 1 | peak-gpu-memory 0.00 GB\nstep 2 | peak-gpu-memory 62.00 GB\n");
  if (log) {
    json = memest_runlog_json(log);
    CHECK(json != NULL);
    if (json)
      CHECK_HAS(json, "\"refused_count\":1,\"refused\":[{\"line\":1,\"value\":\"0.00\","
                      "\"unit\":\"GB\",\"why\":\"is zero, which is no measurement\"");
    memest_free(json);
    memest_runlog_free(log);
  }
}

static void test_ranks(void) {
  CHECK_I64(memest_pp_rank_of(0, 4, 32), 0);
  CHECK_I64(memest_pp_rank_of(7, 4, 32), 0);
  CHECK_I64(memest_pp_rank_of(8, 4, 32), 1);
  CHECK_I64(memest_pp_rank_of(31, 4, 32), 3);
  CHECK_I64(memest_pp_rank_of(32, 4, 32), -1);
  CHECK_I64(memest_pp_rank_of(-1, 4, 32), -1);
  CHECK_I64(memest_pp_rank_of(5, 3, 32), -1);
  CHECK_I64(memest_pp_rank_of(5, 1, 8), 0);
  CHECK_I64(memest_pp_rank_of(5, 8, 8), 5);
  CHECK_I64(memest_snapshot_rank_of_name("out/snapshot-rank00012.pickle"), 12);
  CHECK_I64(memest_snapshot_rank_of_name("snapshot-rank00000.pickle"), 0);
  CHECK_I64(memest_snapshot_rank_of_name("rank3/snapshot.pickle"), -1);
  CHECK_I64(memest_snapshot_rank_of_name("ranked-rank7.pickle"), 7);
  CHECK_I64(memest_snapshot_rank_of_name("snapshot.pickle"), -1);
}

/* One segment of 8 KiB with nothing allocated, and no trace: a peak of 0. */
static void idle_snapshot(pk_buf *p) {
  segment_open(p);
  str(p, "blocks");
  list_open(p);
  block(p, A0, 8192, 0, "inactive");
  op(p, 'e');
  op(p, 'u');
  op(p, 'e');
  str(p, "device_traces");
  list_open(p);
  op(p, ']');
  memoize(p);
  op(p, 'e');
  op(p, 'u');
  op(p, '.');
}

/* A reading of 0.00 is never compared; the log far from the snapshots is
** said; nothing measured has no error. */
static void test_check_log(void) {
  static const char text[] = "step 00000001/00000010 | peak-gpu-memory 60.00 GB\n"
                             "step 00000002/00000010 | peak-gpu-memory 0.00 GB\n";
  pk_buf p;
  memest_snapshot *s = NULL, *idle = NULL;
  memest_runlog *log = NULL;
  memest_error err;
  memest_params prm;
  memest_check_input in[2];
  memest_check *c = NULL;
  char *json, *out;
  check_params(&prm, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  small_snapshot(&p);
  CHECK_I64(memest_snapshot_read(p.b, p.n, &s, &err), MEMEST_OK);
  idle_snapshot(&p);
  CHECK_I64(memest_snapshot_read(p.b, p.n, &idle, &err), MEMEST_OK);
  CHECK_I64(memest_runlog_read(text, sizeof text - 1, &log, &err), MEMEST_OK);
  if (s == NULL || idle == NULL || log == NULL) goto done;
  CHECK_I64(memest_snapshot_summary_of(idle)->peak_allocated_bytes, 0);
  in[0].source = "snapshot-rank00009.pickle";
  in[0].global_rank = 9;
  in[0].snapshot = s;
  in[1].source = "snapshot-rank00000.pickle";
  in[1].global_rank = 0;
  in[1].snapshot = idle;
  CHECK_I64(memest_check_run(NULL, 0, &prm, in, 2, log, &c, &err), MEMEST_OK);
  if (c == NULL) goto done;
  json = memest_check_json(c);
  out = memest_check_text(c);
  CHECK(json && out);
  if (json) {
    CHECK_HAS(json, "\"global_rank\":0,\"source\":\"snapshot-rank00000.pickle\","
                    "\"measured_peak_bytes\":0,");
    CHECK_HAS(json, "\"error_fraction\":null,\"snapshot\":{");
    CHECK_HAS(json, "\"log_vs_snapshots\":{\"log_bytes\":64424509440,\"snapshot_bytes\":7168,"
                    "\"snapshot\":\"snapshot-rank00009.pickle\",\"difference_fraction\":");
    CHECK_HAS(json, "\"disagree\":true}");
    CHECK_HAS(json, "\"compared\":\"the only step\",\"compared_bytes\":64424509440,");
    CHECK_HAS(json, "\"refused_count\":1,\"refused\":[{\"line\":2,");
  }
  if (out) {
    CHECK_HAS(out, "  0        0            0.00 GiB ");
    CHECK_HAS(out, "none  snapshot-rank00000.pickle");
    CHECK_HAS(out, "compared: the only step, 60.00 GiB");
    CHECK_HAS(out, "1 reading is not a measurement, never compared:\n"
                   "    line 2: peak-gpu-memory 0.00 GB is zero, which is no measurement\n");
    CHECK_HAS(out, "Note: the log's 60.00 GiB and the largest snapshot peak, 0.00 GiB "
                   "(snapshot-rank00009.pickle), differ by +898779328.6%");
  }
  memest_free(json);
  memest_free(out);
  memest_check_free(c);
done:
  memest_runlog_free(log);
  memest_snapshot_free(s);
  memest_snapshot_free(idle);
}

/* {======================================================================
** Step times: the lines' figures and the median over the steady steps
** ======================================================================= */

static logged_step timed(int64_t step, double seconds, double rate) {
  logged_step t;
  t.step = step;
  t.line = step + 2;
  t.seconds = seconds;
  t.tokens_per_second = rate;
  return t;
}

/* The median skips each run's first step and the slow steps (over 3x the
** median of the others), which it names. */
static void test_logged_median(void) {
  logged_step v[10];
  logged_time t;
  double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
  CHECK(memi_median_sorting(odd, 3) == 2);
  CHECK(memi_median_sorting(even, 4) == 2.5);
  /* A slow first step, a checkpoint save at step 6; 7 steady steps. */
  v[0] = timed(1, 95.412, 43960);
  v[1] = timed(2, 14.262, 294089);
  v[2] = timed(3, 14.118, 297089);
  v[3] = timed(4, 14.305, 293207);
  v[4] = timed(5, 14.251, 294316);
  v[5] = timed(6, 58.930, 71175);
  v[6] = timed(7, 14.197, 295436);
  v[7] = timed(8, 14.280, 293719);
  v[8] = timed(9, 14.233, 294689);
  CHECK_I64(memi_logged_time_of(v, 9, &t), MEMEST_OK);
  CHECK_I64(t.known, 1);
  CHECK_I64(t.readings, 9);
  CHECK_I64(t.runs, 1);
  CHECK_I64(t.first_skipped, 1);
  CHECK(t.first_seconds == 95.412);
  CHECK_I64(t.steps, 7);
  CHECK(t.step_seconds == 14.251);
  CHECK(t.tokens_per_second == 294316);
  CHECK(t.tokens_per_step > 4194304 * 0.999 && t.tokens_per_step < 4194304 * 1.001);
  CHECK_I64(t.slow, 1);
  CHECK_I64(t.nslow_shown, 1);
  CHECK_I64(t.slow_steps[0].step, 6);
  CHECK_I64(t.slow_steps[0].line, 8);
  /* An even count: the mean of the middle two; no tokens/s: none. */
  v[0] = timed(1, 9, -1);
  v[1] = timed(2, 2, -1);
  v[2] = timed(3, 4, -1);
  CHECK_I64(memi_logged_time_of(v, 3, &t), MEMEST_OK);
  CHECK(t.step_seconds == 3);
  CHECK_I64(t.slow, 0);
  CHECK(t.tokens_per_second == -1);
  CHECK(t.tokens_per_step == -1);
  /* A restart: each run's first step is left out. */
  v[0] = timed(1, 50, -1);
  v[1] = timed(2, 10, -1);
  v[2] = timed(3, 11, -1);
  v[3] = timed(3, 60, -1);
  v[4] = timed(4, 12, -1);
  CHECK_I64(memi_logged_time_of(v, 5, &t), MEMEST_OK);
  CHECK_I64(t.runs, 2);
  CHECK_I64(t.steps, 3);
  CHECK(t.step_seconds == 11);
  CHECK_I64(t.slow, 0);
  /* One step, or only runs' first steps: all of them, none skipped. */
  CHECK_I64(memi_logged_time_of(v, 1, &t), MEMEST_OK);
  CHECK_I64(t.first_skipped, 0);
  CHECK_I64(t.steps, 1);
  CHECK(t.step_seconds == 50);
  v[1] = timed(1, 52, -1);
  CHECK_I64(memi_logged_time_of(v, 2, &t), MEMEST_OK);
  CHECK_I64(t.first_skipped, 0);
  CHECK(t.step_seconds == 51);
  /* Two steady steps: the slow one is over 3x the other. */
  v[1] = timed(2, 1, -1);
  v[2] = timed(3, 3.5, -1);
  CHECK_I64(memi_logged_time_of(v, 3, &t), MEMEST_OK);
  CHECK_I64(t.slow, 1);
  CHECK(t.step_seconds == 1);
  /* Nothing timed. */
  CHECK_I64(memi_logged_time_of(v, 0, &t), MEMEST_OK);
  CHECK_I64(t.known, 0);
}

/* The time figures of a log that must be read. */
static const logged_time *time_of(const char *text, memest_runlog **log) {
  *log = log_of(text);
  return *log ? memi_runlog_time(*log) : NULL;
}

static void test_runlog_times(void) {
  static const struct { const char *line, *message; } refused[] = {
    {"step 3 | step-time 14,305 sec | peak-gpu-memory 60.00 GB",
     "line 3: step-time 14,305 is not a number as the trainer prints it"},
    {"step 3 | step-time 0.000 sec | peak-gpu-memory 60.00 GB", "line 3: step-time 0.000 sec is zero"},
    {"step 3 | step-time 12 ms | peak-gpu-memory 60.00 GB", "line 3: step-time 12 ms is not in sec"},
    {"step 3 | step-time 1.2.3sec | peak-gpu-memory 60.00 GB", "step-time 1.2.3sec is not a number"},
    {"step 3 | step-time sec | peak-gpu-memory 60.00 GB", "step-time sec is not a number"},
    {"step 3 | step-time 1e9 sec | peak-gpu-memory 60.00 GB", "step-time 1e9 is not a number"},
    {"step 3 | step-time 20000000 sec | peak-gpu-memory 60.00 GB", "is over 10^7 seconds"},
    {"step 3 | step-time 1.5 sec | step-time 1.5 sec | peak-gpu-memory 60.00 GB",
     "step-time 1.5 sec is followed by a second one on the line"},
    {"step 3 | step-time 1.5 sec | tokens-per-second 1,23,456 | peak-gpu-memory 60.00 GB",
     "line 3: tokens-per-second 1,23,456 is not a number as the trainer prints it (1,234,567)"},
    {"step 3 | step-time 1.5 sec | tokens-per-second 12,3456 | peak-gpu-memory 60.00 GB",
     "tokens-per-second 12,3456 is not"},
    {"step 3 | step-time 1.5 sec | tokens-per-second ,123 | peak-gpu-memory 60.00 GB",
     "tokens-per-second ,123 is not"},
    {"step 3 | step-time 1.5 sec | tokens-per-second 1,234. | peak-gpu-memory 60.00 GB",
     "tokens-per-second 1,234. is not"},
    {"step 3 | step-time 1.5 sec | tokens-per-second 0 | peak-gpu-memory 60.00 GB",
     "tokens-per-second 0 is zero"},
    {"step 3 | step-time 1.5 sec | tokens-per-second | peak-gpu-memory 60.00 GB",
     "tokens-per-second (nothing) is not"},
  };
  memest_runlog *log = NULL;
  memest_error err;
  const logged_time *t;
  char text[400];
  size_t k;
  /* Commas, plain digits, a unit written on, W&B's infra/ names (not the
  ** trainer's line), a step-time off a step line: each read as it is. */
  t = time_of("step 00000001/00000009 | step-time 30.000 sec | tokens-per-second 139,810 | "
              "peak-gpu-memory 60.00 GB\n"
              "step 00000002/00000009 | step-time 2.000sec | tokens-per-second 2097152 | "
              "peak-gpu-memory 60.00 GB\n"
              "infra/step-time 7.5 sec | step 00000003/00000009 | step-time=2.500 sec | "
              "tokens-per-second 1,677,721.6 | peak-gpu-memory 60.00 GB\n"
              "step-time 99.000 sec (no step)\n"
              "step 00000004/00000009 | step-time 3.000 sec | peak-gpu-memory 60.00 GB\n",
              &log);
  CHECK(t != NULL);
  if (t) {
    CHECK_I64(t->readings, 4);
    CHECK_I64(t->steps, 3);
    CHECK(t->step_seconds == 2.5);
    CHECK(t->first_seconds == 30);
    CHECK(t->tokens_per_second == (2097152 + 1677721.6) / 2);
    CHECK(t->tokens_per_step > 4194303.9 && t->tokens_per_step < 4194304.1);
  }
  memest_runlog_free(log);
  /* A log without step-time: memory only. */
  t = time_of("step 1 | peak-gpu-memory 60.00 GB\nstep 2 | tokens-per-second 1,000 | "
              "peak-gpu-memory 61.00 GB\n", &log);
  if (t) CHECK_I64(t->known, 0);
  if (log) {
    char *json = memest_runlog_json(log);
    CHECK_HAS(json, "\"step_time\":null");
    memest_free(json);
  }
  memest_runlog_free(log);
  /* Each malformed figure is an error naming its line, in the whole log's
  ** numbering when the text is its tail. */
  for (k = 0; k < sizeof refused / sizeof refused[0]; k++) {
    snprintf(text, sizeof text, "step 1 | step-time 1.5 sec | peak-gpu-memory 60.00 GB\n"
             "step 2 | step-time 1.5 sec | peak-gpu-memory 60.00 GB\n%s\n", refused[k].line);
    log = NULL;
    CHECK_I64(memest_runlog_read(text, strlen(text), &log, &err), MEMEST_E_VALUE);
    CHECK(log == NULL);
    CHECK_HAS(err.message, refused[k].message);
  }
  snprintf(text, sizeof text, "step 9 | step-time 1,5 sec | peak-gpu-memory 60.00 GB\n");
  CHECK_I64(memest_runlog_read_from(text, strlen(text), 40, &log, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "line 40: step-time 1,5 is not a number");
}
/* }====================================================================== */

/* The check's step time: the log's median beside the estimate's, signed;
** the log's tokens a step against the inputs'; a side missing is said. */
static void test_check_time(void) {
  static const char text[] =
      "step 00000001/00000010 | step-time 30.000 sec | tokens-per-second 139,810 | peak-gpu-memory 60.00 GB\n"
      "step 00000002/00000010 | step-time 2.000 sec | tokens-per-second 2,097,152 | peak-gpu-memory 60.00 GB\n"
      "step 00000003/00000010 | step-time 2.000 sec | tokens-per-second 2,097,152 | peak-gpu-memory 60.00 GB\n";
  memest_runlog *log = NULL;
  memest_error err;
  memest_params prm;
  memest_check *c = NULL;
  const char *note = NULL;
  double error = 0, est;
  char *json, *out, want[160];
  check_params(&prm, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  CHECK_I64(memest_runlog_read(text, sizeof text - 1, &log, &err), MEMEST_OK);
  if (log == NULL) return;
  CHECK_I64(memest_check_run(NULL, 0, &prm, NULL, 0, log, &c, &err), MEMEST_OK);
  if (c != NULL) {
    est = memest_result_step_seconds(memest_check_estimate(c));
    CHECK(est > 0);
    CHECK_I64(memest_check_step_time_error(c, &error, &note), 1);
    CHECK(error == (est - 2.0) / 2.0);
    json = memest_check_json(c);
    out = memest_check_text(c);
    CHECK_HAS(json, "\"time\":{\"logged\":{\"step_seconds\":2.000000,\"tokens_per_second\":2097152.0,"
                    "\"steps\":2,\"first_skipped\":true,");
    CHECK_HAS(json, "\"tokens_per_step\":{\"logged\":4194304.0,\"inputs\":4194304.0,"
                    "\"difference_fraction\":0.000000,\"disagree\":false}}");
    snprintf(want, sizeof want, "Step time: logged 2.00 s (median of 2 steps), estimated %.2f s, %+.1f%%\n",
             est, error * 100.0);
    CHECK_HAS(out, want);
    CHECK_HAS(out, "Tokens/s: logged 2,097,152 (median of 2 steps), estimated ");
    CHECK_HAS(out, "  the first step (30.00 s) is left out");
    memest_free(json);
    memest_free(out);
    memest_check_free(c);
  }
  /* Another global batch: the log's tokens a step disagree with it. */
  prm.global_batch_size = 256;
  CHECK_I64(memest_check_run(NULL, 0, &prm, NULL, 0, log, &c, &err), MEMEST_OK);
  if (c != NULL) {
    out = memest_check_text(c);
    CHECK_HAS(out, "Warning: the log's tokens-per-second x step-time is 4,194,304 tokens a step, the "
                   "estimate's global batch x sequence 1,048,576 (+300.0%)");
    memest_free(out);
    memest_check_free(c);
  }
  /* No GPU kind: the estimate has no step time. */
  {
    static const char *const no_gpu[][2] = {
      {"model", "qwen3-30b-a3b"}, {"pp_size", "4"}, {"ep_size", "8"}, {"cp_size", "1"},
      {"total_gpus", "32"}, {"micro_batch_size", "1"}, {"global_batch_size", "1024"},
      {"sequence_length", "4096"}, {"gpu_memory_gb", "80"}};
    size_t k;
    memest_params_init(&prm);
    for (k = 0; k < sizeof no_gpu / sizeof no_gpu[0]; k++)
      CHECK_I64(memest_params_set(&prm, no_gpu[k][0], no_gpu[k][1], &err), MEMEST_OK);
  }
  CHECK_I64(memest_check_run(NULL, 0, &prm, NULL, 0, log, &c, &err), MEMEST_OK);
  if (c != NULL) {
    json = memest_check_json(c);
    CHECK_I64(memest_check_step_time_error(c, &error, &note), 0);
    CHECK_HAS(note, "the estimate has no step time: ");
    CHECK_HAS(json, "\"time\":null,\"time_note\":\"the estimate has no step time: ");
    CHECK_HAS(json, "\"step_time\":{\"step_seconds\":2.000000,");
    memest_free(json);
    memest_check_free(c);
  }
  memest_runlog_free(log);
}

static void test_check(void) {
  pk_buf p;
  memest_snapshot *s = NULL;
  memest_error err;
  memest_params prm;
  memest_check_input in[2];
  memest_check *c = NULL;
  char *json, *text;
  small_snapshot(&p);
  CHECK_I64(memest_snapshot_read(p.b, p.n, &s, &err), MEMEST_OK);
  check_params(&prm, "qwen3-30b-a3b", 4, 8, 1, 32, 1, 1024, 4096, "h100");
  in[0].source = "snapshot-rank00009.pickle";
  in[0].global_rank = 9;
  in[0].snapshot = s;
  in[1] = in[0];
  CHECK_I64(memest_check_run(NULL, 0, &prm, in, 2, NULL, &c, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "are both global rank 9");
  in[1].global_rank = 40;
  in[1].source = "snapshot-rank00040.pickle";
  CHECK_I64(memest_check_run(NULL, 0, &prm, in, 2, NULL, &c, &err), MEMEST_E_VALUE);
  CHECK_HAS(err.message, "is global rank 40, but the run has 32 GPUs");
  CHECK_I64(memest_check_run(NULL, 0, &prm, in, 0, NULL, &c, &err), MEMEST_E_MISSING);
  CHECK_I64(memest_check_run(NULL, 0, &prm, in, 1, NULL, &c, &err), MEMEST_OK);
  if (c) {
    json = memest_check_json(c);
    text = memest_check_text(c);
    CHECK(json && text);
    if (json) {
      CHECK_HAS(json, "{\"ranks\":[{\"pp_rank\":1,\"global_rank\":9,\"source\":\"snapshot-rank00009.pickle\",\"measured_peak_bytes\":7168,");
      CHECK_HAS(json, "\"max\":{\"measured_peak_bytes\":7168,");
      CHECK_HAS(json, "\"log\":null");
    }
    if (text) CHECK_HAS(text, "layer.py:42:alloc");
    memest_free(json);
    memest_free(text);
    memest_check_free(c);
  }
  memest_snapshot_free(s);
}

int main(void) {
  test_small_snapshot();
  test_hostile();
  test_shared_segment();
  test_truncated();
  test_runlog();
  test_runlog_line_ends();
  test_runlog_readings();
  test_runlog_steps();
  test_logged_median();
  test_runlog_times();
  test_ranks();
  test_check();
  test_check_log();
  test_check_time();
  return check_done("test_measured");
}
