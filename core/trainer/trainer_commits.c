/*
** trainer_commits.c — memest's list of the trainer's commits
** (mlc-ai/pith-train, a linear history from e610429 to 889a408, the version
** memest models), oldest first, so that "a run's commit predates X" is a
** comparison of places in the list; and the commits that changed memory,
** with what a run before each of them held differently
** (docs/model.md, "Trainer versions"). source_report.c sizes the
** differences at a layout. To extend the list, append the rows that
**   git log --reverse --format='  {"%H", "%ad"},' --date=format:%Y-%m-%d
** prints in a trainer checkout, and a row below for each memory change.
*/
#include <string.h>

#include "trainer/trainer_commits.h"

static const trainer_commit commits[] = {
  {"e61042915c2e5e44cdefb919320dd51aba345b4e", "2026-03-22"},
  {"bded5fde9fcdb99d4d36b94418e4ca779954eaf2", "2026-03-27"},
  {"0301e7fe26533e9bd03c874ebfb5cdeacb60eac9", "2026-03-28"},
  {"fc99907d10a4af4a90ba8aaf9a52272df4b873b2", "2026-03-30"},
  {"2505b839af42216a35cf4bb2a3064fc3d0ca5a24", "2026-04-01"},
  {"cc5631755989d28403fc0316cf926487c666a7c0", "2026-04-01"},
  {"14027f8b68a1ccda53942ac13576c87a9dda0f75", "2026-04-01"},
  {"32f0cc0964457b7642b7093aad3a1bb1dd3f4b1a", "2026-04-02"},
  {"14a9d481f3db0b537e02a6bb47310f5df404c9cf", "2026-04-02"},
  {"05681c0ac974653ccaae8b6f62fd5ab8d66ba8b9", "2026-04-02"},
  {"63af8cd616f59137defa7369e4710ea262fa79f8", "2026-04-03"},
  {"bfb2826fea6b20f76b39c021b827ef8b15102bba", "2026-04-04"},
  {"84adf58c65b8c3ebb68f042aca3e6658a5cfd6dd", "2026-04-04"},
  {"1dd63758733ce187d3fda21bbcfa4de0a9abbfd6", "2026-04-04"},
  {"db5c7cc49ada52fd077f3e1cf662ac345ddf6f72", "2026-04-05"},
  {"d80a5e6f7b791b07e664e8ecae7789dbbdbc1bf4", "2026-04-12"},
  {"331e74857b5435bf593aaa4734be02b474c2d3e7", "2026-04-13"},
  {"47a12dc01d033391423c28ebf4473869288229bf", "2026-04-13"},
  {"e33f6d09ec7431b24f8890c2bcc81246364ee723", "2026-04-13"},
  {"a2afc47f3ff02324dadc9b2830210f0d1f0c2985", "2026-04-13"},
  {"976e410464980c8af64d2ccd5acd5d7cad7460c7", "2026-04-14"},
  {"1d099867f296f76538e6ddbed4e5c5a3070c93db", "2026-04-19"},
  {"e80f25c68c66c1730954742561ab2cc33144f2cc", "2026-04-19"},
  {"a82d0a48011fce8a9f2fe1c1325150d0f9304c22", "2026-04-19"},
  {"1f163ae1b75c95cbfdb1c263a3aa11aec00d2af4", "2026-04-21"},
  {"447ede02c8610db0e169ba3af0cd3d3067008356", "2026-04-21"},
  {"060b39b44effe900c8b22d9c1d146bae9448655f", "2026-04-22"},
  {"fff4576fdbb7698a24c2d247fb83a4b83ca4e8e9", "2026-04-22"},
  {"287070fbcf6c4d0b49be452a2ebb1c75c9f0e20f", "2026-04-23"},
  {"7e952c4bb60cf99c873b2c2ee91854b7fe21caaf", "2026-04-24"},
  {"cc8c3e9422706f48a27149de353045005e1f98a7", "2026-04-24"},
  {"ca734df6ef384edd585cdd1a41d1aad92f545b18", "2026-04-25"},
  {"078f90bdb6028bb42839cbb074456f2b1f7938a0", "2026-04-25"},
  {"14d6bf3c170f90e1c2362d0e7c6b7fd0ebf3716b", "2026-04-27"},
  {"d9cec486471da6e346fecd074499b50a45e3e468", "2026-04-28"},
  {"23db1829a2e55596a5347a94e53a770721e79539", "2026-04-28"},
  {"694d72109dac1d429c76dedc729ad01b6685d086", "2026-05-11"},
  {"6f332a7e63e0d7b8799e807ce5f13707abb8be1c", "2026-05-12"},
  {"c76a5916b1c8e4aa1732f8a617184904119a2deb", "2026-05-13"},
  {"597e35c53c3ec025f9b24bf58087cb9388564c31", "2026-05-13"},
  {"093a9e47a25e330ad795fe76662cc3402f34acc9", "2026-05-16"},
  {"fb6798d4eb0a81b393108820ed55b97e6eeaa97d", "2026-05-17"},
  {"1487dd297854f4f941df238e5365f4c36ed5d235", "2026-05-23"},
  {"aa03cd96b7bf87338fd39181c125c381a2442563", "2026-05-26"},
  {"217346f26cf33ef6864f423dcb1214c01a863644", "2026-05-27"},
  {"0d2bf4a85a7ef2d912aab8c33b6b8dd95f0a579f", "2026-05-29"},
  {"2a977441e1555b064f125f4d8497d5e8851a825c", "2026-05-29"},
  {"d30d7a2688d43c36bb827939867a9f65725a259a", "2026-06-01"},
  {"8b4f0b0956508fef1a1f9c29d288500b5b5fa5da", "2026-06-03"},
  {"c49227e6d46a9f22a32708e12d83eed88d2dbc9e", "2026-06-04"},
  {"8f967ade4f0c8d57e1a0b18aee948c84f4d481be", "2026-06-04"},
  {"a45140d81943f28d96876a63130708ee068319a6", "2026-06-05"},
  {"a382cdd5f39f6b147f683c5f24bf0856a29a7e83", "2026-06-08"},
  {"b3f048f47afb22dd23eab95f95d6bac2a34f815a", "2026-06-13"},
  {"941bfc05f440e210dd2723dfc5916e9b6851f258", "2026-06-16"},
  {"2e39fd9901d8faf9fa4203b9815c82620656d1b2", "2026-06-17"},
  {"9aed74523c75234fddb41b8a552869bbf97d1b2e", "2026-06-18"},
  {"d2fffcc363182cc4c7467b2cc1e0158e77a4bf62", "2026-06-19"},
  {"cae7fb3a057517791b86431dae8de93de76ce494", "2026-06-21"},
  {"80f16c6b1fd39477e3a6177057e1f807198976fc", "2026-06-22"},
  {"9d6634bb7f951c65f960411a9d80502eae4e21ef", "2026-06-23"},
  {"87361c5a441e2daa91aebf2b332bcf7548d5235d", "2026-06-24"},
  {"a72665ce26f5d9ec17abd0ab1237ef1d81624b28", "2026-06-25"},
  {"27c1264f4d2a8870ecbb31d927b167b0ed640227", "2026-06-25"},
  {"42e35c18f894127f90ed4983089fed0a510d4752", "2026-06-28"},
  {"d43e93dc465fb192dc6aad86dbd8f911c9be6460", "2026-06-29"},
  {"c3a8cacd0a531d64756307471d47bb694d58e3d6", "2026-06-30"},
  {"08a2a25a8065f894a17c1a75d651123cb12a296b", "2026-07-13"},
  {"4ddc8565c229dbf6c354be6806031d308da758d4", "2026-07-13"},
  {"2225560eba32f511da39152367c85c27c329e564", "2026-07-14"},
  {"f53f32d9806cf572f3a3b314aeef5060cbb94c1d", "2026-07-14"},
  {"e96026ebc6faba8a1692e983340a356f5d974f17", "2026-07-16"},
  {"6cd3c487a455ad1853faa12a6e1bbfeab098c5bc", "2026-07-18"},
  {"889a4088adf3bf8c786d6d667b77fb69ad559a06", "2026-07-22"},
};

