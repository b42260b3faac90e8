/*
** test_snapshot_bound.c — the snapshot reader is linear in the file, in
** work and in memory, whatever the pickle's memo shares (the bound of
** docs/measured-runs.md). Hostile snapshots built here lean on the memo: one
** block or trace entry dict listed again and again (refused), thousands of
** blocks sharing one frames list, lists sharing frame dicts, frame dicts
** sharing long strings, nested shared lists. Each is read with its figures
** checked exactly, its work (the reader's steps) at most STEPS_PER_BYTE a
** byte, and its heap at most HEAP_PER_BYTE a byte plus HEAP_FIXED: the test
** links with --wrap for malloc, calloc, realloc and free and keeps the
** bytes in use. One is also read inside a file of exactly
** MEMEST_MAX_PICKLE_BYTES (the reader's size limit, padded with a string
** that is never touched), where the heap must not grow with the padding.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measured/pickle.h"

#define STEPS_PER_BYTE 8
#define HEAP_PER_BYTE 12
#define HEAP_FIXED (24LL << 20)  /* a page of the store is 8 MiB */
#define SIZE (4LL << 20)         /* the hostile files' size */
#define A0 0x7f0000000000LL

/* {======================================================================
** Heap accounting: every block carries its size in a 16-byte header
** ======================================================================= */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static long long heap_in_use, heap_peak;

static void heap_add(long long n) {
  heap_in_use += n;
  if (heap_in_use > heap_peak) heap_peak = heap_in_use;
}

void *__wrap_malloc(size_t n) {
  size_t *p = __real_malloc(n + 16);
  if (p == NULL) return NULL;
  p[0] = n;
  heap_add((long long)n);
  return (char *)p + 16;
}

void *__wrap_calloc(size_t n, size_t size) {
  size_t *p;
  if (size && n > ((size_t)-1 - 16) / size) return NULL;
  p = __real_calloc(1, n * size + 16);
  if (p == NULL) return NULL;
  p[0] = n * size;
  heap_add((long long)(n * size));
  return (char *)p + 16;
}

void *__wrap_realloc(void *old, size_t n) {
  size_t *p, was;
  if (old == NULL) return __wrap_malloc(n);
  was = *(size_t *)((char *)old - 16);
  p = __real_realloc((char *)old - 16, n + 16);
  if (p == NULL) return NULL;
  p[0] = n;
  heap_add((long long)n - (long long)was);
  return (char *)p + 16;
}

void __wrap_free(void *p) {
  if (p == NULL) return;
  heap_in_use -= (long long)*(size_t *)((char *)p - 16);
  __real_free((char *)p - 16);
}
/* }====================================================================== */

/* {======================================================================
** Writing a pickle opcode by opcode (protocol 4, batches of 1000 as
** pickle.dump writes them)
** ======================================================================= */
typedef struct pkw {
  unsigned char *b;
  size_t n, cap;
  unsigned memo;
} pkw;

static void put(pkw *w, const void *bytes, size_t n) {
  if (w->n + n > w->cap) {
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->n + n) cap *= 2;
    w->b = realloc(w->b, cap);
    if (w->b == NULL) {
      fprintf(stderr, "test_snapshot_bound: out of memory\n");
      exit(1);
    }
    w->cap = cap;
  }
  memcpy(w->b + w->n, bytes, n);
  w->n += n;
}

static void op(pkw *w, int c) {
  unsigned char b = (unsigned char)c;
  put(w, &b, 1);
}

static void le(pkw *w, unsigned long long v, int n) {
  int i;
  for (i = 0; i < n; i++) op(w, (int)((v >> (8 * i)) & 0xff));
}

static unsigned memoize(pkw *w) {
  op(w, 0x94);
  return w->memo++;
}

static void get(pkw *w, unsigned i) {
  if (i < 256) {
    op(w, 'h');
    op(w, (int)i);
  } else {
    op(w, 'j');
    le(w, i, 4);
  }
}

static void integer(pkw *w, long long v) {
  if (v >= 0 && v < 256) {
    op(w, 'K');
    op(w, (int)v);
  } else if (v >= -2147483647LL - 1 && v <= 2147483647LL) {
    op(w, 'J');
    le(w, (unsigned long long)v, 4);
  } else {
    op(w, 0x8a);
    op(w, 8);
    le(w, (unsigned long long)v, 8);
  }
}

