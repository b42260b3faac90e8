/*
** pickle.c — the restricted unpickler: the opcodes CPython's pickle.dump
** writes (protocols 2 to 5) for dicts, lists, tuples, str, int, float, bool
** and None, with its memo, and nothing else. Any other opcode (GLOBAL,
** REDUCE, BUILD, bytes, sets, ...) is refused by name: nothing is ever
** imported or called. Containers may be shared (the memo) but never
** changed once used, so the values form no cycle. Bounds: the input is at
** most MEMEST_MAX_PICKLE_BYTES, the store at most MEMEST_MAX_PICKLE_VALUES
** 64-bit words, nesting at most MEMEST_MAX_PICKLE_DEPTH; every opcode is
** O(1) or linear in the items it moves, so reading is linear in the input.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured/pickle.h"

#define PK_PAGE_BITS 20                    /* 1 Mi words (8 MiB) a page */
#define PK_PAGE_WORDS ((uint64_t)1 << PK_PAGE_BITS)
#define PK_NO_CHUNK UINT32_MAX
#define PK_STR_LEN_BITS 31
#define PK_MAX_MARKS MEMEST_MAX_PICKLE_DEPTH

/* A container: its children are chunks in the pages, each chunk a header
** word (the next chunk's index in its high 32 bits, the count in the low
** 32) and `count` values. Word indices fit in 32 bits: the budget of
** MEMEST_MAX_PICKLE_VALUES words fills fewer than 2^9 pages of 2^20. */
typedef struct pk_box {
  uint32_t first, last;  /* chunk header indices, PK_NO_CHUNK when empty */
  uint32_t count;
  uint8_t kind;          /* PK_LIST, PK_DICT, PK_TUPLE */
  uint8_t sealed;        /* used as a value: no more children */
  uint8_t depth;         /* 1 + the deepest child's depth */
} pk_box;

struct pk_store {
  const uint8_t *data;
  size_t len;
  uint64_t **pages;
  size_t npages, pages_cap;
  uint64_t used;         /* words used in the last page */
  pk_box *boxes;
  size_t nbox, box_cap;
  int64_t *ints;
  size_t nints, int_cap;
  double *floats;
  size_t nfloats, float_cap;
  pk_value root;
  int64_t words;         /* 64-bit words held in all tables: the budget */
};

/* {======================================================================
** The store's tables
** ======================================================================= */

static int grow(void **p, size_t *cap, size_t n, size_t elem) {
  size_t nc;
  void *np;
  if (n < *cap) return 1;
  nc = *cap ? *cap * 2 : 64;
  if (nc > ((size_t)-1) / elem) return 0;
  np = realloc(*p, nc * elem);
  if (np == NULL) return 0;
  *p = np;
  *cap = nc;
  return 1;
}

static uint64_t *word_at(const pk_store *s, uint64_t i) {
  return &s->pages[i >> PK_PAGE_BITS][i & (PK_PAGE_WORDS - 1)];
}

/* Reserves n contiguous words (n <= PK_PAGE_WORDS); returns their index. */
static int reserve_words(pk_store *s, uint64_t n, uint64_t *at) {
  if (s->npages == 0 || s->used + n > PK_PAGE_WORDS) {
    uint64_t *page;
    /* Chunk indices are 32 bits; the budget never comes near. */
    if (s->npages + 1 >= ((size_t)1 << (32 - PK_PAGE_BITS))) return 0;
    if (!grow((void **)&s->pages, &s->pages_cap, s->npages, sizeof *s->pages)) return 0;
    page = malloc(PK_PAGE_WORDS * sizeof *page);
    if (page == NULL) return 0;
    s->pages[s->npages++] = page;
    s->used = 0;
  }
  *at = ((uint64_t)(s->npages - 1) << PK_PAGE_BITS) | s->used;
  s->used += n;
  return 1;
}

static uint32_t chunk_count(const pk_store *s, uint64_t at) {
  return (uint32_t)(*word_at(s, at) & 0xffffffffu);
}
static uint32_t chunk_next(const pk_store *s, uint64_t at) {
  return (uint32_t)(*word_at(s, at) >> 32);
}
static void chunk_set(pk_store *s, uint64_t at, uint32_t next, uint64_t count) {
  *word_at(s, at) = (uint64_t)next << 32 | count;
}

