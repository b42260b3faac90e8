/*
** fuzz_configs.h — small configs of each family the fuzz targets estimate
** when they do not pick a preset: the published models of presets/
** cut to 4 layers, hidden size 256 and 8 experts, so that one estimate
** takes a fraction of a millisecond and the fuzzer tries many layouts.
*/
#ifndef MEMEST_FUZZ_CONFIGS_H
#define MEMEST_FUZZ_CONFIGS_H

static const char *const fuzz_small_configs[] = {
  /* qwen3-30b-a3b */
  "{\"attention_bias\":false,\"head_dim\":64,\"hidden_act\":\"silu\",\"hidden_size\":256,\""
  "intermediate_size\":512,\"max_window_layers\":48,\"model_type\":\"qwen3_moe\",\"moe_inte"
  "rmediate_size\":128,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":8,"
  "\"num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"output_rou"
  "ter_logits\":false,\"rope_scaling\":{\"rope_type\":\"default\",\"rope_theta\":1000000.0}"
  ",\"router_aux_loss_coef\":0.001,\"sliding_window\":null,\"vocab_size\":1000}",
  /* deepseek-v3 */
  "{\"model_type\":\"deepseek_v3\",\"hidden_size\":256,\"intermediate_size\":512,\"moe_inte"
  "rmediate_size\":128,\"n_routed_experts\":8,\"n_shared_experts\":1,\"num_experts_per_tok"
  "\":2,\"n_group\":8,\"topk_group\":4,\"topk_method\":\"noaux_tc\",\"routed_scaling_factor"
  "\":2.5,\"norm_topk_prob\":true,\"scoring_func\":\"sigmoid\",\"first_k_dense_replace\":3,"
  "\"moe_layer_freq\":1,\"num_hidden_layers\":4,\"num_nextn_predict_layers\":1,\"num_attent"
  "ion_heads\":4,\"num_key_value_heads\":2,\"q_lora_rank\":64,\"kv_lora_rank\":64,\"qk_nope"
  "_head_dim\":32,\"qk_rope_head_dim\":16,\"v_head_dim\":32,\"vocab_size\":1000,\"max_posit"
  "ion_embeddings\":163840,\"rope_theta\":10000}",
  /* gpt-oss-20b */
  "{\"attention_bias\":true,\"head_dim\":64,\"hidden_act\":\"silu\",\"hidden_size\":256,\"i"
  "ntermediate_size\":512,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"slidi"
  "ng_attention\",\"full_attention\"],\"model_type\":\"gpt_oss\",\"num_attention_heads\":4,"
  "\"num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"num_local_"
  "experts\":8,\"rope_scaling\":{\"rope_type\":\"default\",\"rope_theta\":150000},\"sliding"
  "_window\":128,\"swiglu_limit\":7.0,\"vocab_size\":1000}",
  /* qwen3.5-35b-a3b */
  "{\"attention_bias\":false,\"attn_output_gate\":true,\"full_attention_interval\":4,\"head"
  "_dim\":64,\"hidden_act\":\"silu\",\"hidden_size\":256,\"layer_types\":[\"linear_attentio"
  "n\",\"linear_attention\",\"linear_attention\",\"full_attention\"],\"linear_conv_kernel_d"
  "im\":4,\"linear_key_head_dim\":32,\"linear_num_key_heads\":2,\"linear_num_value_heads\":"
  "4,\"linear_value_head_dim\":32,\"mlp_only_layers\":[],\"model_type\":\"qwen3_5_moe_text"
  "\",\"moe_intermediate_size\":128,\"mtp_num_hidden_layers\":1,\"mtp_use_dedicated_embeddi"
  "ngs\":false,\"num_attention_heads\":4,\"num_experts\":8,\"num_experts_per_tok\":2,\"num_"
  "hidden_layers\":4,\"num_key_value_heads\":2,\"router_aux_loss_coef\":0.001,\"shared_expe"
  "rt_intermediate_size\":128,\"vocab_size\":1000,\"mamba_ssm_dtype\":\"float32\",\"rope_pa"
  "rameters\":{\"mrope_interleaved\":true,\"mrope_section\":[11,11,10],\"rope_type\":\"defa"
  "ult\",\"rope_theta\":10000000,\"partial_rotary_factor\":0.25}}",
  /* mixtral-8x7b */
  "{\"model_type\":\"mixtral\",\"hidden_size\":256,\"intermediate_size\":512,\"num_attentio"
  "n_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":4,\"num_local_experts\":8,\""
  "num_experts_per_tok\":2,\"vocab_size\":1000,\"max_position_embeddings\":32768,\"rope_the"
  "ta\":1000000.0,\"sliding_window\":null}",
};
#define FUZZ_SMALL_CONFIGS ((int)(sizeof fuzz_small_configs / sizeof fuzz_small_configs[0]))

#endif /* MEMEST_FUZZ_CONFIGS_H */