static unsigned text(pkw *w, const char *s) {
  size_t n = strlen(s);
  op(w, 'X');
  le(w, n, 4);
  put(w, s, n);
  return memoize(w);
}

/* The memo entries every shape uses. */
enum { K_SEGMENTS, K_TRACES, K_DEVICE, K_ADDRESS, K_TOTAL, K_BLOCKS, K_SIZE, K_REQUESTED,
       K_STATE, K_FRAMES, K_FILENAME, K_LINE, K_NAME, K_ACTIVE, K_ACTION, K_ALLOC, K_FREE,
       K_ADDR, K_TIME, K_PADDING, K_TORCH_FILE, K_LONG_NAME, K_COUNT };
static const char *const key_text[K_COUNT] = {
    "segments", "device_traces", "device", "address", "total_size", "blocks", "size",
    "requested_size", "state", "frames", "filename", "line", "name", "active_allocated",
    "action", "alloc", "free_requested", "addr", "time_us", "padding", NULL, NULL};

typedef struct snap {
  pkw w;
  unsigned key[K_COUNT];
  unsigned frame, frames;  /* one frame dict in torch's files; a list of 256 of it */
  unsigned pool[200];      /* frame dicts at lines 0..199 */
} snap;

static char torch_file[256], long_name[128];

static void kv(snap *s, int k, int v) {
  get(&s->w, s->key[k]);
  get(&s->w, s->key[v]);
}

/* A frame dict in torch's files at `line`; memoized when `keep`, its memo
** entry returned. */
static unsigned frame_dict(snap *s, long long line, int keep) {
  unsigned at = 0;
  op(&s->w, '}');
  if (keep) at = memoize(&s->w);
  op(&s->w, '(');
  kv(s, K_FILENAME, K_TORCH_FILE);
  get(&s->w, s->key[K_LINE]);
  integer(&s->w, line);
  kv(s, K_NAME, K_LONG_NAME);
  op(&s->w, 'u');
  return at;
}

/* Appends n items to the list on the stack, 1000 to a mark; item i is
** written by each(s, i, arg). */
typedef void (*item_fn)(snap *s, long long i, long long arg);
static void repeat(snap *s, long long n, item_fn each, long long arg) {
  long long i;
  for (i = 0; i < n; i++) {
    if (i % 1000 == 0) op(&s->w, '(');
    each(s, i, arg);
    if (i % 1000 == 999 || i == n - 1) op(&s->w, 'e');
  }
}

static void item_get(snap *s, long long i, long long memo) {
  (void)i;
  get(&s->w, (unsigned)memo);
}

/* The top-level dict opened, with an unread first member: the list that
** holds every object defined once (keys, frame dicts, the frames list). */
static void snap_begin(snap *s) {
  int k;
  memset(s, 0, sizeof *s);
  memcpy(torch_file, "/usr/lib/python3/site-packages/torch/nn/modules/", 48);
  memset(torch_file + 48, 'm', 180);
  memcpy(torch_file + 228, ".py", 4);
  memcpy(long_name, "forward_", 8);
  memset(long_name + 8, 'x', 110);
  long_name[118] = '\0';
  op(&s->w, 0x80);
  op(&s->w, 4);
  op(&s->w, '}');
  memoize(&s->w);
  text(&s->w, "annotations");
  op(&s->w, ']');
  memoize(&s->w);
  op(&s->w, '(');
  for (k = 0; k < K_COUNT; k++)
    s->key[k] = text(&s->w, k == K_TORCH_FILE ? torch_file
                            : k == K_LONG_NAME ? long_name : key_text[k]);
  s->frame = frame_dict(s, 7, 1);
  for (k = 0; k < 200; k++) s->pool[k] = frame_dict(s, k, 1);
  op(&s->w, ']');
  s->frames = memoize(&s->w);
  repeat(s, 256, item_get, s->frame);
  op(&s->w, 'e');  /* into the unread list */
  op(&s->w, 's');  /* root["annotations"] */
}

/* One segment of device 0 opened, its blocks list on the stack. */
static void segment_begin(snap *s) {
  get(&s->w, s->key[K_SEGMENTS]);
  op(&s->w, ']');
  op(&s->w, '(');
  op(&s->w, '}');
  op(&s->w, '(');
  get(&s->w, s->key[K_DEVICE]);
  integer(&s->w, 0);
  get(&s->w, s->key[K_ADDRESS]);
  integer(&s->w, A0);
  get(&s->w, s->key[K_TOTAL]);
  integer(&s->w, 1LL << 40);
  get(&s->w, s->key[K_BLOCKS]);
  op(&s->w, ']');
}