static uint64_t end_index(const pk_store *s) {
  return s->npages ? ((uint64_t)(s->npages - 1) << PK_PAGE_BITS) | s->used : 0;
}

void memi_pk_free(pk_store *s) {
  size_t i;
  if (s == NULL) return;
  for (i = 0; i < s->npages; i++) free(s->pages[i]);
  free(s->pages);
  free(s->boxes);
  free(s->ints);
  free(s->floats);
  free(s);
}

pk_value memi_pk_root(const pk_store *s) { return s->root; }
int64_t memi_pk_value_count(const pk_store *s) { return s->words; }
int64_t memi_pk_container_count(const pk_store *s) { return (int64_t)s->nbox; }
/* }====================================================================== */

/* {======================================================================
** The machine: a stack of values, a stack of marks and the memo
** ======================================================================= */
typedef struct pk_machine {
  pk_store *s;
  memest_error *err;
  const uint8_t *p, *end;
  pk_value *stack;
  size_t sp, stack_cap;
  size_t marks[PK_MAX_MARKS];
  int nmarks;
  pk_value *memo;
  size_t nmemo, memo_cap;
  size_t op_at;          /* offset of the opcode being run */
} pk_machine;

static memest_code nomem(pk_machine *m) {
  return memi_err_set(m->err, MEMEST_E_NOMEM, "snapshot",
                 "out of memory reading the snapshot pickle (%lld values so far)",
                 (long long)m->s->words);
}

static memest_code over_budget(pk_machine *m) {
  return memi_err_set(m->err, MEMEST_E_LIMIT, "snapshot",
                 "the snapshot pickle holds more than MEMEST_MAX_PICKLE_VALUES (%lld) values; "
                 "record fewer steps or fewer entries (_record_memory_history max_entries)",
                 (long long)MEMEST_MAX_PICKLE_VALUES);
}

static memest_code malformed(pk_machine *m, const char *what) {
  return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                 "the snapshot pickle is malformed at byte %zu: %s; write it again with "
                 "torch.cuda.memory._dump_snapshot()",
                 m->op_at, what);
}

static int spend(pk_machine *m, int64_t words) {
  if (m->s->words > MEMEST_MAX_PICKLE_VALUES - words) return 0;
  m->s->words += words;
  return 1;
}

static memest_code push(pk_machine *m, pk_value v) {
  if (m->sp == m->stack_cap) {
    if (!spend(m, (int64_t)(m->stack_cap ? m->stack_cap : 64))) return over_budget(m);
    if (!grow((void **)&m->stack, &m->stack_cap, m->sp, sizeof *m->stack)) return nomem(m);
  }
  m->stack[m->sp++] = v;
  return MEMEST_OK;
}

static pk_value make(pk_kind k, uint64_t payload) { return (payload << 3) | (uint64_t)k; }
static uint64_t payload_of(pk_value v) { return v >> 3; }

static int is_box(pk_value v) { return pk_kind_of(v) >= PK_LIST; }
static pk_box *box_of(const pk_store *s, pk_value v) { return &s->boxes[payload_of(v)]; }

static memest_code new_box(pk_machine *m, pk_kind kind, pk_value *out) {
  pk_store *s = m->s;
  pk_box *b;
  if (!spend(m, 2)) return over_budget(m);
  if (!grow((void **)&s->boxes, &s->box_cap, s->nbox, sizeof *s->boxes)) return nomem(m);
  b = &s->boxes[s->nbox];
  b->first = b->last = PK_NO_CHUNK;
  b->count = 0;
  b->kind = (uint8_t)kind;
  b->sealed = 0;
  b->depth = 1;
  *out = make(kind, s->nbox++);
  return MEMEST_OK;
}

static int depth_of(const pk_store *s, pk_value v) {
  return is_box(v) ? box_of(s, v)->depth : 0;
}

