"""Not a launch script: it builds no PretrainLMCfg."""
import json

print(json.dumps({"pipeline_parallel_size": 4}))
