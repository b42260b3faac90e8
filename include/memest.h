/*
** memest.h — the public C API of memest, a GPU-memory calculator for
** DualPipeV Mixture-of-Experts training with FSDP, EP and CP.
**
** This header is the only one the CLI (cli/) and the WebAssembly glue
** (web/wasm_api.c) include. The design notes live in docs/design.md.
*/
#ifndef MEMEST_H
#define MEMEST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* {======================================================================
** Version
** ======================================================================= */
#define MEMEST_VERSION_MAJOR 0
#define MEMEST_VERSION_MINOR 3
#define MEMEST_VERSION_PATCH 0
#define MEMEST_VERSION "0.3.0"

/* The library's version string, e.g. "0.3.0". Static storage. */
const char *memest_version(void);
/* }====================================================================== */

/* {======================================================================
** Errors
**
** Every fallible call returns MEMEST_OK (0) or an error code, and fills a
** caller-supplied memest_error. Nothing is kept in global state.
** ======================================================================= */
typedef enum memest_code {
  MEMEST_OK = 0,
  MEMEST_E_MISSING,      /* a required parameter was not given */
  MEMEST_E_UNKNOWN,      /* unknown parameter name or enum value */
  MEMEST_E_VALUE,        /* a value is not a number, zero, negative, ... */
  MEMEST_E_LIMIT,        /* a value is beyond a documented limit */
  MEMEST_E_LAYOUT,       /* the parallel layout is impossible */
  MEMEST_E_JSON,         /* the config is not well-formed JSON */
  MEMEST_E_CONFIG,       /* a config key is missing or of the wrong type */
  MEMEST_E_UNSUPPORTED,  /* the trainer cannot run this model or option */
  MEMEST_E_OVERFLOW,     /* a byte count would not fit in 64 bits */
  MEMEST_E_IO,           /* a file could not be read (CLI only) */
  MEMEST_E_NOMEM         /* the host ran out of memory */
} memest_code;

/* Why a layout or range check refused the inputs, whatever the wording of
** the message: callers (the planner, the page) sort problems by it. */
typedef enum memest_reason {
  MEMEST_R_NONE = 0,         /* no reason code: see code and field */
  MEMEST_R_MISSING,          /* a required input was not given */
  MEMEST_R_GPU_BOTH,         /* both --gpu and --gpu-memory-gb */
  MEMEST_R_RANGE,            /* a stored value outside its parameter's range */
  MEMEST_R_EP_ABOVE_MAX,     /* ep above MEMEST_MAX_EP (the trainer's 32) */
  MEMEST_R_EP_EXPERTS,       /* ep does not divide the expert count */
  MEMEST_R_EP_DENSE,         /* ep > 1 on a model without experts */
  MEMEST_R_CP_ARCH,          /* cp > 1 on an architecture without CP */
  MEMEST_R_SEQ_CP,           /* sequence length not a multiple of 2*cp */
  MEMEST_R_PP_LAYERS,        /* fewer layers than the 2*pp stages */
  MEMEST_R_GPUS_GROUP,       /* pp*cp*ep does not divide the GPUs */
  MEMEST_R_DP_LIMIT,         /* dp above MEMEST_MAX_DP */
  MEMEST_R_GBS_UNIT,         /* gbs not a multiple of mbs*dp*ep */
  MEMEST_R_CHUNKS_MIN,       /* num_chunks below 2*pp */
  MEMEST_R_CHUNKS_MAX,       /* num_chunks above MEMEST_MAX_CHUNKS */
  MEMEST_R_REPLAY_WORK,      /* chunks x ranks above MEMEST_MAX_REPLAY_CHUNKS */
  MEMEST_R_TIMELINE_EVENTS,  /* kept events above MEMEST_MAX_TIMELINE_EVENTS */
  MEMEST_R_PP_RANK,          /* pp_rank not below pp_size */
  MEMEST_R_TOKEN_OVERFLOW,   /* the run's token counts overflow */
  MEMEST_R_NODES_MISMATCH,   /* plan: total GPUs differ from nodes x GPUs per node */
  MEMEST_R_WHOLE_NODES,      /* plan: GPUs are not whole nodes */
  MEMEST_R_DP_MISMATCH,      /* plan: dp differs from --dp */
  MEMEST_R_GPUS_LIMIT,       /* plan: GPUs above MEMEST_MAX_GPUS */
  MEMEST_R_ROUTING_MODE,     /* routing flags that contradict each other */
  MEMEST_R_ROUTING_CAP,      /* a routing factor above min(ep, experts/top_k) */
  MEMEST_R_ROUTING_MARGIN,   /* plan: a routing margin below --min-routing-margin */
  MEMEST_R_SCHEDULE,         /* a schedule's own need (DualPipe: even pp and chunks) or an input it does not read */
  MEMEST_R_COUNT
} memest_reason;

typedef struct memest_error {
  memest_code code;
  memest_reason reason; /* why, for layout and range problems; else MEMEST_R_NONE */
  char field[48];     /* snake_case parameter or config key, or "" */
  char message[768];  /* one sentence naming the problem and the fix */
  char fix[96];       /* a nearer valid input as "name=value[,name=value]", or "" */
  int line;           /* 1-based line in the config for MEMEST_E_JSON, else 0 */
  int column;         /* 1-based column, likewise */
} memest_error;

/* The stable name of a code, e.g. "layout" for MEMEST_E_LAYOUT. */
const char *memest_code_name(memest_code code);
/* The stable name of a reason, e.g. "pp_layers" for MEMEST_R_PP_LAYERS;
** "none" for MEMEST_R_NONE or a value out of range. */
const char *memest_reason_name(memest_reason reason);

/* The error as one JSON object, {"error": {"code", "message", "field",
** "fix", "reason"}} (plus "line" and "column" for MEMEST_E_JSON), as --json
** prints it and the WebAssembly engine returns it. Allocated; free it with memest_free(). NULL when out of memory. */
char *memest_error_json(const memest_error *e);
/* }====================================================================== */

/* {======================================================================
** Text from outside (file names, config names and keys, snapshot frames,
** log lines) as every report writes it (core/base/text_escape.c)
** ======================================================================= */
/* s as a quoted JSON string that is strict UTF-8 whatever bytes s holds:
** each ill-formed span of bytes becomes U+FFFD, controls, DEL, C1 controls
** and bidi marks are \uXXXX escapes (docs/result-json.md, "Strings").
** Free it with memest_free(); NULL when out of memory. */
char *memest_json_string(const char *s);
/* s for a terminal, on one line: C0 controls, DEL, C1 controls, bidi marks
** and each byte of invalid UTF-8 as a visible escape (\x1b, \n, \u202e,
** \xe9; docs/result-json.md, "Terminal text"). Writes at most size bytes
** into buf, NUL-terminated and cut at a whole character or escape;
** returns the length the whole text needs (0 when out of memory). */
size_t memest_text_escape(char *buf, size_t size, const char *s);
/* }====================================================================== */