/* Appends the stack's values [from, sp) to container c, sealing each
** container among them. */
static memest_code box_append(pk_machine *m, pk_value c, size_t from) {
  pk_store *s = m->s;
  pk_box *b = box_of(s, c);
  size_t i = 0, n = m->sp - from;
  const pk_value *vals;
  if (n == 0) return MEMEST_OK;  /* the stack may not exist yet */
  vals = m->stack + from;
  for (i = 0; i < n; i++) {
    int d = depth_of(s, vals[i]);
    if (is_box(vals[i])) box_of(s, vals[i])->sealed = 1;
    if (d + 1 > b->depth) {
      if (d + 1 > MEMEST_MAX_PICKLE_DEPTH)
        return memi_err_set(m->err, MEMEST_E_LIMIT, "snapshot",
                       "the snapshot pickle nests containers deeper than "
                       "MEMEST_MAX_PICKLE_DEPTH (%d) at byte %zu; a snapshot nests 6 deep",
                       MEMEST_MAX_PICKLE_DEPTH, m->op_at);
      b->depth = (uint8_t)(d + 1);
    }
  }
  i = 0;
  while (i < n) {
    uint64_t at, room;
    /* Extend the last chunk in place when it ends where the pages end. */
    if (b->last != PK_NO_CHUNK) {
      uint64_t cnt = chunk_count(s, b->last);
      uint64_t tail = b->last + 1 + cnt;
      if (tail == end_index(s) && s->used < PK_PAGE_WORDS) {
        room = PK_PAGE_WORDS - s->used;
        if (room > n - i) room = n - i;
        if (!spend(m, (int64_t)room)) return over_budget(m);
        memcpy(word_at(s, tail), vals + i, room * sizeof *vals);
        s->used += room;
        chunk_set(s, b->last, PK_NO_CHUNK, cnt + room);
        b->count += (uint32_t)room;
        i += room;
        continue;
      }
    }
    room = n - i;
    if (room > PK_PAGE_WORDS - 1) room = PK_PAGE_WORDS - 1;
    if (!spend(m, (int64_t)room + 1)) return over_budget(m);
    if (!reserve_words(s, room + 1, &at)) return nomem(m);
    chunk_set(s, at, PK_NO_CHUNK, room);
    memcpy(word_at(s, at + 1), vals + i, room * sizeof *vals);
    if (b->last == PK_NO_CHUNK) b->first = (uint32_t)at;
    else chunk_set(s, b->last, (uint32_t)at, chunk_count(s, b->last));
    b->last = (uint32_t)at;
    b->count += (uint32_t)room;
    i += room;
  }
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Opcodes
** ======================================================================= */

/* Names of the opcodes refused, so that a message can say which. */
static const char *refused_name(uint8_t op) {
  switch (op) {
    case 'c': return "GLOBAL (imports a Python name)";
    case 0x93: return "STACK_GLOBAL (imports a Python name)";
    case 'R': return "REDUCE (calls a Python object)";
    case 'b': return "BUILD (sets an object's state)";
    case 'i': return "INST (builds an object)";
    case 'o': return "OBJ (builds an object)";
    case 0x81: return "NEWOBJ (builds an object)";
    case 0x92: return "NEWOBJ_EX (builds an object)";
    case 0x82: return "EXT1 (imports a registered name)";
    case 0x83: return "EXT2 (imports a registered name)";
    case 0x84: return "EXT4 (imports a registered name)";
    case 'P': return "PERSID (a persistent reference)";
    case 'Q': return "BINPERSID (a persistent reference)";
    case 'B': return "BINBYTES (bytes)";
    case 'C': return "SHORT_BINBYTES (bytes)";
    case 0x8e: return "BINBYTES8 (bytes)";
    case 0x96: return "BYTEARRAY8 (a bytearray)";
    case 0x97: return "NEXT_BUFFER (an out-of-band buffer)";
    case 0x98: return "READONLY_BUFFER (an out-of-band buffer)";
    case 0x8f: return "EMPTY_SET (a set)";
    case 0x90: return "ADDITEMS (a set)";
    case 0x91: return "FROZENSET (a frozenset)";
    case '2': return "DUP";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case 'I': return "INT (protocol 0 text)";
    case 'L': return "LONG (protocol 0 text)";
    case 'S': return "STRING (protocol 0 text)";
    case 'T': return "BINSTRING (a Python 2 str)";
    case 'U': return "SHORT_BINSTRING (a Python 2 str)";
    case 'V': return "UNICODE (protocol 0 text)";
    case 'F': return "FLOAT (protocol 0 text)";
    case 'p': return "PUT (protocol 0 memo)";
    case 'g': return "GET (protocol 0 memo)";
    case 'd': return "DICT (protocol 0)";
    case 'l': return "LIST (protocol 0)";
    default: return NULL;
  }
}

static memest_code refuse(pk_machine *m, uint8_t op) {
  const char *name = refused_name(op);
  if (name == NULL)
    return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                   "byte %zu of the snapshot pickle is 0x%02x, which is no pickle opcode; "
                   "is this a snapshot written by torch.cuda.memory._dump_snapshot()?",
                   m->op_at, op);
  return memi_err_set(m->err, MEMEST_E_UNSUPPORTED, "snapshot",
                 "the snapshot pickle uses opcode %s at byte %zu; memest reads only the "
                 "dicts, lists, tuples, strings, numbers, booleans and None of a "
                 "torch.cuda.memory._snapshot() and never imports or calls anything",
                 name, m->op_at);
}

