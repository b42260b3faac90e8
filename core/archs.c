/*
** archs.c — the table of model families, looked up by model_type. A new
** family is one arch_*.c file plus one line here.
*/
#include "model.h"

const arch_ops *const arch_table[] = {
  &arch_qwen3_moe,
  NULL,
};
