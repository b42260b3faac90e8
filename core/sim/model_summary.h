/*
** model_summary.h — the model summary of a result (model_summary.c): active
** parameters, layers by kind, the config keys as read, the position warning.
*/
#ifndef MEMEST_MODEL_SUMMARY_H
#define MEMEST_MODEL_SUMMARY_H

#include "sim/result.h"

/* Parameters one token passes through (all experts' tensors scaled to top_k). */
MEMEST_HIDDEN int64_t memi_msum_active_parameters(const model_config *mc, int *ovf);
/* Active parameters without the input embedding (embed_tokens, vocab x
** hidden), as OpenAI, IBM, Zhipu and MiniMax publish them; with a tied
** lm_head the one matrix goes. */
MEMEST_HIDDEN int64_t memi_msum_active_without_embedding(const model_config *mc, int64_t active,
                                                         int *ovf);
/* All parameters of the config's model, a tied lm_head once. */
MEMEST_HIDDEN int64_t memi_msum_total_parameters(const model_config *mc, int *ovf);
/* Layers with routed experts and dense ones; attention kinds (ATTN_*). */
MEMEST_HIDDEN void memi_msum_layer_counts(const model_config *mc, int64_t *moe, int64_t *dense,
                                     int64_t attn[3]);
/* "" unless the sequence is longer than max_position_embeddings. */
MEMEST_HIDDEN void memi_msum_position_warning(const memest_result *r, char *buf, size_t size);
/* The summary's members of the JSON "model" object, each after a comma. */
MEMEST_HIDDEN void memi_msum_json(strbuf *sb, const memest_result *r);

#endif /* MEMEST_MODEL_SUMMARY_H */
