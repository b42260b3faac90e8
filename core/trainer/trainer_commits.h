/*
** trainer_commits.h — memest's list of the trainer's commits and of those
** that changed memory (trainer_commits.c), for source_report.c.
*/
#ifndef MEMEST_TRAINER_COMMITS_H
#define MEMEST_TRAINER_COMMITS_H

#include "base/internal.h"

typedef struct trainer_commit {
  const char *hash;   /* 40 hex digits */
  const char *date;   /* YYYY-MM-DD, the author date */
} trainer_commit;

/* What a run before a memory change differs by, and how it is sized. */
typedef enum change_kind {
  CH_NOTE = 0,          /* no size at a layout: the text says what is known */
  CH_GPTOSS,            /* a note for gpt-oss models only */
  CH_DEFERRAL,          /* no deferred expert wgrads: memest's deferral terms named */
  CH_DEFERRAL_GPTOSS,   /* the same, gpt-oss only */
  CH_FP8_GPTOSS,        /* FP8 gpt-oss runs only */
  CH_CP,                /* context-parallel runs only */
  CH_NO_HSDP,           /* the run cannot be HSDP */
  CH_NO_MUON,           /* the run cannot use Muon */
  CH_NO_BENCHMARK,      /* the run cannot route force-balanced */
  CH_ROTARY_NATIVE,     /* fp32 tables of max_position_embeddings, one pair per module */
  CH_ROUTER_INPUT,      /* the router's input kept: m x H bf16 per MoE layer per chunk */
  CH_ROTARY_FP32        /* fp32 tables of the sequence length, one shared pair */
} change_kind;

typedef struct memory_change {
  const char *commit;   /* the short hash it is known by */
  change_kind kind;
  const char *what;     /* what the commit changed */
  const char *before;   /* what a run before it holds or does instead */
} memory_change;

MEMEST_HIDDEN int memi_commit_count(void);
MEMEST_HIDDEN const trainer_commit *memi_commit_at(int i);
/* The index of the one commit whose hash begins with prefix; -1 when none
** or several do (*matches says how many). */
MEMEST_HIDDEN int memi_commit_find(const char *prefix, int *matches);
MEMEST_HIDDEN int memi_memory_change_count(void);
MEMEST_HIDDEN const memory_change *memi_memory_change_at(int i);

#endif /* MEMEST_TRAINER_COMMITS_H */
