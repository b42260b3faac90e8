/*
** efficiency.c — the efficiency table of the time model: what share of
** the GPU's peak each kind of op achieves, with where each number comes
** from (docs/time-model.md, "Efficiency"), and --efficiency's overrides
** ("kind=value,kind=value") checked against each row's range.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/time.h"

#define OP_RATES "tests/data/op-rates (H200, torch 2.11)"

static const eff_row eff_table[EFF_COUNT] = {
  {"gemm", 0.62, 0.01, 1.0, "dense projections, shared experts and dense MLPs, of the BF16 peak",
   OP_RATES ": q/k/v and o projections of 4,096 tokens, F, B and W, 589-631 TFLOP/s of 989.4"},
  {"lm_head", 0.70, 0.01, 1.0, "the output projection, of the BF16 peak",
   OP_RATES ": lm_head 4,096 x 2,048 x 151,936, F, B and W, 675-705 TFLOP/s"},
  {"router", 0.07, 0.001, 1.0, "the router's narrow GEMM (hidden x experts), of the BF16 peak",
   OP_RATES ": router 4,096 x 2,048 x 128, F, B and W, 59-87 TFLOP/s"},
  {"experts", 0.65, 0.01, 1.0,
   "grouped expert GEMMs at many rows per expert, of the BF16 peak; at r rows per expert the "
   "share is experts * r / (r + expert_rows)",
   OP_RATES ": torch grouped_mm at 512-4,096 rows per expert, 327-632 TFLOP/s; the curve "
   "through them"},
  {"expert_rows", 256.0, 1.0, 1e6, "rows per expert at which grouped GEMMs reach half of `experts`",
   OP_RATES ": the same fit (0.43 at 512 rows, 0.52 at 1,024, 0.58 at 2,048, 0.61 at 4,096)"},
  {"attention", 0.60, 0.01, 1.0,
   "the causal attention product (FlashAttention), of the BF16 peak; at sequence s the share "
   "is attention * s / (s + attention_seq)",
   OP_RATES ": torch SDPA F+B at 4k, 8k and 16k tokens, 427-542 TFLOP/s; the curve through them"},
  {"attention_seq", 1500.0, 1.0, 1e7, "sequence length at which attention reaches half of `attention`",
   OP_RATES ": the same fit (0.43 at 4,096, 0.51 at 8,192, 0.55 at 16,384)"},
  {"fp8", 0.52, 0.01, 1.0, "FP8 GEMMs under deep-gemm, of the FP8 peak",
   OP_RATES ": torch._scaled_mm projections and experts, 916-1,138 TFLOP/s of 1,978.9"},
  {"elementwise", 0.21, 0.01, 1.0,
   "norms, activations, rotary, routing permutes and residuals, of the HBM bandwidth",
   OP_RATES ": RMSNorm of 4,096 x 2,048 at 1,080 GB/s and SwiGLU of 32,768 x 768 at 943 GB/s, "
   "of 4,800"},
  {"loss", 0.062, 0.001, 1.0, "the fp32 cast and cross-entropy over the logits, of the HBM bandwidth",
   OP_RATES ": 4,096 x 151,936 bf16 logits in 4.2 ms (296 GB/s)"},
  {"optimizer", 0.245, 0.01, 1.0, "AdamW (foreach) and Muon's elementwise update, of the HBM bandwidth",
   OP_RATES ": AdamW fused=False, 28 bytes a parameter at 1,178 GB/s"},
  {"nvlink", 0.50, 0.01, 1.0,
   "all-to-all and collectives inside a node, of NVLink's one-direction bandwidth",
   "assumed: not measured here; the logged runs in tests/data/throughput barely depend on it "
   "(0.25-0.7 moves their mean error by 0.2 points, docs/accuracy.md)"},
  {"network", 0.80, 0.01, 1.0, "collectives and transfers between nodes, of the network bandwidth",
   "assumed: NCCL over InfiniBand NDR reaches about 80% of line rate; not measured here"},
  {"layer_us", 800.0, 0.0, 1e6,
   "host, launch and synchronisation time of one layer's forward in microseconds; a backward "
   "counts it twice",
   "fitted: the value of 300-1,100 that gives the smallest mean log error over the 14 logged "
   "runs of tests/data/throughput that memest can lay out, the FlexAttention one aside "
   "(docs/accuracy.md, Throughput)"},
};

const eff_row *memi_eff_row(int i) { return i >= 0 && i < EFF_COUNT ? &eff_table[i] : NULL; }

static int eff_lookup(const char *key, size_t n) {
  int i;
  for (i = 0; i < EFF_COUNT; i++) {
    if (strlen(eff_table[i].key) == n && strncmp(eff_table[i].key, key, n) == 0) return i;
  }
  return -1;
}

static void eff_names(char *buf, size_t size) {
  int i;
  buf[0] = '\0';
  for (i = 0; i < EFF_COUNT; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", i ? ", " : "", eff_table[i].key);
  }
}

memest_code memi_eff_resolve(const memest_params *p, double *e, memest_error *err) {
  const char *s = p->efficiency;
  unsigned seen = 0;
  int i;
  for (i = 0; i < EFF_COUNT; i++) e[i] = eff_table[i].value;
  while (*s) {
    const char *eq, *end = strchr(s, ',');
    char num[40], *stop, names[400];
    size_t klen, vlen;
    double v;
    int k;
    if (end == NULL) end = s + strlen(s);
    eq = memchr(s, '=', (size_t)(end - s));
    if (eq == NULL) {
      return memi_err_set(err, MEMEST_E_VALUE, "efficiency",
                     "--efficiency part '%.*s' is not kind=value; give e.g. --efficiency gemm=0.6,nvlink=0.5",
                     (int)(end - s > 40 ? 40 : end - s), s);
    }
    klen = (size_t)(eq - s);
    k = eff_lookup(s, klen);
    if (k < 0) {
      eff_names(names, sizeof names);
      return memi_err_set(err, MEMEST_E_UNKNOWN, "efficiency",
                     "--efficiency names an unknown kind '%.*s'; the kinds are: %s",
                     (int)(klen > 40 ? 40 : klen), s, names);
    }
    if ((seen >> k) & 1u) {
      return memi_err_set(err, MEMEST_E_VALUE, "efficiency",
                     "--efficiency names %s twice; give each kind once", eff_table[k].key);
    }
    seen |= 1u << k;
    vlen = (size_t)(end - eq - 1);
    if (vlen == 0 || vlen >= sizeof num) {
      return memi_err_set(err, MEMEST_E_VALUE, "efficiency",
                     "--efficiency %s needs a number, e.g. %s=%g", eff_table[k].key,
                     eff_table[k].key, eff_table[k].value);
    }
    memcpy(num, eq + 1, vlen);
    num[vlen] = '\0';
    v = strtod(num, &stop);
    if (*stop != '\0' || stop == num || !(v >= eff_table[k].lo && v <= eff_table[k].hi)) {
      return memi_err_set(err, MEMEST_E_VALUE, "efficiency",
                     "--efficiency %s=%s must be a number from %g to %g (%s); the table's is %g",
                     eff_table[k].key, num, eff_table[k].lo, eff_table[k].hi, eff_table[k].what,
                     eff_table[k].value);
    }
    e[k] = v;
    if (*end == ',' && end[1] == '\0') {
      return memi_err_set(err, MEMEST_E_VALUE, "efficiency",
                     "--efficiency ends with a comma; give kind=value parts separated by commas, "
                     "e.g. --efficiency gemm=0.6,nvlink=0.5");
    }
    s = *end ? end + 1 : end;
  }
  return MEMEST_OK;
}