static void segment_end(snap *s) {
  op(&s->w, 'u');  /* the segment's items */
  op(&s->w, 'e');  /* into the segments */
  op(&s->w, 's');  /* root["segments"] */
}

static void no_segments(snap *s) {
  get(&s->w, s->key[K_SEGMENTS]);
  op(&s->w, ']');
  op(&s->w, 's');
}

/* device_traces: one empty trace (the shapes with a trace write their own). */
static void no_trace(snap *s) {
  get(&s->w, s->key[K_TRACES]);
  op(&s->w, ']');
  op(&s->w, ']');
  op(&s->w, 'a');
  op(&s->w, 's');
}

/* Pads to `size` with a string under "padding", then STOP. */
static void snap_end(snap *s, size_t size) {
  if (size > s->w.n + 13) {
    size_t n = size - s->w.n - 13, at;
    get(&s->w, s->key[K_PADDING]);
    op(&s->w, 0x8d);
    le(&s->w, n, 8);
    at = s->w.n;
    put(&s->w, "", 0);
    if (s->w.cap < at + n + 2) {
      s->w.b = realloc(s->w.b, at + n + 2);
      if (s->w.b == NULL) exit(1);
      s->w.cap = at + n + 2;
    }
    memset(s->w.b + at, '.', n);
    s->w.n = at + n;
    op(&s->w, 's');
  }
  op(&s->w, '.');
}

/* A block of 512 bytes at `addr` (none when addr < 0) whose frames are
** memo entry `frames`, or a new list of 256 references to the pool when
** frames == -1, or of 256 new frame dicts when frames == -2. Memoized when
** `keep`; its memo entry returned. */
static unsigned block(snap *s, long long addr, long long frames, int keep) {
  unsigned at = 0;
  op(&s->w, '}');
  if (keep) at = memoize(&s->w);
  op(&s->w, '(');
  if (addr >= 0) {
    get(&s->w, s->key[K_ADDRESS]);
    integer(&s->w, addr);
  }
  get(&s->w, s->key[K_SIZE]);
  integer(&s->w, 512);
  get(&s->w, s->key[K_REQUESTED]);
  integer(&s->w, 512);
  kv(s, K_STATE, K_ACTIVE);
  get(&s->w, s->key[K_FRAMES]);
  if (frames >= 0) {
    get(&s->w, (unsigned)frames);
  } else {
    int j;
    op(&s->w, ']');
    op(&s->w, '(');
    for (j = 0; j < 256; j++) {
      if (frames == -1) get(&s->w, s->pool[j % 200]);
      else frame_dict(s, j, 0);
    }
    op(&s->w, 'e');
  }
  op(&s->w, 'u');
  return at;
}

static void item_block(snap *s, long long i, long long frames) {
  block(s, A0 + 512 * i, frames, 0);
}

/* A trace entry at the i-th address, sharing the frames list. */
static unsigned entry(snap *s, long long i, long long action, int keep) {
  unsigned at = 0;
  op(&s->w, '}');
  if (keep) at = memoize(&s->w);
  op(&s->w, '(');
  kv(s, K_ACTION, (int)action);
  get(&s->w, s->key[K_ADDR]);
  integer(&s->w, A0 + 512 * i);
  get(&s->w, s->key[K_SIZE]);
  integer(&s->w, 512);
  get(&s->w, s->key[K_TIME]);
  integer(&s->w, action == K_ALLOC ? i : 1000000 + i);
  get(&s->w, s->key[K_FRAMES]);
  get(&s->w, s->frames);
  op(&s->w, 'u');
  return at;
}

static void item_entry(snap *s, long long i, long long action) {
  entry(s, i, action, 0);
}
/* }====================================================================== */

/* {======================================================================
** The shapes, each of `count` blocks or entries
** ======================================================================= */
typedef enum shape {
  SHARED_BLOCK,    /* one memoized block dict `count` times (refused) */
  SHARED_LIST,     /* distinct blocks, one frames list */
  SHARED_FRAMES,   /* distinct blocks, each a list of the 200 pool frames */
  SHARED_STRINGS,  /* distinct blocks, each 256 new frame dicts sharing two strings */
  TRACE,           /* distinct allocs sharing one frames list, then their frees */
  TRACE_REFS,      /* one memoized trace entry `count` times (refused) */
  LAUGHS,          /* distinct blocks whose frames are 6 levels of nested shared lists */
  SHAPES
} shape;

