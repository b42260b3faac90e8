/*
** archs.c — the table of model families, looked up by model_type. A new
** family is one arch_*.c file plus one line here.
*/
#include "model.h"

const arch_ops *const memi_arch_table[] = {
  &memi_arch_qwen3_moe,
  &memi_arch_deepseek_v2,
  &memi_arch_deepseek_v3,
  &memi_arch_gpt_oss,
  &memi_arch_qwen35_moe,
  NULL,
};
