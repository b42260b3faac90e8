from pithtrain.tasks.pretrain_lm import PretrainLMCfg

cfg = PretrainLMCfg()
cfg.training.sequence_length = 4096
cfg.training.model = "Qwen/Qwen3-30B-A3B