/* {======================================================================
** Parameters
**
** A memest_params holds one estimate's inputs. memest_params_init() sets
** every optional input to its default and marks the required ones unset;
** memest_params_set() takes a value as text by its snake_case name
** ("pp_size") or its CLI flag ("--pp-size") and validates it, so that the
** CLI and the WebAssembly engine accept and refuse exactly the same input.
** ======================================================================= */
typedef enum memest_optimizer { MEMEST_ADAMW = 0, MEMEST_MUON = 1 } memest_optimizer;
typedef enum memest_sharding { MEMEST_FSDP = 0, MEMEST_HSDP = 1 } memest_sharding;
typedef enum memest_fp8 { MEMEST_FP8_DISABLED = 0, MEMEST_FP8_DEEP_GEMM = 1 } memest_fp8;
/* The pipeline schedule replayed (docs/schedules.md). The trainer runs
** DualPipeV only; the others show what the same run would hold and take
** under them. */
typedef enum memest_schedule {
  MEMEST_SCHED_DUALPIPEV = 0,   /* pp GPUs hold 2*pp stages in a V */
  MEMEST_SCHED_1F1B,            /* one stage per GPU, one forward one backward */
  MEMEST_SCHED_INTERLEAVED,     /* virtual_stages stages per GPU, Megatron's interleaving */
  MEMEST_SCHED_ZBH1,            /* 1F1B with weight gradients deferred (zero bubble H1) */
  MEMEST_SCHED_DUALPIPE,        /* two model copies, micro-batches from both ends */
  MEMEST_SCHED_COUNT
} memest_schedule;
/* How tokens spread over the expert-parallel ranks (docs/model.md, Routing):
** the measured worst-layer factor 1.18, the trainer's benchmark mode
** (force_balance), or an explicit factor from --routing-factor. */
typedef enum memest_routing {
  MEMEST_ROUTING_MEASURED = 0,
  MEMEST_ROUTING_BALANCED = 1,
  MEMEST_ROUTING_FACTOR = 2
} memest_routing;

/* Where the model's config came from, as the front end that found it says
** (the CLI's --model resolution, cli/model_source.c). The reports name it;
** no figure depends on it. Left MEMEST_MODEL_FROM_UNSET, the library fills
** in PRESET when it read a preset (config NULL) and FILE otherwise. */
typedef enum memest_model_origin {
  MEMEST_MODEL_FROM_UNSET = 0,
  MEMEST_MODEL_FROM_PRESET,        /* a shipped preset, by its name or its hub id */
  MEMEST_MODEL_FROM_FILE,          /* a config.json path (path; "" when only its text was given) */
  MEMEST_MODEL_FROM_HUB_CACHE,     /* the Hugging Face hub's local cache (path, revision) */
  MEMEST_MODEL_FROM_DOWNLOAD,      /* downloaded now (url, revision), kept at path */
  MEMEST_MODEL_FROM_MEMEST_CACHE   /* downloaded before, kept in memest's cache (path, revision) */
} memest_model_origin;

typedef struct memest_model_source {
  memest_model_origin kind;
  char path[1024];             /* the file the config was read from or kept in, or "" */
  char revision[80];           /* the hub's commit (or "etag-..."), or "" */
  char url[1024];              /* the URL it was downloaded from now, or "" */
} memest_model_source;

/* "preset", "file", "hub-cache", "download", "memest-cache"; NULL for
** UNSET or a value out of range. */
const char *memest_model_origin_name(memest_model_origin o);

/* Bit for each parameter in memest_params.given. */
typedef enum memest_param_id {
  MEMEST_P_MODEL = 0,
  MEMEST_P_PP_SIZE,
  MEMEST_P_EP_SIZE,
  MEMEST_P_CP_SIZE,
  MEMEST_P_TOTAL_GPUS,
  MEMEST_P_MICRO_BATCH_SIZE,
  MEMEST_P_GLOBAL_BATCH_SIZE,
  MEMEST_P_SEQUENCE_LENGTH,
  MEMEST_P_GPU_MEMORY_GB,
  MEMEST_P_GPU,
  MEMEST_P_FP8_TRAINING,
  MEMEST_P_PP_RANK,
  MEMEST_P_EP_IMBALANCE,
  MEMEST_P_FRAGMENTATION,
  MEMEST_P_OPTIMIZER,
  MEMEST_P_SHARDING,
  MEMEST_P_DETAIL,
  MEMEST_P_TIMELINE,
  MEMEST_P_TIMELINE_LIMIT,
  MEMEST_P_ROUTING,
  MEMEST_P_ROUTING_FACTOR,
  MEMEST_P_NVLINK_GB_PER_S,
  MEMEST_P_NETWORK_GBIT_PER_S,
  MEMEST_P_EFFICIENCY,
  MEMEST_P_SCHEDULE,
  MEMEST_P_VIRTUAL_STAGES,
  MEMEST_P_COUNT
} memest_param_id;

typedef struct memest_params {
  char model[512];             /* preset name or config path (a label) */
  int64_t pp_size;
  int64_t ep_size;
  int64_t cp_size;
  int64_t total_gpus;
  int64_t micro_batch_size;
  int64_t global_batch_size;
  int64_t sequence_length;
  double gpu_memory_gb;        /* capacity in GiB (N * 2^30 bytes) */
  char gpu[16];                /* GPU preset name, or "" */
  memest_fp8 fp8_training;
  int64_t pp_rank;             /* -1: every rank, report the worst */
  double ep_imbalance;         /* >= 1.0, multiplies the measured factor */
  double fragmentation;        /* allocator overhead on tensor bytes */
  memest_optimizer optimizer;
  memest_sharding sharding;
  int detail;                  /* 0/1: per-tensor tables */
  int timeline;                /* 0/1: keep the event timeline */
  int64_t timeline_limit;      /* events reported (0 = all) */
  memest_routing routing;      /* MEASURED by default; FACTOR with routing_factor */
  double routing_factor;       /* busiest rank's routed rows over m*k, >= 1 */
  /* The time model (core/time/): link bandwidths per GPU (0: the GPU's
  ** table) and overrides of its efficiency table, "kind=value,..." */
  double nvlink_gb_per_s;      /* NVLink, one direction, GB/s */
  double network_gbit_per_s;   /* network, Gb/s */
  char efficiency[160];
  memest_schedule schedule;    /* DUALPIPEV by default */
  int64_t virtual_stages;      /* stages per GPU of MEMEST_SCHED_INTERLEAVED */
  uint32_t given;              /* 1u << memest_param_id for each set */
  memest_model_source model_source;  /* where the model's config came from (not a
                               ** parameter: set by the front end, named by the reports) */
} memest_params;

void memest_params_init(memest_params *p);

/* Sets parameter `name` ("pp_size" or "--pp-size") from `value`.
** Returns MEMEST_OK, or MEMEST_E_UNKNOWN / MEMEST_E_VALUE / MEMEST_E_LIMIT
** with `err` naming the parameter and the accepted values. */
memest_code memest_params_set(memest_params *p, const char *name,
                              const char *value, memest_error *err);