#define COMMIT_COUNT ((int)(sizeof commits / sizeof commits[0]))

/* commit (the short hash it is known by), kind, what it changed, what a run before it holds */
static const memory_change changes[] = {
  {"14027f8", CH_NOTE, "MoE outputs combined by multiply and scatter_add",
   "the combine saved a [tokens x top_k, hidden] intermediate per MoE layer per chunk in flight"},
  {"2505b83", CH_NOTE, "shared experts computed in stage 1 instead of stage 5",
   "a hidden-size gradient buffer in the middle of the pipeline"},
  {"63af8cd", CH_NOTE, "rotary tables precomputed, position_ids removed",
   "the commit quotes about 1 GB more on a one-node DeepSeek-V2-Lite run at 4k"},
  {"331e748", CH_NOTE, "stage-boundary tensors freed early and a memory-aware layer partition",
   "more activation memory per chunk in flight; no figure was published"},
  {"976e410", CH_NOTE, "fused SwiGLU (Qwen3, DeepSeek)",
   "one more saved activation per MLP and expert"},
  {"a82d0a4", CH_GPTOSS, "fused clamped SwiGLU (gpt-oss)",
   "one more saved activation per gpt-oss expert"},
  {"287070f", CH_DEFERRAL, "expert weight gradients deferred to W under DualPipeV",
   "expert weight gradients computed inside each backward; the commit measured a 5.78% higher "
   "peak on Qwen3-30B-A3B pp 2 ep 8 (58.54 against 55.16 GB) and the same peak on "
   "DeepSeek-V2-Lite pp 2 ep 2"},
  {"7e952c4", CH_DEFERRAL_GPTOSS, "deferred expert weight gradients for gpt-oss",
   "gpt-oss expert weight gradients computed inside each backward"},
  {"078f90b", CH_NOTE, "deferred weight gradients cast to fp32 before the reduce-scatter",
   "a bf16 reduce of the deferred gradients; no figure was published"},
  {"14d6bf3", CH_FP8_GPTOSS, "FP8 for gpt-oss experts",
   "gpt-oss experts in BF16 even in an FP8 run"},
  {"597e35c", CH_CP, "zigzag ring attention",
   "another context-parallel attention; no figure was published"},
  {"093a9e4", CH_NO_HSDP, "sharding_strategy and HSDP",
   "no HSDP: every run sharded as FSDP, so this run's hsdp does not match its commit; check "
   "both"},
  {"d2fffcc", CH_NO_MUON, "the Muon optimizer",
   "no Muon: every run used Adam, so this run's Muon does not match its commit; check both"},
  {"9d6634b", CH_NO_BENCHMARK, "training.benchmark (force-balanced routing)",
   "no force-balanced routing: every run used the model's router, so this run's balanced "
   "routing does not match its commit; check both"},
  {"c3a8cac", CH_ROTARY_NATIVE,
   "rotary tables of the sequence length (max_position_embeddings = sequence_length), one pair "
   "shared by the two V-chunk modules",
   "fp32 cos/sin tables of the config's max_position_embeddings, one pair per module"},
  {"f53f32d", CH_ROUTER_INPUT, "the router computed inside the stage-1 compiled region",
   "the router was its own compiled graph and kept its input, the post-attention norm output "
   "(m x hidden, bf16), per MoE layer per chunk in flight"},
  {"f53f32d", CH_ROTARY_FP32, "bf16 rotary tables",
   "fp32 rotary tables of the sequence length, one shared pair"},
  {"f53f32d", CH_NOTE, "the engine and model-layer refactor (fp8_training became fp8)",
   "the schedule's execution and the model layers before the refactor; no figure was "
   "published, so memest's calibration on 889a408 may not carry over"},
};

#define CHANGE_COUNT ((int)(sizeof changes / sizeof changes[0]))

int memi_commit_count(void) { return COMMIT_COUNT; }

const trainer_commit *memi_commit_at(int i) {
  return i >= 0 && i < COMMIT_COUNT ? &commits[i] : NULL;
}

int memi_commit_find(const char *prefix, int *matches) {
  size_t n = strlen(prefix);
  int i, found = -1;
  *matches = 0;
  for (i = 0; i < COMMIT_COUNT; i++) {
    if (n <= 40 && strncmp(commits[i].hash, prefix, n) == 0) {
      found = i;
      (*matches)++;
    }
  }
  return *matches == 1 ? found : -1;
}

int memi_memory_change_count(void) { return CHANGE_COUNT; }

const memory_change *memi_memory_change_at(int i) {
  return i >= 0 && i < CHANGE_COUNT ? &changes[i] : NULL;
}