/* Reads n bytes of operand; 0 when the data ends first. */
static int take(pk_machine *m, size_t n, const uint8_t **at) {
  if ((size_t)(m->end - m->p) < n) return 0;
  *at = m->p;
  m->p += n;
  return 1;
}

static uint64_t le(const uint8_t *b, int n) {
  uint64_t v = 0;
  int i;
  for (i = n - 1; i >= 0; i--) v = (v << 8) | b[i];
  return v;
}

static memest_code truncated(pk_machine *m) {
  return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                 "the snapshot pickle ends inside the opcode at byte %zu (%zu bytes read): "
                 "the file is truncated; copy it again whole",
                 m->op_at, m->s->len);
}

static memest_code push_int(pk_machine *m, int64_t v) {
  pk_store *s = m->s;
  if (v >= -((int64_t)1 << 60) && v < ((int64_t)1 << 60))
    return push(m, make(PK_INT, (uint64_t)v & (((uint64_t)1 << 61) - 1)));
  if (!spend(m, 1)) return over_budget(m);
  if (!grow((void **)&s->ints, &s->int_cap, s->nints, sizeof *s->ints)) return nomem(m);
  s->ints[s->nints] = v;
  return push(m, make(PK_BIGINT, s->nints++));
}

static memest_code op_long(pk_machine *m, size_t n) {
  const uint8_t *b;
  uint64_t u;
  int64_t v;
  if (n > 8)
    return memi_err_set(m->err, MEMEST_E_LIMIT, "snapshot",
                   "the snapshot pickle has an integer of %zu bytes at byte %zu; memest reads "
                   "integers of up to 64 bits",
                   n, m->op_at);
  if (!take(m, n, &b)) return truncated(m);
  if (n == 0) return push_int(m, 0);
  u = le(b, (int)n);
  if (n < 8 && (b[n - 1] & 0x80)) u |= ~(uint64_t)0 << (8 * n);  /* sign-extend */
  memcpy(&v, &u, sizeof v);
  return push_int(m, v);
}

static memest_code op_str(pk_machine *m, uint64_t n) {
  const uint8_t *b;
  size_t off;
  if (n > (uint64_t)(m->end - m->p))
    return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                   "the snapshot pickle declares a string of %llu bytes at byte %zu, but only "
                   "%zu bytes follow: the file is truncated or not a pickle",
                   (unsigned long long)n, m->op_at, (size_t)(m->end - m->p));
  if (n >= ((uint64_t)1 << PK_STR_LEN_BITS))
    return memi_err_set(m->err, MEMEST_E_LIMIT, "snapshot",
                   "the snapshot pickle has a string of %llu bytes at byte %zu; memest reads "
                   "strings of up to 2 GiB",
                   (unsigned long long)n, m->op_at);
  take(m, (size_t)n, &b);
  off = (size_t)(b - m->s->data);
  return push(m, make(PK_STR, ((uint64_t)off << PK_STR_LEN_BITS) | n));
}

