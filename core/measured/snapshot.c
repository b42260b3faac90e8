/*
** snapshot.c — a torch.cuda.memory._snapshot() read into the figures
** memest compares: allocated bytes over the recorded window, the peak, the
** largest allocations live at the peak with their sites, and reserved
** against allocated. The pickle is read by pickle.c; the schema is the one
** PyTorch's memory viewer reads (docs/measured-runs.md).
**
** Allocated bytes are rebuilt backwards: the final segments' active
** blocks give the end state exactly; walking the trace from its end, an
** "alloc" is undone by taking its bytes away and a "free_requested" by
** adding them back, which is where the caching allocator moves
** allocated_bytes. A block counts its size: the final block's size when it
** is still live at the end, else the request rounded up to 512 bytes (the
** allocator's rounding; docs/measured-runs.md says when it is larger).
**
** The pickle's memo lets one object be referenced any number of times, so
** the work is done per object, never per reference: each segment, block
** and trace entry dict is read once (PyTorch writes a new dict for each,
** so one met twice is refused), and what the sites need of a frames list,
** a frame dict and a string is worked out once and kept. The reading is
** linear in the file in time and memory (docs/measured-runs.md).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured/pickle.h"

#define SNAP_ROUND 512          /* the caching allocator's kMinBlockSize */
#define SNAP_MAX_KEYS 64        /* keys of one entry, block or segment dict */
#define SNAP_MAX_FRAMES_SEEN 256 /* frames looked at for one allocation's site */

typedef enum snap_action {
  A_OTHER = 0, A_ALLOC, A_FREE, A_FREE_DONE, A_SEG_ADD, A_SEG_DROP
} snap_action;

typedef struct snap_event {
  uint64_t addr;
  int64_t size;       /* the entry's size: the request for alloc and free */
  int64_t time_us;
  pk_value frames;
  uint8_t action;
} snap_event;

/* An allocation: an active block of the final segments, or one freed
** after the peak (walk_peak). */
typedef struct snap_live {
  uint64_t addr;
  int64_t bytes, requested, time_us;
  pk_value frames;
  uint8_t before;         /* allocated before the recording */
  uint8_t live;           /* live at the peak */
} snap_live;

/* A map of 64-bit keys to 64-bit values: linear probing, backward-shift
** deletion. Key 0 marks an empty slot, so an address is kept as address + 1
** and a value (never None) as itself: a container's or a string's value is
** its identity. */
typedef struct snap_map {
  uint64_t *key, *val;
  size_t cap, n;          /* cap is 0 or a power of two */
} snap_map;

struct memest_snapshot {
  memest_snapshot_summary sum;
  int64_t n;              /* curve points kept: one per trace entry */
  int64_t *t_us;          /* the entry's time, or its index */
  int64_t *after;         /* allocated bytes after each entry */
  memest_snapshot_alloc top[MEMEST_SNAPSHOT_TOP];
  int ntop;
  memest_snapshot_site sites[MEMEST_SNAPSHOT_TOP];
  int nsites;
  int64_t steps;          /* the reader's work: children and members looked at */
};

/* What the reader knows of a container, a byte each: read as a segment,
** block or trace entry; and as a frame dict, whether its bits below are
** worked out, shown (a file and a function, neither hidden), in torch's
** files, and its site's slot in the sites list (MARK_SLOT: 0 not looked up
** yet, 1 not in the list, which was full, 2 + i slot i). */
#define MARK_READ 1u
#define MARK_FRAME 2u
#define MARK_SHOWN 4u
#define MARK_TORCH 8u
#define MARK_SLOT_SHIFT 4
#if MEMEST_SNAPSHOT_TOP + 2 > 15
#error "a site's slot must fit in MARK_SLOT's four bits"
#endif

typedef struct snap_reader {
  const pk_store *pk;
  memest_error *err;
  int device;
  snap_event *ev;
  int64_t nev, ev_cap;
  snap_live *rec;         /* the final active blocks, then frees after the peak */
  int64_t nrec, rec_cap;
  int64_t end_alloc, end_reserved, segments, blocks;
  uint8_t *marks;         /* a byte per container: MARK_* */
  snap_map lists;         /* frames list -> its site frame (a frame dict, or None) */
  snap_map texts;         /* string -> TEXT_* bits */
  int bare_slot;          /* the slot of "(no frames recorded)", coded as MARK_SLOT */
  int oom;                /* a kept result could not be stored */
  int64_t steps;          /* children and members looked at */
} snap_reader;

/* {======================================================================
** The map, and the allocations' table
** ======================================================================= */

static size_t map_hash(uint64_t a, size_t cap) {
  a ^= a >> 33;
  a *= 0xff51afd7ed558ccdULL;
  a ^= a >> 33;
  return (size_t)a & (cap - 1);
}