/* Describes parameter `id` for help texts, forms and range checks: one row
** of the table (core/base/params.c) that drives parsing, the checks of stored
** values, the help and the equivalent command line. */
typedef struct memest_param_info {
  const char *name;        /* snake_case, e.g. "pp_size" */
  const char *flag;        /* CLI flag, e.g. "--pp-size" */
  const char *kind;        /* "int", "number", "enum", "bool", "text" */
  const char *meaning;     /* what it is */
  const char *choose;      /* how to choose it */
  const char *choices;     /* enum values separated by '|', or "" */
  const char *default_text;/* default for optional ones, "" if required */
  int required;            /* 1 for the nine required inputs */
  double min, max;         /* accepted range of an "int" or "number"; else 0, 0 */
  const char *limit;       /* the bounds.h name of max ("MEMEST_MAX_PP"), or "" */
  size_t offset;           /* offsetof(memest_params, <name>) */
  const char *label;       /* what a form calls it: "Pipeline parallel (pp)" */
  const char *short_name;  /* the same in a sentence or a table: "pp", "total GPUs" */
} memest_param_info;

const memest_param_info *memest_param_describe(memest_param_id id);

/* What a form shows of parameter `id` beside its row of memest_param_info:
** the worked example's value (the CLI's help example, the page's opening
** view) and the range of its slider. A slider's range is the form's only:
** the accepted range is min..max. NULL for an id out of range. */
typedef struct memest_param_form {
  const char *example;       /* the example's value ("4" for pp_size), or "" for the default */
  double slider_min;         /* the slider's ends; 0, 0 for an input without a slider */
  double slider_max;
  double slider_step;        /* its step: 1 for whole numbers, 0.01 for factors */
  int slider_log2;           /* 1: it moves in powers of two */
  const char *choice_titles; /* an enum's values as a form titles them, '|'-separated in the
                                order of choices ("AdamW|Muon"), or "" */
} memest_param_form;

const memest_param_form *memest_param_form_describe(memest_param_id id);

/* The stable names of enum values, as memest_params_set() takes them and
** the result JSON writes them: "adamw"/"muon", "fsdp"/"hsdp",
** "disabled"/"deep-gemm", "measured"/"balanced"/"factor", "OK"/"TIGHT"/"OOM". NULL for a value out of
** range. */
const char *memest_optimizer_name(memest_optimizer o);
const char *memest_sharding_name(memest_sharding s);
const char *memest_fp8_name(memest_fp8 f);
const char *memest_routing_name(memest_routing r);   /* "measured" | "balanced" | "factor" */
/* "dualpipev" | "1f1b" | "interleaved-1f1b" | "zb-h1" | "dualpipe" */
const char *memest_schedule_name(memest_schedule s);

/* Writes the CLI command line equivalent to `p` into buf (NUL-terminated,
** truncated to size). Returns the length it needed, or 0 when out of
** memory (a command is never empty). */
size_t memest_params_command(const memest_params *p, char *buf, size_t size);
/* }====================================================================== */

/* {======================================================================
** Presets: models and GPUs shipped with the library
** ======================================================================= */
int memest_model_preset_count(void);
const char *memest_model_preset_name(int i);     /* e.g. "qwen3-30b-a3b" */
const char *memest_model_preset_title(int i);    /* e.g. "Qwen3-30B-A3B" */
const char *memest_model_preset_id(int i);       /* its hub id, e.g. "Qwen/Qwen3-30B-A3B" */
/* The config.json text (static storage) of the preset named `name`, by its
** preset name or its hub id, or NULL if unknown. */
const char *memest_model_preset_config(const char *name);

int memest_gpu_preset_count(void);
const char *memest_gpu_preset_name(int i);       /* e.g. "h100" */
const char *memest_gpu_preset_title(int i);      /* e.g. "H100 SXM 80 GB" */
uint64_t memest_gpu_preset_bytes(int i);         /* capacity the driver reports */

/* A hub model id is at most this long (the hub's limit), "org/name". */
#define MEMEST_HUB_ID_MAX 96
/* Whether `id` is a hub model id, "org/name" as the hub allows them: one
** '/', each part 1+ of letters, digits, '-', '_' and '.', not starting or
** ending with '-' or '.', no "--" or "..", at most MEMEST_HUB_ID_MAX
** characters, not ending in ".git". 1 if so; else 0, with why it is not
** in `why` (a phrase: "it has more than one '/' ..."). The CLI's --model
** and the page's hub field take this one rule. */
int memest_hub_id_check(const char *id, char *why, size_t why_size);
/* The hub id that `text` names: the id itself, or the address of its
** model page as a browser shows it ("https://huggingface.co/org/name",
** also http://, hf.co, www., without the scheme, a trailing '/' and
** "/tree/main"). 1 with the id in `id` (id_size > MEMEST_HUB_ID_MAX);
** else 0 with why in `why`, as memest_hub_id_check gives it, or why the
** address names no model's main revision. */
int memest_hub_id_read(const char *text, char *id, size_t id_size, char *why, size_t why_size);

/* The presets as one JSON object: "models": [{name, title, id}] when `what`
** has MEMEST_PRESETS_MODELS, "gpus": [{name, title, bytes}] when it has
** MEMEST_PRESETS_GPUS. Free it with memest_free(); NULL when out of memory. */
#define MEMEST_PRESETS_MODELS 1u
#define MEMEST_PRESETS_GPUS 2u
char *memest_presets_json(unsigned what);
/* }====================================================================== */

/* {======================================================================
** Estimating
** ======================================================================= */
typedef struct memest_result memest_result;

/* Estimates the run described by `config` (a HuggingFace config.json of
** `config_len` bytes; NULL means the preset named p->model) and `p`.
** On success *out owns a result to free with memest_result_free().
** Warnings do not fail the call; they are part of the result. */
memest_code memest_estimate(const char *config, size_t config_len,
                            const memest_params *p, memest_result **out,
                            memest_error *err);

/* Reads `config` as memest_estimate would (the JSON, the family, its keys)
** without estimating: MEMEST_OK, or the first problem in err. For a front
** end that keeps a config it fetched only when memest can read it. */
memest_code memest_config_check(const char *config, size_t config_len, memest_error *err);

/* The most config text memest_estimate reads (MEMEST_MAX_CONFIG_BYTES), so
** that a caller reading a file can refuse a larger one by its real size. */
size_t memest_config_max_bytes(void);

/* The files memest reads, each with its reader's limit (core/base/input_files.c):
** a front end checks a file's size against it before reading a byte. */
typedef enum memest_input_file {
  MEMEST_INPUT_CONFIG = 0,   /* a HuggingFace config.json */
  MEMEST_INPUT_SNAPSHOT,     /* a memory snapshot pickle */
  MEMEST_INPUT_LOG,          /* the trainer's log */
  MEMEST_INPUT_SCRIPT,       /* a launch script or a module it imports */
  MEMEST_INPUT_WANDB_CONFIG, /* a W&B run's config.yaml */
  MEMEST_INPUT_WANDB_JSON,   /* a W&B run's wandb-metadata.json or wandb-summary.json */
  MEMEST_INPUT_COUNT
} memest_input_file;

