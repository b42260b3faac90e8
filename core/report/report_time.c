/*
** report_time.c — the time model's answer written out (docs/result-json.md,
** "time"; docs/time-model.md): the `time` object of the JSON, the Time
** section of the text report, and each kept timeline event's time.
*/
#include <stdio.h>
#include <string.h>

#include "time/time.h"
#include "report/report_time.h"

/* What the figure leaves out, said once for every answer. */
static const char *const time_uncertainty =
    "a model of the trainer's kernels on this GPU, checked against logged runs (docs/accuracy.md, "
    "Throughput); routing skew, the trainer's version, host speed and the network's congestion "
    "move the real step time";

const double *memi_time_events(const memest_result *r, const rank_result *rr) {
  ptrdiff_t i;
  if (r->time == NULL || !r->time->known || r->ranks == NULL) return NULL;
  i = rr - r->ranks;
  if (i < 0 || i >= r->time->n_event_ranks) return NULL;
  return r->time->event_t[i];
}

static void put_rank_time(strbuf *sb, const rank_time *t) {
  memi_sb_printf(sb,
                 "\"compute_seconds\":%.6f,\"exposed_comm_seconds\":%.6f,\"idle_seconds\":%.6f,"
                 "\"step_end_seconds\":%.6f,\"optimizer_seconds\":%.6f",
                 t->compute, t->exposed_comm, t->idle, t->step_end, t->optimizer);
}

void memi_time_json(strbuf *sb, const memest_result *r) {
  const step_time *t = r->time;
  int i;
  if (t == NULL || !t->known) {
    memi_sb_put(sb, ",\"time\":null,\"time_note\":");
    memi_sb_json_str(sb, t != NULL ? t->note : "the time model did not run");
    return;
  }
  memi_sb_put(sb, ",\"time\":{\"gpu\":");
  memi_sb_json_str(sb, t->hw.name);
  memi_sb_put(sb, ",\"hardware\":{\"title\":");
  memi_sb_json_str(sb, t->hw.title);
  memi_sb_printf(sb,
                 ",\"bf16_tflops\":%.1f,\"fp8_tflops\":%.1f,\"hbm_gb_per_s\":%.1f,"
                 "\"nvlink_gb_per_s\":%.1f,\"network_gbit_per_s\":%.1f,\"gpus_per_node\":%d,"
                 "\"source\":",
                 t->hw.bf16_tflops, t->hw.fp8_tflops, t->hw.hbm_gb_per_s, t->hw.nvlink_gb_per_s,
                 t->hw.network_gbit_per_s, t->hw.gpus_per_node);
  memi_sb_json_str(sb, t->hw.source);
  memi_sb_printf(sb,
                 "},\"step_seconds\":%.6f,\"tokens_per_second\":%.1f,"
                 "\"tokens_per_second_per_gpu\":%.1f,\"mfu\":%.4f,\"model_flops_per_step\":%.6e,"
                 "\"bubble_fraction\":%.4f,\"exposed_comm_fraction\":%.4f,\"critical_rank\":%d,"
                 "\"parts\":{",
                 t->step_seconds, t->tokens_per_second, t->tokens_per_second_per_gpu, t->mfu,
                 t->model_flops, t->bubble_fraction, t->exposed_comm_fraction, t->critical_rank);
  put_rank_time(sb, &t->ranks[t->critical_rank]);
  memi_sb_put(sb, "},\"ranks\":[");
  for (i = 0; i < t->n_ranks; i++) {
    memi_sb_printf(sb, "%s{\"rank\":%d,", i ? "," : "", t->ranks[i].rank);
    put_rank_time(sb, &t->ranks[i]);
    memi_sb_put(sb, "}");
  }
  memi_sb_put(sb, "],\"efficiency\":{");
  for (i = 0; i < EFF_COUNT; i++) {
    memi_sb_printf(sb, "%s\"%s\":%g", i ? "," : "", memi_eff_row(i)->key, t->eff[i]);
  }
  memi_sb_put(sb, "},\"uncertainty\":");
  memi_sb_json_str(sb, time_uncertainty);
  memi_sb_put(sb, "}");
}

void memi_time_text(strbuf *sb, const memest_result *r) {
  const step_time *t = r->time;
  const rank_time *c;
  if (t == NULL || !t->known) {
    memi_sb_printf(sb, "\nTime: not estimated: %s.\n", t != NULL ? t->note : "the model did not run");
    return;
  }
  c = &t->ranks[t->critical_rank];
  memi_sb_printf(sb, "\nTime (%s; docs/time-model.md)\n", t->hw.title);
  memi_sb_printf(sb, "  step time          %.2f s\n", t->step_seconds);
  memi_sb_printf(sb, "  tokens/s           %.0f (%.0f per GPU)\n", t->tokens_per_second,
                 t->tokens_per_second_per_gpu);
  memi_sb_printf(sb, "  MFU                %.1f%% of %.1f TFLOP/s BF16 per GPU\n", 100.0 * t->mfu,
                 t->hw.bf16_tflops);
  memi_sb_printf(sb,
                 "  critical rank %d:   compute %.2f s, exposed communication %.2f s, idle %.2f s, "
                 "step end %.2f s, optimizer %.2f s\n",
                 t->critical_rank, c->compute, c->exposed_comm, c->idle, c->step_end, c->optimizer);
  memi_sb_printf(sb, "  bubble %.1f%%, exposed communication %.1f%% of the step\n",
                 100.0 * t->bubble_fraction, 100.0 * t->exposed_comm_fraction);
  memi_sb_printf(sb, "  uncertainty: %s\n", time_uncertainty);
}