static memest_code op_float(pk_machine *m) {
  pk_store *s = m->s;
  const uint8_t *b;
  uint64_t u = 0;
  double d;
  int i;
  if (!take(m, 8, &b)) return truncated(m);
  for (i = 0; i < 8; i++) u = (u << 8) | b[i];  /* big-endian */
  memcpy(&d, &u, sizeof d);
  if (!spend(m, 1)) return over_budget(m);
  if (!grow((void **)&s->floats, &s->float_cap, s->nfloats, sizeof *s->floats)) return nomem(m);
  s->floats[s->nfloats] = d;
  return push(m, make(PK_FLOAT, s->nfloats++));
}

static memest_code memo_put(pk_machine *m, uint64_t idx) {
  if (m->sp == 0) return malformed(m, "a memo store with an empty stack");
  if (idx > m->nmemo)
    return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                   "the snapshot pickle stores memo entry %llu at byte %zu after only %zu "
                   "entries; pickle.dump numbers them in order",
                   (unsigned long long)idx, m->op_at, m->nmemo);
  if (idx == m->nmemo) {
    if (m->nmemo == m->memo_cap && !spend(m, (int64_t)(m->memo_cap ? m->memo_cap : 64)))
      return over_budget(m);
    if (!grow((void **)&m->memo, &m->memo_cap, m->nmemo, sizeof *m->memo)) return nomem(m);
    m->nmemo++;
  }
  m->memo[idx] = m->stack[m->sp - 1];
  return MEMEST_OK;
}

static memest_code memo_get(pk_machine *m, uint64_t idx) {
  pk_value v;
  if (idx >= m->nmemo)
    return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                   "the snapshot pickle reads memo entry %llu at byte %zu, which was never "
                   "stored",
                   (unsigned long long)idx, m->op_at);
  v = m->memo[idx];
  if (is_box(v)) box_of(m->s, v)->sealed = 1;  /* shared from now on */
  return push(m, v);
}

static memest_code op_mark(pk_machine *m) {
  if (m->nmarks == PK_MAX_MARKS)
    return memi_err_set(m->err, MEMEST_E_LIMIT, "snapshot",
                   "the snapshot pickle opens more than MEMEST_MAX_PICKLE_DEPTH (%d) marks at "
                   "byte %zu; a snapshot nests 6 deep",
                   PK_MAX_MARKS, m->op_at);
  m->marks[m->nmarks++] = m->sp;
  return MEMEST_OK;
}

static int pop_mark(pk_machine *m, size_t *at) {
  if (m->nmarks == 0) return 0;
  *at = m->marks[--m->nmarks];
  return 1;
}

/* The container under items [from, sp): checks it may take them. */
static memest_code target(pk_machine *m, size_t from, pk_kind want, const char *op,
                          pk_value *c) {
  char what[96];
  if (from == 0) {
    snprintf(what, sizeof what, "%s with no container under its items", op);
    return malformed(m, what);
  }
  *c = m->stack[from - 1];
  if (pk_kind_of(*c) != want) {
    snprintf(what, sizeof what, "%s on something that is not a %s", op,
             want == PK_LIST ? "list" : "dict");
    return malformed(m, what);
  }
  if (box_of(m->s, *c)->sealed)
    return memi_err_set(m->err, MEMEST_E_UNSUPPORTED, "snapshot",
                   "the snapshot pickle changes a container after using it (byte %zu): a "
                   "recursive or self-referencing structure, which a snapshot never holds",
                   m->op_at);
  return MEMEST_OK;
}

static memest_code op_appends(pk_machine *m, size_t from, const char *op) {
  pk_value c = PK_NONE;
  memest_code rc = target(m, from, PK_LIST, op, &c);
  if (rc != MEMEST_OK) return rc;
  rc = box_append(m, c, from);
  m->sp = from;
  return rc;
}