typedef struct memest_input_file_info {
  const char *noun;         /* "config file", "snapshot", "log": the messages' word */
  size_t max_bytes;         /* the most bytes its reader takes */
  const char *limit_name;   /* "MEMEST_MAX_CONFIG_BYTES" (docs/limits.md) */
  const char *typical;      /* what such a file usually weighs, for a refusal */
  const char *give;         /* what to give instead, for a file that cannot be read */
} memest_input_file_info;

/* Row `kind` of the table; NULL for a value out of range. */
const memest_input_file_info *memest_input_file_describe(memest_input_file kind);

/* Checks the inputs as memest_estimate would, without simulating. Writes
** up to `max` problems into errs[] and returns how many were found (0 when
** the inputs are valid; the count may exceed max). */
int memest_validate(const char *config, size_t config_len,
                    const memest_params *p, memest_error *errs, int max);

/* What one view of a page needs, in one call (memest_estimate_view). */
typedef struct memest_view_options {
  int suggestions;          /* 1: compute the suggestions; 0: leave them out */
  int shown_timeline;       /* 1: keep the timeline of the shown rank (p->pp_rank,
                            ** or the worst one) and of no other */
  int64_t timeline_window;  /* events kept around the peak when that rank's
                            ** schedule is longer; 0 keeps every event */
  int every_rank;           /* kept for callers: a result of one chosen rank
                            ** always holds every rank's peak ("every_rank" in
                            ** its JSON), from which its verdict is the run's */
  int timeline_columns;     /* 1: the shown rank's events carry no "components";
                            ** its "event_components" holds one array per
                            ** component, its bytes at each event, and
                            ** "event_steps" each event's step */
} memest_view_options;

/* memest_estimate(p with its timeline off), with the suggestions only if
** asked for, the shown rank's timeline and (every_rank) every rank's peak
** in the same result. */
memest_code memest_estimate_view(const char *config, size_t config_len,
                                 const memest_params *p, const memest_view_options *o,
                                 memest_result **out, memest_error *err);

void memest_result_free(memest_result *r);

/* Headline figures of a result. */
typedef enum memest_status { MEMEST_FITS_OK = 0, MEMEST_FITS_TIGHT = 1, MEMEST_FITS_OOM = 2 } memest_status;
memest_status memest_result_status(const memest_result *r);
/* "OK", "TIGHT" or "OOM"; NULL for a value out of range. */
const char *memest_status_name(memest_status s);
/* A run that fits with headroom below this percentage of the capacity is
** MEMEST_FITS_TIGHT. */
int memest_tight_percent(void);
uint64_t memest_result_peak_bytes(const memest_result *r);         /* grand total, worst rank */
uint64_t memest_result_tensor_peak_bytes(const memest_result *r);  /* PyTorch tensors, max over ranks */
uint64_t memest_result_capacity_bytes(const memest_result *r);
int64_t memest_result_headroom_bytes(const memest_result *r);
int memest_result_worst_rank(const memest_result *r);
/* With one pipeline rank asked for (pp_rank >= 0) the headline figures
** above are still the run's, its worst rank's (every rank is replayed for
** them, without a timeline); the rank's own are the report's "shown_rank".
** memest_result_shown_rank: that rank, or -1. memest_result_run_known: 0
** only when replaying every rank would exceed MEMEST_MAX_REPLAY_CHUNKS;
** then the headline figures are the shown rank's alone. The tensor peak
** (memest_result_tensor_peak_bytes) is always the simulated ranks'. */
int memest_result_shown_rank(const memest_result *r);
int memest_result_run_known(const memest_result *r);

/* The time model (docs/time-model.md): the step's seconds (the slowest
** rank, step end and optimizer included) and tokens per second for the
** whole job (global batch x sequence / step seconds), as the trainer logs
** them; -1 when the time is not estimated (no --gpu preset names the GPU's
** speed; the JSON's "time_note" says so). */
double memest_result_step_seconds(const memest_result *r);
double memest_result_tokens_per_second(const memest_result *r);

/* The routing a result was estimated with, and the margin it leaves: the
** largest routing factor (busiest rank's routed rows over the uniform m*k)
** at which the layout still fits (OK or TIGHT), found by re-estimating. */
typedef struct memest_routing_info {
  int applies;          /* 0 when ep = 1: every expert is local, no routing */
  memest_routing mode;
  double factor;        /* the factor the estimate used (balanced: its exact one) */
  double cap;           /* min(ep, E/k): every peer's token routed to this rank */
  int has_margin;       /* 0: OOM even with balanced routing, or ep = 1 */
  double margin;        /* the largest factor that fits, to 0.1% */
  int margin_is_limit;  /* 1: the layout fits even at the cap */
} memest_routing_info;

void memest_result_routing(const memest_result *r, memest_routing_info *out);

/* Grand-total peaks of `p`'s run at each of n routing factors (the mode
** FACTOR, each within 1..cap), for a chart of peak against routing factor.
** The config is parsed once. Returns MEMEST_OK, or the first estimate's
** error. */
memest_code memest_routing_peaks(const char *config, size_t config_len, const memest_params *p,
                                 const double *factors, int n, uint64_t *peaks,
                                 memest_error *err);

/* The memory components of a result, in the order of its JSON keys: the
** key ("master_params") and the label the reports print ("fp32 master
** weights (sharded)"). NULL for i out of range. */
int memest_component_count(void);
const char *memest_component_key(int i);
const char *memest_component_title(int i);
/* "static" (lives the whole step) or "dynamic" (comes and goes with the
** schedule): the object of a rank's JSON that holds component i. */
const char *memest_component_group(int i);

/* The result as one JSON object (the CLI's --json) or as the CLI's text
** report. The string is allocated; free it with memest_free(). NULL when
** out of memory. */
char *memest_result_json(const memest_result *r);
char *memest_result_text(const memest_result *r);

void memest_free(void *ptr);
/* }====================================================================== */

/* {======================================================================
** The trainer's own files (docs/trainer-files.md): a launch script with the
** modules it imports, the launch(cfg=...) line of its log, and a W&B run's
** files. Each reader fills one memest_trainer_run: the inputs it found and
** where each came from, the fields read and ignored, warnings, the run's
** regime and trainer commit. Every reader goes through one table from the
** trainer's fields to memest's inputs. Nothing is run, imported or opened:
** a script's imports are asked of the caller (memest_module_finder), and
** a path the run names is resolved by the caller.
** ======================================================================= */
typedef struct memest_trainer_run memest_trainer_run;

typedef enum memest_source_kind {
  MEMEST_SOURCE_FLAGS = 0,   /* the command line (or the page's fields) only */
  MEMEST_SOURCE_SCRIPT,      /* a launch script */
  MEMEST_SOURCE_LOG,         /* the launch line of the trainer's log */
  MEMEST_SOURCE_WANDB,       /* a W&B run */
  MEMEST_SOURCE_CFG          /* a live config object, read field by field (memest_cfg_run_new) */
} memest_source_kind;

/* "flags", "script", "log", "wandb", "cfg"; NULL out of range. */
const char *memest_source_kind_name(memest_source_kind k);