static const char *const shape_name[SHAPES] = {"shared-block", "shared-list", "shared-frames",
                                               "shared-strings", "trace", "trace-refs",
                                               "laughs"};

static void build(snap *s, shape sh, long long count, size_t size) {
  unsigned kept, level;
  int i;
  snap_begin(s);
  switch (sh) {
    case SHARED_BLOCK:
      segment_begin(s);
      op(&s->w, '(');
      kept = block(s, -1, s->frames, 1);
      op(&s->w, 'e');
      repeat(s, count - 1, item_get, kept);
      segment_end(s);
      no_trace(s);
      break;
    case SHARED_LIST:
    case SHARED_FRAMES:
    case SHARED_STRINGS:
      segment_begin(s);
      repeat(s, count, item_block, sh == SHARED_LIST ? (long long)s->frames : sh == SHARED_FRAMES ? -1 : -2);
      segment_end(s);
      no_trace(s);
      break;
    case TRACE:
    case TRACE_REFS:
      no_segments(s);
      get(&s->w, s->key[K_TRACES]);
      op(&s->w, ']');
      op(&s->w, ']');
      if (sh == TRACE) {
        repeat(s, count, item_entry, K_ALLOC);
        repeat(s, count, item_entry, K_FREE);
      } else {
        kept = entry(s, 0, K_ALLOC, 1);
        op(&s->w, 'a');
        repeat(s, count - 1, item_get, kept);
      }
      op(&s->w, 'a');
      op(&s->w, 's');
      break;
    case LAUGHS:
      /* Level 0 is the frames list; level i+1 is 16 references to level i. */
      level = s->frames;
      get(&s->w, s->key[K_PADDING]);
      op(&s->w, ']');
      op(&s->w, '(');
      for (i = 0; i < 5; i++) {
        unsigned up;
        op(&s->w, ']');
        up = memoize(&s->w);
        repeat(s, 16, item_get, level);
        level = up;
      }
      op(&s->w, 'e');
      op(&s->w, 's');
      segment_begin(s);
      repeat(s, count, item_block, level);
      segment_end(s);
      no_trace(s);
      break;
    default:
      break;
  }
  snap_end(s, size);
}

/* The count of blocks or entries that fills about `size` bytes. */
static long long count_for(shape sh, size_t size) {
  snap a, b;
  long long per, n;
  build(&a, sh, 1000, 0);
  build(&b, sh, 2000, 0);
  per = (long long)(b.w.n - a.w.n);
  n = 1000 + ((long long)size - (long long)a.w.n - 64) * 1000 / per;
  free(a.w.b);
  free(b.w.b);
  return n;
}
/* }====================================================================== */

/* {======================================================================
** The tests
** ======================================================================= */

/* Reads data[0..len) and checks the bound: steps at most STEPS_PER_BYTE a
** byte of `content`, heap at most HEAP_PER_BYTE a byte of it plus
** HEAP_FIXED. Returns the snapshot (or NULL with *err set). */
static memest_snapshot *read_bounded(const char *what, const unsigned char *data, size_t len,
                                     size_t content, memest_error *err) {
  memest_snapshot *s = NULL;
  long long base = heap_in_use, used;
  heap_peak = heap_in_use;
  memest_snapshot_read(data, len, &s, err);
  used = heap_peak - base;
  printf("  %-16s %9zu bytes: heap %6.2f a byte, ", what, len, (double)used / (double)content);
  if (s) printf("%.2f steps a byte\n", (double)memi_snapshot_steps(s) / (double)content);
  else printf("refused: %s\n", err->message);
  CHECK(used <= HEAP_PER_BYTE * (long long)content + HEAP_FIXED);
  if (s) CHECK(memi_snapshot_steps(s) <= STEPS_PER_BYTE * (long long)content);
  return s;
}

