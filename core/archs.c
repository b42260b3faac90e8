/*
** archs.c — the table of model families, looked up by model_type. A new
** family is one arch_*.c file plus one line here.
*/
#include "model.h"

const arch_ops *const arch_table[] = {
  &arch_qwen3_moe,
  &arch_deepseek_v2,
  &arch_deepseek_v3,
  &arch_gpt_oss,
  &arch_qwen35_moe,
  NULL,
};
