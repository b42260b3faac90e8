/*
** pickle.h — the restricted unpickler (pickle.c): a Python pickle of
** dicts, lists, tuples, str, int, float, bool and None, read into a compact
** value store without importing or calling anything. snapshot.c reads a
** torch.cuda.memory._snapshot() with it; docs/measured-runs.md states what
** it accepts and its limits.
**
** A value is 64 bits: a 3-bit kind and a payload. Strings point into the
** caller's bytes (which must outlive the store); containers index a table
** whose children sit in pages of values, so a 200 MB pickle costs about
** 8 bytes per value read plus the bytes themselves.
*/
#ifndef MEMEST_PICKLE_H
#define MEMEST_PICKLE_H

#include <stddef.h>
#include <stdint.h>

#include "base/internal.h"

typedef uint64_t pk_value;

typedef enum pk_kind {
  PK_SPECIAL = 0,  /* payload 0 None, 1 False, 2 True */
  PK_INT = 1,      /* payload: a signed 61-bit integer */
  PK_BIGINT = 2,   /* payload: index of a 64-bit integer in the store */
  PK_FLOAT = 3,    /* payload: index of a double in the store */
  PK_STR = 4,      /* payload: offset (30 bits) and length (31 bits) */
  PK_LIST = 5,     /* payload: container index */
  PK_DICT = 6,     /* payload: container index; children are key, value */
  PK_TUPLE = 7     /* payload: container index */
} pk_kind;

#define PK_NONE ((pk_value)0)

typedef struct pk_store pk_store;

/* Reads the pickle data[0..len). On success *out owns a store to free with
** memi_pk_free(); `data` must stay alive as long as the store. Errors:
** MEMEST_E_UNSUPPORTED for an opcode outside the accepted set (named in the
** message), MEMEST_E_VALUE for malformed or truncated data, MEMEST_E_LIMIT
** for a limit of bounds.h, MEMEST_E_NOMEM. */
MEMEST_HIDDEN memest_code memi_pk_load(const uint8_t *data, size_t len, pk_store **out,
                                  memest_error *err);
MEMEST_HIDDEN void memi_pk_free(pk_store *s);
MEMEST_HIDDEN pk_value memi_pk_root(const pk_store *s);
/* Values read, opcodes executed (for the limits' documentation). */
MEMEST_HIDDEN int64_t memi_pk_value_count(const pk_store *s);

static inline pk_kind pk_kind_of(pk_value v) { return (pk_kind)(v & 7u); }
/* Containers read, and a container's index among them (0..count-1): its
** identity, the same for every memo reference to it. */
MEMEST_HIDDEN int64_t memi_pk_container_count(const pk_store *s);
static inline uint64_t pk_container_index(pk_value v) { return v >> 3; }

/* The integer in v (PK_INT, PK_BIGINT or a bool); 0 with *ok = 0 otherwise. */
MEMEST_HIDDEN int64_t memi_pk_int(const pk_store *s, pk_value v, int *ok);
/* The number in v (an int or a float); 0 with *ok = 0 otherwise. */
MEMEST_HIDDEN double memi_pk_number(const pk_store *s, pk_value v, int *ok);
/* The bytes of a PK_STR (not NUL-terminated); NULL for other kinds. */
MEMEST_HIDDEN const char *memi_pk_str(const pk_store *s, pk_value v, size_t *len);
/* 1 when v is a PK_STR equal to the NUL-terminated `text`. */
MEMEST_HIDDEN int memi_pk_str_is(const pk_store *s, pk_value v, const char *text);

/* Children of a container: count, and an iterator over them in order. */
MEMEST_HIDDEN int64_t memi_pk_len(const pk_store *s, pk_value v);
typedef struct pk_iter {
  const pk_store *s;
  uint64_t chunk;   /* word index of the current chunk header, or UINT32_MAX */
  uint32_t pos, left;
} pk_iter;
MEMEST_HIDDEN void memi_pk_iter_init(pk_iter *it, const pk_store *s, pk_value container);
/* Next child into *v; 0 at the end. */
MEMEST_HIDDEN int memi_pk_iter_next(pk_iter *it, pk_value *v);
/* The value under the string key `key` of a PK_DICT; 0 when absent. */
MEMEST_HIDDEN int memi_pk_dict_get(const pk_store *s, pk_value dict, const char *key, pk_value *v);

/* snapshot.c: the children and members a snapshot's reading looked at
** (its work beyond the unpickler's; docs/measured-runs.md bounds it by the
** file's size). */
MEMEST_HIDDEN int64_t memi_snapshot_steps(const memest_snapshot *s);

#endif /* MEMEST_PICKLE_H */