/* Finds module `name` ("setup", "pkg.mod"; leading dots for a relative
** import) that a script being read imports, as Python would find it. On
** success sets *text and *len (valid until the reader returns) and *label
** (the file as the report names it, valid as long) and returns 1. Returns 0
** when there is no such module, with err->message saying where it looked;
** -1 when the file was found but cannot be read, with err filled. */
typedef int (*memest_module_finder)(void *ctx, const char *name, const char **text, size_t *len,
                                    const char **label, memest_error *err);

/* Reads a launch script of `len` bytes, named `label` (its path: the name
** of its folder gives the GPU and GPU count when it is of the trainer's
** benchmark form "h100-4n8g"). It is never run: module-level assignments
** of literals, Path(...), builder names and partial(builder, ...) to
** cfg.<section>.<field> or to an alias of a section are read; imports are
** followed through `find` (may be NULL: no module is found); blocks that
** set no memory field and `if __name__ == "__main__":` blocks of imported
** modules are skipped. A memory field set in any other way is recorded as
** refused (memest_trainer_run_apply reports it unless a flag gives the
** input). Errors: MEMEST_E_VALUE (what Python would refuse, with
** file:line), MEMEST_E_LIMIT, MEMEST_E_IO (from find), MEMEST_E_NOMEM. */
memest_code memest_script_read(const char *text, size_t len, const char *label,
                               memest_module_finder find, void *ctx,
                               memest_trainer_run **out, memest_error *err);

/* Reads the trainer's log for its launch line, "launch(cfg=PretrainLMCfg(
** ...))", Python's dataclass repr: the inputs of the last such line (a log
** with several is a restarted run), how the run began (the checkpoint
** lines after it), and where the steps after it begin
** (memest_trainer_run_steps). MEMEST_E_VALUE when no line has it or the
** repr cannot be read (with the line). */
memest_code memest_launch_log_read(const char *text, size_t len, const char *label,
                                   memest_trainer_run **out, memest_error *err);
/* Where a log's steps after its last launch line begin: the byte offset and
** the 1-based line number there (0 and 1 for other runs). */
void memest_trainer_run_steps(const memest_trainer_run *run, size_t *offset, int64_t *line);

/* A W&B run's files, each NULL when missing (a crashed or offline run
** lacks config.yaml and wandb-summary.json). dir names the run in messages. */
typedef struct memest_wandb_files {
  const char *dir;
  const char *config_yaml;    size_t config_len;    /* files/config.yaml */
  const char *metadata_json;  size_t metadata_len;  /* files/wandb-metadata.json */
  const char *summary_json;   size_t summary_len;   /* files/wandb-summary.json */
} memest_wandb_files;

/* Reads a W&B run: the distributed and training sections of config.yaml
** (both forms: value: only, and the older wandb_version: 1 with desc:),
** the GPU at the capacity its driver reports, the GPUs per node, the node
** count where the metadata gives one (slurm.nnodes, or the program's
** benchmark folder), the trainer commit (git.commit) and the last step's
** peak from the summary. MEMEST_E_VALUE for a file that is not what W&B
** writes, with its line; MEMEST_E_MISSING when neither config.yaml nor the
** metadata is given. */
memest_code memest_wandb_read(const memest_wandb_files *files, memest_trainer_run **out,
                              memest_error *err);
/* The last step's peak-gpu-memory (GiB) in wandb-summary.json and its
** 1-based step; -1 when the summary has none. */
double memest_trainer_run_summary_gib(const memest_trainer_run *run, int64_t *step);

/* A run record for inputs from flags only, to carry a trainer commit. */
memest_trainer_run *memest_trainer_run_new(memest_source_kind kind);
void memest_trainer_run_free(memest_trainer_run *run);
memest_source_kind memest_trainer_run_kind(const memest_trainer_run *run);
/* A copy of run, for a caller that applies one record to several
** estimates (applying marks overrides and the model's resolution); NULL
** when out of memory. */
memest_trainer_run *memest_trainer_run_copy(const memest_trainer_run *run);

/* {== The trainer's config fields: the one table every reader takes a
** field through (core/trainer/trainer_fields.c), row by row. */
typedef struct memest_trainer_field_info {
  const char *section;      /* "distributed", "training" */
  const char *name;         /* "pipeline_parallel_size" */
  const char *since;        /* the trainer commit that added it, or NULL */
  const char *until;        /* the commit that removed it, or NULL (current) */
  const char *conversion;   /* "int", "sharding", "model", "optimizer", "fp8", "fp8-string",
                               "benchmark", "save-location", "root-hint" or "ignore" */
  const char *input;        /* the memest input it gives ("pp_size"), or NULL */
  const char *default_text; /* the trainer's default as memest takes it, or NULL */
  const char *note;         /* why it matters or changes no memory, and its history */
} memest_trainer_field_info;

int memest_trainer_field_count(void);
/* Row i into *out; 0 when i is out of range. */
int memest_trainer_field_describe(int i, memest_trainer_field_info *out);

/* A live config object (the trainer's PretrainLMCfg, in the interpreter
** that runs it) read field by field: the front end hands each field's
** value as one of these kinds, and every field goes through the table as
** the file readers' do. */
typedef enum memest_value_kind {
  MEMEST_VALUE_UNSET = 0,   /* a field with no value (a required field never set) */
  MEMEST_VALUE_NONE,        /* None */
  MEMEST_VALUE_BOOL,        /* i: 0 or 1 */
  MEMEST_VALUE_INT,         /* i */
  MEMEST_VALUE_FLOAT,       /* f */
  MEMEST_VALUE_STR,         /* text: UTF-8 */
  MEMEST_VALUE_PATH,        /* text: a path object's text */
  MEMEST_VALUE_FUNC,        /* text: a function's name (a builder) */
  MEMEST_VALUE_PARTIAL,     /* text: the wrapped function's name; args: its arguments as shown */
  MEMEST_VALUE_TIMEDELTA,   /* f: seconds */
  MEMEST_VALUE_OBJECT,      /* text: the class of a config object */
  MEMEST_VALUE_OTHER        /* text: what it is (its repr): a value memest does not read */
} memest_value_kind;

typedef struct memest_value {
  memest_value_kind kind;
  int64_t i;
  double f;
  const char *text;         /* NULL or "" when the kind has none */
  size_t text_len;          /* its bytes (a NUL inside is refused) */
  const char *args;         /* NULL or "" */
} memest_value;

/* A run record of kind MEMEST_SOURCE_CFG: `label` names where the object
** was handed over (a script, or the caller's file) and `line` its line
** (0: none). NULL when out of memory. */
memest_trainer_run *memest_cfg_run_new(const char *label, int line);
/* Field section.name of the object (section "" for a field of the object
** itself) takes value v through the table: an input, the regime, read and
** ignored, a warning for a field memest does not know, or a refusal of a
** value memest cannot read (reported when the input is applied). */
void memest_cfg_run_field(memest_trainer_run *run, const char *section, const char *name,
                          const memest_value *v);
/* After the last field: the trainer's defaults of the fields left unset,
** and (complete: every field of the object's classes was handed) the
** trainer versions its fields fit. */
void memest_cfg_run_finish(memest_trainer_run *run, int complete);
/* }== */