static memest_code op_setitems(pk_machine *m, size_t from, const char *op) {
  pk_value c = PK_NONE;
  size_t i;
  memest_code rc = target(m, from, PK_DICT, op, &c);
  if (rc != MEMEST_OK) return rc;
  if ((m->sp - from) % 2 != 0) return malformed(m, "a dict update with a key and no value");
  for (i = from; i < m->sp; i += 2) {
    pk_kind k = pk_kind_of(m->stack[i]);
    if (k == PK_LIST || k == PK_DICT)
      return malformed(m, "a dict key that is a list or dict (unhashable in Python)");
  }
  rc = box_append(m, c, from);
  m->sp = from;
  return rc;
}

static memest_code op_tuple(pk_machine *m, size_t from) {
  pk_value t = PK_NONE;
  memest_code rc = new_box(m, PK_TUPLE, &t);
  if (rc != MEMEST_OK) return rc;
  rc = box_append(m, t, from);
  if (rc != MEMEST_OK) return rc;
  m->sp = from;
  return push(m, t);
}

/* Runs one opcode; *done is set at STOP. */
static memest_code step(pk_machine *m, int *done) {
  const uint8_t *b;
  uint8_t op;
  size_t from;
  pk_value v;
  memest_code rc;
  m->op_at = (size_t)(m->p - m->s->data);
  op = *m->p++;
  switch (op) {
    case 0x80: /* PROTO */
      if (!take(m, 1, &b)) return truncated(m);
      if (b[0] < 2 || b[0] > 5)
        return memi_err_set(m->err, MEMEST_E_UNSUPPORTED, "snapshot",
                       "the snapshot pickle is protocol %d; memest reads protocols 2 to 5, "
                       "which pickle.dump writes",
                       b[0]);
      return MEMEST_OK;
    case 0x95: /* FRAME: a length hint; the opcodes inside are read as usual */
      if (!take(m, 8, &b)) return truncated(m);
      if (le(b, 8) > (uint64_t)(m->end - m->p))
        return memi_err_set(m->err, MEMEST_E_VALUE, "snapshot",
                       "the snapshot pickle declares a frame of %llu bytes at byte %zu, but "
                       "only %zu bytes follow: the file is truncated",
                       (unsigned long long)le(b, 8), m->op_at, (size_t)(m->end - m->p));
      return MEMEST_OK;
    case '.': /* STOP */
      if (m->sp != 1 || m->nmarks != 0) return malformed(m, "STOP with other than one value left");
      *done = 1;
      return MEMEST_OK;
    case '(': return op_mark(m);
    case 'N': return push(m, make(PK_SPECIAL, 0));
    case 0x89: return push(m, make(PK_SPECIAL, 1)); /* NEWFALSE */
    case 0x88: return push(m, make(PK_SPECIAL, 2)); /* NEWTRUE */
    case 'K': /* BININT1 */
      if (!take(m, 1, &b)) return truncated(m);
      return push_int(m, b[0]);
    case 'M': /* BININT2 */
      if (!take(m, 2, &b)) return truncated(m);
      return push_int(m, (int64_t)le(b, 2));
    case 'J': { /* BININT: signed 32-bit */
      uint32_t u;
      int32_t i32;
      if (!take(m, 4, &b)) return truncated(m);
      u = (uint32_t)le(b, 4);
      memcpy(&i32, &u, sizeof i32);
      return push_int(m, i32);
    }
    case 0x8a: /* LONG1 */
      if (!take(m, 1, &b)) return truncated(m);
      return op_long(m, b[0]);
    case 0x8b: /* LONG4 */
      if (!take(m, 4, &b)) return truncated(m);
      if (le(b, 4) & 0x80000000u) return malformed(m, "a LONG4 with a negative length");
      return op_long(m, (size_t)le(b, 4));
    case 'G': return op_float(m); /* BINFLOAT */
    case 0x8c: /* SHORT_BINUNICODE */
      if (!take(m, 1, &b)) return truncated(m);
      return op_str(m, b[0]);
    case 'X': /* BINUNICODE */
      if (!take(m, 4, &b)) return truncated(m);
      return op_str(m, le(b, 4));
    case 0x8d: /* BINUNICODE8 */
      if (!take(m, 8, &b)) return truncated(m);
      return op_str(m, le(b, 8));
    case ']': /* EMPTY_LIST */
      rc = new_box(m, PK_LIST, &v);
      return rc != MEMEST_OK ? rc : push(m, v);
    case '}': /* EMPTY_DICT */
      rc = new_box(m, PK_DICT, &v);
      return rc != MEMEST_OK ? rc : push(m, v);
    case ')': /* EMPTY_TUPLE */
      rc = new_box(m, PK_TUPLE, &v);
      if (rc == MEMEST_OK) box_of(m->s, v)->sealed = 1;
      return rc != MEMEST_OK ? rc : push(m, v);
    case 0x85: case 0x86: case 0x87: { /* TUPLE1, TUPLE2, TUPLE3 */
      size_t n = (size_t)(op - 0x84);
      if (m->sp < n || (m->nmarks && m->marks[m->nmarks - 1] > m->sp - n))
        return malformed(m, "a tuple of more items than the stack holds");
      rc = op_tuple(m, m->sp - n);
      if (rc == MEMEST_OK) box_of(m->s, m->stack[m->sp - 1])->sealed = 1;
      return rc;
    }
    case 't': /* TUPLE */
      if (!pop_mark(m, &from)) return malformed(m, "TUPLE without a mark");
      rc = op_tuple(m, from);
      if (rc == MEMEST_OK) box_of(m->s, m->stack[m->sp - 1])->sealed = 1;
      return rc;
    case 'a': /* APPEND */
      if (m->sp < 1 || (m->nmarks && m->marks[m->nmarks - 1] > m->sp - 1))
        return malformed(m, "APPEND with nothing to append");
      return op_appends(m, m->sp - 1, "APPEND");
    case 'e': /* APPENDS */
      if (!pop_mark(m, &from)) return malformed(m, "APPENDS without a mark");
      return op_appends(m, from, "APPENDS");
    case 's': /* SETITEM */
      if (m->sp < 2 || (m->nmarks && m->marks[m->nmarks - 1] > m->sp - 2))
        return malformed(m, "SETITEM without a key and a value");
      return op_setitems(m, m->sp - 2, "SETITEM");
    case 'u': /* SETITEMS */
      if (!pop_mark(m, &from)) return malformed(m, "SETITEMS without a mark");
      return op_setitems(m, from, "SETITEMS");
    case 0x94: return memo_put(m, m->nmemo); /* MEMOIZE */
    case 'q': /* BINPUT */
      if (!take(m, 1, &b)) return truncated(m);
      return memo_put(m, b[0]);
    case 'r': /* LONG_BINPUT */
      if (!take(m, 4, &b)) return truncated(m);
      return memo_put(m, le(b, 4));
    case 'h': /* BINGET */
      if (!take(m, 1, &b)) return truncated(m);
      return memo_get(m, b[0]);
    case 'j': /* LONG_BINGET */
      if (!take(m, 4, &b)) return truncated(m);
      return memo_get(m, le(b, 4));
    default:
      return refuse(m, op);
  }
}

