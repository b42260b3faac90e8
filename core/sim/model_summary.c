/*
** model_summary.c — what the config was read as: total and active
** parameters, layers by kind, experts, shared experts and top-k, the keys
** read, defaulted and ignored, and the warning about a sequence longer than
** the model's positions. Both counts are the config's model's: a tied
** lm_head counts once, though the trainer builds it apart (the memory
** holds both). Active parameters count what one token passes through:
** embeddings, lm_head and norms, attention, routers, dense MLPs, shared
** experts and top_k of the routed experts (the convention of Qwen's
** "A3B"-style figures); and the same without the input embedding, as
** other publishers count (docs/architectures/README.md).
*/
#include <stdio.h>
#include <string.h>

#include "sim/rank.h"
#include "sim/result.h"

/* embed_tokens, and lm_head unless the config ties it to them. */
static int64_t vocab_matrices(const model_config *mc, int *ovf) {
  return ck_mul(ovf, mc->tied_embeddings ? 1 : 2, ck_mul(ovf, mc->vocab, mc->hidden));
}

int64_t memi_msum_total_parameters(const model_config *mc, int *ovf) {
  int64_t trained = memi_inv_model_parameters(mc, ovf);
  return mc->tied_embeddings ? trained - ck_mul(ovf, mc->vocab, mc->hidden) : trained;
}

int64_t memi_msum_active_parameters(const model_config *mc, int *ovf) {
  int64_t total = ck_add(ovf, vocab_matrices(mc, ovf), mc->hidden);
  int l, i;
  for (l = 0; l < mc->layers; l++) {
    param_list pl;
    pl.n = 0;
    mc->arch->layer_params(mc, l, mc->experts, &pl);
    for (i = 0; i < pl.n; i++) {
      const param_desc *p = &pl.p[i];
      int64_t n = ck_mul4(ovf, p->d[0], p->d[1], p->d[2], 1);
      if (p->expert && mc->experts > 0) n = ck_mul(ovf, n / mc->experts, mc->top_k);
      total = ck_add(ovf, total, n);
    }
  }
  return total;
}

int64_t memi_msum_active_without_embedding(const model_config *mc, int64_t active, int *ovf) {
  return active - ck_mul(ovf, mc->vocab, mc->hidden);
}

void memi_msum_layer_counts(const model_config *mc, int64_t *moe, int64_t *dense, int64_t attn[3]) {
  int64_t l;
  *moe = *dense = 0;
  attn[0] = attn[1] = attn[2] = 0;
  for (l = 0; l < mc->layers; l++) {
    if (mc->experts > 0 && !mc->layer_dense[l]) (*moe)++;
    else (*dense)++;
    if (mc->layer_attn[l] <= ATTN_LINEAR) attn[mc->layer_attn[l]]++;
  }
}

/* The warning for a sequence beyond max_position_embeddings. */
void memi_msum_position_warning(const memest_result *r, char *buf, size_t size) {
  char a[32], b[32];
  buf[0] = '\0';
  if (r->mc.max_positions <= 0 || r->params.sequence_length <= r->mc.max_positions) return;
  snprintf(buf, size,
           "the sequence length %s is longer than the model's max_position_embeddings (%s): "
           "the model was not trained on positions that far, and its rotary tables may not "
           "extend to them; use a sequence of at most %s, or a config with longer context",
           memi_fmt_int(a, sizeof a, r->params.sequence_length),
           memi_fmt_int(b, sizeof b, r->mc.max_positions), b);
}

static void put_names(strbuf *sb, const char *key, const char *list, int n) {
  int k;
  const char *s = list;
  memi_sb_printf(sb, "\"%s\":[", key);
  for (k = 0; k < n; k++) {
    if (k) memi_sb_put(sb, ",");
    memi_sb_json_str(sb, s);
    s += strlen(s) + 1;
  }
  memi_sb_put(sb, "]");
}

void memi_msum_json(strbuf *sb, const memest_result *r) {
  const model_config *mc = &r->mc;
  int64_t moe, dense, attn[3], e, most;
  memi_msum_layer_counts(mc, &moe, &dense, attn);
  memi_sb_printf(sb,
            ",\"active_parameters\":%lld,\"active_parameters_without_embedding\":%lld,"
            "\"shared_experts\":%lld,\"shared_expert_size\":%lld,"
            "\"layers_by_kind\":{\"moe\":%lld,\"dense\":%lld,\"full_attention\":%lld,"
            "\"sliding_attention\":%lld,\"linear_attention\":%lld}",
            (long long)r->active_params, (long long)r->active_params_no_embedding,
            (long long)(mc->shared_inter > 0 ? mc->n_shared : 0),
            (long long)mc->shared_inter, (long long)moe, (long long)dense, (long long)attn[0],
            (long long)attn[1], (long long)attn[2]);
  /* The layout values the model allows, for help texts: ep divides the
  ** experts (up to the trainer's limit), pp leaves a layer per stage of the
  ** schedule (DualPipeV: two stages per GPU). */
  memi_sb_put(sb, ",\"ep_sizes\":[1");
  for (e = 2; e <= MEMEST_MAX_EP && e <= mc->experts; e++) {
    if (mc->experts % e == 0) {
      memi_sb_putn(sb, ",", 1);
      memi_sb_put_i64(sb, e);
    }
  }
  most = memi_schedule_max_pp(&r->params, mc->layers);
  memi_sb_printf(sb, "],\"max_pp_size\":%lld", (long long)(most < MEMEST_MAX_PP ? most : MEMEST_MAX_PP));
  if (mc->max_positions > 0) {
    memi_sb_printf(sb, ",\"max_position_embeddings\":%lld", (long long)mc->max_positions);
  }
  memi_sb_put(sb, ",\"config_keys\":{");
  put_names(sb, "read", mc->keys_read, mc->n_keys_read);
  memi_sb_put(sb, ",");
  put_names(sb, "defaulted", mc->keys_defaulted, mc->n_keys_defaulted);
  memi_sb_put(sb, ",");
  put_names(sb, "ignored", mc->keys_ignored, mc->n_keys_ignored);
  memi_sb_printf(sb, ",\"truncated\":%s}", mc->keys_truncated ? "true" : "false");
}