/* training.model as the run names it: the text, NULL when the run does not
** name one; *is_path 1 for a Path, 0 for a string (a hub id), -1 when the
** file cannot tell (W&B writes both as strings). */
const char *memest_trainer_run_model(const memest_trainer_run *run, int *is_path);
/* Where the run's trainer root was (memory_profile_output, W&B's root), or
** NULL: a place to resolve relative paths against. */
const char *memest_trainer_run_root_hint(const memest_trainer_run *run);
/* The front end's resolution of training.model: the file or preset it
** names and how it was found ("./examples/...", "preset named by the
** folder"). The model input becomes `resolved`. */
memest_code memest_trainer_run_resolve_model(memest_trainer_run *run, const char *resolved,
                                             const char *how, memest_error *err);
/* The preset a path of the trainer's own configs names when the file is
** not at hand: examples/pretrain_lm/<preset>/config.json or
** benchmarks/pretraining/<preset>/model.json, a preset's name; else NULL. */
const char *memest_trainer_model_preset(const char *path);
/* A save_location that the front end looked into: found 1 when a
** checkpoint (torch-dcp/step-*) is there, so the run loads it; 0 when none,
** so it starts from scratch. */
void memest_trainer_run_checkpoint_seen(memest_trainer_run *run, int found, const char *where);
/* The save_location of a run that loads its latest checkpoint there if it
** finds one (the front end may look: memest_trainer_run_checkpoint_seen),
** else NULL. */
const char *memest_trainer_run_checkpoint(const memest_trainer_run *run);
/* The GPU and GPU count from a folder named like the trainer's benchmark
** folders ("h100-4n8g"), as for a script's folder; 0 when the name is not
** of that form. */
int memest_trainer_run_folder(memest_trainer_run *run, const char *folder, const char *label);

/* The trainer commit the run used: a hash or a prefix of at least 7 hex
** digits, matched against memest's list of the trainer's commits
** (MEMEST_E_VALUE when the prefix is ambiguous or not hex; a hash not in
** the list is kept and named as unknown). `from` says where it was named. */
memest_code memest_trainer_run_set_commit(memest_trainer_run *run, const char *commit,
                                          const char *from, memest_error *err);

/* Sets each input the run read into p, unless p was given it already (a
** flag on the command line wins; the run records the override). Errors
** name the file and line: a value memest refuses, or an input the file
** sets in a way memest cannot read (MEMEST_E_VALUE, the flag to give). */
memest_code memest_trainer_run_apply(memest_trainer_run *run, memest_params *p,
                                     memest_error *err);

/* {kind, files, read: {input: "file:line"}, overridden, values, model,
** ignored, warnings, notes, trainer_commit, regime}: the run's source object
** (docs/result-json.md) without a layout, for the page. Free with
** memest_free(); NULL when out of memory. */
char *memest_trainer_run_json(const memest_trainer_run *run);
/* The same as the lines a text report begins with. Free with memest_free(). */
char *memest_trainer_run_text(const memest_trainer_run *run);

/* Attaches the run's source to a result or a check: their JSON gains
** "source" with the differences older trainer commits make at this layout,
** and their text its lines. Without one, "source" is {"kind": "flags"}. */
memest_code memest_result_set_source(memest_result *r, const memest_trainer_run *run,
                                     memest_error *err);
/* }====================================================================== */

/* {======================================================================
** Planning: sweeps over layouts, minimum sizes and comparisons
**
** A plan runs many estimates of one model (its config parsed once) and
** answers one planning question (docs/planner.md):
**   MEMEST_PLAN_LAYOUTS  every valid (pp, ep, cp, dp, mbs) for the GPUs,
**                        ranked by the objective (tokens/s or headroom), each with its pipeline bubble;
**                        the invalid ones are counted by reason;
**   MEMEST_PLAN_VARY     each value of one input with its peak and status,
**                        and the smallest OK one (the largest for mbs, seq
**                        and gbs, where more costs memory);
**   MEMEST_PLAN_COMPARE  two or more configurations side by side, with the
**                        per-component deltas against the first.
** Every row's peak_bytes equals memest_estimate() of memest_plan_row_params().
** ======================================================================= */
typedef struct memest_plan memest_plan;

#define MEMEST_PLAN_VALUES 64   /* values in one comma list */
#define MEMEST_PLAN_TEXT 256    /* characters of one option's comma list */

/* A list of values; n == 0 means "not given": plan enumerates every valid
** value (pp 1..layers/2, ep the divisors of the expert count up to 32, cp
** the powers of two the architecture and sequence allow, mbs 1,2,4). */
typedef struct memest_plan_list {
  int n;
  int64_t v[MEMEST_PLAN_VALUES];
} memest_plan_list;

typedef enum memest_plan_mode {
  MEMEST_PLAN_LAYOUTS = 0,  /* rank every valid layout by headroom */
  MEMEST_PLAN_VARY = 1,     /* the smallest value of one input that is OK */
  MEMEST_PLAN_COMPARE = 2   /* side by side, with per-component deltas */
} memest_plan_mode;

/* What a plan does with a layout whose expert-parallel group spans nodes
** (with gpus_per_node given): the trainer's all-to-all then crosses the
** network. AVOID marks it and ranks it after the layouts of its status
** that keep EP inside a node, so it answers only when none of them does;
** ALLOW marks it and ranks it by its figures alone (docs/planner.md). */
typedef enum memest_ep_nodes {
  MEMEST_EP_NODES_AVOID = 0,
  MEMEST_EP_NODES_ALLOW = 1
} memest_ep_nodes;

/* What a plan of layouts and a compare answer with among the rows that
** qualify (docs/planner.md "Objective"): THROUGHPUT the most tokens/s of
** the time model, then the most headroom (the most headroom alone, said in
** the report, when the GPU has no time model); HEADROOM the most headroom.
** A vary plan answers its smallest or largest OK value either way. */
typedef enum memest_plan_objective {
  MEMEST_OBJECTIVE_THROUGHPUT = 0,
  MEMEST_OBJECTIVE_HEADROOM = 1
} memest_plan_objective;

typedef struct memest_plan_request {
  memest_plan_mode mode;
  memest_params base;          /* model, GPU and options, one value each */
  memest_plan_list pp, ep, cp, dp, total_gpus, nodes, mbs, gbs, seq;
  int64_t gpus_per_node;       /* 0: not given; else GPUs come in whole nodes */
  char vary[24];               /* MEMEST_PLAN_VARY: "pp_size", "nodes", ... */
  int64_t top;                 /* rows the text report shows; 0 = all */
  double min_routing_margin;   /* 0: none; else keep rows whose routing margin reaches it */
  memest_ep_nodes ep_across_nodes;   /* AVOID unless "ep_across_nodes" says allow */
  int ep_across_nodes_given;   /* 1: set by name (then gpus_per_node is needed) */
  memest_plan_objective objective;   /* THROUGHPUT unless "objective" says headroom */
  /* An option given as a comma list ("adamw,muon"), by memest_param_id;
  ** "" where it has one value (in base). */
  char option_lists[MEMEST_P_COUNT][MEMEST_PLAN_TEXT];
} memest_plan_request;