memest_code memi_pk_load(const uint8_t *data, size_t len, pk_store **out, memest_error *err) {
  pk_machine m;
  pk_store *s;
  memest_code rc = MEMEST_OK;
  int done = 0;
  *out = NULL;
  if (len > (uint64_t)MEMEST_MAX_PICKLE_BYTES)
    return memi_err_set(err, MEMEST_E_LIMIT, "snapshot",
                   "the snapshot is %zu bytes, over MEMEST_MAX_PICKLE_BYTES (%lld); record "
                   "one step (memory_profile_stop = memory_profile_start + 1)",
                   len, (long long)MEMEST_MAX_PICKLE_BYTES);
  if (len == 0 || data == NULL)
    return memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                   "the snapshot is empty; give a snapshot-rankNNNNN.pickle file");
  if (data[0] != 0x80)
    return memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                   "the file does not start like a pickle of protocol 2 or later (first byte "
                   "0x%02x); give a snapshot written by torch.cuda.memory._dump_snapshot()",
                   data[0]);
  s = calloc(1, sizeof *s);
  if (s == NULL) return memi_err_set(err, MEMEST_E_NOMEM, "snapshot", "out of memory");
  s->data = data;
  s->len = len;
  memset(&m, 0, sizeof m);
  m.s = s;
  m.err = err;
  m.p = data;
  m.end = data + len;
  while (!done && rc == MEMEST_OK) {
    if (m.p == m.end) {
      rc = memi_err_set(err, MEMEST_E_VALUE, "snapshot",
                   "the snapshot pickle ends after %zu bytes without its STOP opcode: the "
                   "file is truncated; copy it again whole",
                   len);
      break;
    }
    rc = step(&m, &done);
  }
  if (rc == MEMEST_OK) s->root = m.stack[0];
  free(m.stack);
  free(m.memo);
  if (rc != MEMEST_OK) {
    memi_pk_free(s);
    return rc;
  }
  *out = s;
  return MEMEST_OK;
}
/* }====================================================================== */