/* The slot of key, or of the empty slot where it would go. */
static size_t map_slot(const snap_map *m, uint64_t key) {
  size_t i = map_hash(key, m->cap);
  while (m->key[i] != 0 && m->key[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}

static int map_get(const snap_map *m, uint64_t key, uint64_t *val) {
  size_t i;
  if (m->cap == 0) return 0;
  i = map_slot(m, key);
  if (m->key[i] == 0) return 0;
  *val = m->val[i];
  return 1;
}

/* Inserts or replaces; 0 when out of memory. */
static int map_put(snap_map *m, uint64_t key, uint64_t val) {
  size_t i;
  if ((m->n + 1) * 2 > m->cap) {
    snap_map big;
    size_t j;
    big.cap = m->cap ? m->cap * 2 : 256;
    big.n = m->n;
    big.key = calloc(big.cap, sizeof *big.key);
    big.val = malloc(big.cap * sizeof *big.val);
    if (big.key == NULL || big.val == NULL) {
      free(big.key);
      free(big.val);
      return 0;
    }
    for (j = 0; j < m->cap; j++)
      if (m->key[j] != 0) {
        i = map_slot(&big, m->key[j]);
        big.key[i] = m->key[j];
        big.val[i] = m->val[j];
      }
    free(m->key);
    free(m->val);
    *m = big;
  }
  i = map_slot(m, key);
  if (m->key[i] == 0) m->n++;
  m->key[i] = key;
  m->val[i] = val;
  return 1;
}

static void map_del(snap_map *m, uint64_t key) {
  size_t i, j;
  if (m->cap == 0) return;
  i = j = map_slot(m, key);
  if (m->key[i] == 0) return;
  m->key[i] = 0;
  m->n--;
  for (;;) {
    size_t home;
    j = (j + 1) & (m->cap - 1);
    if (m->key[j] == 0) return;
    home = map_hash(m->key[j], m->cap);
    /* Move j back to i unless its home lies cyclically in (i, j]. */
    if ((i < j) ? (home <= i || home > j) : (home <= i && home > j)) {
      m->key[i] = m->key[j];
      m->val[i] = m->val[j];
      m->key[j] = 0;
      i = j;
    }
  }
}

static void map_free(snap_map *m) {
  free(m->key);
  free(m->val);
  memset(m, 0, sizeof *m);
}

/* Appends an allocation to r->rec; its index, or -1 when out of memory. */
static int64_t add_record(snap_reader *r, const snap_live *l) {
  if (r->nrec == r->rec_cap) {
    int64_t nc = r->rec_cap ? r->rec_cap * 2 : 1024;
    snap_live *nr = realloc(r->rec, (size_t)nc * sizeof *nr);
    if (nr == NULL) return -1;
    r->rec = nr;
    r->rec_cap = nc;
  }
  r->rec[r->nrec] = *l;
  return r->nrec++;
}
/* }====================================================================== */

/* {======================================================================
** Reading the schema. Every child and member the reader looks at passes
** through next() and member(), which count them in r->steps.
** ======================================================================= */

static int next(snap_reader *r, pk_iter *it, pk_value *v) {
  if (!memi_pk_iter_next(it, v)) return 0;
  r->steps++;
  return 1;
}

static int member(snap_reader *r, pk_value dict, const char *key, pk_value *v) {
  r->steps += memi_pk_len(r->pk, dict);
  return memi_pk_dict_get(r->pk, dict, key, v);
}

static memest_code not_snapshot(snap_reader *r, const char *what) {
  return memi_err_set(r->err, MEMEST_E_VALUE, "snapshot",
                 "the pickle is not a torch.cuda.memory._snapshot(): %s; give the "
                 "snapshot-rankNNNNN.pickle the trainer writes",
                 what);
}

static int64_t round_block(int64_t size) {
  if (size < SNAP_ROUND) return SNAP_ROUND;
  if (size > INT64_MAX - SNAP_ROUND) return INT64_MAX / SNAP_ROUND * SNAP_ROUND;
  return (size + SNAP_ROUND - 1) / SNAP_ROUND * SNAP_ROUND;
}

/* An integer member (0 when absent); -1 when present but not an integer. */
static int get_int(snap_reader *r, pk_value dict, const char *key, int64_t *v) {
  pk_value x;
  int ok;
  if (!member(r, dict, key, &x)) return 0;
  *v = memi_pk_int(r->pk, x, &ok);
  return ok ? 1 : -1;
}

/* A segment, block or trace entry: a dict of at most SNAP_MAX_KEYS keys,
** met for the first time. PyTorch writes a new dict for each, so a dict
** met again (a memo reference) is refused rather than read twice. */
static memest_code entry_dict(snap_reader *r, pk_value d, const char *what) {
  char msg[160];
  uint64_t i;
  if (pk_kind_of(d) != PK_DICT) {
    snprintf(msg, sizeof msg, "a %s is not a dict", what);
    return not_snapshot(r, msg);
  }
  if (memi_pk_len(r->pk, d) > 2 * SNAP_MAX_KEYS) {
    snprintf(msg, sizeof msg, "a %s has more than %d keys", what, SNAP_MAX_KEYS);
    return not_snapshot(r, msg);
  }
  i = pk_container_index(d);
  if (r->marks[i] & MARK_READ) {
    snprintf(msg, sizeof msg,
             "one %s dict appears more than once (a memo reference), where PyTorch writes a "
             "dict for each %s",
             what, what);
    return not_snapshot(r, msg);
  }
  r->marks[i] |= MARK_READ;
  return MEMEST_OK;
}

static memest_code bad_member(snap_reader *r, const char *what, const char *key) {
  return memi_err_set(r->err, MEMEST_E_VALUE, "snapshot",
                 "a %s of the snapshot has '%s' that is not a non-negative integer; the file "
                 "is damaged or not a torch.cuda.memory._snapshot()",
                 what, key);
}

/* Which device to read: the one with the most trace entries, else the
** first with segments. */
static memest_code pick_device(snap_reader *r, pk_value segs, pk_value traces) {
  pk_iter it;
  pk_value v;
  int64_t i = 0, best = -1, most = 0;
  int seg_dev = -1;
  memi_pk_iter_init(&it, r->pk, traces);
  while (next(r, &it, &v)) {
    int64_t n = memi_pk_len(r->pk, v);
    if (pk_kind_of(v) != PK_LIST) return not_snapshot(r, "a device's trace is not a list");
    if (n > most) {
      most = n;
      best = i;
    }
    i++;
  }
  memi_pk_iter_init(&it, r->pk, segs);
  while (next(r, &it, &v)) {
    int64_t d = 0;
    memest_code rc = entry_dict(r, v, "segment");
    if (rc != MEMEST_OK) return rc;
    if (get_int(r, v, "device", &d) < 0 || d < 0 || d > 65535)
      return bad_member(r, "segment", "device");
    if (seg_dev < 0) seg_dev = (int)d;
  }
  if (best < 0 && seg_dev < 0)
    return not_snapshot(r, "it has no segments and no trace entries (was "
                           "_record_memory_history on when it was dumped?)");
  r->device = best >= 0 ? (int)best : seg_dev;
  return MEMEST_OK;
}

/* The final segments of the device: reserved and allocated at the end, and
** each active block into the live map. */
static memest_code read_segments(snap_reader *r, pk_value segs) {
  pk_iter it, bit;
  pk_value seg, blocks, b;
  int ovf = 0;
  memi_pk_iter_init(&it, r->pk, segs);
  while (next(r, &it, &seg)) {
    int64_t dev = 0, total = 0, addr = 0;
    if (get_int(r, seg, "device", &dev) == 1 && dev != r->device) continue;
    if (get_int(r, seg, "total_size", &total) != 1 || total < 0)
      return bad_member(r, "segment", "total_size");
    if (get_int(r, seg, "address", &addr) != 1 || addr < 0)
      return bad_member(r, "segment", "address");
    r->end_reserved = ck_add(&ovf, r->end_reserved, total);
    r->segments++;
    if (!member(r, seg, "blocks", &blocks) || pk_kind_of(blocks) != PK_LIST)
      return not_snapshot(r, "a segment has no list of blocks");
    memi_pk_iter_init(&bit, r->pk, blocks);
    while (next(r, &bit, &b)) {
      int64_t size = 0, req = 0, baddr = addr;
      pk_value state, frames = PK_NONE;
      memest_code rc = entry_dict(r, b, "block");
      if (rc != MEMEST_OK) return rc;
      if (++r->blocks > MEMEST_MAX_SNAPSHOT_BLOCKS)
        return memi_err_set(r->err, MEMEST_E_LIMIT, "snapshot",
                       "the snapshot has more than MEMEST_MAX_SNAPSHOT_BLOCKS (%lld) blocks",
                       (long long)MEMEST_MAX_SNAPSHOT_BLOCKS);
      if (get_int(r, b, "size", &size) != 1 || size < 0) return bad_member(r, "block", "size");
      if (get_int(r, b, "requested_size", &req) < 0 || req < 0)
        return bad_member(r, "block", "requested_size");
      /* PyTorch names it "address"; older versions "addr". */
      if (get_int(r, b, "address", &baddr) < 0 || get_int(r, b, "addr", &baddr) < 0 || baddr < 0)
        return bad_member(r, "block", "address");
      if (!member(r, b, "state", &state)) return not_snapshot(r, "a block has no state");
      member(r, b, "frames", &frames);
      if (memi_pk_str_is(r->pk, state, "active_allocated")) {
        snap_live l;
        memset(&l, 0, sizeof l);
        l.addr = (uint64_t)baddr;
        l.bytes = size;
        l.requested = req ? req : size;
        l.time_us = -1;
        l.frames = frames;
        l.before = 1;
        r->end_alloc = ck_add(&ovf, r->end_alloc, size);
        if (add_record(r, &l) < 0)
          return memi_err_set(r->err, MEMEST_E_NOMEM, "snapshot", "out of memory reading blocks");
      }
      addr = ck_add(&ovf, addr, size);
    }
  }
  if (ovf)
    return memi_err_set(r->err, MEMEST_E_OVERFLOW, "snapshot",
                   "the snapshot's segment sizes add up past 64 bits; the file is damaged");
  return MEMEST_OK;
}

static snap_action action_of(const pk_store *pk, pk_value a) {
  if (memi_pk_str_is(pk, a, "alloc")) return A_ALLOC;
  if (memi_pk_str_is(pk, a, "free_requested") || memi_pk_str_is(pk, a, "free")) return A_FREE;
  if (memi_pk_str_is(pk, a, "free_completed")) return A_FREE_DONE;
  if (memi_pk_str_is(pk, a, "segment_alloc") || memi_pk_str_is(pk, a, "segment_map")) return A_SEG_ADD;
  if (memi_pk_str_is(pk, a, "segment_free") || memi_pk_str_is(pk, a, "segment_unmap")) return A_SEG_DROP;
  return A_OTHER;  /* snapshot, oom, ... move nothing */
}

static memest_code read_trace(snap_reader *r, pk_value traces) {
  pk_iter it;
  pk_value trace = PK_NONE, e;
  int64_t i = 0, n, has_time = 1;
  memi_pk_iter_init(&it, r->pk, traces);
  while (i < r->device && next(r, &it, &trace)) i++;
  if (!next(r, &it, &trace) || memi_pk_len(r->pk, trace) == 0) return MEMEST_OK;
  n = memi_pk_len(r->pk, trace);
  if (n > MEMEST_MAX_SNAPSHOT_EVENTS)
    return memi_err_set(r->err, MEMEST_E_LIMIT, "snapshot",
                   "the snapshot's trace has %lld entries, over MEMEST_MAX_SNAPSHOT_EVENTS "
                   "(%lld); record one step with fewer entries",
                   (long long)n, (long long)MEMEST_MAX_SNAPSHOT_EVENTS);
  memi_pk_iter_init(&it, r->pk, trace);
  while (next(r, &it, &e)) {
    snap_event *ev;
    pk_value a;
    int64_t addr = 0, size = 0, t = 0;
    memest_code rc = entry_dict(r, e, "trace entry");
    if (rc != MEMEST_OK) return rc;
    /* The table grows with the entries read, not with the list's length. */
    if (r->nev == r->ev_cap) {
      int64_t nc = r->ev_cap ? r->ev_cap * 2 : 1024;
      snap_event *ne;
      if (nc > n) nc = n;
      ne = realloc(r->ev, (size_t)nc * sizeof *ne);
      if (ne == NULL) return memi_err_set(r->err, MEMEST_E_NOMEM, "snapshot", "out of memory");
      r->ev = ne;
      r->ev_cap = nc;
    }
    ev = &r->ev[r->nev];
    if (!member(r, e, "action", &a)) return not_snapshot(r, "a trace entry has no action");
    ev->action = (uint8_t)action_of(r->pk, a);
    if (ev->action != A_OTHER) {
      if (get_int(r, e, "addr", &addr) != 1 || addr < 0) return bad_member(r, "trace entry", "addr");
      if (get_int(r, e, "size", &size) != 1 || size < 0) return bad_member(r, "trace entry", "size");
    }
    if (has_time && get_int(r, e, "time_us", &t) != 1) has_time = 0;
    ev->addr = (uint64_t)addr;
    ev->size = size;
    ev->time_us = t;
    ev->frames = PK_NONE;
    member(r, e, "frames", &ev->frames);
    r->nev++;
  }
  if (!has_time)
    for (i = 0; i < r->nev; i++) r->ev[i].time_us = -1;
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Sites: frames as "file:line:function"
** ======================================================================= */

/* The frames PyTorch's memory viewer leaves out too (its frameFilter). */
static int name_hidden(const char *name) {
  static const char *const funcs[] = {"unwind::unwind", "CapturedTraceback::gather",
                                      "gather_with_cpp", "_start", "__libc_start_main",
                                      "PyEval_", "PyObject_", "PyFunction_"};
  size_t i;
  for (i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
    if (strstr(name, funcs[i])) return 1;
  return 0;
}

static int file_hidden(const char *file) {
  static const char *const files[] = {"core/boxing", "/Register", "/Redispatch", "pythonrun.c",
                                      "Modules/main.c", "Objects/call.c",
                                      "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
                                      "cpython/abstract.h"};
  size_t i;
  for (i = 0; i < sizeof files / sizeof files[0]; i++)
    if (strstr(file, files[i])) return 1;
  return 0;
}

static void copy_str(const pk_store *pk, pk_value v, char *buf, size_t size) {
  size_t n = 0, i;
  const char *z = memi_pk_str(pk, v, &n);
  if (z == NULL) {
    int ok;
    int64_t x = memi_pk_int(pk, v, &ok);
    if (ok) snprintf(buf, size, "%lld", (long long)x);
    else buf[0] = '\0';
    return;
  }
  if (n >= size) n = size - 1;
  for (i = 0; i < n; i++) buf[i] = (z[i] >= 0x20 && z[i] != 0x7f) || (z[i] & 0x80) ? z[i] : '?';
  buf[n] = '\0';
}

/* Copies src into dst[size], cut short when longer. */
static void clip(char *dst, size_t size, const char *src) {
  size_t n = strlen(src);
  if (n >= size) n = size - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

#define FILE_CHARS 256          /* a frame's file name as read */
#define NAME_CHARS 128          /* a frame's function name as read */

/* What a string says as a frame's file or function name, once per string. */
#define TEXT_HIDDEN_NAME 1u     /* a function the viewer hides */
#define TEXT_HIDDEN_FILE 2u     /* a file the viewer hides */
#define TEXT_TORCH 4u           /* one of torch's own files */

static unsigned text_bits(snap_reader *r, pk_value v) {
  char file[FILE_CHARS], name[NAME_CHARS];
  uint64_t bits;
  if (v != PK_NONE && map_get(&r->texts, v, &bits)) return (unsigned)bits;
  copy_str(r->pk, v, file, sizeof file);
  copy_str(r->pk, v, name, sizeof name);
  bits = (name_hidden(name) ? TEXT_HIDDEN_NAME : 0) | (file_hidden(file) ? TEXT_HIDDEN_FILE : 0) |
         (strstr(file, "/torch/") ? TEXT_TORCH : 0);
  if (v != PK_NONE && !map_put(&r->texts, v, bits)) r->oom = 1;
  return (unsigned)bits;
}

/* A frame dict's MARK_* bits, worked out once per dict. */
static unsigned frame_bits(snap_reader *r, pk_value f) {
  uint8_t *mark;
  pk_value fn, nm;
  if (pk_kind_of(f) != PK_DICT) return 0;
  mark = &r->marks[pk_container_index(f)];
  if (*mark & MARK_FRAME) return *mark;
  *mark |= MARK_FRAME;
  if (memi_pk_len(r->pk, f) <= 2 * SNAP_MAX_KEYS && member(r, f, "filename", &fn) &&
      member(r, f, "name", &nm)) {
    unsigned file = text_bits(r, fn), name = text_bits(r, nm);
    if (!(name & TEXT_HIDDEN_NAME) && !(file & TEXT_HIDDEN_FILE)) *mark |= MARK_SHOWN;
    if (file & TEXT_TORCH) *mark |= MARK_TORCH;
  }
  return *mark;
}

/* A shown frame as "file:line:function" (the file's base name). */
static void frame_site(snap_reader *r, pk_value f, char *out, size_t size) {
  pk_value fn = PK_NONE, nm = PK_NONE, ln;
  char file[FILE_CHARS], name[NAME_CHARS], line[24], one[FILE_CHARS + NAME_CHARS + 32];
  const char *base;
  member(r, f, "filename", &fn);
  member(r, f, "name", &nm);
  copy_str(r->pk, fn, file, sizeof file);
  copy_str(r->pk, nm, name, sizeof name);
  line[0] = '\0';
  if (member(r, f, "line", &ln)) copy_str(r->pk, ln, line, sizeof line);
  base = strrchr(file, '/');
  base = base ? base + 1 : file;
  snprintf(one, sizeof one, "%s:%s:%s", base, line, name);
  clip(out, size, one);
}

/* The innermost MEMEST_SNAPSHOT_FRAMES shown frames of a frames list into
** a->site[] (for the largest allocations only). */
static void fill_frames(snap_reader *r, pk_value frames, memest_snapshot_alloc *a) {
  pk_iter it;
  pk_value f;
  int seen = 0;
  a->frames = 0;
  if (pk_kind_of(frames) != PK_LIST) return;
  memi_pk_iter_init(&it, r->pk, frames);
  while (a->frames < MEMEST_SNAPSHOT_FRAMES && seen++ < SNAP_MAX_FRAMES_SEEN &&
         next(r, &it, &f))
    if (frame_bits(r, f) & MARK_SHOWN)
      frame_site(r, f, a->site[a->frames++], sizeof a->site[0]);
}

/* The frame an allocation is counted under among the sites: the innermost
** shown frame outside torch's files, else the innermost shown frame; None
** when there is none. Once per frames list. */
static pk_value list_site(snap_reader *r, pk_value frames) {
  pk_iter it;
  pk_value f, site = PK_NONE, first = PK_NONE;
  uint64_t kept;
  int seen = 0;
  if (pk_kind_of(frames) != PK_LIST) return PK_NONE;
  if (map_get(&r->lists, frames, &kept)) return kept;
  memi_pk_iter_init(&it, r->pk, frames);
  while (seen++ < SNAP_MAX_FRAMES_SEEN && next(r, &it, &f)) {
    unsigned bits = frame_bits(r, f);
    if (!(bits & MARK_SHOWN)) continue;
    if (!(bits & MARK_TORCH)) {
      site = f;
      break;
    }
    if (first == PK_NONE) first = f;
  }
  if (site == PK_NONE) site = first;
  if (!map_put(&r->lists, frames, site)) r->oom = 1;
  return site;
}

/* The sites slot of allocation site `f` (a frame dict, or None for "(no
** frames recorded)"): -1 when the list is full without it. The list keeps
** the first MEMEST_SNAPSHOT_TOP sites met (largest allocations first); a
** site's slot never changes once found, so it is looked up once per frame. */
static int site_slot(snap_reader *r, memest_snapshot *s, pk_value f) {
  char site[MEMEST_SNAPSHOT_SITE];
  uint8_t *mark = NULL;
  int code, j;
  if (f == PK_NONE) {
    code = r->bare_slot;
  } else {
    frame_bits(r, f);
    mark = &r->marks[pk_container_index(f)];
    code = *mark >> MARK_SLOT_SHIFT;
  }
  if (code == 0) {
    if (f == PK_NONE) clip(site, sizeof site, "(no frames recorded)");
    else frame_site(r, f, site, sizeof site);
    for (j = 0; j < s->nsites && strcmp(s->sites[j].site, site) != 0; j++) {}
    if (j == s->nsites && s->nsites < MEMEST_SNAPSHOT_TOP) {
      memset(&s->sites[j], 0, sizeof s->sites[j]);
      clip(s->sites[j].site, sizeof s->sites[j].site, site);
      s->nsites++;
    }
    code = j < s->nsites ? j + 2 : 1;
    if (mark) *mark = (uint8_t)((*mark & 0x0fu) | (unsigned)code << MARK_SLOT_SHIFT);
    else r->bare_slot = code;
  }
  return code - 2;
}
/* }====================================================================== */

/* {======================================================================
** The walk
** ======================================================================= */

static int by_bytes_desc(const void *x, const void *y) {
  const snap_live *a = x, *b = y;
  if (a->bytes != b->bytes) return a->bytes < b->bytes ? 1 : -1;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int site_desc(const void *x, const void *y) {
  const memest_snapshot_site *a = x, *b = y;
  if (a->bytes != b->bytes) return a->bytes < b->bytes ? 1 : -1;
  return strcmp(a->site, b->site);
}

/* Pass 1: allocated and reserved after every entry, and the peak. The map
** holds the live addresses and their bytes. */
static memest_code walk_curve(snap_reader *r, memest_snapshot *s) {
  snap_map m = {NULL, NULL, 0, 0};
  int64_t cur = r->end_alloc, res = r->end_reserved, peak, peak_res, i;
  int64_t peak_at;
  uint64_t bytes;
  int ovf = 0;
  for (i = 0; i < r->nrec; i++)
    if (!map_put(&m, r->rec[i].addr + 1, (uint64_t)r->rec[i].bytes)) goto nomem;
  peak = cur;
  peak_at = r->nev - 1;
  peak_res = res;
  for (i = r->nev - 1; i >= 0; i--) {
    const snap_event *e = &r->ev[i];
    s->after[i] = cur;
    s->t_us[i] = e->time_us >= 0 ? e->time_us : i;
    if (cur >= peak) {
      peak = cur;
      peak_at = i;
    }
    if (res > peak_res) peak_res = res;
    /* Undo entry i. */
    if (e->action == A_ALLOC) {
      if (map_get(&m, e->addr + 1, &bytes)) {
        map_del(&m, e->addr + 1);
      } else {
        bytes = (uint64_t)round_block(e->size);
        s->sum.inconsistent++;
      }
      cur -= (int64_t)bytes;
      if (cur < 0) {
        s->sum.inconsistent++;
        cur = 0;
      }
    } else if (e->action == A_FREE) {
      if (map_get(&m, e->addr + 1, &bytes)) s->sum.inconsistent++;
      if (!map_put(&m, e->addr + 1, (uint64_t)round_block(e->size))) goto nomem;
      cur = ck_add(&ovf, cur, round_block(e->size));
    } else if (e->action == A_SEG_ADD) {
      res = res >= e->size ? res - e->size : 0;
    } else if (e->action == A_SEG_DROP) {
      res = ck_add(&ovf, res, e->size);
    }
  }
  map_free(&m);
  if (ovf)
    return memi_err_set(r->err, MEMEST_E_OVERFLOW, "snapshot",
                   "the snapshot's trace adds up past 64 bits; the file is damaged");
  if (res > peak_res) peak_res = res;
  if (cur >= peak) {  /* the state before the first entry */
    peak = cur;
    peak_at = -1;
  }
  s->sum.start_allocated_bytes = (uint64_t)cur;
  s->sum.peak_allocated_bytes = (uint64_t)peak;
  s->sum.peak_event = r->nev ? peak_at : -1;
  s->sum.peak_reserved_bytes = (uint64_t)(peak_res > r->end_reserved ? peak_res : r->end_reserved);
  return MEMEST_OK;
nomem:
  map_free(&m);
  return memi_err_set(r->err, MEMEST_E_NOMEM, "snapshot", "out of memory walking the trace");
}

/* Pass 2: the allocations live at the peak, with their alloc entries'
** frames found by walking on back from the peak. The map takes a live
** address to its allocation in r->rec. */
static memest_code walk_peak(snap_reader *r, memest_snapshot *s) {
  snap_map m = {NULL, NULL, 0, 0};
  int64_t i, n = 0, stop = s->sum.peak_event;
  uint64_t at;
  size_t k;
  for (i = 0; i < r->nrec; i++)
    if (!map_put(&m, r->rec[i].addr + 1, (uint64_t)i)) goto nomem;
  for (i = r->nev - 1; i > stop; i--) {
    const snap_event *e = &r->ev[i];
    if (e->action == A_ALLOC) {
      map_del(&m, e->addr + 1);
    } else if (e->action == A_FREE) {
      snap_live l;
      int64_t j;
      memset(&l, 0, sizeof l);
      l.addr = e->addr;
      l.bytes = round_block(e->size);
      l.requested = e->size;
      l.time_us = -1;
      l.frames = e->frames;  /* the free's frames until the alloc is found */
      l.before = 1;
      if ((j = add_record(r, &l)) < 0 || !map_put(&m, e->addr + 1, (uint64_t)j)) goto nomem;
    }
  }
  /* The most recent alloc at each live address before the peak is its own. */
  for (i = stop; i >= 0; i--) {
    const snap_event *e = &r->ev[i];
    if (e->action == A_ALLOC && map_get(&m, e->addr + 1, &at) && r->rec[at].before) {
      snap_live *l = &r->rec[at];
      l->before = 0;
      l->time_us = e->time_us;
      l->requested = e->size;
      if (memi_pk_len(r->pk, e->frames) > 0 || pk_kind_of(l->frames) != PK_LIST) l->frames = e->frames;
    }
  }
  /* The live ones, largest first. */
  for (k = 0; k < m.cap; k++)
    if (m.key[k] != 0) r->rec[m.val[k]].live = 1;
  map_free(&m);
  for (i = 0; i < r->nrec; i++)
    if (r->rec[i].live) r->rec[n++] = r->rec[i];
  r->nrec = n;
  if (n > 0) qsort(r->rec, (size_t)n, sizeof *r->rec, by_bytes_desc);
  for (i = 0; i < n; i++) {
    const snap_live *l = &r->rec[i];
    int slot = site_slot(r, s, list_site(r, l->frames));
    if (i < MEMEST_SNAPSHOT_TOP) {
      memest_snapshot_alloc *a = &s->top[s->ntop++];
      memset(a, 0, sizeof *a);
      a->bytes = (uint64_t)l->bytes;
      a->requested_bytes = (uint64_t)l->requested;
      a->address = l->addr;
      a->time_us = l->time_us;
      a->before_recording = l->before;
      fill_frames(r, l->frames, a);
    }
    if (slot >= 0) {
      /* Each block is below 2^63 bytes; many of them may not be. */
      if (s->sites[slot].bytes > UINT64_MAX - (uint64_t)l->bytes)
        return memi_err_set(r->err, MEMEST_E_OVERFLOW, "snapshot",
                            "the snapshot's blocks live at the peak add up past 2^64 bytes; the "
                            "file is damaged");
      s->sites[slot].bytes += (uint64_t)l->bytes;
      s->sites[slot].count++;
    }
  }
  qsort(s->sites, (size_t)s->nsites, sizeof s->sites[0], site_desc);
  if (r->oom) return memi_err_set(r->err, MEMEST_E_NOMEM, "snapshot", "out of memory");
  return MEMEST_OK;
nomem:
  map_free(&m);
  return memi_err_set(r->err, MEMEST_E_NOMEM, "snapshot", "out of memory walking the trace");
}
/* }====================================================================== */

memest_code memest_snapshot_read(const void *data, size_t len, memest_snapshot **out,
                                 memest_error *err) {
  pk_store *pk = NULL;
  snap_reader r;
  memest_snapshot *s;
  pk_value root, segs, traces;
  memest_code rc;
  *out = NULL;
  memi_err_clear(err);
  rc = memi_pk_load(data, len, &pk, err);
  if (rc != MEMEST_OK) return rc;
  memset(&r, 0, sizeof r);
  r.pk = pk;
  r.err = err;
  s = calloc(1, sizeof *s);
  if (s == NULL) {
    memi_pk_free(pk);
    return memi_err_set(err, MEMEST_E_NOMEM, "snapshot", "out of memory");
  }
  root = memi_pk_root(pk);
  if (pk_kind_of(root) != PK_DICT) {
    rc = not_snapshot(&r, "its top level is not a dict");
    goto done;
  }
  if (!member(&r, root, "segments", &segs) || pk_kind_of(segs) != PK_LIST) {
    rc = not_snapshot(&r, "it has no 'segments' list");
    goto done;
  }
  if (!member(&r, root, "device_traces", &traces) || pk_kind_of(traces) != PK_LIST) {
    rc = not_snapshot(&r, "it has no 'device_traces' list (dump it with "
                          "torch.cuda.memory._dump_snapshot() while recording history)");
    goto done;
  }
  r.marks = calloc((size_t)memi_pk_container_count(pk) + 1, 1);
  if (r.marks == NULL) {
    rc = memi_err_set(err, MEMEST_E_NOMEM, "snapshot", "out of memory");
    goto done;
  }
  rc = pick_device(&r, segs, traces);
  if (rc == MEMEST_OK) rc = read_segments(&r, segs);
  if (rc == MEMEST_OK) rc = read_trace(&r, traces);
  if (rc != MEMEST_OK) goto done;
  s->n = r.nev;
  s->after = malloc((size_t)(r.nev ? r.nev : 1) * sizeof *s->after);
  s->t_us = malloc((size_t)(r.nev ? r.nev : 1) * sizeof *s->t_us);
  if (s->after == NULL || s->t_us == NULL) {
    rc = memi_err_set(err, MEMEST_E_NOMEM, "snapshot", "out of memory");
    goto done;
  }
  s->sum.device = r.device;
  s->sum.events = r.nev;
  s->sum.segments = r.segments;
  s->sum.blocks = r.blocks;
  s->sum.end_allocated_bytes = (uint64_t)r.end_alloc;
  s->sum.end_reserved_bytes = (uint64_t)r.end_reserved;
  {
    pk_iter it;
    pk_value v;
    int64_t n = 0;
    memi_pk_iter_init(&it, pk, traces);
    while (next(&r, &it, &v)) n += memi_pk_len(pk, v) > 0;
    s->sum.devices_with_data = (int)(n ? n : 1);
  }
  rc = walk_curve(&r, s);
  if (rc == MEMEST_OK) rc = walk_peak(&r, s);
  if (rc != MEMEST_OK) goto done;
  s->sum.start_time_us = r.nev && r.ev[0].time_us >= 0 ? r.ev[0].time_us : -1;
  s->sum.end_time_us = r.nev && r.ev[r.nev - 1].time_us >= 0 ? r.ev[r.nev - 1].time_us : -1;
  s->sum.peak_time_us = s->sum.peak_event >= 0 && r.ev[s->sum.peak_event].time_us >= 0
                            ? r.ev[s->sum.peak_event].time_us
                            : s->sum.start_time_us;
  s->sum.fragmentation =
      s->sum.peak_allocated_bytes > 0 && s->sum.peak_reserved_bytes > s->sum.peak_allocated_bytes
          ? (double)s->sum.peak_reserved_bytes / (double)s->sum.peak_allocated_bytes - 1.0
          : 0.0;
  s->steps = r.steps;
done:
  free(r.ev);
  free(r.marks);
  free(r.rec);
  map_free(&r.lists);
  map_free(&r.texts);
  memi_pk_free(pk);
  if (rc != MEMEST_OK) {
    memest_snapshot_free(s);
    return rc;
  }
  *out = s;
  return MEMEST_OK;
}

void memest_snapshot_free(memest_snapshot *s) {
  if (s == NULL) return;
  free(s->after);
  free(s->t_us);
  free(s);
}

const memest_snapshot_summary *memest_snapshot_summary_of(const memest_snapshot *s) {
  return &s->sum;
}
int64_t memi_snapshot_steps(const memest_snapshot *s) { return s->steps; }
int memest_snapshot_top_count(const memest_snapshot *s) { return s->ntop; }
const memest_snapshot_alloc *memest_snapshot_top(const memest_snapshot *s, int i) {
  return i >= 0 && i < s->ntop ? &s->top[i] : NULL;
}
int memest_snapshot_site_count(const memest_snapshot *s) { return s->nsites; }
const memest_snapshot_site *memest_snapshot_site_at(const memest_snapshot *s, int i) {
  return i >= 0 && i < s->nsites ? &s->sites[i] : NULL;
}

/* State k of the window: 0 before the first entry, k after entry k-1. */
static int64_t state_bytes(const memest_snapshot *s, int64_t k) {
  return k == 0 ? (int64_t)s->sum.start_allocated_bytes : s->after[k - 1];
}
static int64_t state_time(const memest_snapshot *s, int64_t k) {
  return s->t_us[k == 0 ? 0 : k - 1];
}

int memest_snapshot_curve(const memest_snapshot *s, int points, int64_t *t_us, uint64_t *bytes) {
  int64_t n = s->n + 1, i;
  if (points < 2) points = 2;
  if (s->n == 0) {
    t_us[0] = 0;
    bytes[0] = s->sum.end_allocated_bytes;
    return 1;
  }
  if (n <= points) {
    for (i = 0; i < n; i++) {
      t_us[i] = state_time(s, i);
      bytes[i] = (uint64_t)state_bytes(s, i);
    }
    return (int)n;
  }
  /* Each point is the largest state of its stretch, at that state's time. */
  for (i = 0; i < points; i++) {
    int64_t lo = n * i / points, hi = n * (i + 1) / points, j, best = lo;
    for (j = lo; j < hi; j++)
      if (state_bytes(s, j) > state_bytes(s, best)) best = j;
    t_us[i] = state_time(s, best);
    bytes[i] = (uint64_t)state_bytes(s, best);
  }
  return points;
}