/* Empties a request for `mode`; "vary" later turns LAYOUTS into VARY. */
void memest_plan_request_init(memest_plan_request *req, memest_plan_mode mode);

/* Sets input `name` from `value`, mirroring memest_params_set(): the name is
** a CLI flag ("--pp-size") or its snake_case form ("pp_size"), plus "dp",
** "nodes", "gpus_per_node", "vary", "top", "min_routing_margin", "ep_across_nodes"
** ("avoid" | "allow") and "objective" ("throughput" | "headroom"); numeric values may be comma
** lists ("1,2,4"), each item checked as a single estimate checks it.
** Returns MEMEST_OK or MEMEST_E_UNKNOWN / MEMEST_E_VALUE / MEMEST_E_LIMIT. */
memest_code memest_plan_request_set(memest_plan_request *req, const char *name,
                                    const char *value, memest_error *err);

/* Runs the plan on `config` (NULL: the preset named req->base.model). On
** success *out owns a plan to free with memest_plan_free(). MEMEST_E_MISSING
** lists every missing input; MEMEST_E_LIMIT when the sweep would try more
** than MEMEST_MAX_PLAN_ROWS combinations or simulate more than
** MEMEST_MAX_PLAN_WORK rank-micro-batches (the message says how to narrow). */
memest_code memest_plan_run(const char *config, size_t config_len,
                            const memest_plan_request *req, memest_plan **out,
                            memest_error *err);

/* A plan in pieces, for a caller that shows progress or may stop between
** them (the page's worker). memest_plan_begin() takes what memest_plan_run()
** takes and gives every error the whole plan gives up front (missing
** inputs, bad values, MEMEST_MAX_PLAN_ROWS, MEMEST_MAX_PLAN_WORK): it parses
** the config and checks every combination, leaving memest_plan_row_count()
** rows, the valid ones still to estimate. memest_plan_estimate_rows()
** estimates rows [from, to), any cut in any order; MEMEST_E_VALUE for a
** range outside the rows. memest_plan_finish() estimates any row still
** left, drops the rows whose estimate failed (a compare stops with the
** problem), sorts the rows and chooses the answer; the rows and the answer
** are the same however the rows were cut. memest_plan_run() is begin then
** finish. A plan that is not finished has no answer (-1) and no JSON or
** text (NULL); free it with memest_plan_free() to stop early. */
memest_code memest_plan_begin(const char *config, size_t config_len,
                              const memest_plan_request *req, memest_plan **out,
                              memest_error *err);
memest_code memest_plan_estimate_rows(memest_plan *plan, int from, int to, memest_error *err);
memest_code memest_plan_finish(memest_plan *plan, memest_error *err);

/* The plan as one JSON object {rows, answer, invalid, ...} or as the CLI's
** text report. Free the string with memest_free(); NULL when out of memory
** or when the plan is not finished. */
char *memest_plan_json(const memest_plan *plan);
char *memest_plan_text(const memest_plan *plan);

/* Rows in the plan (estimated ones, plus the invalid tried values of a
** MEMEST_PLAN_VARY plan; before memest_plan_finish() also the ones to
** estimate), and the answer's row index (-1: none). */
int memest_plan_row_count(const memest_plan *plan);
int memest_plan_answer(const memest_plan *plan);
/* Row i's inputs as one estimate's parameters; MEMEST_E_VALUE if i is out of
** range. */
memest_code memest_plan_row_params(const memest_plan *plan, int i, memest_params *p,
                                   memest_error *err);

/* Row i's verdict (a memest_status), or -1 for a row that was not
** estimated (an invalid value tried, a failed estimate) or out of range. */
int memest_plan_row_status(const memest_plan *plan, int i);

/* As memest_trainer_run_apply, into a plan request: each input the
** request was not given. A plan of layouts leaves pp, ep, cp and
** micro_batch_size to its sweep (and a vary plan its one input); GPUs given
** as --nodes or --dp leave the total to them. */
memest_code memest_trainer_run_apply_plan(memest_trainer_run *run, memest_plan_request *req,
                                          memest_error *err);

void memest_plan_free(memest_plan *plan);
/* }====================================================================== */

/* {======================================================================
** Measured runs: the trainer's memory snapshots and its log, read beside
** an estimate (docs/measured-runs.md).
**
** A snapshot is the pickle torch.cuda.memory._dump_snapshot() writes (the
** trainer's snapshot-rankNNNNN.pickle). It is read by a restricted
** unpickler that accepts only dicts, lists, tuples, str, int, float, bool,
** None and the memo, and never imports or calls anything. Allocated bytes
** are rebuilt over the recorded window from the final segments' blocks and
** the trace walked backwards; they rise at "alloc" and fall at
** "free_requested", as the caching allocator's allocated_bytes (the figure
** behind torch.cuda.max_memory_allocated()) does.
** ======================================================================= */
typedef struct memest_snapshot memest_snapshot;

#define MEMEST_SNAPSHOT_FRAMES 3      /* top frames kept per allocation */
#define MEMEST_SNAPSHOT_TOP 10        /* largest allocations and sites kept */
#define MEMEST_SNAPSHOT_SITE 160      /* characters of one frame */

typedef struct memest_snapshot_alloc {
  uint64_t bytes;            /* counted in allocated bytes: the block's size */
  uint64_t requested_bytes;  /* what the caller asked for */
  uint64_t address;
  int64_t time_us;           /* when allocated; -1: before the recording */
  int before_recording;      /* 1: allocated before the window began */
  int frames;                /* frames in site[] */
  char site[MEMEST_SNAPSHOT_FRAMES][MEMEST_SNAPSHOT_SITE];  /* innermost first */
} memest_snapshot_alloc;

typedef struct memest_snapshot_site {
  uint64_t bytes;            /* live at the peak, allocated from this frame */
  int64_t count;
  char site[MEMEST_SNAPSHOT_SITE];
} memest_snapshot_site;

typedef struct memest_snapshot_summary {
  int device;                     /* the CUDA device read */
  int devices_with_data;          /* devices with segments or a trace */
  int64_t events;                 /* trace entries of that device */
  int64_t segments, blocks;
  uint64_t peak_allocated_bytes;  /* max allocated over the window */
  int64_t peak_event;             /* trace index after which it holds; -1: at the start */
  int64_t peak_time_us;           /* -1 when the trace has no times */
  int64_t start_time_us, end_time_us;
  uint64_t start_allocated_bytes; /* allocated before the first trace entry */
  uint64_t end_allocated_bytes;   /* active_allocated blocks at the snapshot */
  uint64_t end_reserved_bytes;    /* segments at the snapshot */
  uint64_t peak_reserved_bytes;   /* max reserved over the window */
  double fragmentation;           /* peak_reserved / peak_allocated - 1, >= 0 */
  int64_t inconsistent;           /* entries that did not match (0 for a whole trace) */
} memest_snapshot_summary;