/* {======================================================================
** Reading values
** ======================================================================= */

int64_t memi_pk_int(const pk_store *s, pk_value v, int *ok) {
  *ok = 1;
  switch (pk_kind_of(v)) {
    case PK_INT: {
      uint64_t p = payload_of(v);
      if (p & ((uint64_t)1 << 60)) p |= ~(((uint64_t)1 << 61) - 1);  /* sign-extend */
      {
        int64_t r;
        memcpy(&r, &p, sizeof r);
        return r;
      }
    }
    case PK_BIGINT: return s->ints[payload_of(v)];
    case PK_SPECIAL:
      if (payload_of(v) >= 1) return (int64_t)payload_of(v) - 1;  /* False 0, True 1 */
      break;
    default: break;
  }
  *ok = 0;
  return 0;
}

double memi_pk_number(const pk_store *s, pk_value v, int *ok) {
  if (pk_kind_of(v) == PK_FLOAT) {
    *ok = 1;
    return s->floats[payload_of(v)];
  }
  return (double)memi_pk_int(s, v, ok);
}

const char *memi_pk_str(const pk_store *s, pk_value v, size_t *len) {
  uint64_t p;
  if (pk_kind_of(v) != PK_STR) return NULL;
  p = payload_of(v);
  *len = (size_t)(p & (((uint64_t)1 << PK_STR_LEN_BITS) - 1));
  return (const char *)s->data + (p >> PK_STR_LEN_BITS);
}

int memi_pk_str_is(const pk_store *s, pk_value v, const char *text) {
  size_t n, tn = strlen(text);
  const char *z = memi_pk_str(s, v, &n);
  return z != NULL && n == tn && memcmp(z, text, n) == 0;
}

int64_t memi_pk_len(const pk_store *s, pk_value v) {
  return is_box(v) ? box_of(s, v)->count : 0;
}

void memi_pk_iter_init(pk_iter *it, const pk_store *s, pk_value container) {
  it->s = s;
  it->chunk = is_box(container) ? box_of(s, container)->first : PK_NO_CHUNK;
  it->pos = 0;
  it->left = it->chunk == PK_NO_CHUNK ? 0 : chunk_count(s, it->chunk);
}

int memi_pk_iter_next(pk_iter *it, pk_value *v) {
  while (it->left == 0) {
    if (it->chunk == PK_NO_CHUNK) return 0;
    it->chunk = chunk_next(it->s, it->chunk);
    if (it->chunk == PK_NO_CHUNK) return 0;
    it->pos = 0;
    it->left = chunk_count(it->s, it->chunk);
  }
  *v = *word_at(it->s, it->chunk + 1 + it->pos);
  it->pos++;
  it->left--;
  return 1;
}

int memi_pk_dict_get(const pk_store *s, pk_value dict, const char *key, pk_value *v) {
  pk_iter it;
  pk_value k, val;
  int found = 0;
  if (pk_kind_of(dict) != PK_DICT) return 0;
  memi_pk_iter_init(&it, s, dict);
  while (memi_pk_iter_next(&it, &k) && memi_pk_iter_next(&it, &val)) {
    if (memi_pk_str_is(s, k, key)) {  /* the last one wins, as in Python */
      *v = val;
      found = 1;
    }
  }
  return found;
}
/* }====================================================================== */