/* Every block or allocation is 512 bytes, all live at the peak, all under
** the one site: the first frame (all frames are torch's own). */
static void check_blocks(const memest_snapshot *s, long long count, long long events) {
  const memest_snapshot_summary *m = memest_snapshot_summary_of(s);
  char site[MEMEST_SNAPSHOT_SITE];
  snprintf(site, sizeof site, "%s:7:%s", strrchr(torch_file, '/') + 1, long_name);
  CHECK_I64(m->events, events);
  CHECK_I64(m->blocks, events ? 0 : count);
  CHECK_I64(m->peak_allocated_bytes, 512 * count);
  CHECK_I64(m->inconsistent, 0);
  CHECK_I64(memest_snapshot_top_count(s), count < MEMEST_SNAPSHOT_TOP ? count : MEMEST_SNAPSHOT_TOP);
  CHECK_I64(memest_snapshot_top(s, 0)->bytes, 512);
  CHECK_I64(memest_snapshot_site_count(s), 1);
  CHECK_I64(memest_snapshot_site_at(s, 0)->count, count);
  CHECK_I64(memest_snapshot_site_at(s, 0)->bytes, 512 * count);
}

static void test_shapes(void) {
  int sh;
  for (sh = 0; sh < SHAPES; sh++) {
    snap s;
    memest_error err;
    memest_snapshot *got;
    long long count = count_for((shape)sh, SIZE);
    build(&s, (shape)sh, count, SIZE);
    CHECK_I64(s.w.n, SIZE);
    got = read_bounded(shape_name[sh], s.w.b, s.w.n, s.w.n, &err);
    switch ((shape)sh) {
      case SHARED_BLOCK:
        CHECK(got == NULL);
        CHECK_HAS(err.message, "one block dict appears more than once (a memo reference)");
        break;
      case TRACE_REFS:
        CHECK(got == NULL);
        CHECK_HAS(err.message, "one trace entry dict appears more than once");
        break;
      case TRACE:
        CHECK(got != NULL);
        if (got) {
          check_blocks(got, count, 2 * count);
          CHECK_I64(memest_snapshot_summary_of(got)->peak_event, count - 1);
        }
        break;
      case LAUGHS:
        /* Its frames are lists, not frame dicts: no frames, one site. */
        CHECK(got != NULL);
        if (got) {
          CHECK_I64(memest_snapshot_summary_of(got)->blocks, count);
          CHECK_I64(memest_snapshot_top(got, 0)->frames, 0);
          CHECK_STR(memest_snapshot_site_at(got, 0)->site, "(no frames recorded)");
          CHECK_I64(memest_snapshot_site_at(got, 0)->count, count);
        }
        break;
      default:
        CHECK(got != NULL);
        if (got) check_blocks(got, count, 0);
        break;
    }
    memest_snapshot_free(got);
    free(s.w.b);
  }
}

/* A file of exactly MEMEST_MAX_PICKLE_BYTES: 4 MB of blocks sharing one
** frames list, then a padding string the reader never touches (the buffer's
** pages past the blocks are never written). Nothing grows with the padding;
** one byte more is refused before anything is read. */
static void test_at_limit(void) {
  snap s;
  memest_error err;
  memest_snapshot *got;
  unsigned char *big;
  long long count = count_for(SHARED_LIST, SIZE);
  size_t content, pad, n = (size_t)MEMEST_MAX_PICKLE_BYTES;
  build(&s, SHARED_LIST, count, 0);
  content = s.w.n - 1;  /* without its STOP */
  big = malloc(n + 1);
  CHECK(big != NULL);
  if (big == NULL) return;
  memcpy(big, s.w.b, content);
  pad = n - content - 13;
  big[content] = 'h';
  big[content + 1] = (unsigned char)s.key[K_PADDING];
  big[content + 2] = 0x8d;
  {
    int i;
    for (i = 0; i < 8; i++) big[content + 3 + i] = (unsigned char)((pad >> (8 * i)) & 0xff);
  }
  big[n - 1] = '.';
  big[n - 2] = 's';
  got = read_bounded("at the limit", big, n, content, &err);
  CHECK(got != NULL);
  if (got) check_blocks(got, count, 0);
  memest_snapshot_free(got);
  CHECK_I64(memest_snapshot_read(big, n + 1, &got, &err), MEMEST_E_LIMIT);
  CHECK_HAS(err.message, "over MEMEST_MAX_PICKLE_BYTES");
  free(big);
  free(s.w.b);
}
/* }====================================================================== */

int main(void) {
  test_shapes();
  test_at_limit();
  return check_done("test_snapshot_bound");
}