/* Reads a snapshot pickle of `len` bytes. `data` is only read during the
** call. On success *out owns a snapshot to free with memest_snapshot_free().
** Errors: MEMEST_E_UNSUPPORTED (an opcode outside the accepted set, named),
** MEMEST_E_VALUE (malformed, truncated, or not a snapshot), MEMEST_E_LIMIT
** (docs/limits.md), MEMEST_E_NOMEM. */
memest_code memest_snapshot_read(const void *data, size_t len, memest_snapshot **out,
                                 memest_error *err);
void memest_snapshot_free(memest_snapshot *s);
const memest_snapshot_summary *memest_snapshot_summary_of(const memest_snapshot *s);
/* The largest allocations live at the peak, largest first. */
int memest_snapshot_top_count(const memest_snapshot *s);
const memest_snapshot_alloc *memest_snapshot_top(const memest_snapshot *s, int i);
/* Live bytes at the peak by allocation site (the innermost frame outside
** torch's own files), largest first. */
int memest_snapshot_site_count(const memest_snapshot *s);
const memest_snapshot_site *memest_snapshot_site_at(const memest_snapshot *s, int i);
/* The allocated-bytes curve reduced to at most `points` points, each the
** maximum of its stretch of the trace (the peak is always one of them):
** writes t_us[] (the trace's time, or the entry index where it has none)
** and bytes[], and returns the count. */
int memest_snapshot_curve(const memest_snapshot *s, int points, int64_t *t_us, uint64_t *bytes);
/* The snapshot as one JSON object (summary, top, sites, curve of at most
** `points` points). Free with memest_free(); NULL when out of memory. */
char *memest_snapshot_json(const memest_snapshot *s, int points);

/* The global rank in a trainer's snapshot name ("snapshot-rank00012.pickle"
** gives 12); -1 when the name has none. */
int64_t memest_snapshot_rank_of_name(const char *name);
/* The pipeline rank of global rank `rank` on the trainer's row-major
** ("pp", "dp", "cp", "ep") mesh: rank / (total_gpus / pp_size). -1 when the
** rank is outside 0..total_gpus-1 or pp_size does not divide total_gpus. */
int64_t memest_pp_rank_of(int64_t rank, int64_t pp_size, int64_t total_gpus);

/* The trainer's log: every "peak-gpu-memory X GB" (GiB: max_memory_allocated
** / 2^30, all-reduced with MAX over ranks) with the step of its line. A
** reading that is not a measurement (not a positive decimal number in GB,
** or off its step line) is refused, kept as a note with its line, and never
** compared (docs/measured-runs.md). */
typedef struct memest_runlog memest_runlog;
typedef struct memest_runlog_summary {
  int64_t steps;                /* readings that are measurements */
  int64_t first_step, last_step;
  double max_gib;               /* the largest figure */
  int64_t max_step;
  double steady_gib;            /* the largest after each run's first step (or the only one) */
  int64_t steady_from;          /* the first step of the steady state */
  uint64_t compared_bytes;      /* steady_gib * 2^30: what check compares */
  int64_t refused;              /* readings that are not measurements: never compared */
  int64_t restarts;             /* steps not after the one before: a new run in the log */
  int numbered;                 /* 1: no reading has a step; they are counted 1, 2, ... */
} memest_runlog_summary;

/* A line of the log the reports name: a refused reading, or a restart. */
typedef struct memest_runlog_note {
  int64_t line;                 /* from 1; LF, CRLF and a lone CR each end a line */
  int restart;                  /* 1: a restart; 0: a refused reading */
  int64_t step, after;          /* a restart: its step, and the step before it */
  char value[48];               /* a refused reading: its value as written (printable ASCII) */
  char unit[16];                /*   its unit as written */
  const char *why;              /*   why it is no measurement */
} memest_runlog_note;
#define MEMEST_RUNLOG_NOTES 32  /* notes kept of each kind, the first in the log */

/* Reads log text of `len` bytes. MEMEST_E_VALUE when no reading is a
** measurement (the message names the first refused line). */
memest_code memest_runlog_read(const char *text, size_t len, memest_runlog **out,
                               memest_error *err);
/* memest_runlog_read of the part of a log that begins at its line
** `first_line` (the steps after its last launch line): messages and steps
** name the whole log's lines. */
memest_code memest_runlog_read_from(const char *text, size_t len, int64_t first_line,
                                    memest_runlog **out, memest_error *err);
void memest_runlog_free(memest_runlog *log);
const memest_runlog_summary *memest_runlog_summary_of(const memest_runlog *log);
/* Step i's number as the log prints it (1-based) and its figure in GiB. */
int64_t memest_runlog_step(const memest_runlog *log, int64_t i, double *gib);
/* The notes kept, in the order of their lines, and one as the reports
** print it ("line 3: peak-gpu-memory 0.00 GB is zero, ..."); returns buf. */
int memest_runlog_note_count(const memest_runlog *log);
const memest_runlog_note *memest_runlog_note_at(const memest_runlog *log, int i);
char *memest_runlog_note_text(const memest_runlog_note *note, char *buf, size_t size);
/* {steps:[{step, gib}], summary..., refused:[...], restarts:[...]}; free
** with memest_free(). */
char *memest_runlog_json(const memest_runlog *log);

/* One measured-against-estimated comparison (`memest check`). */
typedef struct memest_check memest_check;
typedef struct memest_check_input {
  const char *source;              /* the file name, shown as is */
  int64_t global_rank;             /* from the name, or given */
  const memest_snapshot *snapshot;
} memest_check_input;

/* Estimates each pipeline rank the snapshots come from (their tensor peak,
** like for like with max_memory_allocated) and puts them beside the
** measured peaks; `log` (may be NULL) adds the logged figure to the max.
** At least one snapshot or a log; the snapshots and the log must outlive
** the check. */
memest_code memest_check_run(const char *config, size_t config_len, const memest_params *p,
                             const memest_check_input *inputs, int n,
                             const memest_runlog *log, memest_check **out, memest_error *err);
void memest_check_free(memest_check *c);
/* {"ranks": [...], "max": {...}, ...} (docs/result-json.md) or the text
** report; free with memest_free(). */
char *memest_check_json(const memest_check *c);
char *memest_check_text(const memest_check *c);
/* The run's source in the check's JSON and text (as memest_result_set_source). */
memest_code memest_check_set_source(memest_check *c, const memest_trainer_run *run,
                                    memest_error *err);
/* The estimate the check compared against (every rank), owned by c. */
const memest_result *memest_check_estimate(const memest_check *c);

/* The step time of a check: the W&B summary's, and the comparison's error. */
/* The last step's step time (s) and tokens/s in wandb-summary.json
** (infra/step-time, infra/tokens-per-second); -1 each when none. */
void memest_trainer_run_summary_time(const memest_trainer_run *run, double *step_seconds,
                                     double *tokens_per_second);
/* The check's step-time comparison: 1 with (estimated - logged) / logged in
** *error when the log and the estimate both have a step time; 0 with why
** not in *note (owned by c). */
int memest_check_step_time_error(const memest_check *c, double *error, const char **note);
/* }====================================================================== */

#ifdef __cplusplus
}
#endif

#endif /* MEMEST_H */
